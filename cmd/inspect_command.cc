// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge inspect MODEL [--json]
#include <cstdio>
#include <iostream>
#include <memory>

#include "base/file_io.h"
#include "cmd/cli_flags.h"
#include "cmd/command.h"
#include "cmd/model_summary.h"
#include "formats/tflite_reader.h"

namespace qforge::cmd {
namespace {

struct InspectArgs {
  std::string model;
  bool json = false;
};

absl::Status RunInspect(const InspectArgs& args) {
  absl::StatusOr<std::vector<uint8_t>> bytes = ReadFileBytes(args.model);
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<ir::Model> model = formats::ParseTflite(*bytes, args.model);
  if (!model.ok()) return model.status();
  const nlohmann::ordered_json summary =
      SummarizeModel(*model, args.model, bytes->size());
  if (args.json) {
    // Every string is valid UTF-8 already (model_summary.cc); replacing
    // keeps a missed one from aborting.
    std::cout << summary.dump(2, ' ', false,
                              nlohmann::ordered_json::error_handler_t::replace)
              << "\n";
  } else {
    std::cout << RenderSummaryText(summary);
  }
  return absl::OkStatus();
}

}  // namespace

void RegisterInspect(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<InspectArgs>();
  CLI::App* sub = app.add_subcommand(
      "inspect",
      "Show a model's inputs, outputs, ops, tensors and quantization");
  sub->add_option("model", args->model, "The .tflite model")->required();
  sub->add_flag("--json", args->json,
                "Print JSON (schema: docs/inspect-json.md)");
  SetExample(sub, "qforge inspect model.tflite --json > model.json");
  sub->callback([args, &ctx]() { ctx.status = RunInspect(*args); });
}

}  // namespace qforge::cmd

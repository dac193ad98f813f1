// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge copy MODEL -o OUT: read -> IR -> write, a normalising round trip.
#include <memory>

#include "cmd/cli_flags.h"
#include "cmd/command.h"
#include "formats/tflite_reader.h"
#include "formats/tflite_writer.h"

namespace qforge::cmd {
namespace {

struct CopyArgs {
  std::string model;
  std::string output;
};

absl::Status RunCopy(const CopyArgs& args) {
  absl::StatusOr<ir::Model> model = formats::ReadTfliteFile(args.model);
  if (!model.ok()) return model.status();
  const std::string inputs[] = {args.model};
  return formats::WriteTfliteFile(*model, args.output, {}, inputs);
}

}  // namespace

void RegisterCopy(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<CopyArgs>();
  CLI::App* sub = app.add_subcommand(
      "copy", "Read a model and write it back (normalising round trip)");
  sub->add_option("model", args->model, "The .tflite model")->required();
  sub->add_option("-o,--output", args->output, "Where to write the copy")
      ->required();
  SetExample(sub, "qforge copy model.tflite -o normalized.tflite");
  sub->callback([args, &ctx]() { ctx.status = RunCopy(*args); });
}

}  // namespace qforge::cmd

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge extract MODEL --ops A[:B] -o OUT: ops A..B of subgraph 0 as a model
// of their own (ir/extract.h), to run one layer alone, e.g. the culprit a
// report names, on the values another runtime fed it.
#include <memory>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/exit_codes.h"
#include "cmd/cli_flags.h"
#include "cmd/command.h"
#include "formats/tflite_reader.h"
#include "formats/tflite_writer.h"
#include "ir/extract.h"

namespace qforge::cmd {
namespace {

struct ExtractArgs {
  std::string model;
  std::string ops;
  std::string output;
};

absl::Status RunExtract(const ExtractArgs& args) {
  std::vector<std::string> parts = absl::StrSplit(args.ops, ':');
  int32_t first = 0, last = 0;
  if (parts.size() > 2 || !absl::SimpleAtoi(parts[0], &first) ||
      !absl::SimpleAtoi(parts.back(), &last)) {
    return UsageError(absl::StrCat("--ops ", args.ops,
                                   ": expected an op index K or a range A:B"));
  }
  absl::StatusOr<ir::Model> model = formats::ReadTfliteFile(args.model);
  if (!model.ok()) return model.status();
  absl::StatusOr<ir::Model> cut = ir::ExtractOps(*model, first, last);
  if (!cut.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(args.model, ": ", cut.status().message()));
  }
  formats::WriteOptions options;
  options.drop_unused = true;
  const std::string inputs[] = {args.model};
  return formats::WriteTfliteFile(*cut, args.output, options, inputs);
}

}  // namespace

void RegisterExtract(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<ExtractArgs>();
  CLI::App* sub = app.add_subcommand(
      "extract", "Cut ops A..B of subgraph 0 out into a model of their own");
  sub->add_option("model", args->model, "The .tflite model")->required();
  sub->add_option("--ops", args->ops, "Op index K, or range A:B (inclusive)")
      ->required();
  sub->add_option("-o,--output", args->output, "Where to write the model")
      ->required();
  SetExample(sub, "qforge extract model.tflite --ops 12:14 -o layer12.tflite");
  sub->callback([args, &ctx]() { ctx.status = RunExtract(*args); });
}

}  // namespace qforge::cmd

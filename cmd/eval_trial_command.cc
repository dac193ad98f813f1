// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge eval-trial FLOAT --data SPEC --trials-dir DIR --shard K/N
//                   [--threads N] [--idle-timeout S]
// A worker of quantize --target-sqnr --trials-dir (pipeline/trials.h).
#include <memory>
#include <string>

#include "base/status_macros.h"
#include "cmd/cli_flags.h"
#include "cmd/command.h"
#include "cmd/data_flags.h"
#include "cmd/progress.h"
#include "formats/tflite_reader.h"
#include "pipeline/trials.h"

namespace qforge::cmd {
namespace {

struct EvalTrialArgs {
  std::string model;
  pipeline::DataSpec data;
  std::string shard = "0/1";
  pipeline::TrialWorker worker;
};

absl::Status RunEvalTrial(EvalTrialArgs args, const GlobalFlags& flags) {
  RETURN_IF_ERROR(ParseShard(args.shard, &args.worker.shard_index,
                             &args.worker.shard_count));
  args.worker.numerics = flags.numerics;
  ASSIGN_OR_RETURN(formats::ModelFile file,
                   formats::OpenTfliteFile(args.model));
  return pipeline::ServeTrials(file.model, file.bytes(), args.data, args.worker,
                               StderrHooks(flags.quiet));
}

}  // namespace

void RegisterEvalTrial(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<EvalTrialArgs>();
  CLI::App* sub = app.add_subcommand(
      "eval-trial",
      "Evaluate the trials of quantize --target-sqnr --trials-dir (a worker)");
  sub->add_option("model", args->model,
                  "The float .tflite model quantize was given")
      ->required();
  AddDataFlags(sub, args->data, /*required=*/true);
  sub->add_option("--trials-dir", args->worker.dir,
                  "The folder quantize --trials-dir writes the trials to")
      ->required();
  sub->add_option("--shard", args->shard,
                  "K/N: this worker's shard of every trial's check samples "
                  "(N = quantize's --trial-shards)")
      ->capture_default_str();
  AddThreadsOption(sub, args->worker.threads, "Samples run in parallel");
  sub->add_option("--idle-timeout", args->worker.idle_seconds,
                  "Stop after this many seconds without a new trial")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  SetExample(sub,
             "qforge eval-trial model.tflite --data 'val/*.jpg' --scale "
             "0.003921569 --trials-dir trials --shard 0/4");
  sub->callback(
      [args, &ctx]() { ctx.status = RunEvalTrial(*args, ctx.flags); });
}

}  // namespace qforge::cmd

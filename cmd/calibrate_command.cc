// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge calibrate MODEL --data SPEC -o STATS [--shard K/N] [--threads N]
#include <memory>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "calibration/calibrate.h"
#include "cmd/command.h"
#include "cmd/data_flags.h"
#include "cmd/progress.h"
#include "formats/tflite_reader.h"

namespace qforge::cmd {
namespace {

struct CalibrateArgs {
  std::string model;
  DataFlags data;
  std::string output;
  std::string shard;
  int threads = 0;
  int histogram_stride = calibration::kDefaultHistogramStride;
};

absl::Status ParseShard(const std::string& text, int* index, int* count) {
  std::vector<std::string> parts = absl::StrSplit(text, '/');
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], index) ||
      !absl::SimpleAtoi(parts[1], count) || *count < 1 || *index < 0 ||
      *index >= *count) {
    return absl::InvalidArgumentError(
        absl::StrCat("--shard ", text, ": expected K/N with 0 <= K < N"));
  }
  return absl::OkStatus();
}

absl::Status RunCalibrate(const CalibrateArgs& args, const GlobalFlags& flags) {
  calibration::CalibrateOptions options;
  options.threads = args.threads;
  options.numerics = flags.numerics;
  options.histogram_stride = args.histogram_stride;
  if (!args.shard.empty()) {
    RETURN_IF_ERROR(
        ParseShard(args.shard, &options.shard_index, &options.shard_count));
  }
  ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, ReadFileBytes(args.model));
  ASSIGN_OR_RETURN(ir::Model model, formats::ParseTflite(bytes, args.model));
  ASSIGN_OR_RETURN(formats::SampleSource data, OpenData(args.data, model));
  Progress progress("calibrate", flags.quiet);
  options.progress = [&progress](int64_t done, int64_t total) {
    progress.Update(done, total);
  };
  absl::StatusOr<calibration::StatsFile> stats =
      calibration::Calibrate(model, bytes, data, options);
  if (!stats.ok()) {
    return absl::Status(
        stats.status().code(),
        absl::StrCat(args.model, ": ", stats.status().message()));
  }
  const std::string inputs[] = {args.model};
  return WriteFileAtomic(args.output, calibration::SerializeStats(*stats),
                         inputs);
}

struct MergeArgs {
  std::vector<std::string> inputs;
  std::string output;
};

absl::Status RunMerge(const MergeArgs& args) {
  std::vector<calibration::StatsFile> parts;
  for (const std::string& path : args.inputs) {
    ASSIGN_OR_RETURN(calibration::StatsFile part,
                     calibration::ReadStatsFile(path));
    parts.push_back(std::move(part));
  }
  ASSIGN_OR_RETURN(calibration::StatsFile merged,
                   calibration::MergeStats(parts, args.inputs));
  return WriteFileAtomic(args.output, calibration::SerializeStats(merged),
                         args.inputs);
}

}  // namespace

void RegisterCalibrate(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<CalibrateArgs>();
  CLI::App* sub = app.add_subcommand(
      "calibrate", "Collect activation statistics of a float model over data");
  sub->add_option("model", args->model, "The float .tflite model")->required();
  AddDataFlags(sub, args->data, /*required=*/true);
  sub->add_option("-o,--output", args->output, "The stats file to write")
      ->required();
  sub->add_option(
      "--shard", args->shard,
      "K/N: only samples i with i % N == K (merge with merge-stats)");
  sub->add_option("--threads", args->threads,
                  "Samples run in parallel (default: all cores)");
  sub->add_option("--histogram-stride", args->histogram_stride,
                  "Histogram counts every S-th value (1 = all)")
      ->check(CLI::Range(1, 1024));
  sub->callback(
      [args, &ctx]() { ctx.status = RunCalibrate(*args, ctx.flags); });

  auto merge = std::make_shared<MergeArgs>();
  CLI::App* m = app.add_subcommand("merge-stats",
                                   "Merge stats files of calibration shards");
  m->add_option("stats", merge->inputs, "Stats files")->required();
  m->add_option("-o,--output", merge->output, "The merged stats file")
      ->required();
  m->callback([merge, &ctx]() { ctx.status = RunMerge(*merge); });
}

}  // namespace qforge::cmd

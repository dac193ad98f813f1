// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge calibrate MODEL --data SPEC -o STATS [--shard K/N] [--threads N]
#include <cstdio>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/exit_codes.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "calibration/calibrate.h"
#include "cmd/cli_flags.h"
#include "cmd/command.h"
#include "cmd/data_flags.h"
#include "cmd/progress.h"
#include "formats/tflite_reader.h"
#include "pipeline/float_region.h"

namespace qforge::cmd {
namespace {

struct CalibrateArgs {
  std::string model;
  pipeline::DataSpec data;
  std::string output;
  std::string shard;
  int threads = 0;
  int histogram_stride = calibration::kDefaultHistogramStride;
};

absl::Status RunCalibrate(const CalibrateArgs& args, const GlobalFlags& flags) {
  calibration::CalibrateOptions options;
  options.threads = args.threads;
  options.numerics = flags.numerics;
  options.histogram_stride = args.histogram_stride;
  if (!args.shard.empty()) {
    RETURN_IF_ERROR(
        ParseShard(args.shard, &options.shard_index, &options.shard_count));
  }
  ASSIGN_OR_RETURN(formats::ModelFile file,
                   formats::OpenTfliteFile(args.model));
  const absl::Span<const uint8_t> bytes = file.bytes();
  const ir::Model& model = file.model;
  ASSIGN_OR_RETURN(
      formats::SampleSource data,
      pipeline::OpenData(args.data, model, StderrHooks(flags.quiet)));
  std::vector<std::string> inputs = pipeline::DataInputPaths(args.data, data);
  inputs.push_back(args.model);
  // Checked before the run: an output that cannot be written fails now.
  ASSIGN_OR_RETURN(PendingFile out, PendingFile::Create(args.output, inputs));
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
  if (!flags.quiet) {
    for (const std::string& note : pipeline::UncalibratedNotes(model))
      std::fprintf(stderr, "calibrate: %s\n", note.c_str());
  }
  RETURN_IF_ERROR(out.Write(calibration::SerializeStats(*stats)));
  return out.Commit();
}

struct MergeArgs {
  std::vector<std::string> inputs;
  std::string output;
  bool require_complete = false;
};

absl::Status RunMerge(const MergeArgs& args, const GlobalFlags& flags) {
  std::vector<calibration::StatsFile> parts;
  for (const std::string& path : args.inputs) {
    ASSIGN_OR_RETURN(calibration::StatsFile part,
                     calibration::ReadStatsFile(path));
    parts.push_back(std::move(part));
  }
  ASSIGN_OR_RETURN(calibration::StatsFile merged,
                   calibration::MergeStats(parts, args.inputs));
  if (!calibration::StatsComplete(merged)) {
    // Said now rather than when quantize refuses the file, possibly on
    // another machine much later.
    const calibration::Fingerprint& f = merged.fingerprint;
    std::vector<std::string> missing;
    for (int k = 0, i = 0; k < f.shard_count; ++k) {
      if (i < static_cast<int>(f.shards.size()) && f.shards[i] == k) {
        ++i;
      } else if (missing.size() < 8) {
        missing.push_back(absl::StrCat(k));
      } else {
        missing.back() = "...";
      }
    }
    const std::string what =
        absl::StrCat("merged ", f.shards.size(), " of ", f.shard_count,
                     " shards (missing ", absl::StrJoin(missing, ", "), ")");
    if (args.require_complete) {
      return absl::InvalidArgumentError(
          absl::StrCat(args.output, ": ", what, "; --require-complete"));
    }
    if (!flags.quiet) {
      std::fprintf(stderr,
                   "qforge: note: %s; quantize accepts the file once every "
                   "shard is merged\n",
                   what.c_str());
    }
  }
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
         "K/N: only samples i with i % N == K (merge with merge-stats)")
      ->default_str("all samples");
  AddThreadsOption(sub, args->threads, "Samples run in parallel");
  sub->add_option("--histogram-stride", args->histogram_stride,
                  "Histogram counts every S-th value (1 = all)")
      ->check(CLI::Range(1, calibration::kMaxHistogramStride));
  SetExample(sub,
             "qforge calibrate model.tflite --data 'photos/*.jpg' --scale "
             "0.003921569 --shard 0/8 -o stats.0.json");
  sub->callback(
      [args, &ctx]() { ctx.status = RunCalibrate(*args, ctx.flags); });

  auto merge = std::make_shared<MergeArgs>();
  CLI::App* m = app.add_subcommand("merge-stats",
                                   "Merge stats files of calibration shards");
  m->add_option("stats", merge->inputs, "Stats files")->required();
  m->add_option("-o,--output", merge->output, "The merged stats file")
      ->required();
  m->add_flag("--require-complete", merge->require_complete,
              "Fail (exit 2) unless every shard is merged");
  SetExample(m, "qforge merge-stats stats.*.json -o stats.json");
  m->callback([merge, &ctx]() { ctx.status = RunMerge(*merge, ctx.flags); });
}

}  // namespace qforge::cmd

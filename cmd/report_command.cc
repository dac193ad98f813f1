// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge report FLOAT QUANT --data SPEC [--format text|json|md|html]
//               [-o FILE] [--min-sqnr DB] [--threads N]
//               [--runtime litert|tflm|armnn]
// qforge report FLOAT QUANT --data SPEC --shard K/N -o PARTIAL
// qforge merge-reports PARTIAL... [-o FILE] [--format ...]
//               [--require-complete] [--min-sqnr DB]
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/exit_codes.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "cmd/cli_flags.h"
#include "cmd/command.h"
#include "cmd/data_flags.h"
#include "cmd/progress.h"
#include "formats/tflite_reader.h"
#include "pipeline/report_job.h"
#include "report/partial.h"
#include "report/render.h"
#include "report/report.h"
#include "runtime/profile.h"

namespace qforge::cmd {
namespace {

struct ReportArgs {
  std::string float_model, quant_model;
  pipeline::DataSpec data;
  std::string format;
  std::string output;
  double min_sqnr = -std::numeric_limits<double>::infinity();
  int threads = 0;
  std::string runtime = "litert";
  std::string shard;
  std::vector<std::string> tasks;
  std::string labels;
};

report::Format OutputFormat(const std::string& format,
                            const std::string& output) {
  if (!format.empty()) return *report::ParseFormat(format);  // checked
  if (!output.empty()) return report::FormatForPath(output);
  return report::Format::kText;
}

absl::Status WriteReport(const report::Report& r, report::Format format,
                         std::optional<PendingFile>& out) {
  const std::string text = report::Render(r, format);
  if (!out.has_value()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(out->Write(text));
  return out->Commit();
}

// --shard K/N: the partial report of shard K, for merge-reports.
absl::Status RunReportShard(const ReportArgs& args, const GlobalFlags& flags) {
  int index = 0, count = 1;
  RETURN_IF_ERROR(ParseShard(args.shard, &index, &count));
  if (args.output.empty() || !args.format.empty() ||
      std::isfinite(args.min_sqnr)) {
    return UsageError(
        "report --shard writes a partial report for merge-reports: it needs "
        "-o FILE, and takes no --format or --min-sqnr (merge-reports does)");
  }
  ASSIGN_OR_RETURN(formats::ModelFile float_file,
                   formats::OpenTfliteFile(args.float_model));
  ASSIGN_OR_RETURN(formats::ModelFile quant_file,
                   formats::OpenTfliteFile(args.quant_model));
  pipeline::ReportRun run;
  run.float_label = args.float_model;
  run.quant_label = args.quant_model;
  run.threads = args.threads;
  run.numerics = flags.numerics;
  run.tasks = args.tasks;
  run.labels = args.labels;
  const std::string inputs[] = {args.float_model, args.quant_model,
                                args.labels};
  ASSIGN_OR_RETURN(PendingFile out, PendingFile::Create(args.output, inputs));
  run.outputs.push_back(out.path());
  ASSIGN_OR_RETURN(report::PartialReport partial,
                   pipeline::MakePartialReport(
                       float_file.model, float_file.bytes(), quant_file.model,
                       quant_file.bytes(), args.data, run, index, count,
                       StderrHooks(flags.quiet)));
  RETURN_IF_ERROR(out.Write(report::SerializePartial(partial)));
  return out.Commit();
}

absl::Status RunReport(const ReportArgs& args, const GlobalFlags& flags) {
  if (!args.shard.empty()) return RunReportShard(args, flags);
  const report::Format format = OutputFormat(args.format, args.output);
  ASSIGN_OR_RETURN(ir::Model float_model,
                   formats::ReadTfliteFile(args.float_model));
  ASSIGN_OR_RETURN(ir::Model quant_model,
                   formats::ReadTfliteFile(args.quant_model));
  pipeline::ReportRun run;
  ASSIGN_OR_RETURN(run.runtime_profile, runtime::ParseRuntime(args.runtime));
  run.float_label = args.float_model;
  run.quant_label = args.quant_model;
  run.threads = args.threads;
  run.tasks = args.tasks;
  run.labels = args.labels;
  std::optional<PendingFile> out;
  if (!args.output.empty()) {
    // Before the run: an output that cannot be written fails now (and
    // MakeReport refuses it if it is a data file).
    const std::string inputs[] = {args.float_model, args.quant_model,
                                  args.labels};
    ASSIGN_OR_RETURN(out, PendingFile::Create(args.output, inputs));
  }
  if (out.has_value()) run.outputs.push_back(out->path());
  run.numerics = flags.numerics;
  ASSIGN_OR_RETURN(report::Report r,
                   pipeline::MakeReport(float_model, quant_model, args.data,
                                        run, StderrHooks(flags.quiet)));
  RETURN_IF_ERROR(WriteReport(r, format, out));
  return pipeline::CheckMinSqnr(r, args.min_sqnr);
}

struct MergeReportsArgs {
  std::vector<std::string> inputs;
  std::string format;
  std::string output;
  bool require_complete = false;
  double min_sqnr = -std::numeric_limits<double>::infinity();
  std::string runtime = "litert";
};

absl::Status RunMergeReports(const MergeReportsArgs& args,
                             const GlobalFlags& flags) {
  const report::Format format = OutputFormat(args.format, args.output);
  std::optional<PendingFile> out;
  if (!args.output.empty()) {
    ASSIGN_OR_RETURN(out, PendingFile::Create(args.output, args.inputs));
  }
  ASSIGN_OR_RETURN(const runtime::Runtime profile,
                   runtime::ParseRuntime(args.runtime));
  ASSIGN_OR_RETURN(pipeline::MergedReport merged,
                   pipeline::MergeReports(args.inputs, profile));
  if (!merged.missing.empty()) {
    std::vector<std::string> missing;
    for (int k : merged.missing) {
      if (missing.size() == 8) {
        missing.push_back("...");
        break;
      }
      missing.push_back(absl::StrCat(k));
    }
    const std::string what =
        absl::StrCat("merged ", merged.shard_count - merged.missing.size(),
                     " of ", merged.shard_count, " shards (missing ",
                     absl::StrJoin(missing, ", "), ")");
    if (args.require_complete) {
      return absl::InvalidArgumentError(
          absl::StrCat(args.output.empty() ? "merge-reports" : args.output,
                       ": ", what, "; --require-complete"));
    }
    if (!flags.quiet) {
      std::fprintf(stderr,
                   "qforge: note: %s; the report covers %lld samples only\n",
                   what.c_str(), static_cast<long long>(merged.report.samples));
    }
  }
  RETURN_IF_ERROR(WriteReport(merged.report, format, out));
  return pipeline::CheckMinSqnr(merged.report, args.min_sqnr);
}

// --runtime of report and merge-reports.
void AddRuntimeOption(CLI::App* sub, std::string& runtime) {
  sub->add_option("--runtime", runtime,
                  "Where the quantized model will run, for the report's "
                  "runtime section: litert (estimated LiteRT latency of both "
                  "models, ops off XNNPACK and why), tflm (ops TFLite Micro "
                  "cannot run, ops not integer) or armnn (ops Arm NN 20.08 "
                  "cannot run)")
      ->check(CLI::IsMember({"litert", "tflm", "armnn"}))
      ->capture_default_str();
}

}  // namespace

void RegisterReport(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* sub = app.add_subcommand(
      "report",
      "Compare a quantized model with its float model, layer by layer");
  sub->add_option("float", args->float_model, "The float .tflite model")
      ->required();
  sub->add_option("quant", args->quant_model, "The quantized .tflite model")
      ->required();
  AddDataFlags(sub, args->data, /*required=*/true);
  sub->add_option("--format", args->format,
                  "text|json|md|html (default: from -o's extension, else "
                  "text)")
      ->check(CLI::IsMember({"text", "json", "md", "html"}))
      ->default_str("from -o, else text");
  sub->add_option("-o,--output", args->output,
                  "Write the report here (default: stdout)");
  sub->add_option("--min-sqnr", args->min_sqnr,
                  "Exit 4 when any output's SQNR is below DB")
      ->check(FiniteNumber())
      ->default_str("none");
  AddRuntimeOption(sub, args->runtime);
  AddTaskFlags(sub, args->tasks, args->labels);
  AddThreadsOption(sub, args->threads, "Samples run in parallel");
  sub->add_option("--shard", args->shard,
                  "K/N: only samples i with i % N == K, written to -o as a "
                  "partial report (merge with merge-reports)")
      ->default_str("all samples");
  SetExample(sub,
             "qforge report model.tflite model_int8.tflite --data 'val/*.jpg' "
             "--scale 0.003921569 -o report.html --min-sqnr 25");
  sub->callback([args, &ctx]() { ctx.status = RunReport(*args, ctx.flags); });

  auto merge = std::make_shared<MergeReportsArgs>();
  CLI::App* m = app.add_subcommand(
      "merge-reports",
      "Merge the partial reports of report --shard into the report");
  m->add_option("partials", merge->inputs, "Partial report files")->required();
  m->add_option("--format", merge->format,
                "text|json|md|html (default: from -o's extension, else "
                "text)")
      ->check(CLI::IsMember({"text", "json", "md", "html"}))
      ->default_str("from -o, else text");
  m->add_option("-o,--output", merge->output,
                "Write the report here (default: stdout)");
  m->add_flag("--require-complete", merge->require_complete,
              "Fail (exit 2) unless every shard is merged");
  m->add_option("--min-sqnr", merge->min_sqnr,
                "Exit 4 when any output's SQNR is below DB")
      ->check(FiniteNumber())
      ->default_str("none");
  AddRuntimeOption(m, merge->runtime);
  SetExample(m, "qforge merge-reports report.*.part -o report.html");
  m->callback(
      [merge, &ctx]() { ctx.status = RunMergeReports(*merge, ctx.flags); });
}

}  // namespace qforge::cmd

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge report FLOAT QUANT --data SPEC [--format text|json|md|html]
//               [-o FILE] [--min-sqnr DB] [--threads N]
//               [--runtime litert|tflm|armnn]
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/exit_codes.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "cmd/cli_flags.h"
#include "cmd/command.h"
#include "cmd/data_flags.h"
#include "cmd/progress.h"
#include "formats/tflite_reader.h"
#include "pipeline/report_job.h"
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
};

absl::Status RunReport(const ReportArgs& args, const GlobalFlags& flags) {
  report::Format format = report::Format::kText;
  if (!args.format.empty()) {
    ASSIGN_OR_RETURN(format, report::ParseFormat(args.format));
  } else if (!args.output.empty()) {
    format = report::FormatForPath(args.output);
  }
  ASSIGN_OR_RETURN(ir::Model float_model,
                   formats::ReadTfliteFile(args.float_model));
  ASSIGN_OR_RETURN(ir::Model quant_model,
                   formats::ReadTfliteFile(args.quant_model));
  pipeline::ReportRun run;
  ASSIGN_OR_RETURN(run.runtime_profile, runtime::ParseRuntime(args.runtime));
  run.float_label = args.float_model;
  run.quant_label = args.quant_model;
  run.threads = args.threads;
  std::optional<PendingFile> out;
  if (!args.output.empty()) {
    // Before the run: an output that cannot be written fails now (and
    // MakeReport refuses it if it is a data file).
    const std::string inputs[] = {args.float_model, args.quant_model};
    ASSIGN_OR_RETURN(out, PendingFile::Create(args.output, inputs));
  }
  if (out.has_value()) run.outputs.push_back(out->path());
  run.numerics = flags.numerics;
  ASSIGN_OR_RETURN(report::Report r,
                   pipeline::MakeReport(float_model, quant_model, args.data,
                                        run, StderrHooks(flags.quiet)));
  const std::string text = report::Render(r, format);
  if (!out.has_value()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  } else {
    RETURN_IF_ERROR(out->Write(text));
    RETURN_IF_ERROR(out->Commit());
  }
  return pipeline::CheckMinSqnr(r, args.min_sqnr);
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
  sub->add_option("--runtime", args->runtime,
                  "Where the quantized model will run, for the report's "
                  "runtime section: litert (estimated LiteRT latency of both "
                  "models, ops off XNNPACK and why), tflm (ops TFLite Micro "
                  "cannot run, ops not integer) or armnn (ops Arm NN 20.08 "
                  "cannot run)")
      ->check(CLI::IsMember({"litert", "tflm", "armnn"}))
      ->capture_default_str();
  AddThreadsOption(sub, args->threads, "Samples run in parallel");
  SetExample(sub,
             "qforge report model.tflite model_int8.tflite --data 'val/*.jpg' "
             "--scale 0.003921569 -o report.html --min-sqnr 25");
  sub->callback([args, &ctx]() { ctx.status = RunReport(*args, ctx.flags); });
}

}  // namespace qforge::cmd

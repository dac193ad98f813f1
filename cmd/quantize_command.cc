// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge quantize MODEL (--stats STATS | --data SPEC) -o OUT [options]
#include <cstdio>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "calibration/calibrate.h"
#include "calibration/range.h"
#include "cmd/command.h"
#include "cmd/data_flags.h"
#include "cmd/progress.h"
#include "cmd/report_output.h"
#include "formats/tflite_reader.h"
#include "formats/tflite_writer.h"
#include "quantizer/quantize.h"
#include "report/render.h"

namespace qforge::cmd {
namespace {

struct QuantizeArgs {
  std::string model;
  std::string stats;
  DataFlags data;
  std::string output;
  std::string method;  // "": mse on exact histograms, else minmax
  std::string scheme = "int8";
  std::string input_type = "float32";
  std::string output_type = "float32";
  std::vector<std::string> exclude;
  bool strict = false;
  bool fc_per_tensor = false;
  int threads = 0;
  std::string report;  // --report FILE
};

absl::StatusOr<ir::DataType> ParseIoType(const std::string& flag,
                                         const std::string& text) {
  if (text == "float32") return ir::DataType::kFloat32;
  if (text == "int8") return ir::DataType::kInt8;
  if (text == "int16") return ir::DataType::kInt16;
  if (text == "uint8") return ir::DataType::kUInt8;
  return absl::InvalidArgumentError(absl::StrCat(
      flag, " ", text, ": expected float32, int8, uint8 or int16"));
}

absl::Status RunQuantize(const QuantizeArgs& args, const GlobalFlags& flags) {
  if (!args.report.empty() && args.data.specs.empty()) {
    return absl::InvalidArgumentError(
        "--report needs --data (the report runs on those samples)");
  }
  quantizer::QuantizeOptions options;
  ASSIGN_OR_RETURN(options.scheme, quantizer::ParseScheme(args.scheme));
  ASSIGN_OR_RETURN(options.input_type,
                   ParseIoType("--input-type", args.input_type));
  ASSIGN_OR_RETURN(options.output_type,
                   ParseIoType("--output-type", args.output_type));
  options.exclude = args.exclude;
  options.strict = args.strict;
  options.fc_per_tensor = args.fc_per_tensor;
  ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, ReadFileBytes(args.model));
  ASSIGN_OR_RETURN(ir::Model model, formats::ParseTflite(bytes, args.model));
  if (absl::Status s = quantizer::CheckFloatModel(model); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat(args.model, ": ", s.message()));
  }
  const bool needs_stats = options.scheme == quantizer::Scheme::kInt8 ||
                           options.scheme == quantizer::Scheme::kInt16x8;
  std::optional<calibration::StatsFile> stats;
  if (!args.stats.empty()) {
    ASSIGN_OR_RETURN(stats, calibration::ReadStatsFile(args.stats));
    const std::string hash = calibration::HashBytes(bytes.data(), bytes.size());
    if (stats->fingerprint.model_hash != hash) {
      return absl::InvalidArgumentError(
          absl::StrCat(args.stats, ": statistics of another model (model hash ",
                       stats->fingerprint.model_hash, "; ", args.model,
                       " hashes to ", hash, ")"));
    }
    if (stats->fingerprint.shard_count != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          args.stats,
          ": covers only shards of the data; merge all shards first"));
    }
  } else if (!args.data.specs.empty() && needs_stats) {
    ASSIGN_OR_RETURN(formats::SampleSource data, OpenData(args.data, model));
    calibration::CalibrateOptions co;
    co.threads = args.threads;
    co.numerics = flags.numerics;
    co.histogram_stride = 1;  // every value: exact ranges for mse/kl/percentile
    Progress progress("calibrate", flags.quiet);
    co.progress = [&progress](int64_t d, int64_t t) { progress.Update(d, t); };
    absl::StatusOr<calibration::StatsFile> s =
        calibration::Calibrate(model, bytes, data, co);
    if (!s.ok()) {
      return absl::Status(s.status().code(),
                          absl::StrCat(args.model, ": ", s.status().message()));
    }
    stats = std::move(*s);
  } else if (needs_stats) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--scheme ", args.scheme, " needs --stats STATS or --data SPEC"));
  }
  // The default range method: MSE-optimal clipping when the histograms hold
  // every value (--data, or qforge calibrate --histogram-stride 1); minmax
  // on subsampled histograms, which may miss whole channels.
  std::string method = args.method;
  if (method.empty()) {
    method = stats.has_value() && stats->fingerprint.histogram_stride == 1
                 ? "mse"
                 : "minmax";
  }
  ASSIGN_OR_RETURN(options.range, calibration::ParseRangeMethod(method));
  if (options.scheme == quantizer::Scheme::kInt16x8)
    options.range.num_bits = 16;
  absl::StatusOr<quantizer::QuantizeResult> result =
      quantizer::Quantize(model, stats ? &*stats : nullptr, options);
  if (!result.ok()) {
    return absl::Status(
        result.status().code(),
        absl::StrCat(args.model, ": ", result.status().message()));
  }
  formats::WriteOptions write;
  write.drop_unused = true;
  ASSIGN_OR_RETURN(std::vector<uint8_t> out,
                   formats::SerializeTflite(result->model, write));
  const std::string inputs[] = {args.model, args.stats};
  RETURN_IF_ERROR(
      WriteFileAtomic(args.output, absl::Span<const uint8_t>(out), inputs));
  if (!args.report.empty()) {
    // The model as written (unused tensors dropped), on the calibration
    // data.
    ASSIGN_OR_RETURN(ir::Model written, formats::ParseTflite(out, args.output));
    ReportRun run;
    run.float_label = args.model;
    run.quant_label = args.output;
    run.threads = args.threads;
    run.quiet = flags.quiet;
    run.numerics = flags.numerics;
    ASSIGN_OR_RETURN(report::Report r,
                     MakeReport(model, written, args.data, run));
    const std::string report_inputs[] = {args.model, args.stats, args.output};
    RETURN_IF_ERROR(WriteFileAtomic(
        args.report, report::Render(r, report::FormatForPath(args.report)),
        report_inputs));
  }
  if (!flags.quiet) {
    std::fprintf(stderr,
                 "quantize (%s, %s): %d ops quantized, %zu kept float\n",
                 args.scheme.c_str(), method.c_str(), result->ops_quantized,
                 result->kept_float.size());
    for (const quantizer::KeptFloat& k : result->kept_float) {
      std::fprintf(stderr, "  float: op %d %s: %s\n", k.op_index,
                   k.op_name.c_str(), k.reason.c_str());
    }
    std::fprintf(stderr, "  size: %zu -> %zu bytes (%.1f%%)\n", bytes.size(),
                 out.size(),
                 100.0 * out.size() / std::max<size_t>(1, bytes.size()));
  }
  return absl::OkStatus();
}

}  // namespace

void RegisterQuantize(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<QuantizeArgs>();
  CLI::App* sub = app.add_subcommand("quantize", "Quantize a float model");
  sub->add_option("model", args->model, "The float .tflite model")->required();
  sub->add_option("--stats", args->stats,
                  "Calibration statistics (qforge calibrate)");
  AddDataFlags(sub, args->data, /*required=*/false);
  sub->add_option("-o,--output", args->output, "The quantized model")
      ->required();
  sub->add_option("--method", args->method,
                  "Range method: minmax|percentile:P|kl|mse (default: mse "
                  "when the histograms are exact, else minmax)");
  sub->add_option("--scheme", args->scheme,
                  "int8|int16x8|dynamic|float16 (default int8)");
  sub->add_option("--input-type", args->input_type, "float32|int8|uint8|int16");
  sub->add_option("--output-type", args->output_type,
                  "float32|int8|uint8|int16");
  sub->add_option(
      "--exclude-op", args->exclude,
      "Keep ops float: op index, op type, output tensor name, re:REGEX");
  sub->add_flag("--strict", args->strict,
                "Fail (exit 3) if any op stays float");
  sub->add_flag("--fc-per-tensor", args->fc_per_tensor,
                "FULLY_CONNECTED weights per tensor instead of per channel");
  sub->add_option("--threads", args->threads,
                  "Calibration threads (with --data)");
  sub->add_option("--report", args->report,
                  "Also write a quantization report of the new model on the "
                  "--data samples (format from the extension: .txt, .json, "
                  ".md, .html)");
  sub->callback([args, &ctx]() { ctx.status = RunQuantize(*args, ctx.flags); });
}

}  // namespace qforge::cmd

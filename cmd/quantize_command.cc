// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge quantize MODEL (--stats STATS | --data SPEC) -o OUT [options]
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/exit_codes.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "calibration/calibrate.h"
#include "calibration/range.h"
#include "cmd/cli_flags.h"
#include "cmd/command.h"
#include "cmd/data_flags.h"
#include "cmd/float_region.h"
#include "cmd/precision_search.h"
#include "cmd/progress.h"
#include "cmd/range_search.h"
#include "cmd/recovery_flags.h"
#include "cmd/report_output.h"
#include "formats/tflite_reader.h"
#include "formats/tflite_writer.h"
#include "quantizer/plan.h"
#include "quantizer/quantize.h"
#include "quantizer/recipe.h"
#include "report/render.h"

namespace qforge::cmd {
namespace {

struct QuantizeArgs {
  std::string model;
  std::string stats;
  DataFlags data;
  std::string output;
  std::string method;  // "": mse on exact histograms, else minmax
  std::string scheme;  // "": the recipe's, else int8
  std::string input_type = "float32";
  std::string output_type = "float32";
  std::vector<std::string> exclude;  // --exclude-op and --float-op
  std::vector<std::string> int8_ops, int4_ops, int16_ops;
  int weight_bits = 8;
  std::string float_weights = "float32";
  float int16_headroom = 2.0f;
  std::string recipe, save_recipe;
  double target_sqnr = std::numeric_limits<double>::quiet_NaN();
  int target_steps = 32;
  std::string target_metric = "worst";
  int64_t max_size = 0;
  int max_float_ops = -1;
  bool strict = false;
  bool fc_per_tensor = false;
  int threads = 0;
  std::string report;  // --report FILE
  RecoveryArgs recovery;
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
    return UsageError(
        "--report needs --data (the report runs on those samples)");
  }
  if (!args.report.empty() && SamePath(args.report, args.output)) {
    return UsageError(
        absl::StrCat("--report ", args.report, " is the output model's path"));
  }
  const bool target = !std::isnan(args.target_sqnr);
  if (target && (args.data.specs.empty() || !args.stats.empty())) {
    return UsageError(
        "--target-sqnr needs --data (it calibrates on part of the samples "
        "and checks on the rest), not --stats");
  }
  if (target && args.target_steps < 0) {
    return UsageError("--target-steps must be >= 0");
  }
  if (!target && (args.max_size > 0 || args.max_float_ops >= 0 ||
                  args.target_metric != "worst")) {
    return UsageError(
        "--max-size, --max-float-ops and --target-metric bound --target-sqnr's "
        "search; give --target-sqnr too");
  }
  RecoveryArgs recovery = args.recovery;
  RETURN_IF_ERROR(ResolveRecovery(recovery));
  if (recovery.Any() && (args.data.specs.empty() || !args.stats.empty())) {
    return UsageError(
        "--equalize, --bias-correction, --adaround and --optimize "
        "fast|accuracy "
        "change the float model's weights, so they calibrate on --data "
        "themselves (not --stats)");
  }
  quantizer::QuantizeOptions options;
  std::string scheme = args.scheme;
  // Samples left out of calibration and recovery on --data: --target-sqnr's
  // check set, or the one a recipe it saved records.
  int holdout = target ? 4 : 0;
  if (!args.recipe.empty()) {
    ASSIGN_OR_RETURN(std::vector<uint8_t> text, ReadFileBytes(args.recipe));
    ASSIGN_OR_RETURN(
        quantizer::Recipe recipe,
        quantizer::ParseRecipe(
            std::string_view(reinterpret_cast<const char*>(text.data()),
                             text.size()),
            args.recipe));
    if (recipe.scheme.has_value()) {
      if (!scheme.empty() && scheme != *recipe.scheme) {
        return UsageError(absl::StrCat("--scheme ", scheme, " contradicts ",
                                       args.recipe, "'s scheme ",
                                       *recipe.scheme));
      }
      scheme = *recipe.scheme;
    }
    options.rules = std::move(recipe.rules);
    if (!target && recipe.holdout_every.has_value()) {
      holdout = *recipe.holdout_every;
    }
  }
  if (scheme.empty()) scheme = "int8";
  for (const std::string& s : args.int8_ops) {
    options.rules.push_back({s, "int8", "--int8-op"});
  }
  for (const std::string& s : args.int4_ops) {
    options.rules.push_back({s, "int4", "--int4-op"});
  }
  for (const std::string& s : args.int16_ops) {
    options.rules.push_back({s, "int16", "--int16-op"});
  }
  ASSIGN_OR_RETURN(options.scheme, quantizer::ParseScheme(scheme));
  const bool mixed = !options.rules.empty();
  if (mixed && options.scheme != quantizer::Scheme::kInt8 &&
      options.scheme != quantizer::Scheme::kInt16x8) {
    return absl::InvalidArgumentError(
        absl::StrCat("--recipe/--int8-op/--int4-op/--int16-op need scheme "
                     "int8 or int16x8, not ",
                     scheme));
  }
  if (args.weight_bits == 4 && options.scheme != quantizer::Scheme::kInt8) {
    return UsageError(absl::StrCat(
        "--weight-bits 4 needs --scheme int8 (LiteRT has no int4 weights "
        "with ",
        scheme, "); use --int4-op for int8 ops inside it"));
  }
  options.weight_bits = args.weight_bits;
  options.float16_float_weights = args.float_weights == "float16";
  options.int16_headroom = args.int16_headroom;
  if (options.float16_float_weights &&
      options.scheme != quantizer::Scheme::kInt8 &&
      options.scheme != quantizer::Scheme::kInt16x8) {
    return UsageError(absl::StrCat(
        "--float-weights float16 is for the ops int8 / int16x8 keep float; "
        "use --scheme float16 instead of ",
        scheme));
  }
  ASSIGN_OR_RETURN(options.input_type,
                   ParseIoType("--input-type", args.input_type));
  ASSIGN_OR_RETURN(options.output_type,
                   ParseIoType("--output-type", args.output_type));
  options.exclude = args.exclude;
  options.strict = args.strict;
  options.fc_per_tensor = args.fc_per_tensor;
  ASSIGN_OR_RETURN(formats::ModelFile file,
                   formats::OpenTfliteFile(args.model));
  const absl::Span<const uint8_t> bytes = file.bytes();
  const ir::Model& model = file.model;
  if (absl::Status s = quantizer::CheckFloatModel(model); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat(args.model, ": ", s.message()));
  }
  const bool needs_stats = options.scheme == quantizer::Scheme::kInt8 ||
                           options.scheme == quantizer::Scheme::kInt16x8;
  if (needs_stats && args.stats.empty() && args.data.specs.empty()) {
    return UsageError(absl::StrCat("--scheme ", scheme,
                                   " needs --stats STATS or --data SPEC"));
  }
  // Outputs are checked before any work: not an input (model, stats, data
  // files), and writable. Nothing appears at either path before both are
  // complete.
  std::vector<std::string> inputs = {args.model, args.stats};
  std::optional<formats::SampleSource> data;
  if (!args.data.specs.empty()) {
    ASSIGN_OR_RETURN(data, OpenData(args.data, model, flags.quiet));
    for (std::string& path : DataInputPaths(args.data, *data)) {
      inputs.push_back(std::move(path));
    }
  }
  ASSIGN_OR_RETURN(PendingFile out_file,
                   PendingFile::Create(args.output, inputs));
  std::optional<PendingFile> report_file;
  if (!args.report.empty()) {
    ASSIGN_OR_RETURN(report_file, PendingFile::Create(args.report, inputs));
  }
  std::optional<PendingFile> recipe_file;
  if (!args.save_recipe.empty()) {
    inputs.push_back(args.recipe);
    ASSIGN_OR_RETURN(recipe_file,
                     PendingFile::Create(args.save_recipe, inputs));
  }
  // The model calibrated and quantized: the float model, or its weights
  // after recovery (the report still compares with the float model).
  ir::Model work = model;
  // --target-sqnr's check set: every 4th sample (3, 7, 11, ...), which
  // neither calibration nor weight recovery sees (or a recipe's
  // holdout_every). Fewer samples than that leave none out, and the check
  // set is the calibration set.
  std::vector<int64_t> check;
  std::vector<int64_t> fit;  // the other samples
  const bool held_out =
      data.has_value() && holdout > 0 && data->size() >= holdout;
  if (data.has_value()) {
    for (int64_t i = 0; i < data->size(); ++i) {
      (held_out && i % holdout == holdout - 1 ? check : fit).push_back(i);
    }
    if (target && check.empty()) {
      check = fit;
      if (!flags.quiet) {
        std::fprintf(stderr,
                     "target-sqnr: fewer than 4 samples: checking on the "
                     "calibration samples\n");
      }
    }
  }
  if (recovery.Any()) {
    if (options.scheme != quantizer::Scheme::kInt8 &&
        options.scheme != quantizer::Scheme::kInt16x8) {
      return UsageError(absl::StrCat(
          "weight recovery needs scheme int8 or int16x8, not ", scheme));
    }
    // The rules name ops of the folded model (compressed weights folded,
    // as the quantizer sees it); recovery works on the file's ops.
    std::vector<int> original_op;
    ASSIGN_OR_RETURN(const ir::Model folded,
                     quantizer::FoldedFloatModel(model, &original_op));
    ASSIGN_OR_RETURN(
        const std::vector<std::optional<quantizer::UserRequest>> requests,
        quantizer::ResolveRequests(folded.subgraphs[0], options));
    const std::vector<int> folded_bits =
        quantizer::PlannedWeightBits(folded.subgraphs[0], options, requests);
    const size_t num_ops = model.subgraphs[0].operators.size();
    std::vector<bool> keep_float(num_ops, false);
    std::vector<int> weight_bits(num_ops, 8);
    for (size_t j = 0; j < requests.size() && j < original_op.size(); ++j) {
      const size_t i = static_cast<size_t>(original_op[j]);
      keep_float[i] = requests[j].has_value() &&
                      requests[j]->precision == quantizer::Precision::kFloat;
      weight_bits[i] = folded_bits[j];
    }
    absl::Status s = ApplyRecovery(recovery, work, &*data, fit, keep_float,
                                   weight_bits, options.fc_per_tensor,
                                   args.threads, flags.numerics, flags.quiet);
    if (!s.ok()) {
      return absl::Status(s.code(),
                          absl::StrCat(args.model, ": ", s.message()));
    }
  }
  std::optional<calibration::StatsFile> stats;
  if (!args.stats.empty()) {
    ASSIGN_OR_RETURN(stats, calibration::ReadStatsFile(args.stats));
    const std::string hash =
        calibration::HashBytes(bytes.data(), bytes.size(), stats->version);
    if (stats->fingerprint.model_hash != hash) {
      return absl::InvalidArgumentError(
          absl::StrCat(args.stats, ": statistics of another model (model hash ",
                       stats->fingerprint.model_hash, "; ", args.model,
                       " hashes to ", hash, ")"));
    }
    if (!calibration::StatsComplete(*stats)) {
      return absl::InvalidArgumentError(absl::StrCat(
          args.stats, ": covers ", stats->fingerprint.shards.size(), " of ",
          stats->fingerprint.shard_count,
          " shards of the data; merge all shards first"));
    }
    RETURN_IF_ERROR(
        calibration::CheckStatsMatchModel(*stats, model, args.stats));
  } else if (data.has_value() && needs_stats) {
    calibration::CalibrateOptions co;
    if (held_out) co.holdout_every = holdout;
    co.threads = args.threads;
    co.numerics = flags.numerics;
    co.histogram_stride = 1;  // every value: exact ranges for mse/kl/percentile
    Progress progress("calibrate", flags.quiet);
    co.progress = [&progress](int64_t d, int64_t t) { progress.Update(d, t); };
    absl::StatusOr<calibration::StatsFile> s =
        calibration::Calibrate(work, bytes, *data, co);
    if (!s.ok()) {
      return absl::Status(s.status().code(),
                          absl::StrCat(args.model, ": ", s.status().message()));
    }
    stats = std::move(*s);
    if (!flags.quiet) {
      for (const std::string& note : UncalibratedNotes(model))
        std::fprintf(stderr, "calibrate: %s\n", note.c_str());
    }
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
  const bool auto_method = method == "auto";
  if (auto_method && !(data.has_value() && needs_stats && args.stats.empty())) {
    return UsageError(
        "--method auto measures each choice on the samples: it needs --data "
        "(and scheme int8 or int16x8, without --stats)");
  }
  ASSIGN_OR_RETURN(options.range,
                   calibration::ParseRangeMethod(auto_method ? "mse" : method));
  if (options.scheme == quantizer::Scheme::kInt16x8)
    options.range.num_bits = 16;
  if (auto_method) {
    ASSIGN_OR_RETURN(const RangeSearchOutcome found,
                     SearchRanges(model, work, *stats, *data, fit, options,
                                  args.threads, flags.numerics, flags.quiet));
    options.range_overrides = found.overrides;
    if (!flags.quiet) {
      std::fprintf(stderr,
                   "method auto: %zu of %d tensors moved off mse, mean output "
                   "SQNR %.2f -> %.2f dB on %lld calibration samples (%d "
                   "trials)\n",
                   found.overrides.size(), found.tensors, found.start_db,
                   found.final_db, static_cast<long long>(found.samples),
                   found.trials);
    }
  }
  std::vector<std::string> search_steps;
  absl::StatusOr<quantizer::QuantizeResult> result;
  if (target && stats.has_value() && data.has_value()) {
    SearchOptions so;
    so.target_db = args.target_sqnr;
    so.max_steps = args.target_steps;
    so.metric = args.target_metric == "mean"   ? TargetMetric::kMean
                : args.target_metric == "top1" ? TargetMetric::kTop1
                                               : TargetMetric::kWorst;
    so.max_size = args.max_size;
    so.max_float_ops = args.max_float_ops;
    so.threads = args.threads;
    so.quiet = flags.quiet;
    absl::StatusOr<SearchOutcome> found =
        SearchPrecision(model, work, *stats, *data, check, options, so);
    if (!found.ok()) {
      return absl::Status(
          found.status().code(),
          absl::StrCat(args.model, ": ", found.status().message()));
    }
    if (!found->met) {
      const bool top1 = so.metric == TargetMetric::kTop1;
      return AccuracyBoundError(absl::StrFormat(
          "%s: --target-sqnr %.2f%s not met: the best plan found reaches "
          "%.2f%s on the %zu check samples after raising %zu ops%s%s; "
          "nothing written",
          args.model, args.target_sqnr, top1 ? "% top-1" : " dB",
          found->check_db, top1 ? "% top-1" : " dB", check.size(),
          found->steps.size(), found->limit.empty() ? "" : "; ", found->limit));
    }
    if (!flags.quiet) {
      std::fprintf(stderr,
                   "target-sqnr: %.2f dB >= %.2f on %zu check samples (every "
                   "4th: 3, 7, ...) after raising %zu ops\n",
                   found->check_db, args.target_sqnr, check.size(),
                   found->steps.size());
    }
    search_steps = found->steps;
    result = std::move(found->result);
  } else {
    result = quantizer::Quantize(work, stats ? &*stats : nullptr, options);
  }
  if (!result.ok()) {
    return absl::Status(
        result.status().code(),
        absl::StrCat(args.model, ": ", result.status().message()));
  }
  formats::WriteOptions write;
  write.drop_unused = true;
  // The model streams into the file, each buffer freed once written, so the
  // output never exists twice in memory; only --report keeps the bytes, to
  // run the model as written.
  std::vector<uint8_t> out;
  size_t out_size = 0;
  const bool keep_bytes = report_file.has_value();
  RETURN_IF_ERROR(formats::SerializeTfliteConsuming(
      std::move(result->model), write, [&](absl::Span<const uint8_t> piece) {
        out_size += piece.size();
        if (keep_bytes) out.insert(out.end(), piece.begin(), piece.end());
        return out_file.Write(piece);
      }));
  if (recipe_file.has_value()) {
    if (result->op_choices.empty()) {
      return UsageError(absl::StrCat("--save-recipe: scheme ", scheme,
                                     " has no per-op precision"));
    }
    RETURN_IF_ERROR(recipe_file->Write(quantizer::RecipeJson(
        scheme, result->op_choices,
        held_out && args.stats.empty() ? std::optional<int>(holdout)
                                       : std::nullopt)));
  }
  if (report_file.has_value()) {
    // The model as written (unused tensors dropped), on the calibration
    // data.
    ASSIGN_OR_RETURN(ir::Model written, formats::ParseTflite(out, args.output));
    ReportRun run;
    run.float_label = args.model;
    run.quant_label = args.output;
    run.threads = args.threads;
    run.quiet = flags.quiet;
    run.data_notes = !(needs_stats && args.stats.empty());  // said once
    run.numerics = flags.numerics;
    ASSIGN_OR_RETURN(report::Report r,
                     MakeReport(model, written, args.data, run));
    // The quantizer knows why each op stayed float and what it repaired.
    for (report::FloatOp& f : r.float_ops) {
      for (const quantizer::KeptFloat& k : result->kept_float) {
        const size_t i = static_cast<size_t>(k.op_index);
        if (i < result->op_choices.size() &&
            result->op_choices[i].output == f.output) {
          f.reason = ExplainKeptFloat(model, k);
        }
      }
    }
    for (const quantizer::Repair& rep : result->repairs) {
      r.repairs.push_back(
          absl::StrCat("op ", rep.op_index, " ", rep.op_name, ": ", rep.what));
    }
    RETURN_IF_ERROR(report_file->Write(
        report::Render(r, report::FormatForPath(args.report))));
  }
  // Both complete: the model, then its report, take their names.
  RETURN_IF_ERROR(out_file.Commit());
  if (report_file.has_value()) RETURN_IF_ERROR(report_file->Commit());
  if (recipe_file.has_value()) RETURN_IF_ERROR(recipe_file->Commit());
  if (!flags.quiet) {
    std::fprintf(stderr,
                 "quantize (%s, %s): %d ops quantized, %zu kept float\n",
                 scheme.c_str(), method.c_str(), result->ops_quantized,
                 result->kept_float.size());
    for (const quantizer::KeptFloat& k : result->kept_float) {
      std::fprintf(stderr, "  float: op %d %s: %s\n", k.op_index,
                   k.op_name.c_str(), ExplainKeptFloat(model, k).c_str());
    }
    for (const quantizer::Repair& r : result->repairs) {
      std::fprintf(stderr, "  repaired: op %d %s: %s\n", r.op_index,
                   r.op_name.c_str(), r.what.c_str());
    }
    std::fprintf(stderr, "  size: %zu -> %zu bytes (%.1f%%)\n", bytes.size(),
                 out_size,
                 100.0 * out_size / std::max<size_t>(1, bytes.size()));
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
                  "Range method: minmax|percentile:P|kl|mse|auto (auto: per "
                  "tensor, the one that gives the best outputs on the "
                  "calibration samples; needs --data)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            if (text == "auto") return "";
            absl::StatusOr<calibration::RangeSpec> spec =
                calibration::ParseRangeMethod(text);
            return spec.ok() ? ""
                             : "expected minmax, percentile:P (50 < P <= "
                               "100), kl or mse";
          },
          "METHOD"))
      ->default_str("mse when the histograms are exact, else minmax");
  sub->add_option("--scheme", args->scheme,
                  "int8|int16x8|dynamic|float16 (default: the recipe's, "
                  "else int8)")
      ->check(CLI::IsMember({"int8", "int16x8", "dynamic", "float16"}));
  sub->add_option("--input-type", args->input_type, "float32|int8|uint8|int16")
      ->check(CLI::IsMember({"float32", "int8", "uint8", "int16"}));
  sub->add_option("--output-type", args->output_type,
                  "float32|int8|uint8|int16")
      ->check(CLI::IsMember({"float32", "int8", "uint8", "int16"}));
  sub->add_option(
      "--exclude-op,--float-op", args->exclude,
      "Keep ops float: op index, op type, output tensor name, re:REGEX");
  sub->add_option("--int16-op", args->int16_ops,
                  "Run these ops in int16x8 (same selectors as --float-op); "
                  "QUANTIZE ops convert at int8/int16 borders");
  sub->add_option("--int8-op", args->int8_ops,
                  "Run these ops in int8 (e.g. inside --scheme int16x8)");
  sub->add_option("--int4-op", args->int4_ops,
                  "Run these ops in int8 with int4 weights (CONV_2D, "
                  "DEPTHWISE_CONV_2D, FULLY_CONNECTED; others int8)");
  sub->add_option("--weight-bits", args->weight_bits,
                  "4: int4 weights (per channel, in [-7, 7]) for every "
                  "CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED of the "
                  "int8 scheme, unless a rule says int8")
      ->check(CLI::IsMember({4, 8}))
      ->capture_default_str();
  sub->add_option("--float-weights", args->float_weights,
                  "float16: the ops that stay float store their weights as "
                  "float16 (behind DEQUANTIZE), halving them")
      ->check(CLI::IsMember({"float32", "float16"}))
      ->capture_default_str();
  sub->add_option("--int16-headroom", args->int16_headroom,
                  "Widen int16 activation ranges by this factor, so that "
                  "values beyond the calibration samples' range do not clip "
                  "(1: the calibrated range)")
      ->check(CLI::Range(1.0f, 256.0f))
      ->capture_default_str();
  sub->add_option("--recipe", args->recipe,
                  "Per-op precision rules (JSON, docs/recipe.md), applied "
                  "before --int8-op, --int16-op, --float-op");
  sub->add_option("--target-sqnr", args->target_sqnr,
                  "Find the cheapest per-op precision whose worst output "
                  "SQNR reaches DB on held-out samples (every 4th of --data)")
      ->type_name("DB");
  sub->add_option("--target-steps", args->target_steps,
                  "At most this many ops raised by --target-sqnr (default "
                  "32)");
  sub->add_option("--target-metric", args->target_metric,
                  "What --target-sqnr bounds on the check samples: worst "
                  "(the worst output's SQNR, dB), mean (the outputs' mean "
                  "SQNR, dB) or top1 (classifier top-1 agreement, percent)")
      ->check(CLI::IsMember({"worst", "mean", "top1"}))
      ->capture_default_str();
  sub->add_option("--max-size", args->max_size,
                  "With --target-sqnr: never raise precision past a model "
                  "of this many bytes (exit 4 if the target needs more)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--max-float-ops", args->max_float_ops,
                  "With --target-sqnr: at most N ops left float")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--save-recipe", args->save_recipe,
                  "Write the recipe of the model written (every op's "
                  "precision), to reuse or edit");
  sub->add_flag("--strict", args->strict,
                "Fail (exit 3) if any op stays float");
  sub->add_flag("--fc-per-tensor", args->fc_per_tensor,
                "FULLY_CONNECTED weights per tensor instead of per channel");
  AddRecoveryFlags(sub, args->recovery);
  AddThreadsOption(sub, args->threads, "Calibration threads (with --data)");
  sub->add_option("--report", args->report,
                  "Also write a quantization report of the new model on the "
                  "--data samples (format from the extension: .txt, .json, "
                  ".md, .html)");
  SetExample(sub,
             "qforge quantize model.tflite --data 'calib/*.jpg' --scale "
             "0.003921569 -o model_int8.tflite --report report.html");
  sub->callback([args, &ctx]() { ctx.status = RunQuantize(*args, ctx.flags); });
}

}  // namespace qforge::cmd

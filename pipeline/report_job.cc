// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/report_job.h"

#include <cmath>
#include <filesystem>
#include <system_error>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/exit_codes.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "calibration/stats_file.h"
#include "formats/tflite_reader.h"
#include "quantizer/op_quant_spec.h"
#include "report/render.h"
#include "report/runtime_section.h"

namespace qforge::pipeline {

namespace {

struct ReportData {
  formats::SampleSource source;
  bool for_quant_model = false;
};

// The data are opened for the float model; when that fails and the
// quantized model takes integer inputs, for the quantized model.
absl::StatusOr<ReportData> OpenReportData(const ir::Model& float_model,
                                          const ir::Model& quant_model,
                                          const DataSpec& data,
                                          const ReportRun& run,
                                          const Hooks& hooks) {
  const Hooks data_hooks = run.data_notes ? hooks : hooks.Silent();
  absl::StatusOr<formats::SampleSource> source =
      OpenData(data, float_model, data_hooks);
  bool for_quant_model = false;
  if (!source.ok()) {
    bool integer_inputs = false;
    if (!quant_model.subgraphs.empty()) {
      for (int32_t t : quant_model.subgraphs[0].inputs) {
        integer_inputs |=
            quant_model.subgraphs[0].tensors[t].type != ir::DataType::kFloat32;
      }
    }
    if (!integer_inputs) return source.status();
    absl::StatusOr<formats::SampleSource> q =
        OpenData(data, quant_model, data_hooks);
    if (!q.ok()) return source.status();  // the float model's complaint
    source = std::move(q);
    for_quant_model = true;
  }
  for (const std::string& data_path : DataInputPaths(data, *source)) {
    for (const std::string& out : run.outputs) {
      if (SamePath(out, data_path)) {
        return absl::FailedPreconditionError(absl::StrCat(
            out, ": refusing to overwrite an input file (", data_path, ")"));
      }
    }
  }
  return ReportData{std::move(*source), for_quant_model};
}

absl::StatusOr<report::ReportOptions> OptionsFor(const ReportRun& run,
                                                 const ReportData& d) {
  report::ReportOptions options;
  options.threads = run.threads;
  options.numerics = run.numerics;
  options.data_for_quant_model = d.for_quant_model;
  RETURN_IF_ERROR(SetTaskOptions(run.tasks, run.labels, options));
  return options;
}

}  // namespace

absl::Status SetTaskOptions(const std::vector<std::string>& tasks,
                            const std::string& labels,
                            report::ReportOptions& options) {
  for (const std::string& t : tasks) {
    ASSIGN_OR_RETURN(report::TaskOverride o, report::ParseTaskOverride(t));
    options.tasks.push_back(std::move(o));
  }
  if (labels.empty()) return absl::OkStatus();
  std::error_code ec;
  if (std::filesystem::is_directory(labels, ec)) {
    options.label_dir = labels;  // segmentation masks (label_masks.h)
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(const std::vector<uint8_t> bytes, ReadFileBytes(labels));
  const std::string text(bytes.begin(), bytes.end());
  int line = 0;
  for (absl::string_view l : absl::StrSplit(text, '\n')) {
    ++line;
    l = absl::StripAsciiWhitespace(l);
    if (l.empty()) continue;
    int64_t label = 0;
    if (!absl::SimpleAtoi(l, &label) || label < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(labels, ": line ", line, ": '", l,
                       "' is not a class index (one integer >= 0 a line)"));
    }
    options.labels.push_back(label);
  }
  options.labels_fingerprint =
      absl::StrCat(options.labels.size(), " labels, ",
                   calibration::HashBytes(bytes.data(), bytes.size()));
  return absl::OkStatus();
}

absl::StatusOr<report::Report> MakeReport(const ir::Model& float_model,
                                          const ir::Model& quant_model,
                                          const DataSpec& data,
                                          const ReportRun& run,
                                          const Hooks& hooks) {
  ASSIGN_OR_RETURN(ReportData d,
                   OpenReportData(float_model, quant_model, data, run, hooks));
  ASSIGN_OR_RETURN(report::ReportOptions options, OptionsFor(run, d));
  options.progress = hooks.Progress("report");
  absl::StatusOr<report::Report> r =
      report::BuildReport(float_model, quant_model, d.source, options);
  options.progress = nullptr;
  if (!r.ok()) {
    return absl::Status(r.status().code(), absl::StrCat(run.quant_label, ": ",
                                                        r.status().message()));
  }
  r->float_model = run.float_label;
  r->quant_model = run.quant_label;
  ExplainFloatOps(quant_model, *r);
  r->runtime =
      report::DescribeRuntime(float_model, quant_model, run.runtime_profile);
  return r;
}

absl::StatusOr<report::PartialReport> MakePartialReport(
    const ir::Model& float_model, absl::Span<const uint8_t> float_bytes,
    const ir::Model& quant_model, absl::Span<const uint8_t> quant_bytes,
    const DataSpec& data, const ReportRun& run, int shard_index,
    int shard_count, const Hooks& hooks) {
  ASSIGN_OR_RETURN(ReportData d,
                   OpenReportData(float_model, quant_model, data, run, hooks));
  ASSIGN_OR_RETURN(report::ReportOptions options, OptionsFor(run, d));
  options.shard_index = shard_index;
  options.shard_count = shard_count;
  options.progress = hooks.Progress("report");
  absl::StatusOr<report::ReportSums> sums =
      report::AccumulateReport(float_model, quant_model, d.source, options);
  options.progress = nullptr;
  if (!sums.ok()) {
    return absl::Status(
        sums.status().code(),
        absl::StrCat(run.quant_label, ": ", sums.status().message()));
  }
  report::PartialReport p;
  report::PartialFingerprint& f = p.fingerprint;
  f.float_model_hash =
      calibration::HashBytes(float_bytes.data(), float_bytes.size());
  f.quant_model_hash =
      calibration::HashBytes(quant_bytes.data(), quant_bytes.size());
  // After the samples: array files were hashed as they were read.
  ASSIGN_OR_RETURN(f.data_hash, d.source.Fingerprint());
  f.tool_version = QFORGE_VERSION;
  f.numerics = report::NumericsFingerprint(run.numerics);
  f.data_for_quant_model = d.for_quant_model;
  f.total_samples = d.source.size();
  f.shard_count = shard_count;
  f.shards = {shard_index};
  p.float_model = run.float_label;
  p.quant_model = run.quant_label;
  const int64_t total = d.source.size();
  p.samples = total > shard_index
                  ? (total - shard_index + shard_count - 1) / shard_count
                  : 0;
  p.sums = std::move(*sums);
  return p;
}

absl::StatusOr<MergedReport> MergeReports(
    const std::vector<std::string>& partial_paths,
    runtime::Runtime runtime_profile) {
  std::vector<report::PartialReport> parts;
  for (const std::string& path : partial_paths) {
    ASSIGN_OR_RETURN(report::PartialReport part, report::ReadPartialFile(path));
    parts.push_back(std::move(part));
  }
  ASSIGN_OR_RETURN(report::PartialReport merged,
                   report::MergePartials(parts, partial_paths));
  // The models, where the shards read them, with the bytes they hashed.
  const std::string* hashes[] = {&merged.fingerprint.float_model_hash,
                                 &merged.fingerprint.quant_model_hash};
  const std::string* paths[] = {&merged.float_model, &merged.quant_model};
  std::vector<formats::ModelFile> models;
  for (int m = 0; m < 2; ++m) {
    absl::StatusOr<formats::ModelFile> file =
        formats::OpenTfliteFile(*paths[m]);
    if (!file.ok()) {
      return absl::Status(
          file.status().code(),
          absl::StrCat(partial_paths[0], ": the ",
                       m == 0 ? "float" : "quantized",
                       " model it names: ", file.status().message()));
    }
    const absl::Span<const uint8_t> bytes = file->bytes();
    if (calibration::HashBytes(bytes.data(), bytes.size()) != *hashes[m]) {
      return absl::InvalidArgumentError(absl::StrCat(
          partial_paths[0], ": ", *paths[m],
          " is not the model the shards ran (hash ", *hashes[m], ")"));
    }
    models.push_back(std::move(*file));
  }
  report::ReportOptions options;
  absl::StatusOr<report::Report> r = report::FinishReport(
      models[0].model, models[1].model, merged.sums, merged.samples, options);
  if (!r.ok()) {
    return absl::Status(r.status().code(), absl::StrCat(partial_paths[0], ": ",
                                                        r.status().message()));
  }
  r->data_fingerprint = merged.fingerprint.data_hash;
  r->float_model = merged.float_model;
  r->quant_model = merged.quant_model;
  ExplainFloatOps(models[1].model, *r);
  r->runtime = report::DescribeRuntime(models[0].model, models[1].model,
                                       runtime_profile);
  MergedReport out;
  out.report = std::move(*r);
  out.shard_count = merged.fingerprint.shard_count;
  out.missing = report::MissingShards(merged);
  return out;
}

void ExplainFloatOps(const ir::Model& quant_model, report::Report& report) {
  if (quant_model.subgraphs.empty()) return;
  const ir::Subgraph& sg = quant_model.subgraphs[0];
  for (report::FloatOp& f : report.float_ops) {
    if (!f.reason.empty() || f.op_index < 0 ||
        static_cast<size_t>(f.op_index) >= sg.operators.size()) {
      continue;
    }
    const ir::OpKind kind = sg.operators[static_cast<size_t>(f.op_index)].kind;
    f.reason = quantizer::GetOpQuantSpec(kind).has_value()
                   ? "has an integer form: excluded or failed"
                   : quantizer::NoIntegerFormReason(kind);
  }
}

absl::Status CheckMinSqnr(const report::Report& report, double min_sqnr) {
  std::vector<std::string> below;
  for (const report::OutputReport& o : report.outputs) {
    if (o.metrics.sqnr_db < min_sqnr) {
      below.push_back(absl::StrCat("output ", o.index, " '", o.name, "' ",
                                   report::FormatDb(o.metrics.sqnr_db), " dB"));
    }
  }
  if (below.empty()) return absl::OkStatus();
  return AccuracyBoundError(absl::StrCat(
      report.quant_model, ": SQNR below --min-sqnr ",
      report::FormatDb(min_sqnr), " dB: ", absl::StrJoin(below, ", ")));
}

}  // namespace qforge::pipeline

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/report_job.h"

#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/exit_codes.h"
#include "base/file_io.h"
#include "quantizer/op_quant_spec.h"
#include "report/render.h"
#include "report/runtime_section.h"

namespace qforge::pipeline {

absl::StatusOr<report::Report> MakeReport(const ir::Model& float_model,
                                          const ir::Model& quant_model,
                                          const DataSpec& data,
                                          const ReportRun& run,
                                          const Hooks& hooks) {
  const Hooks data_hooks = run.data_notes ? hooks : hooks.Silent();
  report::ReportOptions options;
  options.threads = run.threads;
  options.numerics = run.numerics;
  absl::StatusOr<formats::SampleSource> source =
      OpenData(data, float_model, data_hooks);
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
    options.data_for_quant_model = true;
  }
  for (const std::string& data_path : DataInputPaths(data, *source)) {
    for (const std::string& out : run.outputs) {
      if (SamePath(out, data_path)) {
        return absl::FailedPreconditionError(absl::StrCat(
            out, ": refusing to overwrite an input file (", data_path, ")"));
      }
    }
  }
  options.progress = hooks.Progress("report");
  absl::StatusOr<report::Report> r =
      report::BuildReport(float_model, quant_model, *source, options);
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

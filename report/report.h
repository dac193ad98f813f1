// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The quantization report: a float model and its quantized version run on
// the same samples, and every quantized activation that corresponds to a
// float one (same tensor name; see tensor_match.h) is compared after
// dequantization, as is every model output. Nothing is kept per sample:
// each tensor's values are folded into sums (metrics.h) right after the op
// that produced them, so memory does not grow with the data set. Samples
// run in parallel; their sums are added exactly (exact_sum.h), so the
// report is identical for any thread count and any split into shards.
#ifndef QFORGE_REPORT_REPORT_H_
#define QFORGE_REPORT_REPORT_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "formats/data/data_source.h"
#include "ir/model.h"
#include "numerics/modes.h"
#include "report/metrics.h"
#include "report/report_sums.h"
#include "report/runtime_section.h"
#include "report/task_kind.h"
#include "report/task_metrics.h"

namespace qforge::report {

// Float activation values on equal-width bins over [lo, hi] (which covers
// both the values seen and the quantized range), for the HTML page.
struct Histogram {
  double lo = 0, hi = 0;
  std::vector<uint64_t> counts;
};

struct LayerReport {
  std::string name;        // the quantized model's tensor name
  std::string float_name;  // the float model's tensor it is compared with
  int op_index = -1;       // producer in the quantized model (-1: an input)
  // The float model's op writing float_name (subgraph 0; -1: an input):
  // the index quantize's --float-op / --int16-op take.
  int float_op = -1;
  std::string float_op_type;  // that op's type ("CONV_2D")
  std::string op;             // "CONV_2D", "input"
  std::string dtype;          // "int8", "int16"
  QuantGrid grid;
  Metrics metrics;
  // The SQNR of the noise this layer adds itself (the sort key, worst
  // first): with N = 10^(-rank_db / 10) the relative noise of a tensor
  // (metrics.h), -10 log10(N_out - max N_inputs) over the op's compared
  // inputs; +inf when the output is no noisier than its worst input. A
  // layer downstream of a bad one inherits its noise but does not add it,
  // so the culprit comes first.
  double introduced_db = 0;
  // Of that noise, what this tensor's own grid costs downstream: an op
  // reading it (grid_reader_op, in the quantized model; its type in
  // grid_reader_type) turns its rounding into more noise than the rounding
  // itself (attribution.h), which a wider type for this tensor fixes and
  // raising the reader does not. -10 log10 of that excess; +inf: none.
  double grid_db = std::numeric_limits<double>::infinity();
  int grid_reader_op = -1;
  std::string grid_reader_type;
  // The float model's tensor that reader writes ("": none): a wider grid
  // helps only where the reader takes it, so the search raises both.
  std::string grid_reader_output;
  // Float activation histogram (filled for the worst layers only).
  std::optional<Histogram> histogram;
};

struct OutputReport {
  int index = 0;
  std::string name;
  std::string dtype;  // of the quantized model's output
  Metrics metrics;
  // Classifier outputs (made by SOFTMAX / LOG_SOFTMAX or named "logit...",
  // and one sample holds a single class axis of >= 2 values; see
  // class_output.h): how often the quantized model's top-1 class equals the
  // float model's, and how often the float top-1 is among the quantized top 5
  // (only with more than 5 classes).
  bool classifier = false;
  int64_t classes = 0;
  uint64_t samples = 0;
  uint64_t top1_agree = 0;
  std::optional<uint64_t> top5_agree;
  // What the output is for and how the quantized model does at it
  // (task_metrics.h).
  TaskResult task;
};

// An op of the quantized model that computes in float.
struct FloatOp {
  int op_index = 0;
  std::string op;
  std::string output;  // its first output tensor
  std::string reason;
  std::optional<Metrics> output_metrics;  // vs the float model's tensor
};

struct Report {
  std::string float_model, quant_model;  // as given (labels only)
  std::string data_fingerprint;
  int64_t samples = 0;
  // No integer activations: weight-only schemes (dynamic, float16).
  bool weight_only = false;
  std::vector<LayerReport> layers;  // lowest introduced_db first
  std::vector<OutputReport> outputs;
  std::vector<FloatOp> float_ops;  // in op order
  // Changes the quantizer made so that the runtime runs an op faithfully
  // ("op 5 ADD: mask 'mask' range ... clamped"); filled by quantize.
  std::vector<std::string> repairs;
  // How the quantized model runs where it will run (DescribeRuntime);
  // filled by the commands, not by BuildReport.
  std::optional<RuntimeSection> runtime;
};

struct ReportOptions {
  int threads = 0;           // <= 0: all cores; samples run in parallel
  int histogram_layers = 5;  // layers (worst first) that get a histogram
  // Which model `data` was opened for: the float model (float data; integer
  // inputs of the quantized model get it quantized with their scale and
  // zero point) or the quantized one (integer data taken as is; the float
  // model gets it dequantized).
  bool data_for_quant_model = false;
  // The interpreters' integer arithmetic (runtime::InterpreterOptions).
  numerics::Modes numerics;
  std::function<void(int64_t, int64_t)> progress;  // (done, total)
  // The sample indices to run (a check set); empty: every sample.
  std::vector<int64_t> samples;
  // AccumulateReport: only the samples at positions p of the report (of
  // `samples`, or of the data set) with p % shard_count == shard_index.
  int shard_index = 0, shard_count = 1;
  // --task: output kinds that override the detected ones (task_kind.h).
  std::vector<TaskOverride> tasks;
  // --labels: the class of each sample of the data set (by its index in
  // the data, not in `samples`); empty: none. `labels_fingerprint` names
  // them in partial reports, so that only sums of the same labels merge.
  std::vector<int64_t> labels;
  std::string labels_fingerprint;
  // --labels DIR: ground-truth masks of segmentation outputs, one a sample
  // (label_masks.h); their fingerprint is made when they are found.
  std::string label_dir;
};

absl::StatusOr<Report> BuildReport(const ir::Model& float_model,
                                   const ir::Model& quant_model,
                                   const formats::SampleSource& data,
                                   const ReportOptions& options);

// The report in two steps, so that its samples can be split (report
// --shard, merge-reports): the sums of one shard's samples (report_sums.h;
// what depends on the whole report, as which samples get the attribution
// run, is decided by position in the whole report), and the report from
// the merged sums of all shards (`samples` of them). BuildReport is both
// over every sample; the data fingerprint is left to the caller here.
absl::StatusOr<ReportSums> AccumulateReport(const ir::Model& float_model,
                                            const ir::Model& quant_model,
                                            const formats::SampleSource& data,
                                            const ReportOptions& options);
absl::StatusOr<Report> FinishReport(const ir::Model& float_model,
                                    const ir::Model& quant_model,
                                    const ReportSums& sums, int64_t samples,
                                    const ReportOptions& options);

// The smallest SQNR over the outputs (+inf without outputs).
double MinOutputSqnr(const Report& report);

// The mean of the outputs' SQNRs, exact (infinite) outputs left out; +inf
// when every output is exact.
double MeanOutputSqnr(const Report& report);

// What to try next: the layers adding the most noise themselves (at most
// `n`), each with the quantize flag that raises its op, by the float
// model's op index.
struct Suggestion {
  int float_op = -1;
  std::string float_op_type;  // that op's type ("CONV_2D")
  std::string op;             // op type
  std::string output;         // the float model's tensor
  double added_db = 0;
  // Finite when the layer's grid costs noise downstream (LayerReport's
  // grid_db), read by grid_reader_type in the quantized model.
  double grid_db = std::numeric_limits<double>::infinity();
  std::string grid_reader_type;
  std::string flag;  // "--int16-op 12" (an int8 layer) or "--float-op 12"
};
std::vector<Suggestion> Suggestions(const Report& report, int n = 3);

}  // namespace qforge::report

#endif  // QFORGE_REPORT_REPORT_H_

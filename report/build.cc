// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// BuildReport: both models run sample by sample; an observer on the float
// run copies the activations the report compares (one sample's worth), an
// observer on the quantized run folds each matched tensor into per-sample
// sums right away, and a second quantized run with exact inputs measures
// what each layer adds itself (attribution.h). Per-sample sums are added
// exactly into ReportSums (report_sums.h), which FinishReport turns into
// the report.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <set>

#include "absl/strings/str_cat.h"
#include "base/exit_codes.h"
#include "base/status_macros.h"
#include "calibration/histogram.h"
#include "calibration/scan.h"
#include "ir/compressed_weights.h"
#include "ir/graph.h"
#include "ir/op_kind.h"
#include "report/attribution.h"
#include "report/class_output.h"
#include "report/compare_plan.h"
#include "report/float_ops.h"
#include "report/label_masks.h"
#include "report/model_inputs.h"
#include "report/report.h"
#include "report/task_kind.h"
#include "report/task_metrics.h"
#include "report/tensor_match.h"
#include "runtime/interpreter.h"
#include "runtime/sample_runner.h"

namespace qforge::report {
namespace {

constexpr int kHistogramBins = 64;
constexpr int64_t kAttributionSamples = 64;

// Whether the innermost axis of op `op`'s output holds channels.
bool OutputHasChannels(const ir::Subgraph& sg, int op) {
  return op < 0 || !ir::GetOpInfo(sg.operators[static_cast<size_t>(op)].kind)
                        .Has(ir::op_flags::kLastAxisNotChannels);
}

// The float model's copy of the activations one sample needs, and the
// histograms of the quantized layers' float values (integer counts: they
// merge exactly in any order).
class FloatCapture : public runtime::TensorObserver, public CapturedFloats {
 public:
  explicit FloatCapture(const Plan& plan)
      : plan_(plan),
        values_(plan.capture_of_f.size()),
        seen_(plan.capture_of_f.size(), false),
        histograms_(plan.capture_of_f.size()) {
    for (size_t c = 0; c < histograms_.size(); ++c) {
      if (plan.capture_histogram[c])
        histograms_[c] = std::make_unique<calibration::DenseHistogram>();
    }
  }
  void Reset() { std::fill(seen_.begin(), seen_.end(), false); }
  void Observe(int subgraph, int /*op*/, int tensor,
               const runtime::RtTensor& t) override {
    if (subgraph != 0 || t.type != ir::DataType::kFloat32 || t.data == nullptr)
      return;
    auto it = plan_.capture_of_f.find(tensor);
    if (it == plan_.capture_of_f.end()) return;
    const int c = it->second;
    const float* data = t.Data<float>();
    const int64_t n = t.NumElements();
    values_[c].assign(data, data + n);
    seen_[c] = true;
    if (histograms_[c] != nullptr) {
      // Calibration's scan: vectorized, and it counts runs of zeros (most
      // of a ReLU output) in a register; one bucket increment per value
      // waited on the previous one.
      calibration::ScanChunk(data, n, /*first=*/0, /*stride=*/1,
                             histograms_[c]->Reserve(static_cast<uint64_t>(n)));
    }
  }
  const std::vector<float>* Get(int c) const override {
    return seen_[c] ? &values_[c] : nullptr;
  }
  void FlushHistogram(int c, calibration::Histogram& out) {
    if (histograms_[c] != nullptr) histograms_[c]->FlushInto(out);
  }

 private:
  const Plan& plan_;
  std::vector<std::vector<float>> values_;
  std::vector<bool> seen_;
  std::vector<std::unique_ptr<calibration::DenseHistogram>> histograms_;
};

// What one sample contributes.
struct Partial {
  std::vector<ErrorSums> slots, outputs;
  // The exact-input and rounded runs' (attribution.h), per slot.
  std::vector<ErrorSums> own, rounding, propagated;
  std::vector<int8_t> top1, top5;  // per output: -1 n/a, 0, 1
  std::vector<int64_t> classes;
  std::vector<TaskSums> tasks;  // per output
};

class QuantCompare : public runtime::TensorObserver {
 public:
  QuantCompare(const Plan& plan, const FloatCapture& floats, Partial& partial)
      : plan_(plan), floats_(floats), partial_(partial) {}
  void Observe(int subgraph, int /*op*/, int tensor,
               const runtime::RtTensor& t) override {
    if (subgraph != 0 || t.data == nullptr) return;
    auto it = plan_.slot_of_q.find(tensor);
    if (it == plan_.slot_of_q.end()) return;
    const Slot& slot = plan_.slots[it->second];
    const std::vector<float>* f = floats_.Get(slot.capture);
    const int64_t n = t.NumElements();
    if (f == nullptr || static_cast<int64_t>(f->size()) != n) return;
    const int64_t channels =
        slot.channels && t.rank() > 0 ? t.dim(t.rank() - 1) : 0;
    ErrorSums& s = partial_.slots[it->second];
    if (!slot.quantized) {
      if (t.type == ir::DataType::kFloat32)
        s.AddFloat(f->data(), t.Data<float>(), n, channels);
      return;
    }
    switch (t.type) {
      case ir::DataType::kInt8:
        s.AddQuantized(f->data(), t.Data<int8_t>(), n, channels, slot.grid);
        break;
      case ir::DataType::kUInt8:
        s.AddQuantized(f->data(), t.Data<uint8_t>(), n, channels, slot.grid);
        break;
      case ir::DataType::kInt16:
        s.AddQuantized(f->data(), t.Data<int16_t>(), n, channels, slot.grid);
        break;
      default:
        break;
    }
  }

 private:
  const Plan& plan_;
  const FloatCapture& floats_;
  Partial& partial_;
};

// An output as float values (dequantized when the model returns integers).
absl::StatusOr<std::vector<float>> FloatOutput(const ir::HostTensor& out,
                                               const ir::Tensor& desc) {
  if (out.type() == ir::DataType::kFloat32) {
    absl::Span<const float> v = out.Flat<float>();
    return std::vector<float>(v.begin(), v.end());
  }
  ir::Tensor float_desc = desc;
  float_desc.type = ir::DataType::kFloat32;
  ASSIGN_OR_RETURN(ir::HostTensor f, ConvertInput(out, desc, float_desc));
  absl::Span<const float> v = f.Flat<float>();
  return std::vector<float>(v.begin(), v.end());
}

int64_t ArgMax(const std::vector<float>& v) {
  int64_t best = 0;
  for (size_t i = 1; i < v.size(); ++i) {
    if (v[i] > v[static_cast<size_t>(best)]) best = static_cast<int64_t>(i);
  }
  return best;
}

// Whether class `c` is among the k largest of `v` (ties: lower index first).
bool InTopK(const std::vector<float>& v, int64_t c, int k) {
  int above = 0;
  const float x = v[static_cast<size_t>(c)];
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] > x || (v[i] == x && static_cast<int64_t>(i) < c)) ++above;
  }
  return above < k;
}

Histogram Rebin(const calibration::Histogram& h, const Metrics& m,
                const QuantGrid& grid) {
  Histogram out;
  out.lo = std::min(m.float_min, grid.lo());
  out.hi = std::max(m.float_max, grid.hi());
  if (!(out.hi > out.lo)) out.hi = out.lo + 1;
  out.counts.assign(kHistogramBins, 0);
  const double width = (out.hi - out.lo) / kHistogramBins;
  for (const calibration::Bin& b : h.SortedBins()) {
    const double mid = 0.5 * (std::max(b.lo, out.lo) + std::min(b.hi, out.hi));
    const int k = static_cast<int>(
        std::clamp((mid - out.lo) / width, 0.0, kHistogramBins - 1.0));
    out.counts[static_cast<size_t>(k)] += b.count;
  }
  return out;
}

}  // namespace

std::vector<Suggestion> Suggestions(const Report& report, int n) {
  std::vector<Suggestion> out;
  std::set<int> seen;
  for (const LayerReport& l : report.layers) {  // worst first
    if (static_cast<int>(out.size()) == n) break;
    if (!std::isfinite(l.introduced_db) || l.float_op < 0 ||
        !seen.insert(l.float_op).second) {
      continue;
    }
    Suggestion s;
    s.float_op = l.float_op;
    s.op = l.float_op_type;
    s.output = l.float_name;
    s.added_db = l.introduced_db;
    s.grid_db = l.grid_db;
    s.grid_reader_type = l.grid_reader_type;
    // An int8 layer gains most from int16x8; an int16 one (or an inserted
    // QUANTIZE ahead of a float island) from float.
    s.flag = absl::StrCat(
        l.dtype == "int8" && l.op != "QUANTIZE" ? "--int16-op " : "--float-op ",
        l.float_op);
    out.push_back(std::move(s));
  }
  return out;
}

double MinOutputSqnr(const Report& report) {
  double m = std::numeric_limits<double>::infinity();
  for (const OutputReport& o : report.outputs)
    m = std::min(m, o.metrics.sqnr_db);
  return m;
}

double MeanOutputSqnr(const Report& report) {
  double sum = 0;
  int n = 0;
  for (const OutputReport& o : report.outputs) {
    if (!std::isfinite(o.metrics.sqnr_db)) continue;  // exact
    sum += o.metrics.sqnr_db;
    ++n;
  }
  return n == 0 ? std::numeric_limits<double>::infinity() : sum / n;
}

namespace {

// What the report compares, from the two models alone: the same for every
// shard of a report and for the merge that finishes it.
struct Layout {
  Plan plan;
  std::vector<int> slot_float_op;  // slot -> index into float_ops (-1)
  std::vector<FloatOp> float_ops;
  bool weight_only = false;
  std::map<std::string, int> float_by_name;
  // Tensor name -> the float op writing it, numbered as quantize numbers
  // ops (its rules, recipes and summary): with the DEQUANTIZE / DENSIFY
  // ops of float16 or sparse weights folded away, so that a suggested
  // --int16-op N names the same op. (index, file op)
  std::map<std::string, std::pair<int, int>> float_writer;
};

absl::StatusOr<Layout> MakeLayout(const ir::Model& float_model,
                                  const ir::Model& quant_model) {
  if (float_model.subgraphs.empty() || quant_model.subgraphs.empty()) {
    return absl::InvalidArgumentError("a model has no subgraph");
  }
  const ir::Subgraph& fsg = float_model.subgraphs[0];
  const ir::Subgraph& qsg = quant_model.subgraphs[0];
  if (fsg.inputs.size() != qsg.inputs.size() ||
      fsg.outputs.size() != qsg.outputs.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the models do not correspond: the float model has ", fsg.inputs.size(),
        " inputs and ", fsg.outputs.size(), " outputs, the quantized one ",
        qsg.inputs.size(), " and ", qsg.outputs.size()));
  }
  Layout layout;
  layout.weight_only = !HasIntegerActivations(quant_model);
  if (!layout.weight_only) layout.float_ops = FindFloatOps(quant_model);
  layout.float_by_name = FloatActivationsByName(float_model);
  const std::map<std::string, int>& float_by_name = layout.float_by_name;
  const std::vector<int> folded_index = ir::FoldedOpIndices(float_model);
  for (size_t i = 0; i < fsg.operators.size(); ++i) {
    const int index = folded_index[i];  // both of subgraph 0
    if (index < 0) continue;
    for (int32_t t : fsg.operators[i].outputs) {
      if (t >= 0 && static_cast<size_t>(t) < fsg.tensors.size()) {
        layout.float_writer.emplace(fsg.tensors[static_cast<size_t>(t)].name,
                                    std::make_pair(index, static_cast<int>(i)));
      }
    }
  }
  Plan& plan = layout.plan;
  auto capture_for = [&plan](int f_tensor, bool histogram) {
    auto [it, inserted] = plan.capture_of_f.emplace(
        f_tensor, static_cast<int>(plan.capture_of_f.size()));
    if (inserted) plan.capture_histogram.push_back(false);
    if (histogram) plan.capture_histogram[it->second] = true;
    return it->second;
  };
  const ir::Graph q_graph(qsg);
  for (size_t t = 0; t < qsg.tensors.size(); ++t) {
    const ir::Tensor& qt = qsg.tensors[t];
    if (!IsQuantizedActivation(quant_model, qt)) continue;
    const std::string fname = MatchFloatName(qt.name, float_by_name);
    if (fname.empty()) continue;
    Slot s;
    s.q_tensor = static_cast<int>(t);
    s.capture = capture_for(float_by_name.at(fname), true);
    s.quantized = true;
    s.channels =
        OutputHasChannels(qsg, q_graph.producer(static_cast<int32_t>(t)));
    s.qtype = qt.type;
    ASSIGN_OR_RETURN(s.grid, TensorGrid(qt));  // per-tensor: checked above
    plan.slot_of_q[s.q_tensor] = static_cast<int>(plan.slots.size());
    plan.slots.push_back(s);
    layout.slot_float_op.push_back(-1);
  }
  for (size_t k = 0; k < layout.float_ops.size(); ++k) {
    const std::vector<int32_t>& outs =
        qsg.operators[layout.float_ops[k].op_index].outputs;
    if (outs.empty() || outs[0] < 0 ||
        qsg.tensors[outs[0]].type != ir::DataType::kFloat32)
      continue;
    auto f = float_by_name.find(qsg.tensors[outs[0]].name);
    if (f == float_by_name.end()) continue;
    Slot s;
    s.q_tensor = outs[0];
    s.capture = capture_for(f->second, false);
    s.channels = OutputHasChannels(qsg, layout.float_ops[k].op_index);
    plan.slot_of_q[s.q_tensor] = static_cast<int>(plan.slots.size());
    plan.slots.push_back(s);
    layout.slot_float_op.push_back(static_cast<int>(k));
  }
  return layout;
}

}  // namespace

absl::StatusOr<ReportSums> AccumulateReport(const ir::Model& float_model,
                                            const ir::Model& quant_model,
                                            const formats::SampleSource& data,
                                            const ReportOptions& options) {
  ASSIGN_OR_RETURN(Layout layout, MakeLayout(float_model, quant_model));
  const Plan& plan = layout.plan;
  const ir::Subgraph& fsg = float_model.subgraphs[0];
  const ir::Subgraph& qsg = quant_model.subgraphs[0];
  if (options.shard_count < 1 || options.shard_index < 0 ||
      options.shard_index >= options.shard_count) {
    return absl::InvalidArgumentError(
        absl::StrCat("--shard ", options.shard_index, "/", options.shard_count,
                     ": need 0 <= K < N"));
  }
  // The samples of the whole report: all, or the subset the options name.
  for (int64_t k : options.samples) {
    if (k < 0 || k >= data.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "sample ", k, " is out of range (", data.size(), " samples)"));
    }
  }
  std::vector<int64_t> all = options.samples;
  if (all.empty()) {
    all.resize(static_cast<size_t>(data.size()));
    std::iota(all.begin(), all.end(), int64_t{0});
  }
  const int64_t total = static_cast<int64_t>(all.size());
  if (total == 0) {
    return absl::InvalidArgumentError("the data set has no samples");
  }
  // This shard's: positions p of the report with p % N == K.
  std::vector<int64_t> samples, positions;
  for (int64_t p = options.shard_index; p < total; p += options.shard_count) {
    positions.push_back(p);
    samples.push_back(all[static_cast<size_t>(p)]);
  }
  const int64_t count = static_cast<int64_t>(samples.size());
  const size_t num_outputs = fsg.outputs.size();
  ReportSums sums;
  sums.slots.resize(plan.slots.size());
  sums.own.resize(plan.slots.size());
  sums.rounding.resize(plan.slots.size());
  sums.propagated.resize(plan.slots.size());
  sums.outputs.resize(num_outputs);
  sums.classes.resize(num_outputs);
  sums.tasks.resize(num_outputs);
  ASSIGN_OR_RETURN(const std::vector<OutputTask> tasks,
                   DetectTasks(float_model, options.tasks));
  for (const TaskOverride& o : options.tasks) {
    sums.task_overrides.push_back(
        absl::StrCat(o.output, "=", TaskKindName(o.kind)));
  }
  sums.labels = options.labels_fingerprint;
  if (!options.labels.empty() &&
      static_cast<int64_t>(options.labels.size()) != data.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--labels has ", options.labels.size(), " labels for ",
                     data.size(), " samples"));
  }
  LabelMaskSet masks;
  if (!options.label_dir.empty()) {
    if (std::none_of(tasks.begin(), tasks.end(), [](const OutputTask& t) {
          return t.kind == TaskKind::kSegmentation;
        })) {
      return UsageError(absl::StrCat(
          "--labels ", options.label_dir,
          ": a directory gives segmentation masks, and no output is a "
          "segmentation (--task OUTPUT=segmentation)"));
    }
    ASSIGN_OR_RETURN(masks, FindLabelMasks(options.label_dir, data, all));
    sums.labels = masks.fingerprint;
  }
  if (count == 0) return sums;  // more shards than samples

  runtime::SampleRunnerOptions ro;
  ro.threads = options.threads;
  ro.interpreter.numerics = options.numerics;
  ro.model_names = {"float model", "quantized model"};
  ASSIGN_OR_RETURN(runtime::SampleRunner runner,
                   runtime::SampleRunner::Create({&float_model, &quant_model},
                                                 data, samples, ro));
  std::vector<std::unique_ptr<FloatCapture>> captures;
  for (int w = 0; w < runner.workers(); ++w) {
    captures.push_back(std::make_unique<FloatCapture>(plan));
  }

  std::vector<bool> scores_classes(num_outputs);
  for (size_t j = 0; j < num_outputs; ++j) {
    scores_classes[j] = tasks[j].kind == TaskKind::kClassification;
  }
  // Exact sums do not need the order; the first sample's class count does.
  runtime::InSampleOrder<Partial> merged([&](int64_t k, Partial& q) {
    for (size_t s = 0; s < sums.slots.size(); ++s) {
      sums.slots[s].Add(q.slots[s]);
      sums.own[s].Add(q.own[s]);
      sums.rounding[s].Add(q.rounding[s]);
      sums.propagated[s].Add(q.propagated[s]);
    }
    for (size_t j = 0; j < num_outputs; ++j) {
      sums.outputs[j].Add(q.outputs[j]);
      sums.tasks[j].Merge(q.tasks[j]);
      OutputClasses& c = sums.classes[j];
      if (c.first_position < 0) {
        c.first_position = positions[static_cast<size_t>(k)];
        c.first_classes = q.classes[j];
      }
      if (q.top1[j] >= 0) {
        ClassCounts& n = c.counts[q.classes[j]];
        ++n.judged;
        n.top1 += static_cast<uint64_t>(q.top1[j]);
        if (q.top5[j] >= 0) n.top5 += static_cast<uint64_t>(q.top5[j]);
      }
    }
    if (options.progress) options.progress(k + 1, count);
  });

  // The exact-input run (attribution.h) costs a quantized run and two
  // comparisons per layer: every stride-th sample of the whole report only,
  // 64 to 127 of them (the noise a layer adds settles long before).
  const int64_t attribution_stride =
      std::max<int64_t>(1, total / kAttributionSamples);
  auto run_sample = [&](runtime::SampleWorker& w, int64_t k) -> absl::Status {
    std::vector<ir::HostTensor>& given = w.inputs;
    runtime::Interpreter& float_run = *w.interpreters[0];
    runtime::Interpreter& quant_run = *w.interpreters[1];
    FloatCapture& capture = *captures[static_cast<size_t>(w.index)];
    std::vector<ir::HostTensor> finputs, qinputs;
    for (size_t i = 0; i < given.size() && i < fsg.inputs.size(); ++i) {
      const ir::Tensor& ft = fsg.tensors[fsg.inputs[i]];
      const ir::Tensor& qt = qsg.tensors[qsg.inputs[i]];
      if (options.data_for_quant_model) {
        ASSIGN_OR_RETURN(ir::HostTensor f, ConvertInput(given[i], qt, ft));
        finputs.push_back(std::move(f));
        qinputs.push_back(std::move(given[i]));
      } else {
        ASSIGN_OR_RETURN(ir::HostTensor q, ConvertInput(given[i], ft, qt));
        qinputs.push_back(std::move(q));
        finputs.push_back(std::move(given[i]));
      }
    }
    capture.Reset();
    absl::Status s = float_run.Run(finputs, &capture);
    if (!s.ok()) {
      return absl::Status(s.code(), absl::StrCat("float model: ", s.message()));
    }
    Partial p;
    p.slots.resize(plan.slots.size());
    p.own.resize(plan.slots.size());
    p.rounding.resize(plan.slots.size());
    p.propagated.resize(plan.slots.size());
    p.outputs.resize(num_outputs);
    p.top1.assign(num_outputs, -1);
    p.top5.assign(num_outputs, -1);
    p.classes.assign(num_outputs, 0);
    p.tasks.resize(num_outputs);
    QuantCompare compare(plan, capture, p);
    s = quant_run.Run(qinputs, &compare);
    if (!s.ok()) {
      return absl::Status(s.code(),
                          absl::StrCat("quantized model: ", s.message()));
    }
    // Each output's values, kept for the task metrics (a detection's
    // reads its group's outputs together).
    std::vector<std::vector<float>> fvs(num_outputs), qvs(num_outputs);
    std::vector<OutputValues> views(num_outputs);
    for (size_t j = 0; j < num_outputs; ++j) {
      const ir::HostTensor fo = float_run.OutputHost(static_cast<int>(j));
      const ir::HostTensor qo = quant_run.OutputHost(static_cast<int>(j));
      if (fo.type() != ir::DataType::kFloat32) continue;
      ASSIGN_OR_RETURN(fvs[j], FloatOutput(fo, fsg.tensors[fsg.outputs[j]]));
      ASSIGN_OR_RETURN(qvs[j], FloatOutput(qo, qsg.tensors[qsg.outputs[j]]));
      const std::vector<float>& fv = fvs[j];
      const std::vector<float>& qv = qvs[j];
      views[j] = {&fv, &qv, fo.shape()};
      if (fv.size() != qv.size()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "output ", j, ": the float model gives ", fo.DebugString(),
            ", the quantized one ", qo.DebugString()));
      }
      p.outputs[j].AddFloat(fv.data(), qv.data(),
                            static_cast<int64_t>(fv.size()), /*channels=*/0);
      p.classes[j] = scores_classes[j] ? ClassCount(fo.shape()) : 0;
      if (p.classes[j] > 0) {
        const int64_t c = ArgMax(fv);
        p.top1[j] = ArgMax(qv) == c ? 1 : 0;
        if (p.classes[j] > 5) p.top5[j] = InTopK(qv, c, 5) ? 1 : 0;
      }
    }
    const int64_t sample = samples[static_cast<size_t>(k)];
    const int64_t label = options.labels.empty()
                              ? -1
                              : options.labels[static_cast<size_t>(sample)];
    for (size_t j = 0; j < num_outputs; ++j) {
      if (tasks[j].kind == TaskKind::kClassification && p.classes[j] == 0)
        continue;  // not one class axis: no top-1 to judge
      AddTaskSample(tasks[j], static_cast<int>(j), views, label, p.tasks[j]);
    }
    if (!masks.paths.empty()) {
      ASSIGN_OR_RETURN(const LabelMask truth,
                       ReadLabelMask(masks.paths[static_cast<size_t>(sample)]));
      for (size_t j = 0; j < num_outputs; ++j) {
        if (tasks[j].kind != TaskKind::kSegmentation || views[j].f == nullptr)
          continue;
        RETURN_IF_ERROR(AddLabelMask(tasks[j], views[j], truth, p.tasks[j]));
      }
    }
    // Last: it changes the quantized run's tensors, outputs included.
    if (positions[static_cast<size_t>(k)] % attribution_stride == 0) {
      ExactInputs exact(plan, capture, p.own, p.rounding);
      s = quant_run.Run(qinputs, &exact);
      if (!s.ok()) {
        return absl::Status(s.code(),
                            absl::StrCat("quantized model: ", s.message()));
      }
      RoundedFloats rounded(plan, capture, p.propagated);
      s = float_run.Run(finputs, &rounded);
      if (!s.ok()) {
        return absl::Status(s.code(),
                            absl::StrCat("float model: ", s.message()));
      }
    }
    merged.Add(k, std::move(p));
    return absl::OkStatus();
  };
  RETURN_IF_ERROR(runner.Run(run_sample));
  for (size_t c = 0; c < plan.capture_histogram.size(); ++c) {
    if (!plan.capture_histogram[c]) continue;
    calibration::Histogram& h = sums.histograms[static_cast<int>(c)];
    for (auto& capture : captures)
      capture->FlushHistogram(static_cast<int>(c), h);
  }
  return sums;
}

absl::StatusOr<Report> FinishReport(const ir::Model& float_model,
                                    const ir::Model& quant_model,
                                    const ReportSums& sums, int64_t samples,
                                    const ReportOptions& options) {
  ASSIGN_OR_RETURN(Layout layout, MakeLayout(float_model, quant_model));
  const Plan& plan = layout.plan;
  const ir::Subgraph& fsg = float_model.subgraphs[0];
  const ir::Subgraph& qsg = quant_model.subgraphs[0];
  const size_t num_outputs = fsg.outputs.size();
  if (sums.slots.size() != plan.slots.size() ||
      sums.own.size() != plan.slots.size() ||
      sums.rounding.size() != plan.slots.size() ||
      sums.propagated.size() != plan.slots.size() ||
      sums.outputs.size() != num_outputs ||
      sums.classes.size() != num_outputs) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the sums are not of these models: ", sums.slots.size(),
        " compared tensors and ", sums.outputs.size(), " outputs where they ",
        "have ", plan.slots.size(), " and ", num_outputs));
  }
  if (sums.tasks.size() != num_outputs) {
    return absl::InvalidArgumentError("the sums have no task metrics");
  }
  std::vector<TaskOverride> overrides;
  for (const std::string& text : sums.task_overrides) {
    ASSIGN_OR_RETURN(TaskOverride o, ParseTaskOverride(text));
    overrides.push_back(std::move(o));
  }
  ASSIGN_OR_RETURN(const std::vector<OutputTask> tasks,
                   DetectTasks(float_model, overrides));
  Report report;
  report.samples = samples;
  report.weight_only = layout.weight_only;
  report.float_ops = layout.float_ops;
  const std::map<std::string, int>& float_by_name = layout.float_by_name;
  const ir::Graph q_graph(qsg);
  std::vector<ErrorSums> slot_sums, own_sums, rounding_sums, propagated_sums;
  for (size_t s = 0; s < plan.slots.size(); ++s) {
    slot_sums.push_back(sums.slots[s].Rounded());
    own_sums.push_back(sums.own[s].Rounded());
    rounding_sums.push_back(sums.rounding[s].Rounded());
    propagated_sums.push_back(sums.propagated[s].Rounded());
  }

  // Layers, worst first.
  std::vector<int> layer_slot;
  for (size_t s = 0; s < plan.slots.size(); ++s) {
    const Slot& slot = plan.slots[s];
    if (slot_sums[s].seen() == 0) continue;
    if (!slot.quantized) {
      report.float_ops[layout.slot_float_op[s]].output_metrics =
          Finish(slot_sums[s], nullptr);
      continue;
    }
    LayerReport l;
    const ir::Tensor& qt = qsg.tensors[slot.q_tensor];
    l.name = qt.name;
    l.float_name = MatchFloatName(qt.name, float_by_name);
    l.op_index = q_graph.producer(slot.q_tensor);
    if (auto w = layout.float_writer.find(l.float_name);
        w != layout.float_writer.end()) {
      std::pair<int, int> writer = w->second;
      // A standalone activation the quantizer folded into the op before it
      // (quantizer/fold_activations.h): that op writes the activation's
      // output, and the layer, its noise and a suggestion for it are the
      // producer's.
      const ir::Operator& fw =
          fsg.operators[static_cast<size_t>(writer.second)];
      if (l.op_index >= 0 && ir::GetOpInfo(fw.kind).clamps &&
          !fw.inputs.empty() && fw.inputs[0] >= 0 &&
          qsg.operators[static_cast<size_t>(l.op_index)].kind != fw.kind) {
        auto p = layout.float_writer.find(
            fsg.tensors[static_cast<size_t>(fw.inputs[0])].name);
        if (p != layout.float_writer.end() &&
            fsg.operators[static_cast<size_t>(p->second.second)].kind ==
                qsg.operators[static_cast<size_t>(l.op_index)].kind) {
          writer = p->second;
        }
      }
      l.float_op = writer.first;
      l.float_op_type =
          fsg.operators[static_cast<size_t>(writer.second)].DisplayName();
    }
    l.op = l.op_index >= 0 ? qsg.operators[l.op_index].DisplayName() : "input";
    l.dtype = std::string(ir::DataTypeName(qt.type));
    l.grid = slot.grid;
    l.metrics = Finish(slot_sums[s], &slot.grid);
    report.layers.push_back(std::move(l));
    layer_slot.push_back(static_cast<int>(s));
  }
  const Attribution blame =
      Attribute(qsg, plan, own_sums, rounding_sums, propagated_sums);
  for (size_t i = 0; i < report.layers.size(); ++i) {
    const size_t s = static_cast<size_t>(layer_slot[i]);
    LayerReport& l = report.layers[i];
    l.introduced_db = blame.introduced_db[s];
    l.grid_db = blame.grid_db[s];
    l.grid_reader_op = blame.grid_reader[s];
    if (l.grid_reader_op >= 0) {
      const ir::Operator& reader =
          qsg.operators[static_cast<size_t>(l.grid_reader_op)];
      l.grid_reader_type = reader.DisplayName();
      if (!reader.outputs.empty() && reader.outputs[0] >= 0) {
        l.grid_reader_output = MatchFloatName(
            qsg.tensors[static_cast<size_t>(reader.outputs[0])].name,
            float_by_name);
      }
    }
  }
  std::vector<size_t> order(report.layers.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const LayerReport& x = report.layers[a];
    const LayerReport& y = report.layers[b];
    if (x.introduced_db != y.introduced_db)
      return x.introduced_db < y.introduced_db;
    if (x.metrics.rank_db != y.metrics.rank_db)
      return x.metrics.rank_db < y.metrics.rank_db;
    return x.op_index < y.op_index;
  });
  std::vector<LayerReport> sorted;
  const calibration::Histogram no_values;
  for (size_t i = 0; i < order.size(); ++i) {
    LayerReport l = std::move(report.layers[order[i]]);
    if (static_cast<int>(i) < options.histogram_layers) {
      const int c = plan.slots[layer_slot[order[i]]].capture;
      auto h = sums.histograms.find(c);
      l.histogram = Rebin(h != sums.histograms.end() ? h->second : no_values,
                          l.metrics, l.grid);
    }
    sorted.push_back(std::move(l));
  }
  report.layers = std::move(sorted);

  for (size_t j = 0; j < num_outputs; ++j) {
    OutputReport o;
    o.index = static_cast<int>(j);
    const ir::Tensor& qt = qsg.tensors[qsg.outputs[j]];
    o.name = fsg.tensors[fsg.outputs[j]].name;
    o.dtype = std::string(ir::DataTypeName(qt.type));
    o.metrics = Finish(sums.outputs[j].Rounded(), nullptr);
    const OutputClasses& c = sums.classes[j];
    o.classes = std::max<int64_t>(0, c.first_classes);
    o.classifier = o.classes > 0;
    if (auto n = c.counts.find(o.classes);
        o.classifier && n != c.counts.end()) {
      o.samples = n->second.judged;
      o.top1_agree = n->second.top1;
      if (o.classes > 5) o.top5_agree = n->second.top5;
    } else if (o.classes > 5) {
      o.top5_agree = 0;
    }
    o.task = FinishTask(tasks[j], sums.tasks[j]);
    report.outputs.push_back(std::move(o));
  }
  return report;
}

absl::StatusOr<Report> BuildReport(const ir::Model& float_model,
                                   const ir::Model& quant_model,
                                   const formats::SampleSource& data,
                                   const ReportOptions& options) {
  ReportOptions whole = options;
  whole.shard_index = 0;
  whole.shard_count = 1;
  ASSIGN_OR_RETURN(ReportSums sums,
                   AccumulateReport(float_model, quant_model, data, whole));
  const int64_t samples = options.samples.empty()
                              ? data.size()
                              : static_cast<int64_t>(options.samples.size());
  ASSIGN_OR_RETURN(Report report, FinishReport(float_model, quant_model, sums,
                                               samples, options));
  // After the samples: array files were hashed as they were read.
  ASSIGN_OR_RETURN(report.data_fingerprint, data.Fingerprint());
  return report;
}

}  // namespace qforge::report

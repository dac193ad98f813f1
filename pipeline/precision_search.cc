// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/precision_search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "formats/tflite_writer.h"
#include "pipeline/trials.h"
#include "quantizer/folded_model.h"
#include "quantizer/op_quant_spec.h"
#include "quantizer/plan.h"
#include "quantizer/quantize.h"
#include "report/report.h"
#include "runtime/latency.h"
#include "runtime/profile.h"

namespace qforge::pipeline {
namespace {

using Choices = std::vector<quantizer::QuantizeResult::OpChoice>;

// Op index by its first output's name (the first op, should two share it).
std::map<std::string, int> OpsByOutput(const Choices& choices) {
  std::map<std::string, int> out;
  for (size_t i = 0; i < choices.size(); ++i) {
    out.emplace(choices[i].output, static_cast<int>(i));
  }
  return out;
}

struct Trial {
  quantizer::QuantizeResult result;
  report::Report report;
  std::string label;                // what it raised, for notes
  std::vector<uint8_t> serialized;  // --eval-cmd: the bytes to score
  std::optional<double> eval_score;
  double db = 0;          // the target metric
  int64_t bytes = 0;      // serialized size
  double latency_ms = 0;  // estimated LiteRT latency (litert only)
  int float_ops = 0;      // ops left float
};

bool IsFloat(const std::string& precision) {
  return precision == "float" || precision == "float16" ||
         precision == "float32";
}

// Whether most of what `layer` adds is its grid's cost in the op reading
// it (report.h): then that reader must take the wider tensor too.
bool GridDominates(const report::LayerReport& layer) {
  return !layer.grid_reader_output.empty() && std::isfinite(layer.grid_db) &&
         layer.grid_db <= layer.introduced_db + 3;
}

// The layers adding the most noise in `r` (report::Suggestions), named as
// --float-op takes them.
std::string Culprits(const report::Report& r) {
  std::string out;
  for (const report::Suggestion& g : report::Suggestions(r)) {
    absl::StrAppend(&out, out.empty() ? "" : "; ", "op ", g.float_op, " ", g.op,
                    " '", g.output, "' adds ",
                    absl::StrFormat("%.1f", g.added_db), " dB");
  }
  return out.empty() ? out : "the noisiest layers left: " + out;
}

class Search {
 public:
  // `folded`: `model` as the quantizer sees it, whose op indices the rules
  // and choices use.
  Search(const ir::Model& model, const ir::Model& work,
         quantizer::FoldedModel folded, const calibration::StatsFile& stats,
         const formats::SampleSource& data, const std::vector<int64_t>& check,
         const quantizer::QuantizeOptions& options, const SearchOptions& search,
         const Hooks& hooks)
      : model_(model),
        work_(work),
        folded_(std::move(folded)),
        stats_(stats),
        data_(data),
        base_(options),
        search_(search),
        hooks_(hooks),
        prefix_(search.has_target ? search.note : "eval-cmd") {
    report_.threads = search.threads;
    if (options.runtime == runtime::Runtime::kLitert) {
      float_latency_ms_ = runtime::EstimateLitertLatency(model).ms;
    }
    report_.samples = check;
    report_.histogram_layers = 0;
    report_.tasks = search.tasks;
    report_.labels = search.labels;
    report_.labels_fingerprint = search.labels_fingerprint;
    const ir::Model& fm = folded_.model();
    const ir::Subgraph& sg = fm.subgraphs[0];
    has_weights_.assign(sg.operators.size(), false);
    weight_bytes_.assign(sg.operators.size(), 0);
    for (size_t i = 0; i < sg.operators.size(); ++i) {
      for (int32_t t : sg.operators[i].inputs) {
        if (t < 0 || static_cast<size_t>(t) >= sg.tensors.size()) continue;
        const ir::Tensor& tensor = sg.tensors[static_cast<size_t>(t)];
        if (tensor.type == ir::DataType::kFloat32 && tensor.buffer != 0 &&
            tensor.buffer < fm.buffers.size() &&
            fm.buffers[tensor.buffer].data.size() >= 2 * sizeof(float)) {
          has_weights_[i] = true;
          weight_bytes_[i] += fm.buffers[tensor.buffer].data.size();
        }
        std::vector<int>& r = readers_[sg.tensors[t].name];
        if (r.empty() || r.back() != static_cast<int>(i)) {
          r.push_back(static_cast<int>(i));
        }
      }
    }
  }

  absl::StatusOr<SearchOutcome> Run();

 private:
  // Quantizes with the user's rules plus `extra`, measures on the check set.
  absl::StatusOr<Trial> Try(const std::vector<quantizer::PrecisionRule>& extra,
                            const std::string& label);
  // Ops of `choices` in `precision`, the noisiest (by the layer report)
  // first.
  std::vector<int> Ranking(const Trial& t, const std::string& precision) const;
  // Rules raising the first k ops of `order` to `to`.
  static std::vector<quantizer::PrecisionRule> Raise(
      const std::vector<int>& order, size_t k, const std::string& to);
  // One rung of the ladder: raises the fewest of `best`'s ops in `from` to
  // `to` that meet the target (bisection; assumes more precision is not
  // worse). True when met; otherwise all of them are raised in `chosen`
  // and `best`.
  // kBounded: the rung would break a bound (out.limit says which).
  enum class Rung { kMet, kNotMet, kBounded };
  absl::StatusOr<Rung> Climb(const std::string& from, const std::string& to,
                             std::vector<quantizer::PrecisionRule>& chosen,
                             Trial& best, SearchOutcome& out);
  // `work_` with the float model's constants for the ops `options` keep
  // float.
  absl::StatusOr<ir::Model> WithFloatConstants(
      const quantizer::QuantizeOptions& options) const;
  // The ops to raise next, a rung each (integer -> float16 weights ->
  // float32): the culprit layer's op; or, when its noise comes from a
  // border where a float op's output is quantized again (the op is float
  // already, the layer an inserted QUANTIZE), the ops that read that
  // output, so that the tensor stays float. Empty: nothing left.
  // (op, precision) pairs raised together.
  using Step = std::vector<std::pair<int, std::string>>;
  Step FloatStep(const Trial& t) const;
  // Whether `t` meets the target, then (--eval-cmd) whether the user's
  // command accepts it. False, with budget_stop_ set, when that needs a
  // run and --eval-budget is spent.
  absl::StatusOr<bool> Met(Trial& t);
  // --eval-cmd's budget is spent: no further plan can be accepted.
  bool Spent() {
    if (evaluator_ == nullptr || !evaluator_->Spent()) return false;
    budget_stop_ = true;
    return true;
  }
  std::string SpentText() const {
    return absl::StrCat("--eval-budget ", search_.eval.budget, " spent");
  }
  // "" when `t` is within the search's bounds (--max-size,
  // --max-float-ops, --max-latency-ratio); else which one it breaks,
  // raising `label`.
  std::string Bound(const Trial& t, const std::string& label) const;
  // litert: when `best` is estimated slower than the float model, or does
  // not meet the target, tries every op in float (float16 weights where
  // it has them) and takes it if it meets the target within the bounds
  // and is estimated faster; then the plan is that one step. Returns
  // whether the plan in `best` meets the target.
  absl::StatusOr<bool> WholeFloat(Trial& best, bool met, SearchOutcome& out);

  const ir::Model& model_;
  const ir::Model& work_;
  const quantizer::FoldedModel folded_;
  // The float model's ops reading each tensor (by name), in op order.
  std::map<std::string, std::vector<int>> readers_;
  // Whether each op of the float model reads a float32 constant of 2 or
  // more values (weights that float16 would halve).
  std::vector<bool> has_weights_;
  std::vector<size_t> weight_bytes_;  // those constants' float32 bytes
  const calibration::StatsFile& stats_;
  const formats::SampleSource& data_;
  const quantizer::QuantizeOptions base_;
  const SearchOptions search_;
  const Hooks hooks_;
  // The float model's estimated LiteRT latency (--max-latency-ratio).
  double float_latency_ms_ = 0;
  report::ReportOptions report_;
  const std::string prefix_;  // of the notes: target-sqnr, target, eval-cmd
  bool budget_stop_ = false;

 public:
  // --trials-dir: where the trials' reports come from instead.
  std::optional<TrialsDir> trials_;
  // --eval-cmd: the user's command accepts plans.
  std::unique_ptr<CandidateEvaluator> evaluator_;
};

absl::StatusOr<bool> Search::Met(Trial& t) {
  if (search_.has_target &&
      !(LowerIsBetter(search_.metric) ? t.db <= search_.target
                                      : t.db >= search_.target)) {
    return false;
  }
  if (evaluator_ == nullptr) return true;
  ASSIGN_OR_RETURN(const std::optional<EvalVerdict> verdict,
                   evaluator_->Evaluate(t.serialized, t.label));
  t.serialized = std::vector<uint8_t>();
  if (!verdict.has_value()) {
    budget_stop_ = true;
    return false;
  }
  t.eval_score = verdict->score;
  return verdict->accepted;
}

absl::StatusOr<Trial> Search::Try(
    const std::vector<quantizer::PrecisionRule>& extra,
    const std::string& label) {
  quantizer::QuantizeOptions options = base_;
  options.rules.insert(options.rules.end(), extra.begin(), extra.end());
  Trial t;
  t.label = label;
  if (&work_ == &model_) {
    ASSIGN_OR_RETURN(t.result, quantizer::Quantize(model_, &stats_, options));
  } else {
    ASSIGN_OR_RETURN(const ir::Model input, WithFloatConstants(options));
    ASSIGN_OR_RETURN(t.result, quantizer::Quantize(input, &stats_, options));
  }
  if (trials_.has_value()) {
    ASSIGN_OR_RETURN(t.report,
                     trials_->Evaluate(model_, t.result.model, data_, report_));
  } else {
    ASSIGN_OR_RETURN(
        t.report, report::BuildReport(model_, t.result.model, data_, report_));
  }
  const std::optional<double> metric =
      TargetMetricOf(t.report, search_.metric, search_.percent);
  if (!metric.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--target-metric ", TargetMetricName(search_.metric),
                     ": the model has no ", TargetMetricNeeds(search_.metric)));
  }
  t.db = *metric;
  for (const auto& c : t.result.op_choices) t.float_ops += IsFloat(c.precision);
  formats::WriteOptions write;
  write.drop_unused = true;
  ASSIGN_OR_RETURN(std::vector<uint8_t> bytes,
                   formats::SerializeTflite(t.result.model, write));
  t.bytes = static_cast<int64_t>(bytes.size());
  // The same bytes as the model written, should this plan win.
  if (evaluator_ != nullptr) t.serialized = std::move(bytes);
  if (base_.runtime == runtime::Runtime::kLitert) {
    t.latency_ms = runtime::EstimateLitertLatency(t.result.model).ms;
  }
  if (!hooks_.quiet()) {
    hooks_.Note(
        absl::StrCat(prefix_, ": ", label, ": ",
                     TargetMetricText(search_.metric, t.db, search_.percent)));
  }
  return t;
}

std::vector<int> Search::Ranking(const Trial& t,
                                 const std::string& precision) const {
  const Choices& choices = t.result.op_choices;
  const std::map<std::string, int> by_output = OpsByOutput(choices);
  std::vector<int> order;
  std::vector<bool> ranked(choices.size(), false);
  auto rank = [&](const std::string& output) {
    auto it = by_output.find(output);
    if (it == by_output.end()) return;
    const size_t i = static_cast<size_t>(it->second);
    if (ranked[i] || choices[i].precision != precision) return;
    ranked[i] = true;
    order.push_back(it->second);
  };
  for (const report::LayerReport& layer : t.report.layers) {  // worst first
    rank(layer.float_name);
    // A wider grid helps only where its reader takes it.
    if (GridDominates(layer)) rank(layer.grid_reader_output);
  }
  // Ops the report does not compare (no float twin of their output).
  for (size_t i = 0; i < choices.size(); ++i) {
    if (!ranked[i] && choices[i].precision == precision) {
      order.push_back(static_cast<int>(i));
    }
  }
  return order;
}

std::vector<quantizer::PrecisionRule> Search::Raise(
    const std::vector<int>& order, size_t k, const std::string& to) {
  std::vector<quantizer::PrecisionRule> rules;
  for (size_t i = 0; i < k && i < order.size(); ++i) {
    rules.push_back({std::to_string(order[i]), to, "--target-sqnr"});
  }
  return rules;
}

std::string Search::Bound(const Trial& t, const std::string& label) const {
  if (search_.max_size > 0 && t.bytes > search_.max_size) {
    return absl::StrCat("raising ", label, " would write ", t.bytes,
                        " bytes, over --max-size ", search_.max_size);
  }
  if (search_.max_float_ops >= 0 && t.float_ops > search_.max_float_ops) {
    return absl::StrCat("raising ", label, " would leave ", t.float_ops,
                        " ops float, over --max-float-ops ",
                        search_.max_float_ops);
  }
  if (search_.max_latency_ratio > 0 &&
      t.latency_ms > search_.max_latency_ratio * float_latency_ms_) {
    return absl::StrFormat(
        "raising %s would take an estimated %.3f ms in LiteRT, over "
        "--max-latency-ratio %g of the float model's %.3f ms",
        label, t.latency_ms, search_.max_latency_ratio, float_latency_ms_);
  }
  return "";
}

absl::StatusOr<Search::Rung> Search::Climb(
    const std::string& from, const std::string& to,
    std::vector<quantizer::PrecisionRule>& chosen, Trial& best,
    SearchOutcome& out) {
  std::vector<int> order = Ranking(best, from);
  // On a runtime without float ops (tflm), an op with no int16 form there
  // (PRELU in qforge, RESIZE_BILINEAR in TFLM) raised to int16 would fall
  // to float, which that runtime refuses: it stays at `from`.
  if (to == "int16" && !runtime::RunsFloatOps(base_.runtime)) {
    const ir::Subgraph& fsg = folded_.model().subgraphs[0];
    order.erase(
        std::remove_if(order.begin(), order.end(),
                       [&](int op) {
                         if (static_cast<size_t>(op) >= fsg.operators.size()) {
                           return false;
                         }
                         const ir::OpKind kind =
                             fsg.operators[static_cast<size_t>(op)].kind;
                         const std::optional<quantizer::OpQuantSpec> spec =
                             quantizer::GetOpQuantSpec(kind);
                         return !spec.has_value() || !spec->int16 ||
                                !runtime::HasKernel(base_.runtime, kind,
                                                    ir::DataType::kInt16);
                       }),
        order.end());
  }
  if (order.empty()) return Rung::kNotMet;
  if (Spent()) {
    out.limit = SpentText();
    return Rung::kBounded;
  }
  auto with = [&](size_t k) {
    std::vector<quantizer::PrecisionRule> rules = chosen;
    for (auto& r : Raise(order, k, to)) rules.push_back(std::move(r));
    return rules;
  };
  const std::string all_label =
      absl::StrCat("all ", order.size(), " ", from, " ops ", to);
  ASSIGN_OR_RETURN(Trial all, Try(with(order.size()), all_label));
  ASSIGN_OR_RETURN(const bool all_met, Met(all));
  if (!all_met && budget_stop_) {
    out.limit = SpentText();
    return Rung::kBounded;
  }
  if (!all_met) {
    if (std::string bound = Bound(all, all_label); !bound.empty()) {
      out.limit = std::move(bound);
      return Rung::kBounded;
    }
    for (int op : order) {
      const std::string& type =
          best.result.op_choices[static_cast<size_t>(op)].op;
      out.steps.push_back(
          absl::StrCat("op ", op, " ", type, " ", from, " -> ", to));
      PlanRow row;
      row.op = op;
      row.type = type;
      row.precision = to;
      out.plan.push_back(std::move(row));
    }
    chosen = with(order.size());
    best = std::move(all);
    return Rung::kNotMet;
  }
  const std::vector<quantizer::QuantizeResult::OpChoice> before =
      best.result.op_choices;
  size_t lo = 0, hi = order.size();
  best = std::move(all);
  // --eval-budget spent: the fewest found so far.
  while (hi - lo > 1 && !Spent()) {
    const size_t mid = (lo + hi) / 2;
    ASSIGN_OR_RETURN(
        Trial t, Try(with(mid), absl::StrCat("the ", mid, " noisiest ", from,
                                             " ops ", to)));
    ASSIGN_OR_RETURN(const bool met, Met(t));
    if (budget_stop_) break;
    if (met) {
      hi = mid;
      best = std::move(t);
    } else {
      lo = mid;
    }
  }
  // The fewest ops that meet the target break a bound: no fewer will do.
  if (std::string bound = Bound(
          best, absl::StrCat("the ", hi, " noisiest ", from, " ops ", to));
      !bound.empty()) {
    out.limit = std::move(bound);
    return Rung::kBounded;
  }
  for (size_t i = 0; i < hi; ++i) {
    const std::string& type = before[static_cast<size_t>(order[i])].op;
    out.steps.push_back(
        absl::StrCat("op ", order[i], " ", type, " ", from, " -> ", to));
    PlanRow row;
    row.op = order[i];
    row.type = type;
    row.precision = to;
    out.plan.push_back(std::move(row));
  }
  chosen = with(hi);
  return Rung::kMet;
}

absl::StatusOr<ir::Model> Search::WithFloatConstants(
    const quantizer::QuantizeOptions& options) const {
  ir::Model input = work_;
  const ir::Subgraph& sg = model_.subgraphs[0];
  ASSIGN_OR_RETURN(
      const std::vector<std::optional<quantizer::UserRequest>> requests,
      quantizer::ResolveRequests(folded_.model().subgraphs[0], options));
  for (size_t j = 0; j < requests.size() && j < folded_.num_ops(); ++j) {
    if (!requests[j].has_value() ||
        requests[j]->precision != quantizer::Precision::kFloat) {
      continue;
    }
    const size_t i = static_cast<size_t>(folded_.FileOp(static_cast<int>(j)));
    // Recovery may give an op a new bias tensor or buffer: the op, its
    // input tensors and their buffers all come back.
    ir::Subgraph& isg = input.subgraphs[0];
    if (i >= isg.operators.size()) continue;
    isg.operators[i].inputs = sg.operators[i].inputs;
    for (int32_t t : sg.operators[i].inputs) {
      if (t < 0 || static_cast<size_t>(t) >= sg.tensors.size() ||
          static_cast<size_t>(t) >= isg.tensors.size()) {
        continue;
      }
      isg.tensors[static_cast<size_t>(t)] = sg.tensors[static_cast<size_t>(t)];
      const uint32_t b = sg.tensors[static_cast<size_t>(t)].buffer;
      if (b != 0 && b < model_.buffers.size() && b < input.buffers.size()) {
        input.buffers[b] = model_.buffers[b];
      }
    }
  }
  return input;
}

Search::Step Search::FloatStep(const Trial& t) const {
  const Choices& choices = t.result.op_choices;
  const std::map<std::string, int> by_output = OpsByOutput(choices);
  // The profile's float rungs: an integer op goes to float16 weights
  // first when it has float weights to halve and the runtime takes
  // float16 (litert), then float32; "float" is float32 already; a
  // runtime without float ops (tflm) has no float step.
  const bool half = runtime::TakesFloat16Weights(base_.runtime);
  auto next = [&](int op) -> std::string {
    if (!runtime::RunsFloatOps(base_.runtime)) return "";
    const std::string& p = choices[static_cast<size_t>(op)].precision;
    if (p == "float" || p == "float32") return "";
    if (p == "float16") return "float32";
    return half && has_weights_[static_cast<size_t>(op)] ? "float16"
                                                         : "float32";
  };
  // First the layers that add noise themselves, worst first; then, when
  // none of their ops can rise, every layer (the sort puts those adding
  // none last); then any op left, in model order.
  for (const bool adds_noise : {true, false}) {
    for (const report::LayerReport& layer : t.report.layers) {
      if (adds_noise && !std::isfinite(layer.introduced_db)) continue;
      auto it = by_output.find(layer.float_name);
      // The tensor's grid is the culprit: its reader goes float with it
      // (alone when the producer is float already, the grid an inserted
      // QUANTIZE's).
      if (adds_noise && GridDominates(layer)) {
        auto r = by_output.find(layer.grid_reader_output);
        const std::string reader_to =
            r != by_output.end() ? next(r->second) : "";
        if (!reader_to.empty()) {
          Step picks = {{r->second, reader_to}};
          const bool producer_float =
              it != by_output.end() &&
              IsFloat(choices[static_cast<size_t>(it->second)].precision);
          if (it != by_output.end() && !producer_float) {
            const std::string to = next(it->second);
            if (!to.empty()) picks.insert(picks.begin(), {it->second, to});
          }
          return picks;
        }
      }
      if (it != by_output.end()) {
        const std::string to = next(it->second);
        if (!to.empty()) return {{it->second, to}};
      }
      auto r = readers_.find(layer.float_name);
      if (r == readers_.end()) continue;
      Step picks;
      for (int op : r->second) {
        if (static_cast<size_t>(op) >= choices.size()) continue;
        const std::string to = next(op);
        if (!to.empty()) picks.push_back({op, to});
      }
      if (!picks.empty()) return picks;
    }
  }
  for (size_t i = 0; i < choices.size(); ++i) {
    const std::string to = next(static_cast<int>(i));
    if (!to.empty()) return {{static_cast<int>(i), to}};
  }
  return {};
}

absl::StatusOr<bool> Search::WholeFloat(Trial& best, bool met,
                                        SearchOutcome& out) {
  if (base_.runtime != runtime::Runtime::kLitert || !search_.whole_float ||
      (met && best.latency_ms <= float_latency_ms_)) {
    return met;
  }
  const Choices& choices = best.result.op_choices;
  std::vector<quantizer::PrecisionRule> rules;
  std::vector<PlanRow> rows;
  for (size_t i = 0; i < choices.size(); ++i) {
    // Every op gets a rule: the steps that raised ops before are not part
    // of this trial. "float" is an op float whatever the plan (the
    // fast-path plan's, or no integer form).
    const std::string& p = choices[i].precision;
    if (p == "float") continue;
    const std::string to =
        IsFloat(p) ? p : (has_weights_[i] ? "float16" : "float32");
    rules.push_back({std::to_string(i), to, "--target-sqnr"});
    PlanRow row;
    row.op = static_cast<int>(i);
    row.type = choices[i].op;
    row.precision = to;
    rows.push_back(std::move(row));
  }
  if (rules.empty()) return met;
  const std::string label = "the whole model float (float16 weights)";
  ASSIGN_OR_RETURN(Trial t, Try(rules, label));
  // Estimates closer than kLatencyTie are a tie, and size decides it: the
  // latency model ranks plans, it does not resolve a few percent.
  constexpr double kLatencyTie = 0.03;
  const bool faster = t.latency_ms < best.latency_ms * (1 - kLatencyTie);
  const bool tie_smaller =
      t.latency_ms <= best.latency_ms * (1 + kLatencyTie) &&
      t.bytes < best.bytes;
  // The cheap checks first: Met may run the user's --eval-cmd.
  if (!Bound(t, label).empty() || (met && !faster && !tie_smaller)) {
    return met;
  }
  ASSIGN_OR_RETURN(const bool whole_met, Met(t));
  if (!whole_met) return met;
  if (!hooks_.quiet()) {
    hooks_.Note(absl::StrFormat(
        "target-sqnr: %s: an estimated %.3f ms in LiteRT and %lld bytes "
        "against the mixed plan's %.3f ms and %lld bytes (the float "
        "model's: %.3f ms)",
        met ? "the mixed plan is estimated slower than the float model; "
              "the whole model float (float16 weights) is faster or as "
              "fast and smaller"
            : "no mixed plan met the target; the whole model float "
              "(float16 weights) does",
        t.latency_ms, static_cast<long long>(t.bytes), best.latency_ms,
        static_cast<long long>(best.bytes), float_latency_ms_));
  }
  out.steps.clear();
  for (const PlanRow& row : rows) {
    out.steps.push_back(
        absl::StrCat("op ", row.op, " ", row.type, " -> ", row.precision));
  }
  out.plan = std::move(rows);
  out.limit.clear();
  best = std::move(t);
  return true;
}

absl::StatusOr<SearchOutcome> Search::Run() {
  SearchOutcome out;
  auto finish = [&](Trial t, bool met) -> absl::StatusOr<SearchOutcome> {
    // On litert a mixed plan's float borders can cost more than its
    // integer ops save: the whole model in float, a rung every op has,
    // is then the fastest plan that meets the target.
    ASSIGN_OR_RETURN(met, WholeFloat(t, met, out));
    // One row per op, its last rung (an op may climb two), in op order.
    std::stable_sort(
        out.plan.begin(), out.plan.end(),
        [](const PlanRow& a, const PlanRow& b) { return a.op < b.op; });
    std::vector<PlanRow> rows;
    for (PlanRow& r : out.plan) {
      if (!rows.empty() && rows.back().op == r.op) rows.pop_back();
      rows.push_back(std::move(r));
    }
    out.plan = std::move(rows);
    out.result = std::move(t.result);
    out.check_db = t.db;
    out.met = met;
    if (evaluator_ != nullptr) {
      out.eval_runs = evaluator_->runs();
      if (met) out.eval_score = t.eval_score;
      out.eval_budget_spent = budget_stop_;
    }
    return out;
  };
  ASSIGN_OR_RETURN(Trial best, Try({}, "as asked"));
  ASSIGN_OR_RETURN(const bool as_asked, Met(best));
  if (as_asked) return finish(std::move(best), true);
  // The rungs: int4 weights -> int8, then each step of the profile's
  // ladder (litert: int8 -> float16 weights -> float32; tflm: int8 ->
  // int16x8; armnn: int8 -> float32), each for the fewest noisiest ops that
  // meet the target (bisection over the noise ranking).
  const std::vector<std::string> ladder =
      runtime::PrecisionLadder(base_.runtime);
  std::vector<std::pair<std::string, std::string>> rungs = {{"int4", "int8"}};
  for (size_t i = 0; i + 1 < ladder.size(); ++i) {
    rungs.push_back({ladder[i], ladder[i + 1]});
  }
  std::vector<quantizer::PrecisionRule> chosen;
  for (const auto& [from, to] : rungs) {
    ASSIGN_OR_RETURN(const Rung rung, Climb(from, to, chosen, best, out));
    if (rung == Rung::kMet) return finish(std::move(best), true);
    if (rung == Rung::kBounded) return finish(std::move(best), false);
  }
  // Then the ladder is not enough (ops the rungs did not reach, float
  // borders): raise the culprit (the layer adding the most noise itself)
  // to float, one step at a time. Every step is kept,
  // even one that loses on the check set: a float island's new borders can
  // cost more than the op's own rounding until its neighbours follow.
  const std::vector<quantizer::PrecisionRule> climbed = chosen;
  std::vector<Step> raised;  // the float steps, in order
  auto rules_for = [&](const std::vector<Step>& steps) {
    std::vector<quantizer::PrecisionRule> rules = climbed;
    for (const Step& step : steps) {
      for (const auto& [op, to] : step) {
        rules.push_back({std::to_string(op), to, "--target-sqnr"});
      }
    }
    return rules;
  };
  auto label_of = [&](const Step& step, bool back) {
    std::string label;
    for (const auto& [op, to] : step) {
      const auto& c = best.result.op_choices[static_cast<size_t>(op)];
      if (!label.empty()) label += ", ";
      absl::StrAppend(&label, "op ", op, " ", c.op, back ? " back from " : " ",
                      back ? to : c.precision, back ? "" : " -> ",
                      back ? "" : to);
    }
    return label;
  };
  bool met = false;
  for (int step = 0; step < search_.max_steps && !met; ++step) {
    if (Spent()) {
      out.limit = SpentText();
      break;
    }
    Step picks = FloatStep(best);
    if (picks.empty()) break;
    const std::string label = label_of(picks, false);
    raised.push_back(std::move(picks));
    ASSIGN_OR_RETURN(Trial t, Try(rules_for(raised), label));
    if (std::string bound = Bound(t, label); !bound.empty()) {
      out.limit = std::move(bound);
      raised.pop_back();
      break;
    }
    best = std::move(t);
    ASSIGN_OR_RETURN(met, Met(best));
    if (!met && budget_stop_) out.limit = SpentText();
  }
  // Then lower the float steps back while the target holds: a later step
  // may have made an earlier one unnecessary. The steps holding the most
  // weight bytes go first (they shrink the model most), the last taken
  // first among equals.
  std::vector<std::pair<size_t, size_t>> order;  // (-bytes, -index)
  for (size_t k = 0; k < raised.size(); ++k) {
    size_t bytes = 0;
    for (const auto& [op, to] : raised[k]) {
      bytes += weight_bytes_[static_cast<size_t>(op)];
    }
    order.push_back({bytes, k});
  }
  std::sort(order.begin(), order.end(),
            [](const auto& a, const auto& b) { return a > b; });
  std::vector<bool> dropped(raised.size(), false);
  auto kept = [&]() {
    std::vector<Step> steps;
    for (size_t k = 0; k < raised.size(); ++k) {
      if (!dropped[k]) steps.push_back(raised[k]);
    }
    return steps;
  };
  // What undoing each kept step would cost, for the plan's table.
  std::vector<std::optional<PlanRow>> undo(raised.size());
  for (const auto& [bytes, k] : order) {
    if (!met || Spent()) break;
    dropped[k] = true;
    ASSIGN_OR_RETURN(Trial t,
                     Try(rules_for(kept()), label_of(raised[k], true)));
    ASSIGN_OR_RETURN(const bool still, Met(t));
    if (budget_stop_ && !still) {
      dropped[k] = false;
      break;
    }
    if (still) {
      best = std::move(t);
    } else {
      dropped[k] = false;
      PlanRow row;
      row.gain_known = true;
      row.gain_db =
          LowerIsBetter(search_.metric) ? t.db - best.db : best.db - t.db;
      row.bytes = best.bytes - t.bytes;
      row.latency_ms = best.latency_ms - t.latency_ms;
      undo[k] = row;
    }
  }
  for (size_t k = 0; k < raised.size(); ++k) {
    if (dropped[k]) continue;
    for (const auto& [op, to] : raised[k]) {
      const auto& c = best.result.op_choices[static_cast<size_t>(op)];
      out.steps.push_back(absl::StrCat("op ", op, " ", c.op, " -> ", to));
      PlanRow row = undo[k].value_or(PlanRow{});
      row.op = op;
      row.type = c.op;
      row.precision = to;
      out.plan.push_back(std::move(row));
    }
  }
  if (!met && out.limit.empty()) out.limit = Culprits(best.report);
  return finish(std::move(best), met);
}

}  // namespace

absl::StatusOr<SearchOutcome> SearchPrecision(
    const ir::Model& model, const ir::Model& work,
    const calibration::StatsFile& stats, const formats::SampleSource& data,
    const std::vector<int64_t>& check, quantizer::QuantizeOptions options,
    const SearchOptions& search, const Hooks& hooks) {
  ASSIGN_OR_RETURN(quantizer::FoldedModel folded,
                   quantizer::FoldedModel::Fold(model));
  Search s(model, work, std::move(folded), stats, data, check, options, search,
           hooks);
  if (search.eval.active()) {
    ASSIGN_OR_RETURN(s.evaluator_,
                     CandidateEvaluator::Create(search.eval, hooks));
  }
  if (!search.trials_dir.empty()) {
    ASSIGN_OR_RETURN(s.trials_,
                     TrialsDir::Open(search.trials_dir, search.trial_shards,
                                     search.float_model_hash, hooks));
  }
  return s.Run();
}

}  // namespace qforge::pipeline

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "cmd/precision_search.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "report/report.h"

namespace qforge::cmd {
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
  double db = 0;
};

class Search {
 public:
  Search(const ir::Model& model, const calibration::StatsFile& stats,
         const formats::SampleSource& data, const std::vector<int64_t>& check,
         const quantizer::QuantizeOptions& options, const SearchOptions& search)
      : model_(model),
        stats_(stats),
        data_(data),
        base_(options),
        search_(search) {
    report_.threads = search.threads;
    report_.samples = check;
    report_.histogram_layers = 0;
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
  absl::StatusOr<bool> Climb(const std::string& from, const std::string& to,
                             std::vector<quantizer::PrecisionRule>& chosen,
                             Trial& best, SearchOutcome& out);
  bool Met(const Trial& t) const { return t.db >= search_.target_db; }

  const ir::Model& model_;
  const calibration::StatsFile& stats_;
  const formats::SampleSource& data_;
  const quantizer::QuantizeOptions base_;
  const SearchOptions search_;
  report::ReportOptions report_;
};

absl::StatusOr<Trial> Search::Try(
    const std::vector<quantizer::PrecisionRule>& extra,
    const std::string& label) {
  quantizer::QuantizeOptions options = base_;
  options.rules.insert(options.rules.end(), extra.begin(), extra.end());
  Trial t;
  ASSIGN_OR_RETURN(t.result, quantizer::Quantize(model_, &stats_, options));
  ASSIGN_OR_RETURN(t.report,
                   report::BuildReport(model_, t.result.model, data_, report_));
  t.db = report::MinOutputSqnr(t.report);
  if (!search_.quiet) {
    std::fprintf(stderr, "target-sqnr: %s: worst output %.2f dB\n",
                 label.c_str(), t.db);
  }
  return t;
}

std::vector<int> Search::Ranking(const Trial& t,
                                 const std::string& precision) const {
  const Choices& choices = t.result.op_choices;
  const std::map<std::string, int> by_output = OpsByOutput(choices);
  std::vector<int> order;
  std::vector<bool> ranked(choices.size(), false);
  for (const report::LayerReport& layer : t.report.layers) {  // worst first
    auto it = by_output.find(layer.float_name);
    if (it == by_output.end()) continue;
    const size_t i = static_cast<size_t>(it->second);
    if (ranked[i] || choices[i].precision != precision) continue;
    ranked[i] = true;
    order.push_back(it->second);
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

absl::StatusOr<bool> Search::Climb(
    const std::string& from, const std::string& to,
    std::vector<quantizer::PrecisionRule>& chosen, Trial& best,
    SearchOutcome& out) {
  const std::vector<int> order = Ranking(best, from);
  if (order.empty()) return false;
  auto with = [&](size_t k) {
    std::vector<quantizer::PrecisionRule> rules = chosen;
    for (auto& r : Raise(order, k, to)) rules.push_back(std::move(r));
    return rules;
  };
  ASSIGN_OR_RETURN(
      Trial all, Try(with(order.size()), absl::StrCat("all ", order.size(), " ",
                                                      from, " ops ", to)));
  if (!Met(all)) {
    chosen = with(order.size());
    best = std::move(all);
    return false;
  }
  const std::vector<quantizer::QuantizeResult::OpChoice> before =
      best.result.op_choices;
  size_t lo = 0, hi = order.size();
  best = std::move(all);
  while (hi - lo > 1) {
    const size_t mid = (lo + hi) / 2;
    ASSIGN_OR_RETURN(
        Trial t, Try(with(mid), absl::StrCat("the ", mid, " noisiest ", from,
                                             " ops ", to)));
    if (Met(t)) {
      hi = mid;
      best = std::move(t);
    } else {
      lo = mid;
    }
  }
  for (size_t i = 0; i < hi; ++i) {
    out.steps.push_back(absl::StrCat("op ", order[i], " ",
                                     before[static_cast<size_t>(order[i])].op,
                                     " ", from, " -> ", to));
  }
  chosen = with(hi);
  return true;
}

absl::StatusOr<SearchOutcome> Search::Run() {
  SearchOutcome out;
  auto finish = [&](Trial t, bool met) {
    out.result = std::move(t.result);
    out.check_db = t.db;
    out.met = met;
    return out;
  };
  ASSIGN_OR_RETURN(Trial best, Try({}, "as asked"));
  if (Met(best)) return finish(std::move(best), true);
  // The ladder: int4 weights -> int8, then int8 -> int16x8, each for the
  // fewest noisiest ops that meet the target.
  std::vector<quantizer::PrecisionRule> chosen;
  for (const auto& [from, to] :
       {std::pair<const char*, const char*>{"int4", "int8"},
        {"int8", "int16"}}) {
    ASSIGN_OR_RETURN(const bool met, Climb(from, to, chosen, best, out));
    if (met) return finish(std::move(best), true);
  }
  // Then int16 is not enough: raise the culprit (the layer adding the
  // most noise itself) to float, one op at a time.
  for (int step = 0; step < search_.max_steps; ++step) {
    const Choices& choices = best.result.op_choices;
    const std::map<std::string, int> by_output = OpsByOutput(choices);
    int pick = -1;
    for (const report::LayerReport& layer : best.report.layers) {
      if (!std::isfinite(layer.introduced_db)) continue;
      auto it = by_output.find(layer.float_name);
      if (it != by_output.end() &&
          choices[static_cast<size_t>(it->second)].precision != "float") {
        pick = it->second;
        break;
      }
    }
    if (pick < 0) break;
    const auto& c = choices[static_cast<size_t>(pick)];
    out.steps.push_back(
        absl::StrCat("op ", pick, " ", c.op, " ", c.precision, " -> float"));
    chosen.push_back({std::to_string(pick), "float", "--target-sqnr"});
    ASSIGN_OR_RETURN(best, Try(chosen, out.steps.back()));
    if (Met(best)) return finish(std::move(best), true);
  }
  return finish(std::move(best), false);
}

}  // namespace

absl::StatusOr<SearchOutcome> SearchPrecision(
    const ir::Model& model, const calibration::StatsFile& stats,
    const formats::SampleSource& data, const std::vector<int64_t>& check,
    quantizer::QuantizeOptions options, const SearchOptions& search) {
  Search s(model, stats, data, check, options, search);
  return s.Run();
}

}  // namespace qforge::cmd

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Per-op precision requests: recipe rules, --int8-op / --int16-op /
// --float-op and --exclude-op, resolved against subgraph 0's ops.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "quantizer/plan.h"
#include "re2/re2.h"

namespace qforge::quantizer {
namespace {

// The ops `select` names: an op index ("12"), an op type ("CONV_2D"), an
// output tensor name, or "re:REGEX" over output tensor names.
absl::StatusOr<std::vector<bool>> Select(const ir::Subgraph& sg,
                                         const std::string& select,
                                         const std::string& origin) {
  std::vector<bool> hit(sg.operators.size(), false);
  // RE2, not std::regex: a user's pattern must not hang (std::regex
  // backtracks exponentially on "(.|.)*x") or overflow the stack (it
  // compiles nested groups recursively). RE2 matches in linear time and
  // refuses patterns nested too deeply or too large to compile.
  std::unique_ptr<RE2> re;
  if (select.rfind("re:", 0) == 0) {
    RE2::Options options;
    options.set_log_errors(false);
    re = std::make_unique<RE2>(select.substr(3), options);
    if (!re->ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          origin, " ", select, ": bad regular expression: ", re->error()));
    }
  }
  int index = -1;
  const bool numeric = absl::SimpleAtoi(select, &index);
  bool matched = false;
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    const ir::Operator& op = sg.operators[i];
    bool h =
        numeric ? static_cast<int>(i) == index : op.DisplayName() == select;
    for (int32_t o : op.outputs) {
      if (o < 0) continue;
      const std::string& name = sg.tensors[static_cast<size_t>(o)].name;
      if (re != nullptr ? RE2::PartialMatch(name, *re) : name == select) {
        h = true;
      }
    }
    hit[i] = h;
    matched |= h;
  }
  if (!matched) {
    return absl::InvalidArgumentError(absl::StrCat(
        origin, " ", select,
        ": matches no op (expected an op index, an op type such as CONV_2D, "
        "an output tensor name, or re:REGEX)"));
  }
  return hit;
}

absl::StatusOr<UserRequest> ParsePrecision(const PrecisionRule& rule) {
  UserRequest r;
  r.origin = rule.origin;
  const std::string& p = rule.precision;
  if (p == "int8" || p == "int4") {
    r.precision = Precision::kInt8;
    r.weight_bits = p == "int4" ? 4 : 8;
  } else if (p == "int16") {
    r.precision = Precision::kInt16;
  } else if (p == "float" || p == "float16" || p == "float32") {
    r.precision = Precision::kFloat;
    if (p != "float") r.float16_weights = p == "float16";
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        rule.origin, ": precision '", p,
        "': expected int8, int4, int16, float, float16 or float32"));
  }
  return r;
}

}  // namespace

absl::StatusOr<std::vector<std::optional<UserRequest>>> ResolveRequests(
    const ir::Subgraph& sg, const QuantizeOptions& options) {
  std::vector<std::optional<UserRequest>> out(sg.operators.size());
  std::vector<PrecisionRule> rules = options.rules;
  for (const std::string& e : options.exclude) {
    rules.push_back({e, "float", "--exclude-op"});
  }
  for (const PrecisionRule& rule : rules) {
    if (rule.precision.empty()) continue;  // a range method only
    absl::StatusOr<UserRequest> p = ParsePrecision(rule);
    if (!p.ok()) return p.status();
    absl::StatusOr<std::vector<bool>> hit =
        Select(sg, rule.select, rule.origin);
    if (!hit.ok()) return hit.status();
    for (size_t i = 0; i < out.size(); ++i) {
      if ((*hit)[i]) out[i] = *p;
    }
  }
  return out;
}

absl::StatusOr<std::map<std::string, calibration::RangeSpec>> ResolveRangeRules(
    const ir::Subgraph& sg, const QuantizeOptions& options) {
  std::map<std::string, calibration::RangeSpec> out;
  for (const PrecisionRule& rule : options.rules) {
    if (rule.method.empty()) continue;
    absl::StatusOr<calibration::RangeSpec> spec =
        calibration::ParseRangeMethod(rule.method);
    if (!spec.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(rule.origin, ": method: ", spec.status().message()));
    }
    absl::StatusOr<std::vector<bool>> hit =
        Select(sg, rule.select, rule.origin);
    if (!hit.ok()) return hit.status();
    for (size_t i = 0; i < hit->size(); ++i) {
      if (!(*hit)[i]) continue;
      for (int32_t o : sg.operators[i].outputs) {
        if (o >= 0) out[sg.tensors[static_cast<size_t>(o)].name] = *spec;
      }
    }
  }
  return out;
}

std::vector<int> PlannedWeightBits(
    const ir::Subgraph& sg, const QuantizeOptions& options,
    const std::vector<std::optional<UserRequest>>& requests) {
  std::vector<int> bits(sg.operators.size(), 8);
  for (size_t i = 0; i < bits.size(); ++i) {
    const std::optional<UserRequest>& r =
        i < requests.size() ? requests[i] : std::nullopt;
    const bool int8 = r.has_value() ? r->precision == Precision::kInt8
                                    : options.scheme == Scheme::kInt8;
    const int asked = r.has_value() ? r->weight_bits : options.weight_bits;
    if (int8 && asked == 4 &&
        ir::GetOpInfo(sg.operators[i].kind).Has(ir::op_flags::kInt4Weights)) {
      bits[i] = 4;
    }
  }
  return bits;
}

}  // namespace qforge::quantizer

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "cmd/runtime_summary.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/latency.h"

namespace qforge::cmd {
namespace {

const char* CostTypeName(runtime::CostType t) {
  switch (t) {
    case runtime::CostType::kFloat32:
      return "float32";
    case runtime::CostType::kInt8:
      return "int8";
    case runtime::CostType::kInt16:
      return "int16";
  }
  return "float32";
}

const char* const kFeatureNames[runtime::kNumLatencyFeatures] = {
    "xnn_ops",
    "xnn_macs_f32",
    "xnn_macs_int8",
    "xnn_elements",
    "builtin_ops",
    "builtin_macs_f32",
    "builtin_macs_int8",
    "builtin_macs_int16",
    "builtin_elements_f32",
    "builtin_elements_int8",
    "builtin_elements_int16",
    "xnn_partitions"};

}  // namespace

nlohmann::ordered_json SummarizeRuntime(const ir::Model& model,
                                        runtime::Runtime rt) {
  nlohmann::ordered_json j;
  j["runtime"] = runtime::RuntimeName(rt);
  if (rt != runtime::Runtime::kLitert) {
    j["unsupported"] = runtime::UnsupportedOps(rt, model);
    return j;
  }
  const runtime::LatencyEstimate est = runtime::EstimateLitertLatency(model);
  j["estimated_ms"] = est.ms;
  j["xnnpack_partitions"] = est.partitions;
  nlohmann::ordered_json features;
  for (int k = 0; k < runtime::kNumLatencyFeatures; ++k) {
    features[kFeatureNames[k]] = est.features[static_cast<size_t>(k)];
  }
  j["features"] = features;
  nlohmann::ordered_json ops = nlohmann::ordered_json::array();
  for (const runtime::OpLatency& l : est.ops) {
    nlohmann::ordered_json o = {{"index", l.op_index},
                                {"op", l.op},
                                {"path", l.xnnpack ? "xnnpack" : "builtin"},
                                {"type", CostTypeName(l.type)},
                                {"macs", l.macs},
                                {"elements", l.elements},
                                {"estimated_ms", l.ms}};
    if (l.folded) o["folded"] = true;
    if (!l.xnnpack) o["why_builtin"] = l.why_builtin;
    ops.push_back(std::move(o));
  }
  j["ops"] = std::move(ops);
  return j;
}

std::string RenderRuntimeText(const nlohmann::ordered_json& j) {
  const std::string name = j["runtime"].get<std::string>();
  if (name != "litert") {
    const auto& bad = j["unsupported"];
    if (bad.empty()) return absl::StrCat("runtime ", name, ": every op runs\n");
    std::string out =
        absl::StrCat("runtime ", name, ": ", bad.size(), " problems:\n");
    for (const auto& line : bad) {
      absl::StrAppend(&out, "  ", line.get<std::string>(), "\n");
    }
    return out;
  }
  int xnn = 0, total = 0;
  std::string off;
  for (const auto& o : j["ops"]) {
    ++total;
    if (o["path"] == "xnnpack") {
      ++xnn;
      continue;
    }
    absl::StrAppend(&off, "  op ", o["index"].get<int>(), " ",
                    o["op"].get<std::string>(), " (",
                    o["type"].get<std::string>(),
                    "): ", o["why_builtin"].get<std::string>(), "\n");
  }
  std::string out = absl::StrFormat(
      "runtime litert: estimated %.3f ms (one thread); %d of %d ops on "
      "XNNPACK in %d partitions\n",
      j["estimated_ms"].get<double>(), xnn, total,
      j["xnnpack_partitions"].get<int>());
  if (!off.empty()) out += "ops in TFLite's builtin kernels:\n" + off;
  return out;
}

}  // namespace qforge::cmd

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "cmd/model_summary.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/text.h"
#include "formats/tflite_reader.h"

namespace qforge::cmd {
namespace {

using json = nlohmann::ordered_json;

// Names in a model are bytes; JSON strings must be UTF-8 (base/text.h).
std::string Text(const std::string& s) { return EscapeInvalidUtf8(s); }

bool IsConstant(const ir::Model& model, const ir::Tensor& t) {
  return t.buffer != 0 && t.buffer < model.buffers.size() &&
         !model.buffers[t.buffer].data.empty();
}

json QuantizationJson(const ir::Tensor& t) {
  if (!t.quantization.has_value() || !t.quantization->HasScale())
    return nullptr;
  const ir::Quantization& q = *t.quantization;
  json j;
  j["scale"] = q.scale;
  j["zero_point"] = q.zero_point;
  j["quantized_dimension"] = q.quantized_dimension;
  return j;
}

json TensorJson(const ir::Subgraph& sg, int32_t index) {
  const ir::Tensor& t = sg.tensors[index];
  json j;
  j["name"] = Text(t.name);
  j["index"] = index;
  j["dtype"] = std::string(ir::DataTypeName(t.type));
  j["shape"] = t.shape_signature.empty() ? t.shape : t.shape_signature;
  j["quantization"] = QuantizationJson(t);
  return j;
}

std::string ShapeText(const json& shape) {
  std::vector<std::string> dims;
  for (const auto& d : shape) {
    const int v = d.get<int>();
    dims.push_back(v < 0 ? "?" : std::to_string(v));
  }
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

}  // namespace

std::string QuantizationState(const ir::Model& model) {
  // Classifies by what compute ops produce (activations) and what constants
  // they hold (weights); QUANTIZE/DEQUANTIZE at region borders don't count.
  std::set<ir::DataType> activations;
  bool int8_weights = false, float16_weights = false;
  for (const ir::Subgraph& sg : model.subgraphs) {
    for (const ir::Tensor& t : sg.tensors) {
      if (!IsConstant(model, t)) continue;
      if (t.type == ir::DataType::kInt8 || t.type == ir::DataType::kUInt8 ||
          t.type == ir::DataType::kInt4) {
        int8_weights = true;
      }
      if (t.type == ir::DataType::kFloat16) float16_weights = true;
    }
    for (const ir::Operator& op : sg.operators) {
      if (ir::GetOpInfo(op.kind).Has(ir::op_flags::kConverter)) continue;
      for (int32_t out : op.outputs) {
        const ir::DataType type = sg.tensors[out].type;
        if (type == ir::DataType::kFloat32 || type == ir::DataType::kInt8 ||
            type == ir::DataType::kUInt8 || type == ir::DataType::kInt16) {
          activations.insert(type);
        }
      }
    }
  }
  const bool has_float = activations.count(ir::DataType::kFloat32) > 0;
  const bool has_int8 = activations.count(ir::DataType::kInt8) > 0 ||
                        activations.count(ir::DataType::kUInt8) > 0;
  const bool has_int16 = activations.count(ir::DataType::kInt16) > 0;
  if (!has_float && !has_int8 && has_int16) return "int16x8";
  if (!has_float && has_int8 && !has_int16) return "full_int8";
  if (has_float && !has_int8 && !has_int16) {
    if (int8_weights) return "dynamic_range";
    if (float16_weights) return "float16_weights";
    return "none";
  }
  if (!has_float && !has_int8 && !has_int16) {
    return int8_weights ? "dynamic_range" : "none";
  }
  return "mixed";
}

json SummarizeModel(const ir::Model& model, const std::string& path,
                    uint64_t file_bytes) {
  json j;
  j["schema_version"] = kInspectSchemaVersion;
  j["file"] = Text(path);
  j["file_bytes"] = file_bytes;
  j["version"] = model.version;
  j["description"] = Text(model.description);
  j["subgraph_count"] = model.subgraphs.size();
  json inputs = json::array(), outputs = json::array();
  if (!model.subgraphs.empty()) {
    const ir::Subgraph& main = model.subgraphs[0];
    for (int32_t i : main.inputs) inputs.push_back(TensorJson(main, i));
    for (int32_t o : main.outputs) outputs.push_back(TensorJson(main, o));
  }
  j["inputs"] = inputs;
  j["outputs"] = outputs;

  std::map<std::string, int64_t> builtin, custom;
  int64_t total_ops = 0;
  std::map<std::string, std::pair<int64_t, uint64_t>> by_dtype;
  int64_t tensor_count = 0;
  json subgraphs = json::array();
  for (const ir::Subgraph& sg : model.subgraphs) {
    for (const ir::Operator& op : sg.operators) {
      ++total_ops;
      if (op.kind == ir::OpKind::kCustom) {
        ++custom[Text(op.custom_code)];
      } else {
        ++builtin[formats::OpName(op)];
      }
    }
    for (const ir::Tensor& t : sg.tensors) {
      ++tensor_count;
      auto& entry = by_dtype[std::string(ir::DataTypeName(t.type))];
      ++entry.first;
      if (IsConstant(model, t))
        entry.second += model.buffers[t.buffer].data.size();
    }
    subgraphs.push_back(json{{"name", Text(sg.name)},
                             {"tensors", sg.tensors.size()},
                             {"ops", sg.operators.size()}});
  }
  // Histograms sorted by count (descending), then name, for stable output.
  auto sorted = [](const std::map<std::string, int64_t>& m) {
    std::vector<std::pair<std::string, int64_t>> v(m.begin(), m.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
      return a.second > b.second;
    });
    json out = json::object();
    for (const auto& [name, count] : v) out[name] = count;
    return out;
  };
  j["ops"] = json{{"total", total_ops},
                  {"builtin", sorted(builtin)},
                  {"custom", sorted(custom)}};
  json dtypes = json::object();
  for (const auto& [name, entry] : by_dtype) {
    dtypes[name] =
        json{{"count", entry.first}, {"constant_bytes", entry.second}};
  }
  j["tensors"] = json{{"count", tensor_count}, {"by_dtype", dtypes}};
  j["quantization_state"] = QuantizationState(model);
  json sigs = json::array();
  for (const ir::SignatureDef& sig : model.signature_defs) {
    json s;
    s["key"] = Text(sig.key);
    s["subgraph_index"] = sig.subgraph_index;
    json ins = json::array(), outs = json::array();
    for (const ir::TensorMap& m : sig.inputs) ins.push_back(Text(m.name));
    for (const ir::TensorMap& m : sig.outputs) outs.push_back(Text(m.name));
    s["inputs"] = ins;
    s["outputs"] = outs;
    sigs.push_back(s);
  }
  j["signatures"] = sigs;
  json metadata = json::array();
  for (const ir::Metadata& md : model.metadata) {
    metadata.push_back(json{{"name", Text(md.name)},
                            {"bytes", model.buffers[md.buffer].data.size()}});
  }
  j["metadata"] = metadata;
  j["subgraphs"] = subgraphs;
  return j;
}

std::string RenderSummaryText(const json& s) {
  std::string out;
  absl::StrAppend(&out, s["file"].get<std::string>(), "  (",
                  s["file_bytes"].get<uint64_t>(), " bytes, schema v",
                  s["version"].get<uint32_t>(), ", ",
                  s["subgraph_count"].get<size_t>(), " subgraph",
                  s["subgraph_count"].get<size_t>() == 1 ? "" : "s", ")\n");
  absl::StrAppend(
      &out, "quantization: ", s["quantization_state"].get<std::string>(), "\n");
  for (const char* side : {"inputs", "outputs"}) {
    absl::StrAppend(&out, side, ":\n");
    for (const auto& t : s[side]) {
      absl::StrAppend(&out, "  ", t["index"].get<int>(), "  ",
                      t["name"].get<std::string>(), "  ",
                      t["dtype"].get<std::string>(), ShapeText(t["shape"]));
      if (!t["quantization"].is_null()) {
        const auto& q = t["quantization"];
        if (q["scale"].size() == 1) {
          absl::StrAppend(
              &out, absl::StrFormat("  scale=%g zero_point=%d",
                                    q["scale"][0].get<double>(),
                                    q["zero_point"].empty()
                                        ? 0
                                        : q["zero_point"][0].get<int64_t>()));
        } else {
          absl::StrAppend(&out, "  per-axis(", q["scale"].size(), ", axis ",
                          q["quantized_dimension"].get<int>(), ")");
        }
      }
      absl::StrAppend(&out, "\n");
    }
  }
  absl::StrAppend(&out, "ops: ", s["ops"]["total"].get<int64_t>(), "\n");
  for (const auto& [name, count] : s["ops"]["builtin"].items()) {
    absl::StrAppend(
        &out, absl::StrFormat("  %-32s %d\n", name, count.get<int64_t>()));
  }
  for (const auto& [name, count] : s["ops"]["custom"].items()) {
    absl::StrAppend(&out, absl::StrFormat("  %-32s %d\n", "custom:" + name,
                                          count.get<int64_t>()));
  }
  absl::StrAppend(&out, "tensors: ", s["tensors"]["count"].get<int64_t>(),
                  "\n");
  for (const auto& [name, entry] : s["tensors"]["by_dtype"].items()) {
    absl::StrAppend(
        &out, absl::StrFormat("  %-10s %6d tensors %12d constant bytes\n", name,
                              entry["count"].get<int64_t>(),
                              entry["constant_bytes"].get<uint64_t>()));
  }
  if (!s["signatures"].empty()) {
    absl::StrAppend(&out, "signatures:\n");
    for (const auto& sig : s["signatures"]) {
      absl::StrAppend(&out, "  ", sig["key"].get<std::string>(), " (subgraph ",
                      sig["subgraph_index"].get<uint32_t>(), ")\n");
    }
  }
  if (!s["metadata"].empty()) {
    absl::StrAppend(&out, "metadata:\n");
    for (const auto& md : s["metadata"]) {
      absl::StrAppend(&out, "  ", md["name"].get<std::string>(), " (",
                      md["bytes"].get<uint64_t>(), " bytes)\n");
    }
  }
  return out;
}

}  // namespace qforge::cmd

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/tflite_metadata.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "flatbuffers/flatbuffers.h"
#include "formats/schema/tflite_metadata_generated.h"

namespace qforge::formats {
namespace {

namespace md = ::qforge::tflite_metadata;

// tflite-support's name for the entry (metadata/python/metadata.py).
constexpr char kMetadataName[] = "TFLITE_METADATA";

// Empty when `v` is absent or holds a value that cannot normalize.
bool ReadValues(const flatbuffers::Vector<float>* v, bool is_std,
                std::vector<float>* out) {
  if (v == nullptr || v->size() == 0) return false;
  for (float x : *v) {
    if (!std::isfinite(x) || (is_std && x == 0.0f)) return false;
    out->push_back(x);
  }
  return true;
}

}  // namespace

MetadataNormalization ParseInputNormalization(absl::Span<const uint8_t> bytes,
                                              int num_inputs) {
  MetadataNormalization out;
  // The identifier ("M001") is not required: the verifier alone decides
  // whether the bytes are safe to read.
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  if (bytes.size() < 8 || !verifier.VerifyBuffer<md::ModelMetadata>(nullptr)) {
    out.notes.push_back(
        "the model's TFLITE_METADATA buffer is malformed (it fails the "
        "FlatBuffers verifier); ignored");
    return out;
  }
  const md::ModelMetadata* meta =
      flatbuffers::GetRoot<md::ModelMetadata>(bytes.data());
  const auto* subgraphs = meta->subgraph_metadata();
  if (subgraphs == nullptr || subgraphs->size() == 0) return out;
  const auto* tensors = subgraphs->Get(0)->input_tensor_metadata();
  if (tensors == nullptr) return out;
  const int n = std::min<int>(num_inputs, static_cast<int>(tensors->size()));
  for (int i = 0; i < n; ++i) {
    const auto* units = tensors->Get(i)->process_units();
    if (units == nullptr) continue;
    for (const md::ProcessUnit* unit : *units) {
      const md::NormalizationOptions* norm =
          unit->options_as_NormalizationOptions();
      if (norm == nullptr) continue;
      InputNormalization in;
      in.input = i;
      if (!ReadValues(norm->mean(), false, &in.mean) ||
          !ReadValues(norm->std(), true, &in.std)) {
        out.notes.push_back(absl::StrCat(
            "the model's metadata for input ", i,
            " states a normalization without usable mean/std (empty, not "
            "finite, or a zero std); ignored"));
        break;
      }
      out.inputs.push_back(std::move(in));
      break;  // the first normalization unit is the input's
    }
  }
  return out;
}

MetadataNormalization ReadInputNormalization(const ir::Model& model) {
  if (model.subgraphs.empty()) return {};
  const int num_inputs = static_cast<int>(model.subgraphs[0].inputs.size());
  for (const ir::Metadata& m : model.metadata) {
    if (m.name != kMetadataName) continue;
    if (m.buffer >= model.buffers.size()) return {};
    const ir::Bytes& data = model.buffers[m.buffer].data;
    return ParseInputNormalization(data, num_inputs);
  }
  return {};
}

std::vector<std::string> ParseOutputNames(absl::Span<const uint8_t> bytes,
                                          int num_outputs) {
  std::vector<std::string> out;
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  if (bytes.size() < 8 || !verifier.VerifyBuffer<md::ModelMetadata>(nullptr))
    return out;
  const md::ModelMetadata* meta =
      flatbuffers::GetRoot<md::ModelMetadata>(bytes.data());
  const auto* subgraphs = meta->subgraph_metadata();
  if (subgraphs == nullptr || subgraphs->size() == 0) return out;
  const auto* tensors = subgraphs->Get(0)->output_tensor_metadata();
  if (tensors == nullptr) return out;
  out.assign(static_cast<size_t>(std::max(0, num_outputs)), "");
  const int n = std::min<int>(num_outputs, static_cast<int>(tensors->size()));
  for (int i = 0; i < n; ++i) {
    const flatbuffers::String* name = tensors->Get(i)->name();
    if (name != nullptr) out[static_cast<size_t>(i)] = name->str();
  }
  return out;
}

std::vector<std::string> ReadOutputNames(const ir::Model& model) {
  if (model.subgraphs.empty()) return {};
  const int num_outputs = static_cast<int>(model.subgraphs[0].outputs.size());
  for (const ir::Metadata& m : model.metadata) {
    if (m.name != kMetadataName) continue;
    if (m.buffer >= model.buffers.size()) return {};
    return ParseOutputNames(model.buffers[m.buffer].data, num_outputs);
  }
  return {};
}

}  // namespace qforge::formats

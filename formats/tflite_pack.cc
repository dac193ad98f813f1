// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/tflite_pack.h"

#include <vector>

namespace qforge::formats {
namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

// Packs every element of `items` with `pack`, in order, into a vector that
// is written even when empty.
template <typename Table, typename Items, typename PackFn>
Offset<flatbuffers::Vector<Offset<Table>>> PackAll(FlatBufferBuilder& fbb,
                                                   const Items& items,
                                                   PackFn pack) {
  std::vector<Offset<Table>> offsets;
  offsets.reserve(items.size());
  for (const auto& item : items) offsets.push_back(pack(fbb, *item));
  return fbb.CreateVector(offsets);
}

// Optional vectors keep the generated code's rule: absent when empty.
template <typename Table, typename Items, typename PackFn>
Offset<flatbuffers::Vector<Offset<Table>>> PackOptional(FlatBufferBuilder& fbb,
                                                        const Items& items,
                                                        PackFn pack) {
  if (items.empty()) return 0;
  return PackAll<Table>(fbb, items, pack);
}

Offset<tflite::Operator> PackOperator(FlatBufferBuilder& fbb,
                                      const tflite::OperatorT& o) {
  const auto inputs = fbb.CreateVector(o.inputs);
  const auto outputs = fbb.CreateVector(o.outputs);
  const auto options = o.builtin_options.Pack(fbb);
  const auto custom =
      o.custom_options.empty() ? 0 : fbb.CreateVector(o.custom_options);
  const auto mutating = o.mutating_variable_inputs.empty()
                            ? 0
                            : fbb.CreateVector(o.mutating_variable_inputs);
  const auto intermediates =
      o.intermediates.empty() ? 0 : fbb.CreateVector(o.intermediates);
  const auto options2 = o.builtin_options_2.Pack(fbb);
  return tflite::CreateOperator(
      fbb, o.opcode_index, inputs, outputs, o.builtin_options.type, options,
      custom, o.custom_options_format, mutating, intermediates,
      o.large_custom_options_offset, o.large_custom_options_size,
      o.builtin_options_2.type, options2, o.debug_metadata_index);
}

Offset<tflite::SubGraph> PackSubGraph(FlatBufferBuilder& fbb,
                                      const tflite::SubGraphT& s) {
  const auto tensors = PackAll<tflite::Tensor>(
      fbb, s.tensors, [](FlatBufferBuilder& b, const tflite::TensorT& t) {
        return tflite::CreateTensor(b, &t);
      });
  const auto inputs = fbb.CreateVector(s.inputs);
  const auto outputs = fbb.CreateVector(s.outputs);
  const auto operators =
      PackAll<tflite::Operator>(fbb, s.operators, PackOperator);
  const auto name = s.name.empty() ? 0 : fbb.CreateString(s.name);
  return tflite::CreateSubGraph(fbb, tensors, inputs, outputs, operators, name,
                                s.debug_metadata_index);
}

Offset<tflite::SignatureDef> PackSignature(FlatBufferBuilder& fbb,
                                           const tflite::SignatureDefT& s) {
  auto map = [](FlatBufferBuilder& b, const tflite::TensorMapT& t) {
    return tflite::CreateTensorMap(b, &t);
  };
  const auto inputs = PackAll<tflite::TensorMap>(fbb, s.inputs, map);
  const auto outputs = PackAll<tflite::TensorMap>(fbb, s.outputs, map);
  const auto key =
      s.signature_key.empty() ? 0 : fbb.CreateString(s.signature_key);
  return tflite::CreateSignatureDef(fbb, inputs, outputs, key,
                                    s.subgraph_index);
}

}  // namespace

Offset<tflite::Model> PackModel(FlatBufferBuilder& fbb, const tflite::ModelT& m,
                                const PackBufferData& buffer_data) {
  const auto codes = PackAll<tflite::OperatorCode>(
      fbb, m.operator_codes,
      [](FlatBufferBuilder& b, const tflite::OperatorCodeT& c) {
        return tflite::CreateOperatorCode(b, &c);
      });
  const auto subgraphs =
      PackAll<tflite::SubGraph>(fbb, m.subgraphs, PackSubGraph);
  const auto description =
      m.description.empty() ? 0 : fbb.CreateString(m.description);
  std::vector<Offset<tflite::Buffer>> buffer_offsets;
  buffer_offsets.reserve(m.buffers.size());
  for (size_t i = 0; i < m.buffers.size(); ++i) {
    const tflite::BufferT& x = *m.buffers[i];
    if (buffer_data) {
      // As the generated CreateBuffer: data first, then the table.
      const auto data = buffer_data(fbb, i);
      buffer_offsets.push_back(
          tflite::CreateBuffer(fbb, data, x.offset, x.size));
    } else {
      buffer_offsets.push_back(tflite::CreateBuffer(fbb, &x));
    }
  }
  const auto buffers = fbb.CreateVector(buffer_offsets);
  const auto metadata_buffer =
      m.metadata_buffer.empty() ? 0 : fbb.CreateVector(m.metadata_buffer);
  const auto metadata = PackOptional<tflite::Metadata>(
      fbb, m.metadata, [](FlatBufferBuilder& b, const tflite::MetadataT& x) {
        return tflite::CreateMetadata(b, &x);
      });
  const auto signatures =
      PackOptional<tflite::SignatureDef>(fbb, m.signature_defs, PackSignature);
  const auto groups = PackOptional<tflite::ExternalBufferGroup>(
      fbb, m.external_buffer_groups,
      [](FlatBufferBuilder& b, const tflite::ExternalBufferGroupT& x) {
        return tflite::CreateExternalBufferGroup(b, &x);
      });
  const auto external = PackOptional<tflite::ExternalBuffer>(
      fbb, m.external_buffers,
      [](FlatBufferBuilder& b, const tflite::ExternalBufferT& x) {
        return tflite::CreateExternalBuffer(b, &x);
      });
  return tflite::CreateModel(fbb, m.version, codes, subgraphs, description,
                             buffers, metadata_buffer, metadata, signatures,
                             groups, external);
}

}  // namespace qforge::formats

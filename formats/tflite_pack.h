// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Packs an object-API model like the generated Model::Pack, except that the
// vectors runtimes dereference without a null check are always written,
// even when empty: Model.subgraphs/buffers/operator_codes, SubGraph
// tensors/inputs/outputs/operators, Operator inputs/outputs, SignatureDef
// inputs/outputs. (TFLite refuses a subgraph whose tensors vector is
// absent, and a signature whose outputs vector is absent.)
#ifndef QFORGE_FORMATS_TFLITE_PACK_H_
#define QFORGE_FORMATS_TFLITE_PACK_H_

#include <cstddef>
#include <cstdint>
#include <functional>

#include "flatbuffers/flatbuffers.h"
#include "formats/schema/tflite_generated.h"

namespace qforge::formats {

// Packs buffer i's data vector (Buffer.data); empty for none.
using PackBufferData =
    std::function<flatbuffers::Offset<flatbuffers::Vector<uint8_t>>(
        flatbuffers::FlatBufferBuilder&, size_t i)>;

// With `buffer_data`, each Buffer's data comes from it instead of
// BufferT::data, so the bytes need not be copied into the object model.
flatbuffers::Offset<tflite::Model> PackModel(
    flatbuffers::FlatBufferBuilder& fbb, const tflite::ModelT& m,
    const PackBufferData& buffer_data = nullptr);

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_TFLITE_PACK_H_

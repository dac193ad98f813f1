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

#include "flatbuffers/flatbuffers.h"
#include "formats/schema/tflite_generated.h"

namespace qforge::formats {

flatbuffers::Offset<tflite::Model> PackModel(
    flatbuffers::FlatBufferBuilder& fbb, const tflite::ModelT& m);

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_TFLITE_PACK_H_

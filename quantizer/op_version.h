// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The op version a quantized op must carry so that runtimes pick a kernel
// that handles its types (TFLite's op_version rules, for the forms qforge
// writes).
#ifndef QFORGE_QUANTIZER_OP_VERSION_H_
#define QFORGE_QUANTIZER_OP_VERSION_H_

#include "ir/model.h"
#include "quantizer/op_quant_spec.h"

namespace qforge::quantizer {

// The version for `op` given the types of its tensors in `sg`; never lower
// than the version it already has.
int QuantizedOpVersion(const ir::Subgraph& sg, const ir::Operator& op);

// The VER column of the op table (ir/ops.def): versions that options,
// optional inputs and tensor types require, as TFLite's op_version.cc.
int FullyConnectedVersion(const ir::Subgraph& sg, const ir::Operator& op,
                          OpForm form);
int TransposeConvVersion(const ir::Subgraph& sg, const ir::Operator& op,
                         OpForm form);
int ResizeVersion(const ir::Subgraph& sg, const ir::Operator& op, OpForm form);
int Int4WeightsVersion(const ir::Subgraph& sg, const ir::Operator& op,
                       OpForm form);
// The converters' versions depend on their types alone.
int QuantizeVersion(const ir::Subgraph& sg, const ir::Operator& op,
                    OpForm form);
int DequantizeVersion(const ir::Subgraph& sg, const ir::Operator& op,
                      OpForm form);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_OP_VERSION_H_

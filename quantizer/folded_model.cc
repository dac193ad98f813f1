// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/folded_model.h"

#include <cstring>

#include "base/status_macros.h"
#include "ir/compressed_weights.h"
#include "numerics/float16.h"
#include "quantizer/graph_edit.h"

namespace qforge::quantizer {

absl::StatusOr<FoldedModel> FoldedModel::Fold(const ir::Model& file_model) {
  FoldedModel out;
  out.model_ = file_model;
  std::set<int32_t> from_half;
  RETURN_IF_ERROR(FoldCompressedWeights(out.model_, from_half));
  out.folded_op_ = ir::FoldedOpIndices(file_model);
  for (size_t i = 0; i < out.folded_op_.size(); ++i) {
    if (out.folded_op_[i] >= 0) out.file_op_.push_back(static_cast<int>(i));
  }
  return out;
}

absl::Status FoldCompressedWeights(ir::Model& model,
                                   std::set<int32_t>& from_half) {
  for (ir::Subgraph& sg : model.subgraphs) {
    const bool first = &sg == &model.subgraphs[0];
    std::vector<ir::Operator> kept;
    std::set<int32_t> made_constant;
    for (ir::Operator& op : sg.operators) {
      const ir::WeightFold fold = ir::FoldOf(model, sg, op, made_constant);
      if (fold == ir::WeightFold::kKeep) {
        kept.push_back(std::move(op));
        continue;
      }
      const ir::Tensor& in = sg.tensors[op.inputs[0]];
      ir::Tensor& out = sg.tensors[op.outputs[0]];
      if (fold == ir::WeightFold::kDensify) {
        ASSIGN_OR_RETURN(std::vector<uint8_t> dense, DensifiedBytes(model, in));
        out.buffer = AddBuffer(model, std::move(dense));
      } else {
        const ir::Bytes& bytes = model.buffers[in.buffer].data;
        std::vector<float> values(bytes.size() / 2);
        for (size_t i = 0; i < values.size(); ++i) {
          uint16_t h;
          std::memcpy(&h, bytes.data() + 2 * i, 2);
          values[i] = numerics::HalfToFloat(h);
        }
        out.buffer = AddTypedBuffer(model, values);
        if (first) from_half.insert(op.outputs[0]);
      }
      made_constant.insert(op.outputs[0]);  // the op is gone
    }
    sg.operators = std::move(kept);
  }
  return absl::OkStatus();
}

}  // namespace qforge::quantizer

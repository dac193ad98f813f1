// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/kernel.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace qforge::runtime {

int64_t NumElements(absl::Span<const int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

std::string DimsString(absl::Span<const int64_t> dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

absl::Status OpContext::InvokeSubgraph(
    int index, absl::Span<RtTensor* const> inputs,
    absl::Span<RtTensor* const> outputs) const {
  return runner_->InvokeSubgraph(index, inputs, outputs);
}

const ir::Tensor* OpContext::intermediate(int i) const {
  if (subgraph_tensors_ == nullptr || i < 0 || i >= num_intermediates()) {
    return nullptr;
  }
  const int32_t t = op_.intermediates[static_cast<size_t>(i)];
  if (t < 0 || static_cast<size_t>(t) >= subgraph_tensors_->size()) {
    return nullptr;
  }
  return &(*subgraph_tensors_)[static_cast<size_t>(t)];
}

absl::Status OpContext::Error(absl::string_view message) const {
  return absl::InvalidArgumentError(
      absl::StrCat("subgraph ", subgraph_, " op ", op_index_, " (",
                   op_.DisplayName(), "): ", message));
}

absl::Status OpContext::Unsupported(absl::string_view message) const {
  return absl::UnimplementedError(
      absl::StrCat("subgraph ", subgraph_, " op ", op_index_, " (",
                   op_.DisplayName(), "): ", message));
}

absl::Status ExpectType(const OpContext& ctx, int input, ir::DataType type) {
  const RtTensor* t = ctx.input(input);
  if (t == nullptr) {
    return ctx.Error(absl::StrCat("input ", input, " is missing"));
  }
  if (t->type != type) {
    return ctx.Unsupported(absl::StrCat(
        "input ", input, " '", t->name(), "' is ", ir::DataTypeName(t->type),
        "; this kernel takes ", ir::DataTypeName(type)));
  }
  return absl::OkStatus();
}

absl::Status PrepareSameShape(OpContext& ctx) {
  if (ctx.input(0) == nullptr) return ctx.Error("input 0 is missing");
  ctx.SetOutputShape(0, ctx.input(0)->shape);
  return absl::OkStatus();
}

absl::Status BroadcastShapes(const OpContext& ctx, absl::Span<const int64_t> a,
                             absl::Span<const int64_t> b, Dims* out) {
  const size_t rank = std::max(a.size(), b.size());
  out->assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      return ctx.Error(absl::StrCat("shapes ", DimsString(a), " and ",
                                    DimsString(b), " do not broadcast"));
    }
    (*out)[i] = da == 1 ? db : da;
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime

namespace qforge::runtime {
namespace {

bool IsQuantizedInt(const ir::Tensor& t) {
  return (t.type == ir::DataType::kInt8 || t.type == ir::DataType::kUInt8 ||
          t.type == ir::DataType::kInt16) &&
         t.quantization.has_value() && t.quantization->HasScale();
}

// Ops whose TFLite Prepare gives the output the inputs' type whatever the
// model says (add.cc, sub.cc, mul.cc: `output->type = input2->type`). With
// quantized inputs and a float32 output that carries quantization
// parameters, LiteRT runs them as integer ops; so does qforge (the integer
// kernel retypes the output).
bool OutputTypeFromInputs(ir::OpKind kind) {
  return ir::GetOpInfo(kind).Has(ir::op_flags::kOutputTypeFromInputs);
}

}  // namespace

const KernelDef* FindKernel(const ir::Model& model, const ir::Subgraph& sg,
                            const ir::Operator& op) {
  if (op.kind == ir::OpKind::kCustom) return FindCustomKernel(op.custom_code);
  auto tensor = [&](int32_t i) -> const ir::Tensor* {
    return i >= 0 && static_cast<size_t>(i) < sg.tensors.size() ? &sg.tensors[i]
                                                                : nullptr;
  };
  const ir::Tensor* out = op.outputs.empty() ? nullptr : tensor(op.outputs[0]);
  const ir::Tensor* in = op.inputs.empty() ? nullptr : tensor(op.inputs[0]);
  const bool scaled_out = out != nullptr && out->quantization.has_value() &&
                          out->quantization->HasScale();
  // A converter is an integer op when an integer activation is on either
  // side: DEQUANTIZE reads one (of a constant, the float kernel folds it),
  // QUANTIZE writes one, or requantizes into a scaled int32 tensor.
  const bool integer =
      ir::GetOpInfo(op.kind).Has(ir::op_flags::kConverter)
          ? (in != nullptr && IsQuantizedInt(*in) &&
             !(in->buffer != 0 && in->buffer < model.buffers.size() &&
               !model.buffers[in->buffer].data.empty())) ||
                (out != nullptr &&
                 (IsQuantizedInt(*out) ||
                  (out->type == ir::DataType::kInt32 && scaled_out)))
          : (out != nullptr &&
             (IsQuantizedInt(*out) ||
              (OutputTypeFromInputs(op.kind) && in != nullptr &&
               IsQuantizedInt(*in) && out->type == ir::DataType::kFloat32 &&
               scaled_out)));
  if (integer) {
    if (const KernelDef* k = FindIntegerKernel(op.kind)) return k;
  }
  if (out != nullptr && out->type == ir::DataType::kFloat32) {
    for (int32_t i : op.inputs) {
      const ir::Tensor* t = tensor(i);
      if (t != nullptr &&
          (t->type == ir::DataType::kInt8 || t->type == ir::DataType::kInt4) &&
          t->buffer != 0 && t->buffer < model.buffers.size() &&
          !model.buffers[t->buffer].data.empty()) {
        if (const KernelDef* k = FindHybridKernel(op.kind)) return k;
      }
    }
  }
  return FindFloatKernel(op.kind);
}

}  // namespace qforge::runtime

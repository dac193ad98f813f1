// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "ir/validate.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "ir/graph.h"
#include "ir/host_tensor.h"

namespace qforge::ir {
namespace {

std::string Where(size_t sg) { return absl::StrCat("subgraph ", sg); }

std::string TensorWhere(size_t sg, size_t t, const Subgraph& subgraph) {
  return absl::StrCat("subgraph ", sg, " tensor ", t, " '",
                      subgraph.tensors[t].name, "'");
}

std::string OpWhere(size_t sg, size_t i, const Operator& op) {
  return absl::StrCat("subgraph ", sg, " op ", i, " (", op.DisplayName(), ")");
}

absl::Status Invalid(const std::string& where, const std::string& rule) {
  return absl::InvalidArgumentError(absl::StrCat(where, ": ", rule));
}

absl::Status CheckDims(const std::string& where, const char* field,
                       const std::vector<int32_t>& dims) {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < -1) {
      return Invalid(where, absl::StrCat(field, " dim ", i, " is ", dims[i],
                                         "; dimensions must be >= -1"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckTensor(const Model& model, size_t sg, size_t t) {
  const Subgraph& subgraph = model.subgraphs[sg];
  const Tensor& tensor = subgraph.tensors[t];
  const std::string where = TensorWhere(sg, t, subgraph);
  RETURN_IF_ERROR(CheckDims(where, "shape", tensor.shape));
  RETURN_IF_ERROR(CheckDims(where, "shape_signature", tensor.shape_signature));
  if (!tensor.shape_signature.empty() &&
      tensor.shape_signature.size() != tensor.shape.size()) {
    return Invalid(
        where,
        absl::StrCat("shape_signature rank ", tensor.shape_signature.size(),
                     " differs from shape rank ", tensor.shape.size()));
  }
  int64_t count = 1;
  bool dynamic = false;
  for (int32_t d : tensor.shape) {
    if (d < 0) {
      dynamic = true;
      continue;
    }
    // At most 8 bytes per element: the byte size (DenseByteSize) must fit
    // int64 too (an element count alone overflowed it; found by the reader
    // fuzzer).
    if (d != 0 && count > (INT64_MAX / 8) / d) {
      return Invalid(where, absl::StrCat("shape ", ShapeString(tensor.shape),
                                         " has more bytes than int64 holds"));
    }
    count *= d;
  }
  // A model without any buffer (not even the empty sentinel) is legal when
  // every tensor points at buffer 0.
  if (tensor.buffer >= model.buffers.size() &&
      !(tensor.buffer == 0 && model.buffers.empty())) {
    return Invalid(where, absl::StrCat("buffer index ", tensor.buffer,
                                       " is out of range (model has ",
                                       model.buffers.size(), " buffers)"));
  }
  if (tensor.buffer != 0 && !model.buffers[tensor.buffer].data.empty() &&
      !tensor.sparsity && !dynamic) {
    const Buffer& buffer = model.buffers[tensor.buffer];
    const std::optional<int64_t> expected = DenseByteSize(tensor.type, count);
    const int64_t actual = static_cast<int64_t>(buffer.data.size());
    // Sub-byte types are accepted packed or one element per byte.
    const bool sub_byte = DataTypeBits(tensor.type).value_or(8) < 8;
    if (expected.has_value() && actual != *expected &&
        !(sub_byte && actual == count)) {
      return Invalid(
          where,
          absl::StrCat("constant buffer ", tensor.buffer, " holds ", actual,
                       " bytes but shape ", ShapeString(tensor.shape), " of ",
                       DataTypeName(tensor.type), " needs ", *expected));
    }
  }
  if (tensor.quantization.has_value()) {
    const Quantization& q = *tensor.quantization;
    if (!q.zero_point.empty() && q.zero_point.size() != q.scale.size()) {
      return Invalid(where, absl::StrCat("quantization has ", q.scale.size(),
                                         " scales but ", q.zero_point.size(),
                                         " zero points"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckIndexList(const std::string& where, const char* what,
                            const std::vector<int32_t>& list,
                            size_t num_tensors, bool allow_optional) {
  for (size_t i = 0; i < list.size(); ++i) {
    const int32_t index = list[i];
    if (index == kNoTensor && allow_optional) continue;
    if (index < 0 || static_cast<size_t>(index) >= num_tensors) {
      return Invalid(where,
                     absl::StrCat(what, " ", i, " is tensor index ", index,
                                  ", out of range [0, ", num_tensors, ")"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckArity(const std::string& where, const Operator& op) {
  const OpInfo& info = GetOpInfo(op.kind);
  auto out_of = [](size_t n, int lo, int hi) {
    return static_cast<int>(n) < lo || (hi >= 0 && static_cast<int>(n) > hi);
  };
  auto range = [](int lo, int hi) {
    if (hi < 0) return absl::StrCat("at least ", lo);
    if (lo == hi) return absl::StrCat(lo);
    return absl::StrCat(lo, " to ", hi);
  };
  if (out_of(op.inputs.size(), info.min_inputs, info.max_inputs)) {
    return Invalid(
        where, absl::StrCat("has ", op.inputs.size(), " inputs; the op takes ",
                            range(info.min_inputs, info.max_inputs)));
  }
  if (out_of(op.outputs.size(), info.min_outputs, info.max_outputs)) {
    return Invalid(
        where,
        absl::StrCat("has ", op.outputs.size(), " outputs; the op produces ",
                     range(info.min_outputs, info.max_outputs)));
  }
  return absl::OkStatus();
}

absl::Status CheckSubgraphRef(const Model& model, const std::string& where,
                              const char* what, int32_t index) {
  if (index < 0 || static_cast<size_t>(index) >= model.subgraphs.size()) {
    return Invalid(where, absl::StrCat(what, " subgraph index ", index,
                                       " is out of range (model has ",
                                       model.subgraphs.size(), " subgraphs)"));
  }
  return absl::OkStatus();
}

absl::Status CheckControlFlow(const Model& model, const std::string& where,
                              const Operator& op) {
  if (const auto* w = std::get_if<WhileOptions>(&op.options)) {
    RETURN_IF_ERROR(CheckSubgraphRef(model, where, "cond", w->cond_subgraph));
    RETURN_IF_ERROR(CheckSubgraphRef(model, where, "body", w->body_subgraph));
  } else if (const auto* i = std::get_if<IfOptions>(&op.options)) {
    RETURN_IF_ERROR(CheckSubgraphRef(model, where, "then", i->then_subgraph));
    RETURN_IF_ERROR(CheckSubgraphRef(model, where, "else", i->else_subgraph));
  } else if (const auto* c = std::get_if<CallOnceOptions>(&op.options)) {
    RETURN_IF_ERROR(CheckSubgraphRef(model, where, "init", c->init_subgraph));
  }
  return absl::OkStatus();
}

absl::Status CheckSubgraph(const Model& model, size_t sg) {
  const Subgraph& subgraph = model.subgraphs[sg];
  const size_t n = subgraph.tensors.size();
  for (size_t t = 0; t < n; ++t) RETURN_IF_ERROR(CheckTensor(model, sg, t));
  RETURN_IF_ERROR(CheckIndexList(Where(sg), "input", subgraph.inputs, n,
                                 /*allow_optional=*/false));
  RETURN_IF_ERROR(CheckIndexList(Where(sg), "output", subgraph.outputs, n,
                                 /*allow_optional=*/false));
  // The first writer of each tensor; op i's output k is written twice
  // unless it is that writer.
  const Graph graph(subgraph);
  for (size_t i = 0; i < subgraph.operators.size(); ++i) {
    const Operator& op = subgraph.operators[i];
    const std::string where = OpWhere(sg, i, op);
    RETURN_IF_ERROR(CheckIndexList(where, "input", op.inputs, n, true));
    RETURN_IF_ERROR(CheckIndexList(where, "output", op.outputs, n, false));
    RETURN_IF_ERROR(
        CheckIndexList(where, "intermediate", op.intermediates, n, true));
    RETURN_IF_ERROR(CheckArity(where, op));
    RETURN_IF_ERROR(CheckControlFlow(model, where, op));
    for (size_t k = 0; k < op.outputs.size(); ++k) {
      const int32_t out = op.outputs[k];
      if (graph.producer(out) != static_cast<int>(i) ||
          graph.producer_output(out) != static_cast<int>(k)) {
        return Invalid(where, absl::StrCat("output tensor ", out, " '",
                                           subgraph.tensors[out].name,
                                           "' is already written by op ",
                                           graph.producer(out)));
      }
    }
  }
  // Ops run in file order, so an input produced by the same or a later op is
  // a cycle (or a use before definition, which no runtime can execute).
  for (size_t i = 0; i < subgraph.operators.size(); ++i) {
    const Operator& op = subgraph.operators[i];
    for (int32_t in : op.inputs) {
      if (in == kNoTensor) continue;
      const int producer = graph.producer(in);
      if (producer == static_cast<int>(i)) {
        return Invalid(
            OpWhere(sg, i, op),
            absl::StrCat("tensor ", in, " '", subgraph.tensors[in].name,
                         "' is both an input and an output of the "
                         "op (cycle)"));
      }
      if (producer > static_cast<int>(i)) {
        return Invalid(
            OpWhere(sg, i, op),
            absl::StrCat("input tensor ", in, " '", subgraph.tensors[in].name,
                         "' is produced by op ", producer,
                         ", which does not run before it (cycle)"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateModel(const Model& model) {
  for (size_t sg = 0; sg < model.subgraphs.size(); ++sg) {
    RETURN_IF_ERROR(CheckSubgraph(model, sg));
  }
  for (size_t i = 0; i < model.metadata.size(); ++i) {
    if (model.metadata[i].buffer >= model.buffers.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "metadata ", i, " '", model.metadata[i].name, "': buffer index ",
          model.metadata[i].buffer, " is out of range (model has ",
          model.buffers.size(), " buffers)"));
    }
  }
  for (size_t i = 0; i < model.signature_defs.size(); ++i) {
    const SignatureDef& sig = model.signature_defs[i];
    const std::string where = absl::StrCat("signature ", i, " '", sig.key, "'");
    if (sig.subgraph_index >= model.subgraphs.size()) {
      return Invalid(where, absl::StrCat("subgraph index ", sig.subgraph_index,
                                         " is out of range"));
    }
    const size_t n = model.subgraphs[sig.subgraph_index].tensors.size();
    for (const auto* maps : {&sig.inputs, &sig.outputs}) {
      for (const TensorMap& m : *maps) {
        if (m.tensor_index >= n) {
          return Invalid(where, absl::StrCat("'", m.name, "' tensor index ",
                                             m.tensor_index,
                                             " is out of range [0, ", n, ")"));
        }
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace qforge::ir

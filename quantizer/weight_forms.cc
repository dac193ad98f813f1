// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/weight_forms.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "formats/tflite_reader.h"
#include "numerics/quant_params.h"
#include "quantizer/graph_edit.h"
#include "quantizer/op_quant_spec.h"
#include "quantizer/weight_grid.h"
#include "quantizer/weight_only_pass.h"
#include "runtime/legality_weights.h"

namespace qforge::quantizer {
namespace {

using runtime::legality::WeightCompute;
using runtime::legality::WeightForm;

// The dynamic-range scheme's floor (weight_only_pass.cc): hybrid kernels
// gain nothing on small weights.
constexpr int64_t kMinHybridElements = 1024;

// Where an op reads constant weights it can take in integer form.
struct WeightSlot {
  int input = -1;
  int axis = 0;              // output-channel axis: per-channel scales
  bool blocks_last = false;  // [rows, cols]: blocks may run along cols
  bool lookup = false;       // EMBEDDING_LOOKUP reads the integer table
};

std::optional<WeightSlot> SlotOf(const ir::Subgraph& sg,
                                 const ir::Operator& op) {
  const ir::OpInfo& info = ir::GetOpInfo(op.kind);
  WeightSlot slot;
  if (info.weight_input >= 0) {
    slot.input = info.weight_input;
    slot.axis = ir::OutputChannelAxis(info.weight_layout);
    slot.blocks_last = info.weight_layout == ir::WeightLayout::kFullyConnected;
    return slot;
  }
  // These ops have no weights operand in the op table: EMBEDDING_LOOKUP's
  // table is [rows, cols] with one scale per row; BATCH_MATMUL's constant
  // right operand [..., K, N] (adj_y: [..., N, K]) has one per column N.
  if (op.kind == ir::OpKind::kEmbeddingLookup) {
    slot.input = 1;
    slot.axis = 0;
    slot.blocks_last = true;
    slot.lookup = true;
    return slot;
  }
  // GATHER from a large constant table: an embedding (small constant
  // tables, anchors or lookup lists, stay exact).
  if (op.kind == ir::OpKind::kGather && !op.inputs.empty() &&
      op.inputs[0] >= 0 &&
      sg.tensors[op.inputs[0]].NumElements().value_or(0) >=
          kMinHybridElements) {
    slot.input = 0;
    slot.axis = 0;
    return slot;
  }
  if (op.kind == ir::OpKind::kBatchMatMul && op.inputs.size() == 2 &&
      op.inputs[1] >= 0) {
    const int rank = static_cast<int>(sg.tensors[op.inputs[1]].shape.size());
    if (rank < 2) return std::nullopt;
    const auto o = ir::OptionsOr<ir::BatchMatMulOptions>(op.options);
    slot.input = 1;
    slot.axis = o.adj_y ? rank - 2 : rank - 1;
    return slot;
  }
  return std::nullopt;
}

// A float32 dense constant: the weights an integer form can replace.
bool IsFloatWeight(const ir::Model& model, const ir::Tensor& t) {
  return t.type == ir::DataType::kFloat32 && IsConstant(model, t) &&
         !t.sparsity.has_value() && t.NumElements().value_or(0) > 0;
}

// Blocks along the last axis of a 2-D tensor fit when cols divides evenly.
bool BlocksFit(const ir::Tensor& t, int block_size) {
  return t.shape.size() == 2 && t.shape[1] > 0 && t.shape[1] % block_size == 0;
}

// Replaces nothing: returns the index of a new integer tensor holding the
// weights of `src` in `form` (per channel along `axis`, or per block along
// the last axis with a float16 scale tensor).
int32_t AddIntWeights(ir::Model& model, ir::Subgraph& sg, int32_t src_index,
                      int axis, const WeightForm& form, bool bf16_scales,
                      absl::Span<const float> values) {
  const ir::Tensor src = sg.tensors[src_index];
  const int qmax = WeightQMax(form.bits);
  const bool int4 = form.bits == 4;
  const int32_t q = AddTensorLike(
      sg, src, int4 ? ir::DataType::kInt4 : ir::DataType::kInt8, "_quantized");
  if (form.block_size == 0) {
    QuantizedWeights w =
        QuantizeSymmetricInt8(values, src.shape, axis, {}, qmax);
    sg.tensors[q].quantization = std::move(w.quantization);
    sg.tensors[q].buffer = int4 ? AddBuffer(model, PackInt4(w.data))
                                : AddTypedBuffer(model, std::move(w.data));
    return q;
  }
  // Blocks: values go straight to their final bytes (int4 packed two per
  // byte), so that a multi-GB weight costs its output size once.
  const int64_t rows = src.shape[0], cols = src.shape[1];
  const int64_t blocks = cols / form.block_size;
  std::vector<uint16_t> half(static_cast<size_t>(rows * blocks));
  std::vector<uint8_t> bytes(int4 ? (values.size() + 1) / 2 : values.size(), 0);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t b = 0; b < blocks; ++b) {
      const int64_t begin = r * cols + b * form.block_size;
      float absmax = 0.0f;
      for (int64_t k = begin; k < begin + form.block_size; ++k)
        absmax = std::max(absmax, std::fabs(values[k]));
      const float s =
          GridScale(absmax, qmax,
                    bf16_scales ? ScaleType::kBfloat16 : ScaleType::kFloat16,
                    &half[static_cast<size_t>(r * blocks + b)]);
      for (int64_t k = begin; k < begin + form.block_size; ++k) {
        const int32_t v =
            numerics::QuantizeValue(values[k], {s, 0}, -qmax, qmax);
        if (int4) {
          bytes[static_cast<size_t>(k / 2)] |=
              static_cast<uint8_t>((v & 0x0f) << (4 * (k % 2)));
        } else {
          bytes[static_cast<size_t>(k)] = static_cast<uint8_t>(v);
        }
      }
    }
  }
  sg.tensors[q].buffer = AddTypedBuffer(model, std::move(bytes));
  const int32_t scales =
      AddTensorLike(sg, src, ir::DataType::kFloat16, "_scales");
  sg.tensors[scales].shape = {static_cast<int32_t>(rows),
                              static_cast<int32_t>(blocks)};
  sg.tensors[scales].shape_signature.clear();
  sg.tensors[scales].quantization.reset();
  sg.tensors[scales].buffer = AddTypedBuffer(model, std::move(half));
  ir::Quantization bq;
  bq.block_scales = scales;
  bq.block_size = form.block_size;
  sg.tensors[q].quantization = std::move(bq);
  return q;
}

// The form `kind` gets: the asked one, else per channel when only the
// blocks are refused; `why` holds the refusal when neither runs.
std::optional<WeightForm> ChooseForm(ir::OpKind kind, WeightForm asked,
                                     bool blocks_fit, std::string* why) {
  if (asked.block_size > 0 && !blocks_fit) asked.block_size = 0;
  std::string refusal = runtime::legality::WeightFormRefusal(kind, asked);
  if (refusal.empty()) return asked;
  if (asked.block_size > 0) {
    asked.block_size = 0;
    if (runtime::legality::WeightFormRefusal(kind, asked).empty()) {
      return asked;
    }
  }
  *why = std::move(refusal);
  return std::nullopt;
}

// Who reads each tensor of subgraph 0.
struct WeightReaders {
  std::vector<bool> consumed_by_kept;  // an excluded op reads it
  std::vector<int> consumers;
};

WeightReaders FindWeightReaders(const ir::Subgraph& sg,
                                const std::vector<bool>& excluded) {
  WeightReaders r;
  r.consumed_by_kept.assign(sg.tensors.size(), false);
  r.consumers.assign(sg.tensors.size(), 0);
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    for (int32_t t : sg.operators[i].inputs) {
      if (t < 0) continue;
      ++r.consumers[t];
      if (excluded[i]) r.consumed_by_kept[t] = true;
    }
  }
  return r;
}

// What the weight-only pass does with one op.
struct WeightOnlyChoice {
  enum class Kind : uint8_t {
    kUntouched,  // no float weight in a slot this pass writes
    kKept,       // keeps float weights, for `why`
    kShared,     // reads a weight an earlier op's form already replaced
    kWrite,      // `form` for weight tensor `tensor`
  };
  Kind kind = Kind::kUntouched;
  std::string why;
  int32_t tensor = -1;
  WeightSlot slot;
  WeightForm form;
  bool direct = false;  // the lookup reads the integer table itself
};

WeightOnlyChoice ChooseWeightOnly(const ir::Model& model, size_t i,
                                  const std::vector<bool>& excluded,
                                  const WeightReaders& readers,
                                  const std::map<int32_t, bool>& dequantized,
                                  const QuantizeOptions& options) {
  const ir::Subgraph& sg = model.subgraphs[0];
  const ir::Operator& op = sg.operators[i];
  WeightOnlyChoice c;
  const std::optional<WeightSlot> slot = SlotOf(sg, op);
  const int32_t t =
      slot.has_value() && static_cast<size_t>(slot->input) < op.inputs.size()
          ? op.inputs[slot->input]
          : -1;
  if (t < 0 || !IsFloatWeight(model, sg.tensors[t])) return c;
  c.tensor = t;
  c.slot = *slot;
  if (excluded[i] || readers.consumed_by_kept[t]) {
    c.kind = WeightOnlyChoice::Kind::kKept;
    c.why = excluded[i] ? "excluded (--exclude-op)"
                        : "weights shared with an excluded op";
    return c;
  }
  if (dequantized.count(t)) {
    c.kind = WeightOnlyChoice::Kind::kShared;
    return c;
  }
  c.direct = slot->lookup && readers.consumers[t] == 1;
  const WeightForm asked{
      options.weight_bits, options.block_size,
      c.direct ? WeightCompute::kHybrid : WeightCompute::kDequantize};
  const std::optional<WeightForm> form =
      ChooseForm(op.kind, asked,
                 slot->blocks_last && asked.block_size > 0 &&
                     BlocksFit(sg.tensors[t], asked.block_size),
                 &c.why);
  if (!form.has_value()) {
    c.kind = WeightOnlyChoice::Kind::kKept;
    return c;
  }
  c.kind = WeightOnlyChoice::Kind::kWrite;
  c.form = *form;
  return c;
}

// The int4 form of --scheme dynamic --weight-bits 4 for op i, whose weight
// tensor `w` HybridWeightSlot accepted; nullopt: the int8 hybrid form.
std::optional<WeightForm> DynamicInt4Form(const ir::Subgraph& sg,
                                          const ir::Operator& op, int32_t w,
                                          const QuantizeOptions& options) {
  const std::optional<WeightSlot> slot = SlotOf(sg, op);
  if (!slot.has_value()) return std::nullopt;
  const WeightForm asked{4, options.block_size, WeightCompute::kHybrid};
  std::string why;
  return ChooseForm(op.kind, asked,
                    slot->blocks_last && asked.block_size > 0 &&
                        BlocksFit(sg.tensors[w], asked.block_size),
                    &why);
}

// The grid of an integer form as the recovery passes see it.
WeightGrid GridOf(const WeightForm& form, bool bf16_scales) {
  WeightGrid g;
  g.qmax = WeightQMax(form.bits);
  g.group_size = form.block_size;
  g.scale_type = form.block_size == 0 ? ScaleType::kFloat32
                 : bf16_scales        ? ScaleType::kBfloat16
                                      : ScaleType::kFloat16;
  return g;
}

}  // namespace

absl::Status WeightOnlyPass(ir::Model& model, const std::vector<bool>& excluded,
                            const QuantizeOptions& options,
                            QuantizeResult& result) {
  ir::Subgraph& sg = model.subgraphs[0];
  // A weight an excluded op reads stays float32 for every op.
  const WeightReaders readers = FindWeightReaders(sg, excluded);
  std::map<int32_t, bool> dequantized;  // float weight -> DEQUANTIZE added
  std::vector<ir::Operator> ops;
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    const WeightOnlyChoice c =
        ChooseWeightOnly(model, i, excluded, readers, dequantized, options);
    ir::Operator& op = sg.operators[i];
    switch (c.kind) {
      case WeightOnlyChoice::Kind::kUntouched:
        break;
      case WeightOnlyChoice::Kind::kKept:
        result.kept_float.push_back(
            {static_cast<int>(i), op.DisplayName(), c.why});
        break;
      case WeightOnlyChoice::Kind::kShared:
        ++result.ops_quantized;
        break;
      case WeightOnlyChoice::Kind::kWrite: {
        const int32_t t = c.tensor;
        const absl::Span<const float> values = FloatSpan(model, sg.tensors[t]);
        RETURN_IF_ERROR(CheckFinite(sg.tensors[t], values, "quantize"));
        const int32_t q =
            AddIntWeights(model, sg, t, c.slot.axis, c.form, false, values);
        if (c.direct) {
          op.inputs[c.slot.input] = q;
        } else {
          // The DEQUANTIZE recreates the float tensor under its index and
          // name.
          sg.tensors[t].buffer = 0;
          ops.push_back(MakeOp(ir::OpKind::kDequantize, {q}, {t}));
          dequantized[t] = true;
        }
        ++result.ops_quantized;
        break;
      }
    }
    ops.push_back(std::move(op));
  }
  sg.operators = std::move(ops);
  return absl::OkStatus();
}

absl::Status DynamicInt4Pass(ir::Model& model,
                             const std::vector<bool>& excluded,
                             const QuantizeOptions& options,
                             QuantizeResult& result) {
  ir::Subgraph& sg = model.subgraphs[0];
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    const int weight_input = HybridWeightSlot(model, i, excluded, result);
    if (weight_input < 0) continue;
    ir::Operator& op = sg.operators[i];
    const std::optional<HybridSpec> hw = GetHybridSpec(op.kind);
    const int32_t w = op.inputs[static_cast<size_t>(weight_input)];
    const absl::Span<const float> values = FloatSpan(model, sg.tensors[w]);
    RETURN_IF_ERROR(CheckFinite(sg.tensors[w], values, "quantize"));
    const std::optional<WeightForm> form = DynamicInt4Form(sg, op, w, options);
    if (form.has_value()) {
      op.inputs[hw->weight_input] = AddIntWeights(
          model, sg, w, SlotOf(sg, op)->axis, *form, true, values);
    } else {
      // No int4 hybrid kernel: the int8 form of --scheme dynamic.
      QuantizedWeights qw =
          QuantizeSymmetricInt8(values, sg.tensors[w].shape, hw->axis);
      const int32_t q =
          AddTensorLike(sg, sg.tensors[w], ir::DataType::kInt8, "_quantized");
      sg.tensors[q].buffer = AddTypedBuffer(model, std::move(qw.data));
      sg.tensors[q].quantization = std::move(qw.quantization);
      op.inputs[hw->weight_input] = q;
    }
    ir::Options opts = formats::OptionsOrDefaults(op);
    if (auto* fc = std::get_if<ir::FullyConnectedOptions>(&opts)) {
      fc->asymmetric_quantize_inputs = true;
      op.options = std::move(opts);
    }
    ++result.ops_quantized;
  }
  return absl::OkStatus();
}

std::vector<std::optional<WeightGrid>> PlannedWeightGrids(
    const ir::Model& model, const std::vector<bool>& excluded,
    const QuantizeOptions& options) {
  const ir::Subgraph& sg = model.subgraphs[0];
  std::vector<std::optional<WeightGrid>> grids(sg.operators.size());
  // Only an op's weights operand (ops.def) is a layer of rows over inputs.
  const auto weights_operand = [&](size_t i, int input) {
    return ir::GetOpInfo(sg.operators[i].kind).weight_input == input;
  };
  switch (options.scheme) {
    case Scheme::kWeightOnly: {
      const WeightReaders readers = FindWeightReaders(sg, excluded);
      std::map<int32_t, bool> dequantized;
      for (size_t i = 0; i < sg.operators.size(); ++i) {
        const WeightOnlyChoice c =
            ChooseWeightOnly(model, i, excluded, readers, dequantized, options);
        if (c.kind != WeightOnlyChoice::Kind::kWrite) continue;
        if (!c.direct) dequantized[c.tensor] = true;
        if (weights_operand(i, c.slot.input)) grids[i] = GridOf(c.form, false);
      }
      break;
    }
    case Scheme::kDynamic: {
      QuantizeResult scratch;
      for (size_t i = 0; i < sg.operators.size(); ++i) {
        const int input = HybridWeightSlot(model, i, excluded, scratch);
        if (input < 0 || !weights_operand(i, input)) continue;
        const ir::Operator& op = sg.operators[i];
        std::optional<WeightForm> form;
        if (options.weight_bits == 4) {
          form = DynamicInt4Form(sg, op, op.inputs[input], options);
        }
        // The int8 hybrid form: per channel along the hybrid axis, or one
        // scale for the tensor (FULLY_CONNECTED), which the caller asks
        // for with fc_per_tensor.
        grids[i] = form.has_value() ? GridOf(*form, true) : WeightGrid{};
      }
      break;
    }
    case Scheme::kInt8:
    case Scheme::kInt16x8:
    case Scheme::kFloat16:
      break;
  }
  return grids;
}

}  // namespace qforge::quantizer

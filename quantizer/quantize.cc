// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/quantize.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "ir/compact.h"
#include "ir/validate.h"
#include "quantizer/fold_activations.h"
#include "quantizer/folded_model.h"
#include "quantizer/graph_edit.h"
#include "quantizer/op_version.h"
#include "quantizer/plan.h"
#include "quantizer/rewrite.h"
#include "quantizer/sparse_weights.h"
#include "quantizer/weight_forms.h"
#include "quantizer/weight_only_pass.h"

namespace qforge::quantizer {
namespace {

bool IsQuantizedTensor(const ir::Tensor& t) {
  return (t.type == ir::DataType::kInt8 || t.type == ir::DataType::kUInt8 ||
          t.type == ir::DataType::kInt16) &&
         t.quantization.has_value() &&
         (t.quantization->HasScale() || t.quantization->IsBlockwise());
}

// uint8 model inputs/outputs over an int8 model, as TFLite's converter
// writes them (inference_input_type=uint8): a QUANTIZE op requantizes
// between the uint8 border tensor and the int8 one, same scale, zero point
// + 128. The border tensor takes over the model's name for it (and its
// signature entry); the int8 tensor is renamed with an "_int8" suffix.
void AddUint8Borders(ir::Model& model, bool inputs, bool outputs) {
  ir::Subgraph& sg = model.subgraphs[0];
  auto border = [&](int32_t t) {
    const int32_t u =
        AddTensorLike(sg, sg.tensors[t], ir::DataType::kUInt8, "");
    ir::Quantization q = *sg.tensors[t].quantization;
    for (int64_t& z : q.zero_point) z += 128;
    sg.tensors[u].quantization = std::move(q);
    sg.tensors[t].name += "_int8";
    return u;
  };
  auto retarget = [&](bool input, int32_t from, int32_t to) {
    for (ir::SignatureDef& sig : model.signature_defs) {
      if (sig.subgraph_index != 0) continue;
      for (ir::TensorMap& m : input ? sig.inputs : sig.outputs) {
        if (m.tensor_index == static_cast<uint32_t>(from)) m.tensor_index = to;
      }
    }
  };
  if (inputs) {
    std::vector<ir::Operator> front;
    for (int32_t& in : sg.inputs) {
      if (sg.tensors[in].type != ir::DataType::kInt8 ||
          !sg.tensors[in].quantization.has_value())
        continue;
      const int32_t u = border(in);
      front.push_back(MakeOp(ir::OpKind::kQuantize, {u}, {in}));
      retarget(true, in, u);
      in = u;
    }
    sg.operators.insert(sg.operators.begin(), front.begin(), front.end());
  }
  if (!outputs) return;
  for (int32_t& out : sg.outputs) {
    if (sg.tensors[out].type != ir::DataType::kInt8 ||
        !sg.tensors[out].quantization.has_value())
      continue;
    const int32_t u = border(out);
    sg.operators.push_back(MakeOp(ir::OpKind::kQuantize, {out}, {u}));
    retarget(false, out, u);
    out = u;
  }
}

// Arm NN's parser refuses an omitted input (TfLiteParser.cpp GetInputs):
// the float weighted ops that need a bias there (runtime::NeedsBias) get
// a zero one, which computes the same.
void AddZeroFloatBiases(ir::Model& model, runtime::Runtime rt) {
  ir::Subgraph& sg = model.subgraphs[0];
  for (ir::Operator& op : sg.operators) {
    const ir::OpInfo& info = ir::GetOpInfo(op.kind);
    if (info.weight_input < 0 || !runtime::NeedsBias(rt, op.kind)) continue;
    const size_t w = static_cast<size_t>(info.weight_input);
    const size_t slot = w + 1;
    if (w >= op.inputs.size() || op.inputs[w] < 0 ||
        (slot < op.inputs.size() && op.inputs[slot] >= 0) ||
        op.outputs.empty() || op.outputs[0] < 0) {
      continue;
    }
    const ir::Tensor& weights = sg.tensors[static_cast<size_t>(op.inputs[w])];
    const int axis = ir::OutputChannelAxis(info.weight_layout);
    if (weights.type != ir::DataType::kFloat32 || axis < 0 ||
        static_cast<size_t>(axis) >= weights.shape.size()) {
      continue;
    }
    const int32_t channels = weights.shape[static_cast<size_t>(axis)];
    const int32_t zero =
        AddTensorLike(sg, sg.tensors[static_cast<size_t>(op.outputs[0])],
                      ir::DataType::kFloat32, "_zero_bias");
    sg.tensors[static_cast<size_t>(zero)].shape = {channels};
    sg.tensors[static_cast<size_t>(zero)].shape_signature.clear();
    sg.tensors[static_cast<size_t>(zero)].quantization.reset();
    sg.tensors[static_cast<size_t>(zero)].buffer = AddTypedBuffer(
        model, std::vector<float>(static_cast<size_t>(channels), 0.0f));
    op.inputs.resize(std::max(op.inputs.size(), slot + 1), -1);
    op.inputs[slot] = zero;
  }
}

// The float ops of an int8 / int16x8 plan whose weights are float16 (a
// "float16" rule, or --float-weights float16 unless a "float32" rule says
// otherwise) get their float32 constants as float16 behind DEQUANTIZE.
// `planned` are the ops the plan was made for; the rewrite keeps the
// tensor indices of their constants. Constants the model stored as float16
// (`from_half`) go back to float16 in any float op: exactly, and half the
// size.
absl::Status Float16Weights(
    const std::vector<ir::Operator>& planned, const QuantPlan& plan,
    const std::vector<std::optional<UserRequest>>& requests,
    const QuantizeOptions& options, const std::set<int32_t>& from_half,
    QuantizeResult& result) {
  std::set<int32_t> half;  // constants of float16-weight float ops
  for (size_t i = 0; i < planned.size() && i < plan.ops.size(); ++i) {
    if (plan.ops[i].precision != Precision::kFloat) continue;
    for (int32_t t : planned[i].inputs) {
      if (from_half.count(t)) half.insert(t);
    }
    const std::optional<UserRequest>& r =
        i < requests.size() ? requests[i] : std::nullopt;
    const bool fp16 = r.has_value() && r->float16_weights.has_value()
                          ? *r->float16_weights
                          : options.float16_float_weights;
    if (!fp16) {
      if (r.has_value() && r->float16_weights.has_value() &&
          i < result.op_choices.size()) {
        result.op_choices[i].precision = "float32";  // as asked
      }
      continue;
    }
    if (i < result.op_choices.size())
      result.op_choices[i].precision = "float16";
    for (int32_t t : planned[i].inputs) {
      if (t >= 0) half.insert(t);
    }
  }
  if (half.empty()) return absl::OkStatus();
  const ir::Subgraph& sg = result.model.subgraphs[0];
  // Ops reading none of them keep their constants (and a constant shared
  // with such an op stays float32).
  std::vector<bool> keep(sg.operators.size(), true);
  for (size_t j = 0; j < sg.operators.size(); ++j) {
    for (int32_t t : sg.operators[j].inputs) {
      if (half.count(t)) keep[j] = false;
    }
  }
  QuantizeResult scratch;
  return Float16Pass(result.model, keep, scratch, from_half);
}

// Records the folded activations by the planned (folded float) model's op
// indices: the producer wrote the activation's input there too, under the
// same name, and the activation is the op reading it.
void FoldedActivations(const std::vector<ir::Operator>& planned,
                       const std::vector<FoldedActivation>& folded,
                       QuantizeResult& result) {
  if (folded.empty()) return;
  std::map<std::string, size_t> writer;  // first output's name -> op
  for (size_t i = 0; i < planned.size() && i < result.op_choices.size(); ++i) {
    writer.emplace(result.op_choices[i].output, i);
  }
  for (const FoldedActivation& f : folded) {
    auto p = writer.find(f.input);
    if (p == writer.end() || planned[p->second].outputs.empty()) continue;
    const int32_t t = planned[p->second].outputs[0];
    for (size_t i = p->second + 1; i < planned.size(); ++i) {
      const std::vector<int32_t>& in = planned[i].inputs;
      if (in.size() == 1 && in[0] == t) {
        result.folded.push_back(
            {static_cast<int>(i), f.op, static_cast<int>(p->second), f.into});
        break;
      }
    }
  }
}

}  // namespace

absl::Status CheckFloatModel(const ir::Model& model) {
  if (model.subgraphs.empty()) {
    return absl::InvalidArgumentError("model has no subgraph");
  }
  for (const ir::Subgraph& sg : model.subgraphs) {
    for (const ir::Tensor& t : sg.tensors) {
      if (IsQuantizedTensor(t)) {
        return absl::InvalidArgumentError(
            absl::StrCat("model is already quantized (tensor '", t.name,
                         "' is ", ir::DataTypeName(t.type),
                         " with a scale); qforge quantizes float models"));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<QuantizeResult> Quantize(const ir::Model& model,
                                        const calibration::StatsFile* stats,
                                        const QuantizeOptions& options) {
  RETURN_IF_ERROR(CheckFloatModel(model));
  const bool integer =
      options.scheme == Scheme::kInt8 || options.scheme == Scheme::kInt16x8;
  if (integer && stats == nullptr) {
    return absl::InvalidArgumentError(
        "the int8 and int16x8 schemes need calibration statistics (--stats or "
        "--data)");
  }
  const ir::DataType q = options.scheme == Scheme::kInt16x8
                             ? ir::DataType::kInt16
                             : ir::DataType::kInt8;
  for (ir::DataType io : {options.input_type, options.output_type}) {
    const bool uint8 = io == ir::DataType::kUInt8 && q == ir::DataType::kInt8;
    if (io != ir::DataType::kFloat32 && !(integer && (io == q || uint8))) {
      return absl::InvalidArgumentError(absl::StrCat(
          "input/output type ", ir::DataTypeName(io),
          " does not go with scheme ", SchemeName(options.scheme),
          " (float32, or ",
          q == ir::DataType::kInt8 ? "int8 or uint8" : ir::DataTypeName(q),
          " for integer schemes)"));
    }
  }
  QuantizeResult result;
  result.model = model;
  std::set<int32_t> from_half;
  SparseChains sparse;
  if (options.scheme != Scheme::kFloat16) {
    sparse = FindSparseChains(result.model);
    RETURN_IF_ERROR(FoldCompressedWeights(result.model, from_half));
  }
  ASSIGN_OR_RETURN(const std::vector<std::optional<UserRequest>> requests,
                   ResolveRequests(result.model.subgraphs[0], options));
  std::vector<bool> excluded(requests.size(), false);
  for (size_t i = 0; i < requests.size(); ++i) {
    excluded[i] =
        requests[i].has_value() && requests[i]->precision == Precision::kFloat;
  }
  switch (options.scheme) {
    case Scheme::kInt8:
    case Scheme::kInt16x8: {
      // uint8 borders are added to an int8-bordered model.
      QuantizeOptions pass_options = options;
      const bool u8_in = options.input_type == ir::DataType::kUInt8;
      const bool u8_out = options.output_type == ir::DataType::kUInt8;
      if (u8_in) pass_options.input_type = ir::DataType::kInt8;
      if (u8_out) pass_options.output_type = ir::DataType::kInt8;
      // A recipe's range methods win over --method auto's choices.
      ASSIGN_OR_RETURN(
          const auto methods,
          ResolveRangeRules(result.model.subgraphs[0], pass_options));
      for (const auto& [name, spec] : methods) {
        pass_options.range_overrides[name] = spec;
      }
      ASSIGN_OR_RETURN(const QuantPlan plan,
                       BuildPlan(result.model, *stats, pass_options, requests));
      const std::vector<ir::Operator> planned =
          result.model.subgraphs[0].operators;
      RETURN_IF_ERROR(ApplyPlan(result.model, plan, pass_options, result));
      RestoreSparseWeights(result.model, sparse, from_half);
      RETURN_IF_ERROR(
          Float16Weights(planned, plan, requests, options, from_half, result));
      FoldedActivations(planned, FoldActivations(result.model, options.runtime),
                        result);
      if (u8_in || u8_out) AddUint8Borders(result.model, u8_in, u8_out);
      if (options.runtime == runtime::Runtime::kArmnn) {
        AddZeroFloatBiases(result.model, options.runtime);
      }
      break;
    }
    case Scheme::kDynamic:
      if (options.weight_bits == 4) {
        RETURN_IF_ERROR(
            DynamicInt4Pass(result.model, excluded, options, result));
        break;
      }
      RETURN_IF_ERROR(DynamicRangePass(result.model, excluded, result));
      break;
    case Scheme::kWeightOnly:
      RETURN_IF_ERROR(WeightOnlyPass(result.model, excluded, options, result));
      break;
    case Scheme::kFloat16:
      RETURN_IF_ERROR(Float16Pass(result.model, excluded, result));
      break;
  }
  // A TFLM target runs integer only (microcontrollers without an FPU):
  // an op that cannot be integer there fails as --strict does.
  const bool integer_only = options.runtime == runtime::Runtime::kTflm;
  if ((options.strict || integer_only) && !result.kept_float.empty()) {
    std::vector<std::string> ops;
    for (const KeptFloat& k : result.kept_float) {
      ops.push_back(
          absl::StrCat(k.op_index, " ", k.op_name, " (", k.reason, ")"));
    }
    return absl::UnimplementedError(absl::StrCat(
        options.strict ? "--strict: " : "--runtime tflm (integer only): ",
        ops.size(), " ops would stay float: ", absl::StrJoin(ops, "; ")));
  }
  // A repair changes what an op computes (a mask's range clamped) so that
  // the runtime runs it faithfully: --strict asks for the model as
  // calibrated, so it is an error too.
  if (options.strict && !result.repairs.empty()) {
    std::vector<std::string> ops;
    for (const Repair& r : result.repairs) {
      ops.push_back(
          absl::StrCat(r.op_index, " ", r.op_name, " (", r.what, ")"));
    }
    return absl::UnimplementedError(
        absl::StrCat("--strict: ", ops.size(), ops.size() == 1 ? " op" : " ops",
                     " would be repaired: ", absl::StrJoin(ops, "; ")));
  }
  for (ir::Subgraph& sg : result.model.subgraphs) {
    for (ir::Operator& op : sg.operators)
      op.version = QuantizedOpVersion(sg, op);
  }
  ir::CompactTensors(result.model);
  absl::Status valid = ir::ValidateModel(result.model);
  if (!valid.ok()) {
    return absl::InternalError(
        absl::StrCat("quantized model is invalid: ", valid.message()));
  }
  return result;
}

}  // namespace qforge::quantizer

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/kernels/sequence/lstm_tensors.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace qforge::runtime {
namespace {

// The parts both ops' options share (same field names), and input 0's rank.
template <typename Options>
absl::Status ReadCommon(const OpContext& ctx, const Options& opts, int rank,
                        LstmSequence* seq) {
  if (!(opts.cell_clip >= 0.f) || !(opts.proj_clip >= 0.f)) {
    return ctx.Error(absl::StrCat("cell_clip (", opts.cell_clip,
                                  ") and proj_clip (", opts.proj_clip,
                                  ") must be >= 0"));
  }
  const RtTensor* input = ctx.input(kInput);
  if (input == nullptr) return ctx.Error("input 0 is missing");
  if (input->rank() != rank) {
    return ctx.Error(absl::StrCat("input '", input->name(), "' has shape ",
                                  DimsString(input->shape),
                                  "; it must have rank ", rank));
  }
  const int n_in = ctx.num_inputs();
  if ((n_in != 20 && n_in != 24) || ctx.num_outputs() != 1) {
    return ctx.Error(absl::StrCat("takes 20 or 24 inputs and 1 output; got ",
                                  n_in, " and ", ctx.num_outputs()));
  }
  seq->activation = opts.activation;
  seq->cell_clip = opts.cell_clip;
  seq->proj_clip = opts.proj_clip;
  return absl::OkStatus();
}

}  // namespace

absl::Status ReadLstmSequence(const OpContext& ctx, bool sequence,
                              LstmSequence* seq) {
  if (!sequence) {
    const auto opts = ir::OptionsOr<ir::LstmOptions>(ctx.op().options);
    if (opts.kernel_type != 0) {
      return ctx.Unsupported(
          "the BASIC kernel type (4 outputs) is not implemented; only FULL");
    }
    RETURN_IF_ERROR(ReadCommon(ctx, opts, 2, seq));
    const RtTensor& input = *ctx.input(kInput);
    // One time step; with max_time 1 both layouts index rows the same way.
    seq->time_major = true;
    seq->max_time = 1;
    seq->n_batch = input.dim(0);
    seq->n_input = input.dim(1);
    return absl::OkStatus();
  }
  const auto opts = ir::OptionsOr<ir::SequenceLstmOptions>(ctx.op().options);
  if (opts.diagonal_recurrent_tensors) {
    return ctx.Unsupported("diagonal_recurrent_tensors is not implemented");
  }
  RETURN_IF_ERROR(ReadCommon(ctx, opts, 3, seq));
  const RtTensor& input = *ctx.input(kInput);
  seq->time_major = opts.time_major;
  seq->max_time = opts.time_major ? input.dim(0) : input.dim(1);
  seq->n_batch = opts.time_major ? input.dim(1) : input.dim(0);
  seq->n_input = input.dim(2);
  return absl::OkStatus();
}

absl::StatusOr<LstmCellSize> ReadLstmCellSize(const OpContext& ctx) {
  const RtTensor* w_io = ctx.input(kInputToOutput);
  const RtTensor* r_o = ctx.input(kRecurrentToOutput);
  if (w_io == nullptr || r_o == nullptr || w_io->rank() != 2 ||
      r_o->rank() != 2) {
    return ctx.Error(
        "input_to_output (4) and recurrent_to_output (8) weights must be "
        "present and 2-D");
  }
  return LstmCellSize{w_io->dim(0), r_o->dim(1)};
}

absl::Status ReadLstmParts(const OpContext& ctx, bool use_cifg,
                           int64_t n_output, int64_t n_cell, LstmParts* parts) {
  parts->use_projection = ctx.input(kProjectionWeights) != nullptr;
  if (!parts->use_projection && ctx.input(kProjectionBias) != nullptr) {
    return ctx.Error("projection_bias (17) needs projection_weights (16)");
  }
  if (!parts->use_projection && n_output != n_cell) {
    return ctx.Error(absl::StrCat("without projection the output size (",
                                  n_output, ") must equal the cell count (",
                                  n_cell, ")"));
  }
  parts->use_layer_norm =
      ctx.num_inputs() == 24 && ctx.input(kForgetLayerNorm) != nullptr;
  if (parts->use_layer_norm && use_cifg &&
      ctx.input(kInputLayerNorm) != nullptr) {
    return ctx.Error(
        "input layer-norm coefficients (20) must be absent with CIFG");
  }
  return absl::OkStatus();
}

void LstmShape::SetDims(const LstmSequence& layout, const LstmCellSize& size) {
  time_major = layout.time_major;
  max_time = layout.max_time;
  n_batch = layout.n_batch;
  n_input = layout.n_input;
  n_cell = size.n_cell;
  n_output = size.n_output;
}

absl::Status CheckLstmStates(const OpContext& ctx, const int64_t counts[2],
                             const ir::DataType types[2],
                             absl::string_view taker) {
  const char* state_name[2] = {"output_state", "cell_state"};
  for (int k = 0; k < 2; ++k) {
    const RtTensor* t = ctx.input(kOutputState + k);
    if (t == nullptr) {
      return ctx.Error(absl::StrCat(state_name[k], " (input ", kOutputState + k,
                                    ") is missing"));
    }
    if (t->type != types[k]) {
      std::string message = absl::StrCat(state_name[k], " '", t->name(),
                                         "' is ", ir::DataTypeName(t->type));
      if (!taker.empty()) {
        absl::StrAppend(&message, "; ", taker, " takes ",
                        ir::DataTypeName(types[k]));
      }
      return ctx.Unsupported(message);
    }
    if (!t->is_variable || t->is_constant) {
      return ctx.Error(absl::StrCat(state_name[k], " '", t->name(),
                                    "' must be a (writable) variable tensor"));
    }
    if (t->NumElements() != counts[k]) {
      return ctx.Error(absl::StrCat(state_name[k], " '", t->name(),
                                    "' has shape ", DimsString(t->shape),
                                    "; it must hold ", counts[k], " values"));
    }
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime

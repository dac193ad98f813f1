// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/kernels/sequence/svdf_shape.h"

#include "absl/strings/str_cat.h"
#include "ir/options.h"

namespace qforge::runtime {

absl::Status ReadSvdfShape(const OpContext& ctx, SvdfShape* shape) {
  if (ctx.num_inputs() != 5 || ctx.num_outputs() != 1) {
    return ctx.Error(absl::StrCat("takes 5 inputs and 1 output; got ",
                                  ctx.num_inputs(), " and ",
                                  ctx.num_outputs()));
  }
  const char* roles[5] = {"input", "weights_feature", "weights_time", "bias",
                          "state"};
  for (int i : {0, 1, 2, 4}) {
    const RtTensor* t = ctx.input(i);
    if (t == nullptr) {
      return ctx.Error(
          absl::StrCat("input ", i, " (", roles[i], ") is missing"));
    }
    if (t->rank() != 2) {
      return ctx.Error(absl::StrCat("input ", i, " (", roles[i], ") '",
                                    t->name(), "' has shape ",
                                    DimsString(t->shape), "; it must be 2-D"));
    }
  }
  const RtTensor& input = *ctx.input(0);
  const RtTensor& wf = *ctx.input(1);
  const RtTensor& wt = *ctx.input(2);
  const RtTensor& state = *ctx.input(4);
  SvdfShape& s = *shape;
  s.rank = ir::OptionsOr<ir::SvdfOptions>(ctx.op().options).rank;
  s.batch = input.dim(0);
  s.input_size = input.dim(1);
  s.filters = wf.dim(0);
  s.memory = wt.dim(1);
  if (s.rank <= 0 || s.filters % s.rank != 0) {
    return ctx.Error(absl::StrCat("rank ", s.rank,
                                  " must be positive and divide the filter "
                                  "count ",
                                  s.filters));
  }
  s.units = s.filters / s.rank;
  if (wf.dim(1) != s.input_size) {
    return ctx.Error(absl::StrCat("weights_feature '", wf.name(), "' ",
                                  DimsString(wf.shape),
                                  " does not match input '", input.name(), "' ",
                                  DimsString(input.shape)));
  }
  if (wt.dim(0) != s.filters) {
    return ctx.Error(absl::StrCat("weights_time '", wt.name(), "' ",
                                  DimsString(wt.shape), " must have ",
                                  s.filters, " rows (the filter count)"));
  }
  const RtTensor* bias = ctx.input(3);
  if (bias != nullptr && (bias->rank() != 1 || bias->dim(0) != s.units)) {
    return ctx.Error(absl::StrCat("bias '", bias->name(), "' ",
                                  DimsString(bias->shape), " must be [",
                                  s.units, "]"));
  }
  if (state.dim(0) != s.batch || state.dim(1) != s.memory * s.filters) {
    return ctx.Error(absl::StrCat(
        "state '", state.name(), "' has shape ", DimsString(state.shape),
        "; it must be [", s.batch, ",", s.memory * s.filters,
        "] (batch, memory ", s.memory, " x filters ", s.filters, ")"));
  }
  if (!state.is_variable || state.is_constant) {
    return ctx.Error(absl::StrCat("state '", state.name(),
                                  "' must be a (writable) variable tensor"));
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime

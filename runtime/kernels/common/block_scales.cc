// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/kernels/common/block_scales.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "numerics/float16.h"

namespace qforge::runtime::integer {

absl::Status ReadRowScales(const OpContext& ctx, const RtTensor& w,
                           absl::string_view role, int64_t rows, int64_t cols,
                           RowScales* out) {
  const auto& q = w.ir->quantization;
  if (!q.has_value()) {
    return ctx.Error(absl::StrCat(role, " '", w.name(), "' is ",
                                  ir::DataTypeName(w.ir->type),
                                  " without quantization parameters"));
  }
  out->scales.clear();
  if (q->IsBlockwise()) {
    if (q->block_zero_points >= 0) {
      return ctx.Unsupported(
          absl::StrCat(role, " '", w.name(),
                       "' has blockwise zero points; LiteRT's "
                       "blockwise kernels take symmetric weights only"));
    }
    const int64_t block = q->block_size;
    if (cols % block != 0) {
      return ctx.Error(absl::StrCat(role, " '", w.name(), "' has rows of ",
                                    cols, ", not a multiple of block size ",
                                    block));
    }
    const RtTensor* s = ctx.tensor(q->block_scales);
    const int64_t n = rows * (cols / block);
    if (s == nullptr || s->type != ir::DataType::kFloat16 ||
        s->data == nullptr || s->NumElements() != n) {
      return ctx.Error(absl::StrCat(
          role, " '", w.name(), "': its blockwise scales (tensor ",
          q->block_scales, ") must be a float16 constant of ", n, " elements (",
          rows, " rows x ", cols / block, " blocks)"));
    }
    out->block = block;
    out->scales.resize(static_cast<size_t>(n));
    const uint16_t* h = s->Data<uint16_t>();
    for (int64_t i = 0; i < n; ++i)
      out->scales[static_cast<size_t>(i)] = numerics::HalfToFloat(h[i]);
  } else {
    if (q->scale.empty() ||
        (q->scale.size() != 1 &&
         static_cast<int64_t>(q->scale.size()) != rows) ||
        (q->scale.size() > 1 && q->quantized_dimension != 0)) {
      return ctx.Error(absl::StrCat(role, " '", w.name(), "' has ",
                                    q->scale.size(), " scales for ", rows,
                                    " rows (one, or one per row on axis 0)"));
    }
    for (int64_t zp : q->zero_point) {
      if (zp != 0) {
        return ctx.Unsupported(
            absl::StrCat(role, " '", w.name(), "' has zero point ", zp,
                         "; weights beside float activations are symmetric"));
      }
    }
    out->block = cols;
    out->scales.resize(static_cast<size_t>(rows));
    for (int64_t r = 0; r < rows; ++r) {
      out->scales[static_cast<size_t>(r)] =
          q->scale[q->scale.size() == 1 ? 0 : static_cast<size_t>(r)];
    }
  }
  for (float v : out->scales) {
    if (!std::isfinite(v)) {
      return ctx.Error(
          absl::StrCat(role, " '", w.name(), "' has a non-finite scale ", v));
    }
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime::integer

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/kernels/custom/mediapipe_params.h"

#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/custom/custom.h"

namespace qforge::runtime::mediapipe {
namespace {

// Little-endian int32 field `i` of a C struct stored as bytes.
int32_t Field(const std::vector<uint8_t>& bytes, size_t i) {
  int32_t v = 0;
  std::memcpy(&v, bytes.data() + i * 4, 4);
  return v;
}

// TfLitePadding: 0 unknown, 1 SAME, 2 VALID.
absl::Status ReadPadding(const OpContext& ctx, int32_t value,
                         ir::Padding* padding) {
  if (value == 1) {
    *padding = ir::Padding::kSame;
  } else if (value == 2) {
    *padding = ir::Padding::kValid;
  } else {
    return ctx.Error(absl::StrCat("custom options: padding ", value,
                                  " is neither SAME (1) nor VALID (2)"));
  }
  return absl::OkStatus();
}

absl::Status ExpectPositive(const OpContext& ctx, const char* name,
                            int32_t value) {
  if (value <= 0) {
    return ctx.Error(
        absl::StrCat("custom options: ", name, " is ", value, "; must be > 0"));
  }
  return absl::OkStatus();
}

absl::Status ExpectBytes(const OpContext& ctx, size_t need, const char* what) {
  const size_t have = ctx.op().custom_options.size();
  if (have < need) {
    return ctx.Error(absl::StrCat("custom options hold ", have, " bytes; ",
                                  what, " needs at least ", need));
  }
  return absl::OkStatus();
}

// The fields both structs start with, after checking that the options hold
// `need` bytes of `what`.
absl::Status ReadLeadingParams(const OpContext& ctx, size_t need,
                               const char* what, TransposeParams* p) {
  RETURN_IF_ERROR(ExpectBytes(ctx, need, what));
  const std::vector<uint8_t>& b = ctx.op().custom_options;
  RETURN_IF_ERROR(ReadPadding(ctx, Field(b, 0), &p->padding));
  p->stride_w = Field(b, 1);
  p->stride_h = Field(b, 2);
  RETURN_IF_ERROR(ExpectPositive(ctx, "stride_width", p->stride_w));
  return ExpectPositive(ctx, "stride_height", p->stride_h);
}

}  // namespace

absl::Status ReadPoolParams(const OpContext& ctx, PoolParams* p) {
  // padding .. filter_height: 5 fields; activation when present.
  RETURN_IF_ERROR(ReadLeadingParams(ctx, 20, "TfLitePoolParams", p));
  const std::vector<uint8_t>& b = ctx.op().custom_options;
  p->filter_w = Field(b, 3);
  p->filter_h = Field(b, 4);
  p->activation = b.size() >= 24 ? Field(b, 5) : 0;
  RETURN_IF_ERROR(ExpectPositive(ctx, "filter_width", p->filter_w));
  RETURN_IF_ERROR(ExpectPositive(ctx, "filter_height", p->filter_h));
  return absl::OkStatus();
}

absl::Status ReadTransposeParams(const OpContext& ctx, TransposeParams* p) {
  return ReadLeadingParams(ctx, 12, "TfLiteTransposeConvParams", p);
}

absl::Status ExpectFloat(const OpContext& ctx, const RtTensor* t,
                         absl::string_view role, int rank,
                         absl::string_view rank_note) {
  if (t == nullptr) return ctx.Error(absl::StrCat(role, " is missing"));
  if (t->type != ir::DataType::kFloat32) {
    return ctx.Unsupported(absl::StrCat(role, " '", t->name(), "' is ",
                                        ir::DataTypeName(t->type),
                                        "; MediaPipe's kernel takes float32"));
  }
  if (t->rank() != rank) {
    return ctx.Error(absl::StrCat(role, " '", t->name(), "' ",
                                  DimsString(t->shape), " must have rank ",
                                  rank, rank_note));
  }
  return absl::OkStatus();
}

absl::Status ExpectVersion1Or2(const OpContext& ctx) {
  const int32_t v = ctx.op().version;
  if (v != 1 && v != 2) {
    return ctx.Unsupported(absl::StrCat(
        "version ", v, "; MediaPipe's kernels are versions 1 and 2"));
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime::mediapipe

namespace qforge::runtime {

std::string CustomOpRuntimeNote(absl::string_view custom_code) {
  // MediaPipe registers these in its op resolver
  // (mediapipe/util/tflite/cpu_op_resolver.cc); LiteRT's XNNPACK delegate
  // takes the first three in float (xnnpack_delegate.cc,
  // VisitMediaPipe*Node), so LiteRT loads models with them when XNNPACK is
  // on.
  struct Row {
    const char* code;
    bool xnnpack;
  };
  static constexpr Row kRows[] = {
      {"Convolution2DTransposeBias", true},
      {"MaxPoolingWithArgmax2D", true},
      {"MaxUnpooling2D", true},
      {"TransformTensorBilinear", false},
      {"TransformLandmarks", false},
      {"Landmarks2TransformMatrix", false},
  };
  for (const Row& row : kRows) {
    if (custom_code != row.code) continue;
    return row.xnnpack
               ? "MediaPipe custom op, float only: runs in LiteRT's XNNPACK "
                 "delegate or with MediaPipe's op resolver"
               : "MediaPipe custom op, float only: the runtime needs "
                 "MediaPipe's op resolver (LiteRT has no kernel)";
  }
  return "";
}

}  // namespace qforge::runtime

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// MediaPipe's TransformTensorBilinear and TransformLandmarks (float32), as
// in mediapipe/util/tflite/operations/transform_tensor_bilinear.cc and
// transform_landmarks.cc; the op's version picks MediaPipe's V1 or V2
// kernel. Input 1 is a 4x4 affine matrix (16 floats, row-major); only its
// first two rows are used.
//
// TransformTensorBilinear: data [1, H, W, C] -> [1, OH, OW, C]. Output pixel
//   (x, y) samples the data at (m0 x + m1 y + m3, m4 x + m5 y + m7)
//   bilinearly; a point outside [0, W-1] x [0, H-1] gives 0. V2 first moves
//   the matrix to pixel centers (m3 += 0.5 (m0 + m1) - 0.5, m7 alike). The
//   output size is the model's output shape (MediaPipe's CPU kernel does not
//   resize its output); when that is not static, the options' output_size
//   (V1) or output_height/output_width (V2). The interpolation weights are
//   applied in double, as MediaPipe's arithmetic promotes them.
// TransformLandmarks: V1 takes [1, H, W, C] with C a multiple of
//   `dimensions` (2 or 3, options; `scale` multiplies the translation); V2
//   takes [1, N, D] (D = 2 or 3, scale 1). Each landmark's (x, y) goes
//   through the matrix; z is copied.
#include <cmath>
#include <memory>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "flatbuffers/flexbuffers.h"
#include "runtime/kernels/custom/custom.h"
#include "runtime/kernels/custom/mediapipe_params.h"

namespace qforge::runtime {
namespace {

// The first two rows of the 4x4 matrix.
struct Affine {
  float x[4], y[4];
};

absl::Status ReadMatrixInput(const OpContext& ctx, int i) {
  const RtTensor* m = ctx.input(i);
  if (m == nullptr) return ctx.Error(absl::StrCat("input ", i, " is missing"));
  if (m->type != ir::DataType::kFloat32 || m->NumElements() != 16) {
    return ctx.Error(absl::StrCat(
        "input ", i, " '", m->name(), "' is ", ir::DataTypeName(m->type),
        DimsString(m->shape), "; the transform matrix is 16 float32 values"));
  }
  return absl::OkStatus();
}

Affine ReadAffine(const RtTensor& m) {
  const float* v = m.Data<float>();
  return Affine{{v[0], v[1], v[2], v[3]}, {v[4], v[5], v[6], v[7]}};
}

// MediaPipe's DotProduct of float4s, left to right in float.
float Dot(const float* row, float a, float b, float c, float d) {
  return row[0] * a + row[1] * b + row[2] * c + row[3] * d;
}

absl::Status ExpectFloatRank(const OpContext& ctx, int i, int rank) {
  RETURN_IF_ERROR(mediapipe::ExpectFloat(
      ctx, ctx.input(i), absl::StrCat("input ", i), rank,
      absl::StrCat(" (version ", ctx.op().version, ")")));
  if (ctx.num_outputs() != 1 || ctx.output(0)->type != ir::DataType::kFloat32) {
    return ctx.Error("must have one float32 output");
  }
  return absl::OkStatus();
}

// A flexbuffer map of options, or an error naming the op.
absl::StatusOr<flexbuffers::Map> OptionsMap(const OpContext& ctx) {
  const std::vector<uint8_t>& b = ctx.op().custom_options;
  if (b.empty() || !flexbuffers::VerifyBuffer(b.data(), b.size())) {
    return ctx.Error("custom options are not a valid flexbuffer");
  }
  const flexbuffers::Reference root = flexbuffers::GetRoot(b.data(), b.size());
  if (!root.IsMap()) return ctx.Error("custom options are not a map");
  return root.AsMap();
}

struct BilinearState : KernelState {
  bool align_corners = false;  // V2
};

struct LandmarksState : KernelState {
  int dimensions = 3;
  float scale = 1.f;
};

}  // namespace

absl::Status PrepareTransformTensorBilinear(OpContext& ctx) {
  RETURN_IF_ERROR(mediapipe::ExpectVersion1Or2(ctx));
  if (ctx.num_inputs() != 2) return ctx.Error("takes 2 inputs");
  RETURN_IF_ERROR(ExpectFloatRank(ctx, 0, 4));
  RETURN_IF_ERROR(ReadMatrixInput(ctx, 1));
  const RtTensor& data = *ctx.input(0);
  if (data.dim(0) != 1) {
    return ctx.Unsupported(absl::StrCat("input '", data.name(), "' ",
                                        DimsString(data.shape),
                                        ": MediaPipe's kernel takes batch 1"));
  }
  const bool v2 = ctx.op().version == 2;
  // The output size: the model's static output shape, else the options'.
  const std::vector<int32_t>& declared = ctx.output(0)->ir->shape;
  bool static_shape = declared.size() == 4;
  for (int32_t d : declared) static_shape = static_shape && d >= 0;
  int64_t oh = 0, ow = 0;
  if (static_shape) {
    oh = declared[1];
    ow = declared[2];
    if (declared[3] != data.dim(3)) {
      return ctx.Error(absl::StrCat("output '", ctx.output(0)->name(), "' has ",
                                    declared[3], " channels; input '",
                                    data.name(), "' has ", data.dim(3)));
    }
  } else {
    ASSIGN_OR_RETURN(const flexbuffers::Map m, OptionsMap(ctx));
    if (v2) {
      oh = m["output_height"].AsInt32();
      ow = m["output_width"].AsInt32();
    } else {
      const flexbuffers::TypedVector size = m["output_size"].AsTypedVector();
      if (size.size() == 2) {
        oh = size[0].AsInt32();
        ow = size[1].AsInt32();
      }
    }
    if (oh <= 0 || ow <= 0) {
      return ctx.Error(absl::StrCat("output size ", oh, "x", ow,
                                    " (options) is not positive"));
    }
  }
  auto* s = ctx.StateOrNew<BilinearState>();
  s->align_corners = v2;
  ctx.SetOutputShape(0, Dims{1, oh, ow, data.dim(3)});
  return absl::OkStatus();
}

absl::Status EvalTransformTensorBilinear(OpContext& ctx) {
  const BilinearState& s = *ctx.state<BilinearState>();
  const RtTensor& data = *ctx.input(0);
  RtTensor& output = *ctx.output(0);
  Affine t = ReadAffine(*ctx.input(1));
  if (s.align_corners) {
    t.x[3] = static_cast<float>(t.x[3] + (t.x[0] * 0.5 + t.x[1] * 0.5 - 0.5));
    t.y[3] = static_cast<float>(t.y[3] + (t.y[0] * 0.5 + t.y[1] * 0.5 - 0.5));
  }
  const int64_t h = data.dim(1), w = data.dim(2), c = data.dim(3);
  const int64_t oh = output.dim(1), ow = output.dim(2);
  const float* in = data.Data<float>();
  float* out = output.Data<float>();
  auto read = [&](int64_t y, int64_t x, int64_t ch) -> float {
    return y < 0 || x < 0 || y >= h || x >= w ? 0.f : in[(y * w + x) * c + ch];
  };
  ctx.pool().ParallelFor(oh, [&](int64_t oy) {
    for (int64_t ox = 0; ox < ow; ++ox) {
      const float fx = static_cast<float>(ox), fy = static_cast<float>(oy);
      const float tx = Dot(t.x, fx, fy, 0.f, 1.f);
      const float ty = Dot(t.y, fx, fy, 0.f, 1.f);
      float* o = out + (oy * ow + ox) * c;
      const bool outside = tx < 0.f || tx > static_cast<float>(w - 1) ||
                           ty < 0.f || ty > static_cast<float>(h - 1);
      if (outside) {
        for (int64_t ch = 0; ch < c; ++ch) o[ch] = 0.f;
        continue;
      }
      const float x0f = std::floor(tx), y0f = std::floor(ty);
      const int64_t x0 = static_cast<int64_t>(x0f);
      const int64_t y0 = static_cast<int64_t>(y0f);
      const float right = tx - x0f, lower = ty - y0f;
      for (int64_t ch = 0; ch < c; ++ch) {
        const float q11 = read(y0, x0, ch), q21 = read(y0, x0 + 1, ch);
        const float q12 = read(y0 + 1, x0, ch), q22 = read(y0 + 1, x0 + 1, ch);
        const float up =
            static_cast<float>((1.0 - right) * q11 + double{right} * q21);
        const float down =
            static_cast<float>((1.0 - right) * q12 + double{right} * q22);
        o[ch] = static_cast<float>(double{lower} * down + (1.0 - lower) * up);
      }
    }
  });
  return absl::OkStatus();
}

absl::Status PrepareTransformLandmarks(OpContext& ctx) {
  RETURN_IF_ERROR(mediapipe::ExpectVersion1Or2(ctx));
  if (ctx.num_inputs() != 2) return ctx.Error("takes 2 inputs");
  const bool v2 = ctx.op().version == 2;
  RETURN_IF_ERROR(ExpectFloatRank(ctx, 0, v2 ? 3 : 4));
  RETURN_IF_ERROR(ReadMatrixInput(ctx, 1));
  const RtTensor& in = *ctx.input(0);
  auto* s = ctx.StateOrNew<LandmarksState>();
  if (v2) {
    // V2: the landmark size is the last dim; MediaPipe walks dim 1 only.
    if (in.dim(0) != 1) {
      return ctx.Unsupported(
          absl::StrCat("input '", in.name(), "' ", DimsString(in.shape),
                       ": MediaPipe's version 2 kernel takes [1, N, 2 or 3]"));
    }
    s->dimensions = static_cast<int>(in.dim(2));
    s->scale = 1.f;
  } else {
    ASSIGN_OR_RETURN(const flexbuffers::Map m, OptionsMap(ctx));
    s->dimensions = 3;
    s->scale = 1.f;
    if (!m["dimensions"].IsNull()) s->dimensions = m["dimensions"].AsInt32();
    if (!m["scale"].IsNull()) s->scale = m["scale"].AsFloat();
    if (s->scale == 0.f) return ctx.Error("custom options: scale is 0");
  }
  if (s->dimensions != 2 && s->dimensions != 3) {
    return ctx.Error(absl::StrCat("landmarks have ", s->dimensions,
                                  " dimensions; MediaPipe's kernel takes 2 "
                                  "or 3"));
  }
  if (in.dim(in.rank() - 1) % s->dimensions != 0) {
    return ctx.Error(
        absl::StrCat("input '", in.name(), "' ", DimsString(in.shape),
                     ": the last dim is not a multiple of ", s->dimensions));
  }
  ctx.SetOutputShape(0, in.shape);
  return absl::OkStatus();
}

absl::Status EvalTransformLandmarks(OpContext& ctx) {
  const LandmarksState& s = *ctx.state<LandmarksState>();
  const RtTensor& in = *ctx.input(0);
  Affine t = ReadAffine(*ctx.input(1));
  t.x[3] *= s.scale;
  t.y[3] *= s.scale;
  const float* src = in.Data<float>();
  float* dst = ctx.output(0)->Data<float>();
  const int64_t count = in.NumElements() / s.dimensions;
  for (int64_t k = 0; k < count; ++k) {
    const float* l = src + k * s.dimensions;
    float* o = dst + k * s.dimensions;
    const float x = Dot(t.x, l[0], l[1], 0.f, 1.f);
    const float y = Dot(t.y, l[0], l[1], 0.f, 1.f);
    o[0] = x;
    o[1] = y;
    if (s.dimensions == 3) o[2] = l[2];
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime

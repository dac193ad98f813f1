// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// MediaPipe's Landmarks2TransformMatrix (float32), as in
// mediapipe/util/tflite/operations/landmarks_to_transform_matrix.cc: from
// landmarks (x, y, z triplets) to the 4x4 matrix [1, 4, 4] that maps a crop
// around a landmark subset, rotated to level two landmarks, back to the
// source image. Options are a flexbuffer map; the op's version picks
// MediaPipe's kernel:
//   V1, input [1, 1, 1, 3K]: rotation alpha = -atan(dy / dx) between the
//     left and right landmarks; the subset's bounding box after rotating by
//     alpha, scaled by bbox_size_multiplier / landmarks_range; the matrix
//     to_absolute(input_hw) * rotation(-alpha, box center) * scale *
//     to_relative(output_hw), written into the 4x4 with z untouched.
//   V2, input [1, K, 3]: rotation r = target_rotation_radians -
//     atan2(dy, dx); the subset's box after rotating by r, its center rotated
//     back; the matrix shift(center) * rotation(-r) * scale(scale_x *
//     width / output_width, scale_y alike) * shift(-output_w/2, -output_h/2).
// The subset is a flat list of landmark indices taken in pairs (an odd last
// index pairs with itself); every index is checked against the input.
// Matrix products are float sums in MediaPipe's order.
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "flatbuffers/flexbuffers.h"
#include "runtime/kernels/custom/custom.h"
#include "runtime/kernels/custom/mediapipe_params.h"

namespace qforge::runtime {
namespace {

struct L2TState : KernelState {
  // V1
  int input_h = 0, input_w = 0, output_h = 0, output_w = 0;
  int landmarks_range = 0;
  float bbox_size_multiplier = 0.f;
  // V2
  float target_rotation = 0.f, scale_x = 0.f, scale_y = 0.f;
  // both
  int left = 0, right = 0;
  std::vector<int> subset;  // flat, an even count
};

// Row-major n x n float matrices, products summed as MediaPipe's Mat3/Mat4.
template <int N>
struct Mat {
  float v[N * N] = {};
  float at(int r, int c) const { return v[r * N + c]; }
  Mat operator*(const Mat& o) const {
    Mat out;
    for (int r = 0; r < N; ++r) {
      for (int c = 0; c < N; ++c) {
        float sum = 0;
        for (int k = 0; k < N; ++k) sum += at(r, k) * o.at(k, c);
        out.v[r * N + c] = sum;
      }
    }
    return out;
  }
};
using Mat3 = Mat<3>;
using Mat4 = Mat<4>;

absl::Status ReadSubset(const OpContext& ctx, const flexbuffers::Map& m,
                        const char* key, L2TState* s) {
  const flexbuffers::TypedVector v = m[key].AsTypedVector();
  s->subset.clear();
  for (size_t i = 0; i < v.size(); ++i) s->subset.push_back(v[i].AsInt32());
  if (s->subset.size() % 2 != 0) s->subset.push_back(s->subset.back());
  if (s->subset.empty()) {
    return ctx.Error(absl::StrCat("custom options: ", key, " is empty"));
  }
  return absl::OkStatus();
}

// Every landmark index the options name lies inside the input.
absl::Status CheckIndices(const OpContext& ctx, const L2TState& s,
                          int64_t landmarks) {
  std::vector<int> all = s.subset;
  all.push_back(s.left);
  all.push_back(s.right);
  for (int i : all) {
    if (i < 0 || i >= landmarks) {
      return ctx.Error(absl::StrCat("custom options name landmark ", i,
                                    "; input '", ctx.input(0)->name(),
                                    "' holds ", landmarks));
    }
  }
  return absl::OkStatus();
}

absl::Status ParseV1(const OpContext& ctx, const flexbuffers::Map& m,
                     L2TState* s) {
  const flexbuffers::TypedVector in_hw = m["input_hw"].AsTypedVector();
  const flexbuffers::TypedVector out_hw = m["output_hw"].AsTypedVector();
  if (in_hw.size() != 2 || out_hw.size() != 2) {
    return ctx.Error("custom options: input_hw and output_hw need 2 values");
  }
  s->input_h = in_hw[0].AsInt32();
  s->input_w = in_hw[1].AsInt32();
  s->output_h = out_hw[0].AsInt32();
  s->output_w = out_hw[1].AsInt32();
  s->landmarks_range = m["landmarks_range"].AsInt32();
  s->bbox_size_multiplier = m["bbox_size_multiplier"].AsFloat();
  s->left = m["left_rotation_idx"].AsInt32();
  s->right = m["right_rotation_idx"].AsInt32();
  const int dimensions = m["dimensions"].AsInt32();
  if (dimensions != 3) {
    return ctx.Error(absl::StrCat("custom options: dimensions ", dimensions,
                                  "; MediaPipe's kernel takes 3"));
  }
  if (s->bbox_size_multiplier == 0.f || s->landmarks_range <= 0 ||
      s->input_h <= 0 || s->input_w <= 0 || s->output_h <= 0 ||
      s->output_w <= 0) {
    return ctx.Error(
        "custom options: bbox_size_multiplier, landmarks_range, input_hw and "
        "output_hw must be positive");
  }
  return ReadSubset(ctx, m, "subset", s);
}

absl::Status ParseV2(const OpContext& ctx, const flexbuffers::Map& m,
                     L2TState* s) {
  s->left = m["left_rotation_idx"].AsInt32();
  s->right = m["right_rotation_idx"].AsInt32();
  s->target_rotation = m["target_rotation_radians"].AsFloat();
  s->output_h = m["output_height"].AsInt32();
  s->output_w = m["output_width"].AsInt32();
  s->scale_x = m["scale_x"].AsFloat();
  s->scale_y = m["scale_y"].AsFloat();
  if (s->output_h <= 0 || s->output_w <= 0 || !(s->scale_x > 0.f) ||
      !(s->scale_y > 0.f)) {
    return ctx.Error(
        "custom options: output_height, output_width, scale_x and scale_y "
        "must be positive");
  }
  return ReadSubset(ctx, m, "subset_idxs", s);
}

void EvalV1(const L2TState& s, const float* lm, float* out) {
  auto xy = [&](int i, float* x, float* y) {
    *x = lm[i * 3];
    *y = lm[i * 3 + 1];
  };
  float lx, ly, rx, ry;
  xy(s.left, &lx, &ly);
  xy(s.right, &rx, &ry);
  const float alpha = -std::atan((ry - ly) / (rx - lx));
  float max_x = -100000.f, max_y = -100000.f;
  float min_x = 100000.f, min_y = 100000.f;
  for (int i : s.subset) {
    float x, y;
    xy(i, &x, &y);
    const float rot_x = x * std::cos(alpha) - y * std::sin(alpha);
    const float rot_y = x * std::sin(alpha) + y * std::cos(alpha);
    max_x = std::max(max_x, rot_x);
    max_y = std::max(max_y, rot_y);
    min_x = std::min(min_x, rot_x);
    min_y = std::min(min_y, rot_y);
  }
  const float range = static_cast<float>(s.landmarks_range);
  const float box_w = (max_x - min_x) * s.bbox_size_multiplier;
  const float box_h = (max_y - min_y) * s.bbox_size_multiplier;
  const Mat3 scale{{box_w / range, 0, 0, 0, box_h / range, 0, 0, 0, 1}};
  const float mid_x = static_cast<float>((max_x + min_x) / 2.0);
  const float mid_y = static_cast<float>((max_y + min_y) / 2.0);
  const float c = std::cos(-alpha), sn = std::sin(-alpha);
  const float rmid_x = mid_x * c - mid_y * sn;
  const float rmid_y = mid_x * sn + mid_y * c;
  const Mat3 rotation{{c, -sn, static_cast<float>((rmid_x / range) * 2.0 - 1.0),
                       sn, c, static_cast<float>((rmid_y / range) * 2.0 - 1.0),
                       0, 0, 1}};
  const Mat3 to_relative{{static_cast<float>(2.0 / (s.output_w - 1.0)), 0, -1,
                          0, static_cast<float>(2.0 / (s.output_h - 1.0)), -1,
                          0, 0, 1}};
  const float half_w = static_cast<float>((s.input_w - 1.0) / 2.0);
  const float half_h = static_cast<float>((s.input_h - 1.0) / 2.0);
  const Mat3 to_absolute{{half_w, 0, half_w, 0, half_h, half_h, 0, 0, 1}};
  const Mat3 m = to_absolute * rotation * scale * to_relative;
  const float result[16] = {m.at(0, 0), m.at(0, 1), 0,          m.at(0, 2),
                            m.at(1, 0), m.at(1, 1), 0,          m.at(1, 2),
                            m.at(2, 0), m.at(2, 1), m.at(2, 2), 0,
                            0,          0,          0,          1};
  std::copy(result, result + 16, out);
}

void EvalV2(const L2TState& s, const float* lm, float* out) {
  const float rotation =
      s.target_rotation - std::atan2(lm[s.right * 3 + 1] - lm[s.left * 3 + 1],
                                     lm[s.right * 3] - lm[s.left * 3]);
  // The subset, rotated by `rotation` (z is 1: the products keep it 1).
  const float cr = std::cos(rotation), sr = std::sin(rotation);
  float max_x = 0, max_y = 0, min_x = 0, min_y = 0;
  for (size_t k = 0; k < s.subset.size(); ++k) {
    const float x = lm[s.subset[k] * 3], y = lm[s.subset[k] * 3 + 1];
    const float rx = cr * x + -sr * y + 0.f * 1.f;
    const float ry = sr * x + cr * y + 0.f * 1.f;
    if (k == 0 || max_x < rx) max_x = rx;
    if (k == 0 || max_y < ry) max_y = ry;
    if (k == 0 || min_x > rx) min_x = rx;
    if (k == 0 || min_y > ry) min_y = ry;
  }
  const float crop_w = max_x - min_x, crop_h = max_y - min_y;
  const float mx = (min_x + max_x) / 2, my = (min_y + max_y) / 2;
  // Back by the inverse rotation (Mat3(cos(-r), -sin(-r), ...) * xy1).
  const float ci = std::cos(-rotation), si = std::sin(-rotation);
  const float crop_x = ci * mx + -si * my + 0.f * 1.f;
  const float crop_y = si * mx + ci * my + 0.f * 1.f;
  const Mat4 identity{{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}};
  const Mat4 shift{{1, 0, 0, crop_x, 0, 1, 0, crop_y, 0, 0, 1, 0, 0, 0, 0, 1}};
  const float r = -rotation;
  const float c = std::cos(r), sn = std::sin(r);
  const Mat4 rot{{c, -sn, 0, 0, sn, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}};
  const float scale_x = s.scale_x * crop_w / static_cast<float>(s.output_w);
  const float scale_y = s.scale_y * crop_h / static_cast<float>(s.output_h);
  const Mat4 scale{
      {scale_x, 0, 0, 0, 0, scale_y, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}};
  const float shift_x = static_cast<float>(-1.0 * (s.output_w / 2.0));
  const float shift_y = static_cast<float>(-1.0 * (s.output_h / 2.0));
  const Mat4 shift2{
      {1, 0, 0, shift_x, 0, 1, 0, shift_y, 0, 0, 1, 0, 0, 0, 0, 1}};
  const Mat4 t = identity * shift * rot * scale * shift2;
  std::copy(t.v, t.v + 16, out);
}

}  // namespace

absl::Status PrepareLandmarks2TransformMatrix(OpContext& ctx) {
  RETURN_IF_ERROR(mediapipe::ExpectVersion1Or2(ctx));
  const bool v2 = ctx.op().version == 2;
  if (ctx.num_inputs() != 1 || ctx.num_outputs() != 1) {
    return ctx.Error("takes 1 input and gives 1 output");
  }
  const RtTensor* in = ctx.input(0);
  if (in == nullptr || in->type != ir::DataType::kFloat32 ||
      in->rank() != (v2 ? 3 : 4)) {
    return ctx.Error(absl::StrCat("input must be float32 of rank ", v2 ? 3 : 4,
                                  " (version ", ctx.op().version, ")"));
  }
  if (!v2 && (in->dim(0) != 1 || in->dim(1) != 1 || in->dim(2) != 1)) {
    return ctx.Error(absl::StrCat("input '", in->name(), "' ",
                                  DimsString(in->shape),
                                  ": version 1 takes [1, 1, 1, 3K]"));
  }
  if (ctx.output(0)->type != ir::DataType::kFloat32) {
    return ctx.Error("output must be float32");
  }
  const std::vector<uint8_t>& b = ctx.op().custom_options;
  if (b.empty() || !flexbuffers::VerifyBuffer(b.data(), b.size()) ||
      !flexbuffers::GetRoot(b.data(), b.size()).IsMap()) {
    return ctx.Error("custom options are not a flexbuffer map");
  }
  const flexbuffers::Map m = flexbuffers::GetRoot(b.data(), b.size()).AsMap();
  auto* s = ctx.StateOrNew<L2TState>();
  RETURN_IF_ERROR(v2 ? ParseV2(ctx, m, s) : ParseV1(ctx, m, s));
  RETURN_IF_ERROR(CheckIndices(ctx, *s, in->NumElements() / 3));
  ctx.SetOutputShape(0, Dims{1, 4, 4});
  return absl::OkStatus();
}

absl::Status EvalLandmarks2TransformMatrix(OpContext& ctx) {
  const L2TState& s = *ctx.state<L2TState>();
  const float* lm = ctx.input(0)->Data<float>();
  float* out = ctx.output(0)->Data<float>();
  if (ctx.op().version == 2) {
    EvalV2(s, lm, out);
  } else {
    EvalV1(s, lm, out);
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// MediaPipe's custom ops (runtime/kernels/custom_mediapipe_*.cc) on cases
// worked out by hand from MediaPipe's kernels
// (mediapipe/util/tflite/operations/). The corpus models that carry the
// pooling and transposed-convolution ops (hair_segmentation,
// selfie_segmentation_landscape) are checked against LiteRT by
// tests/interop/float_vs_litert.sh; LiteRT has no kernel for the Transform*
// ops and Landmarks2TransformMatrix, so these hand cases are their check.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "absl/status/status.h"
#include "flatbuffers/flexbuffers.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "tests/support/op_model.h"

namespace qforge {
namespace {

using testing::MakeTensor;
using testing::OpModel;
using testing::Values;

// TfLitePoolParams / TfLiteTransposeConvParams as little-endian int32s.
std::vector<uint8_t> Ints(const std::vector<int32_t>& v) {
  std::vector<uint8_t> bytes(v.size() * 4);
  std::memcpy(bytes.data(), v.data(), bytes.size());
  return bytes;
}

void SetCustom(OpModel& m, const char* code, std::vector<uint8_t> options,
               int version = 1) {
  ir::Operator& op = m.model().subgraphs[0].operators.back();
  op.custom_code = code;
  op.custom_options = std::move(options);
  op.version = version;
}

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want,
                float tol = 1e-6f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

// 4x4 input, 2x2 windows, stride 2, VALID (padding 2). Window maxima:
//   [1 5 | 2 0]    top-left 5 at (y,x) = (0,1) -> index 1
//   [3 4 | 6 7]    top-right 7 at (1,1) -> index 3
//   [0 9 | 8 8]    bottom-left: 9 at (0,1) and (1,0); the window is
//   [9 1 | 2 3]      scanned column by column (XNNPACK's order), so (1,0)
//                    comes first -> index 2 (MediaPipe's row-major scan
//                    would say 1)
//                  bottom-right: 8 at (0,0) and (0,1) -> (0,0), index 0
// Indices are stored as float index + 0.1; RELU (activation 1) clamps
// nothing here. Then MaxUnpooling2D puts each maximum back where its index
// says, zeros elsewhere.
TEST(MediaPipeCustomOpsTest, MaxPoolingWithArgmaxAndUnpooling) {
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 4, 4, 1});
  const int v = m.Output(ir::DataType::kFloat32, {1, 2, 2, 1});
  const int i = m.Output(ir::DataType::kFloat32, {1, 2, 2, 1});
  const int u = m.Output(ir::DataType::kFloat32, {1, 4, 4, 1});
  const std::vector<uint8_t> pool = Ints({2, 2, 2, 2, 2, 1, -1, -1});
  m.Op(ir::OpKind::kCustom, {x}, {v, i});
  SetCustom(m, "MaxPoolingWithArgmax2D", pool);
  m.Op(ir::OpKind::kCustom, {v, i}, {u});
  SetCustom(m, "MaxUnpooling2D", pool);
  auto out = m.Run({MakeTensor<float>(
      {1, 4, 4, 1}, {1, 5, 2, 0, 3, 4, 6, 7, 0, 9, 8, 8, 9, 1, 2, 3})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{5, 7, 9, 8}));
  ExpectNear(Values<float>((*out)[1]), {1.1f, 3.1f, 2.1f, 0.1f});
  EXPECT_EQ(
      Values<float>((*out)[2]),
      (std::vector<float>{0, 5, 0, 0, 0, 0, 0, 7, 0, 0, 8, 0, 9, 0, 0, 0}));
}

// SAME padding on a 3x3 input, 2x2 windows, stride 2: out ceil(3/2) = 2,
// padding ((2-1)*2 + 2 - 3) / 2 = 0, so the last row and column windows
// are clipped to one pixel. RELU6 (activation 3) clamps 9 and 8 to 6 and
// -9 to 0.
TEST(MediaPipeCustomOpsTest, MaxPoolingWithArgmaxSamePaddingAndRelu6) {
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 3, 3, 1});
  const int v = m.Output(ir::DataType::kFloat32, {1, 2, 2, 1});
  const int i = m.Output(ir::DataType::kFloat32, {1, 2, 2, 1});
  m.Op(ir::OpKind::kCustom, {x}, {v, i});
  SetCustom(m, "MaxPoolingWithArgmax2D", Ints({1, 2, 2, 2, 2, 3}));
  auto out =
      m.Run({MakeTensor<float>({1, 3, 3, 1}, {1, 2, 3, 4, 9, -6, -7, 8, -9})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{6, 3, 6, 0}));
  // Top-left 9 at (1,1) -> 3; top-right 3 at (0,0) -> 0 (the window's
  // column 0 is input column 2); bottom-left 8 at (0,1) -> 1; bottom-right
  // -9 at (0,0) -> 0.
  ExpectNear(Values<float>((*out)[1]), {3.1f, 0.1f, 1.1f, 0.1f});
}

// Convolution2DTransposeBias, 2x2 input [[1,2],[3,4]], 3x3 filter
// w = [[1,2,3],[4,5,6],[7,8,9]], stride 2, SAME: pad = max(0, 3 - (2-1)%2
// - 1) = 1, out = 2*(2-1) + 3 - 1 = 4, pad / 2 = 0 rows cut at the top.
// Each input pixel stamps value * w at (2 iy, 2 ix), cropped to 4x4:
//   row 0: 1*[1 2 3] + 2*[1 2] at cols 2..3       = [1  2  5  4]
//   row 1: 1*[4 5 6] + 2*[4 5]                    = [4  5 14 10]
//   row 2: 1*[7 8 9] + 2*[7 8] + 3*[1 2 3] + 4*[1 2] = [10 14 36 24]
//   row 3: 3*[4 5 6] + 4*[4 5]                    = [12 15 34 20]
// plus the bias 0.5.
TEST(MediaPipeCustomOpsTest, Convolution2DTransposeBias) {
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 2, 2, 1});
  const int w = m.Constant<float>({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  const int b = m.Constant<float>({1}, {0.5f});
  const int y = m.Output(ir::DataType::kFloat32, {1, 4, 4, 1});
  m.Op(ir::OpKind::kCustom, {x, w, b}, {y});
  SetCustom(m, "Convolution2DTransposeBias", Ints({1, 2, 2}));
  auto out = m.Run({MakeTensor<float>({1, 2, 2, 1}, {1, 2, 3, 4})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{1, 4, 4, 1}));
  std::vector<float> want = {1,  2,  5,  4,  4,  5,  14, 10,
                             10, 14, 36, 24, 12, 15, 34, 20};
  for (float& f : want) f += 0.5f;
  EXPECT_EQ(Values<float>((*out)[0]), want);
}

// VALID: no padding, out = 2*(2-1) + 3 = 5.
TEST(MediaPipeCustomOpsTest, Convolution2DTransposeBiasValid) {
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 2, 2, 1});
  const int w = m.Constant<float>({1, 3, 3, 1}, std::vector<float>(9, 1.f));
  const int b = m.Constant<float>({1}, {0.f});
  const int y = m.Output(ir::DataType::kFloat32, {1, 5, 5, 1});
  m.Op(ir::OpKind::kCustom, {x, w, b}, {y});
  SetCustom(m, "Convolution2DTransposeBias", Ints({2, 2, 2}));
  auto out = m.Run({MakeTensor<float>({1, 2, 2, 1}, {1, 1, 1, 1})});
  ASSERT_TRUE(out.ok()) << out.status();
  // Overlaps of the four 3x3 stamps: 2 on the middle row/column, 4 in the
  // center.
  EXPECT_EQ(Values<float>((*out)[0]),
            (std::vector<float>{1, 1, 2, 1, 1, 1, 1, 2, 1, 1, 2, 2, 4,
                                2, 2, 1, 1, 2, 1, 1, 1, 1, 2, 1, 1}));
}

std::vector<uint8_t> Flex(const std::function<void(flexbuffers::Builder&)>& f) {
  flexbuffers::Builder fbb;
  fbb.Map([&]() { f(fbb); });
  fbb.Finish();
  return fbb.GetBuffer();
}

// 3x3 data, value 3y + x. V1 (no corner correction), matrix = translate by
// (0.5, 0.5): output (x, y) samples (x + 0.5, y + 0.5), the mean of four
// neighbours: (0,0) -> (0+1+3+4)/4 = 2, then 3, 5, 6. A second matrix moves
// everything 5 pixels right: outside the data, zeros.
TEST(MediaPipeCustomOpsTest, TransformTensorBilinearV1) {
  for (float shift : {0.5f, 5.f}) {
    OpModel m;
    const int x = m.Input(ir::DataType::kFloat32, {1, 3, 3, 1});
    const int t = m.Input(ir::DataType::kFloat32, {1, 4, 4});
    const int y = m.Output(ir::DataType::kFloat32, {1, 2, 2, 1});
    m.Op(ir::OpKind::kCustom, {x, t}, {y});
    SetCustom(m, "TransformTensorBilinear", Flex([](flexbuffers::Builder& b) {
                b.String("mode", "bilinear");
                b.TypedVector("output_size", [&]() {
                  b.Int(2);
                  b.Int(2);
                });
              }));
    auto out =
        m.Run({MakeTensor<float>({1, 3, 3, 1}, {0, 1, 2, 3, 4, 5, 6, 7, 8}),
               MakeTensor<float>({1, 4, 4}, {1, 0, 0, shift, 0, 1, 0, 0.5f, 0,
                                             0, 1, 0, 0, 0, 0, 1})});
    ASSERT_TRUE(out.ok()) << out.status();
    if (shift == 0.5f) {
      ExpectNear(Values<float>((*out)[0]), {2, 3, 5, 6});
    } else {
      ExpectNear(Values<float>((*out)[0]), {0, 0, 0, 0});
    }
  }
}

// V2 moves the matrix to pixel centers: m3 += 0.5 m0 + 0.5 m1 - 0.5. With
// scale 2, output (0, 0) samples (2*0 + 0.5, 2*0 + 0.5) -> 2 (as above);
// the output size comes from the options because the model leaves it
// dynamic.
TEST(MediaPipeCustomOpsTest, TransformTensorBilinearV2) {
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 3, 3, 1});
  const int t = m.Input(ir::DataType::kFloat32, {1, 4, 4});
  const int y = m.Output(ir::DataType::kFloat32, {1, -1, -1, 1});
  m.Op(ir::OpKind::kCustom, {x, t}, {y});
  SetCustom(m, "TransformTensorBilinear", Flex([](flexbuffers::Builder& b) {
              b.Int("output_height", 1);
              b.Int("output_width", 1);
            }),
            /*version=*/2);
  auto out =
      m.Run({MakeTensor<float>({1, 3, 3, 1}, {0, 1, 2, 3, 4, 5, 6, 7, 8}),
             MakeTensor<float>(
                 {1, 4, 4}, {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{1, 1, 1, 1}));
  ExpectNear(Values<float>((*out)[0]), {2});
}

// (x, y) -> (-y + 10, x + 20): a quarter turn and a shift; z is copied.
// V1 takes [1, H, W, C] with `scale` multiplying the shift (2 here: +20,
// +40); V2 takes [1, N, 3], scale 1.
TEST(MediaPipeCustomOpsTest, TransformLandmarks) {
  const std::vector<float> matrix = {0, -1, 0, 10, 1, 0, 0, 20,
                                     0, 0,  1, 0,  0, 0, 0, 1};
  const std::vector<float> lm = {1, 2, 3, 4, 5, 6};
  {
    OpModel m;
    const int x = m.Input(ir::DataType::kFloat32, {1, 1, 1, 6});
    const int t = m.Input(ir::DataType::kFloat32, {1, 4, 4});
    const int y = m.Output(ir::DataType::kFloat32, {1, 1, 1, 6});
    m.Op(ir::OpKind::kCustom, {x, t}, {y});
    SetCustom(m, "TransformLandmarks", Flex([](flexbuffers::Builder& b) {
                b.Int("dimensions", 3);
                b.Float("scale", 2.f);
              }));
    auto out = m.Run({MakeTensor<float>({1, 1, 1, 6}, lm),
                      MakeTensor<float>({1, 4, 4}, matrix)});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(Values<float>((*out)[0]),
              (std::vector<float>{18, 41, 3, 15, 44, 6}));
  }
  {
    OpModel m;
    const int x = m.Input(ir::DataType::kFloat32, {1, 2, 3});
    const int t = m.Input(ir::DataType::kFloat32, {1, 4, 4});
    const int y = m.Output(ir::DataType::kFloat32, {1, 2, 3});
    m.Op(ir::OpKind::kCustom, {x, t}, {y});
    SetCustom(m, "TransformLandmarks", {}, /*version=*/2);
    auto out = m.Run({MakeTensor<float>({1, 2, 3}, lm),
                      MakeTensor<float>({1, 4, 4}, matrix)});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(Values<float>((*out)[0]),
              (std::vector<float>{8, 21, 3, 5, 24, 6}));
  }
}

// Landmarks 0 (0,0), 1 (4,0), 2 (4,2), 3 (0,2), z ignored.
const std::vector<float> kSquare = {0, 0, 5, 4, 0, 0, 4, 2, 0, 0, 2, 0};

// V1: left 0, right 1 -> alpha = -atan(0 / 4) = 0; subset {0, 2}: box
// x [0, 4], y [0, 2], multiplier 1, landmarks_range 4 -> scale
// diag(1, 0.5, 1); middle (2, 1) -> rotation [[1,0,2/4*2-1=0],[0,1,-0.5]];
// to_relative (output 3x5) [[2/4,0,-1],[0,2/2,-1]]; to_absolute (input
// 9x17) [[8,0,8],[0,4,4]].
// to_absolute * rotation * scale = [[8,0,8],[0,2,2],[0,0,1]];
// * to_relative = [[4,0,0],[0,2,0],[0,0,1]].
TEST(MediaPipeCustomOpsTest, Landmarks2TransformMatrixV1) {
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 1, 1, 12});
  const int y = m.Output(ir::DataType::kFloat32, {1, 4, 4});
  m.Op(ir::OpKind::kCustom, {x}, {y});
  SetCustom(m, "Landmarks2TransformMatrix", Flex([](flexbuffers::Builder& b) {
              b.TypedVector("input_hw", [&]() {
                b.Int(9);
                b.Int(17);
              });
              b.TypedVector("output_hw", [&]() {
                b.Int(3);
                b.Int(5);
              });
              b.Int("dimensions", 3);
              b.Int("landmarks_range", 4);
              b.Float("bbox_size_multiplier", 1.f);
              b.Int("left_rotation_idx", 0);
              b.Int("right_rotation_idx", 1);
              b.TypedVector("subset", [&]() {
                b.Int(0);
                b.Int(2);
              });
            }));
  auto out = m.Run({MakeTensor<float>({1, 1, 1, 12}, kSquare)});
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(Values<float>((*out)[0]),
             {4, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
}

// V2, target rotation pi/2, left 0 -> right 1 level: rotation r = pi/2.
// The subset {0, 2} rotated by r: (0,0) and (-2,4): box x [-2,0], y [0,4],
// crop 2 x 4, center (-1, 2) rotated back by -r: (2, 1). Output 8 wide x 4
// high, scale 1: matrix shift(2,1) * rot(-pi/2) [[0,1],[-1,0]] *
// diag(2/8, 4/4) * shift(-4,-2): linear part [[0,1],[-0.25,0]], shift
// [[0,1],[-0.25,0]] (-4,-2) + (2,1) = (0, 2).
TEST(MediaPipeCustomOpsTest, Landmarks2TransformMatrixV2) {
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 4, 3});
  const int y = m.Output(ir::DataType::kFloat32, {1, 4, 4});
  m.Op(ir::OpKind::kCustom, {x}, {y});
  SetCustom(m, "Landmarks2TransformMatrix", Flex([](flexbuffers::Builder& b) {
              b.TypedVector("subset_idxs", [&]() {
                b.Int(0);
                b.Int(2);
              });
              b.Int("left_rotation_idx", 0);
              b.Int("right_rotation_idx", 1);
              b.Float("target_rotation_radians", static_cast<float>(M_PI / 2));
              b.Int("output_height", 4);
              b.Int("output_width", 8);
              b.Float("scale_x", 1.f);
              b.Float("scale_y", 1.f);
            }),
            /*version=*/2);
  auto out = m.Run({MakeTensor<float>({1, 4, 3}, kSquare)});
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(Values<float>((*out)[0]),
             {0, 1, 0, 0, -0.25f, 0, 0, 2, 0, 0, 1, 0, 0, 0, 0, 1}, 1e-5f);
}

// Bad options and indices are errors naming the op, never a read past the
// data.
TEST(MediaPipeCustomOpsTest, RejectsBadOptions) {
  {
    OpModel m;  // pool params cut short
    const int x = m.Input(ir::DataType::kFloat32, {1, 4, 4, 1});
    const int v = m.Output(ir::DataType::kFloat32, {1, 2, 2, 1});
    const int i = m.Output(ir::DataType::kFloat32, {1, 2, 2, 1});
    m.Op(ir::OpKind::kCustom, {x}, {v, i});
    SetCustom(m, "MaxPoolingWithArgmax2D", Ints({2, 2}));
    auto out = m.Run({MakeTensor<float>({1, 4, 4, 1}, std::vector<float>(16))});
    EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(out.status().message().find("MaxPoolingWithArgmax2D"),
              std::string::npos)
        << out.status();
  }
  {
    OpModel m;  // landmark 7 of 4
    const int x = m.Input(ir::DataType::kFloat32, {1, 4, 3});
    const int y = m.Output(ir::DataType::kFloat32, {1, 4, 4});
    m.Op(ir::OpKind::kCustom, {x}, {y});
    SetCustom(m, "Landmarks2TransformMatrix", Flex([](flexbuffers::Builder& b) {
                b.TypedVector("subset_idxs", [&]() {
                  b.Int(0);
                  b.Int(7);
                });
                b.Int("output_height", 4);
                b.Int("output_width", 8);
                b.Float("scale_x", 1.f);
                b.Float("scale_y", 1.f);
              }),
              /*version=*/2);
    auto out = m.Run({MakeTensor<float>({1, 4, 3}, kSquare)});
    EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument)
        << out.status();
  }
}

}  // namespace
}  // namespace qforge

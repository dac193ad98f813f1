// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// WidenInt4: packed int4 constants become int8 for the kernels. Expected
// values by hand from TFLite's int4 layout (two's complement nibbles, low
// nibble first).
#include <vector>

#include "gtest/gtest.h"
#include "runtime/tensor_access.h"

namespace qforge::runtime {
namespace {

TEST(WidenInt4Test, LowNibbleFirstSignExtended) {
  ir::Tensor meta;
  meta.name = "w";
  RtTensor t;
  t.ir = &meta;
  t.type = ir::DataType::kInt4;
  t.shape = {5};
  // 0x7F: 0xF = -1, 0x7 = 7; 0x98: 0x8 = -8, 0x9 = -7; 0x03: 3 (high nibble
  // is padding past the fifth value).
  const std::vector<uint8_t> packed = {0x7F, 0x98, 0xA3};
  AlignedBuffer buffer;
  ASSERT_TRUE(WidenInt4(buffer, t, packed).ok());
  EXPECT_EQ(t.type, ir::DataType::kInt8);
  const std::vector<int8_t> want = {-1, 7, -8, -7, 3};
  ASSERT_GE(t.bytes, want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(t.Data<int8_t>()[i], want[i]) << i;
  }
}

TEST(WidenInt4Test, TooFewBytesOrUnknownShapeIsAnErrorNamingTheTensor) {
  ir::Tensor meta;
  meta.name = "conv/filter";
  for (const Dims& shape : {Dims{7}, Dims{-1, 2}, Dims{1 << 30, 1 << 30}}) {
    RtTensor t;
    t.ir = &meta;
    t.type = ir::DataType::kInt4;
    t.shape = shape;
    AlignedBuffer buffer;
    const absl::Status s = WidenInt4(buffer, t, {0x11, 0x22, 0x33});
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("conv/filter"), absl::string_view::npos) << s;
  }
}

}  // namespace
}  // namespace qforge::runtime

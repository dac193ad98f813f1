// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// DENSIFY: hand-made sparse tensors (CSR, a non-identity traversal order,
// 2x2 blocks) with dense results derived in the comments, malformed
// sparsity that must be rejected, and every sparse constant of the corpus's
// face_detection_full_range_sparse.tflite checked against its CSR arrays.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/model.h"
#include "tests/support/op_model.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::OpModel;
using testing::Values;
using DT = ir::DataType;

ir::DimensionMetadata Dense(int32_t size) {
  ir::DimensionMetadata m;
  m.dense_size = size;
  return m;
}

ir::DimensionMetadata Csr(std::vector<int32_t> segments,
                          std::vector<int32_t> indices) {
  ir::DimensionMetadata m;
  m.sparse_csr = true;
  m.segments_type = 1;
  m.indices_type = 1;
  m.array_segments = std::move(segments);
  m.array_indices = std::move(indices);
  return m;
}

// One DENSIFY op on a sparse float32 constant of `shape`.
absl::StatusOr<std::vector<ir::HostTensor>> Densify(
    std::vector<int32_t> shape, ir::Sparsity sparsity,
    const std::vector<float>& values) {
  OpModel m;
  int c = m.Constant<float>(shape, values);
  m.tensor(c).sparsity = std::move(sparsity);
  int y = m.Output(DT::kFloat32, shape);
  m.Op(ir::OpKind::kDensify, {c}, {y});
  return m.Run({});
}

// 3x4 matrix, rows dense, columns CSR:
//   row 0: columns {1, 3} -> values 1, 2
//   row 1: no columns
//   row 2: columns {0}    -> value 3
// segments [0,2,2,3], indices [1,3,0] =>
//   [[0,1,0,2],[0,0,0,0],[3,0,0,0]]
TEST(Densify, CsrMatrix) {
  ir::Sparsity s;
  s.traversal_order = {0, 1};
  s.dim_metadata = {Dense(3), Csr({0, 2, 2, 3}, {1, 3, 0})};
  auto out = Densify({3, 4}, s, {1, 2, 3});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(Values<float>((*out)[0]),
            (std::vector<float>{0, 1, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0}));
}

// Column-major traversal of [[1,0,2],[0,3,0]]: level 0 walks dim 1 (dense,
// 3 columns), level 1 dim 0 (CSR rows): column 0 -> row 0 (1), column 1 ->
// row 1 (3), column 2 -> row 0 (2). segments [0,1,2,3], indices [0,1,0],
// values in traversal order [1,3,2].
TEST(Densify, ColumnMajorTraversal) {
  ir::Sparsity s;
  s.traversal_order = {1, 0};
  s.dim_metadata = {Dense(3), Csr({0, 1, 2, 3}, {0, 1, 0})};
  auto out = Densify({2, 3}, s, {1, 3, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{1, 0, 2, 0, 3, 0}));
}

// 4x4 with 2x2 blocks (block_map {0,1}); levels: block row (dense 2), block
// column (CSR), row in block (dense 2), column in block (dense 2).
//   dense = [[1,0,2,3],
//            [0,4,0,0],
//            [0,0,5,0],
//            [0,0,0,6]]
// Blocks: (0,0)=[1,0;0,4], (0,1)=[2,3;0,0], (1,0)=0 (dropped),
// (1,1)=[5,0;0,6]. Block-column CSR: segments [0,2,3], indices [0,1,1];
// values block by block, row-major inside: 1,0,0,4, 2,3,0,0, 5,0,0,6.
TEST(Densify, Blocks) {
  ir::Sparsity s;
  s.traversal_order = {0, 1, 2, 3};
  s.block_map = {0, 1};
  s.dim_metadata = {Dense(2), Csr({0, 2, 3}, {0, 1, 1}), Dense(2), Dense(2)};
  auto out = Densify({4, 4}, s, {1, 0, 0, 4, 2, 3, 0, 0, 5, 0, 0, 6});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(
      Values<float>((*out)[0]),
      (std::vector<float>{1, 0, 2, 3, 0, 4, 0, 0, 0, 0, 5, 0, 0, 0, 0, 6}));
}

// Float16 values are moved as they are (bit patterns 0x3C00 = 1.0, 0xC000
// = -2.0): [[0,1],[-2,0]] from segments [0,1,2], indices [1,0].
TEST(Densify, Float16) {
  OpModel m;
  int c = m.Constant<uint16_t>({2, 2}, {0x3C00, 0xC000});
  ir::Sparsity s;
  s.traversal_order = {0, 1};
  s.dim_metadata = {Dense(2), Csr({0, 1, 2}, {1, 0})};
  m.tensor(c).sparsity = s;
  int y = m.Output(DT::kFloat16, {2, 2});
  m.Op(ir::OpKind::kDensify, {c}, {y});
  auto out = m.Run({});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<uint16_t>((*out)[0]),
            (std::vector<uint16_t>{0, 0x3C00, 0xC000, 0}));
}

// Malformed sparsity: each must be an error, never a wild read or write.
TEST(Densify, MalformedIsAnError) {
  struct Case {
    const char* what;
    ir::Sparsity s;
    std::vector<float> values;
  };
  std::vector<Case> cases;
  {
    ir::Sparsity s;  // column index 4 in a 4-wide row
    s.traversal_order = {0, 1};
    s.dim_metadata = {Dense(3), Csr({0, 1, 1, 1}, {4})};
    cases.push_back({"index out of range", s, {1}});
  }
  {
    ir::Sparsity s;  // segments too short for 3 rows
    s.traversal_order = {0, 1};
    s.dim_metadata = {Dense(3), Csr({0, 1}, {0})};
    cases.push_back({"short segments", s, {1}});
  }
  {
    ir::Sparsity s;  // segment end past the indices
    s.traversal_order = {0, 1};
    s.dim_metadata = {Dense(3), Csr({0, 1, 2, 9}, {0, 1})};
    cases.push_back({"segment past indices", s, {1, 2}});
  }
  {
    ir::Sparsity s;  // more structure than stored values
    s.traversal_order = {0, 1};
    s.dim_metadata = {Dense(3), Csr({0, 1, 2, 3}, {0, 1, 2})};
    cases.push_back({"too few values", s, {1, 2}});
  }
  {
    ir::Sparsity s;  // dense level size disagrees with the shape
    s.traversal_order = {0, 1};
    s.dim_metadata = {Dense(5), Csr({0, 0, 0, 0, 0, 0}, {})};
    cases.push_back({"dense size", s, {}});
  }
  {
    ir::Sparsity s;  // traversal order is not a permutation
    s.traversal_order = {0, 0};
    s.dim_metadata = {Dense(3), Dense(4)};
    cases.push_back({"traversal", s, std::vector<float>(12, 1.0f)});
  }
  {
    ir::Sparsity s;  // negative segment start
    s.traversal_order = {0, 1};
    s.dim_metadata = {Dense(3), Csr({-1, 0, 0, 0}, {0})};
    cases.push_back({"negative segment", s, {1}});
  }
  for (const Case& c : cases) {
    auto out = Densify({3, 4}, c.s, c.values);
    EXPECT_FALSE(out.ok()) << c.what;
  }
}

// IEEE half to float, for the checks below.
float HalfToFloat(uint16_t h) {
  const uint32_t sign = (h >> 15) & 1u, exp = (h >> 10) & 0x1Fu,
                 mant = h & 0x3FFu;
  float v;
  if (exp == 0) {
    v = std::ldexp(static_cast<float>(mant), -24);
  } else if (exp == 31) {
    v = mant ? NAN : INFINITY;
  } else {
    v = std::ldexp(static_cast<float>(mant | 0x400u),
                   static_cast<int>(exp) - 25);
  }
  return sign ? -v : v;
}

// Every sparse constant of the real model (float16; rows dense, the last
// axis CSR): densified alone, the result has the tensor's shape, the same
// sum of |values| and nonzero count as the compressed values, and every
// stored value sits exactly at the (row, column) its CSR arrays name.
TEST(Densify, FaceDetectionSparseModel) {
  const std::string corpus = testing::CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "../shared/corpus is absent";
  auto model = formats::ReadTfliteFile(
      corpus + "/models/mediapipe/face_detection_full_range_sparse.tflite");
  ASSERT_TRUE(model.ok()) << model.status();
  const ir::Subgraph& sg = model->subgraphs[0];
  int checked = 0, stored_values = 0, nonzeros = 0;
  for (const ir::Tensor& t : sg.tensors) {
    if (!t.sparsity.has_value()) continue;
    const ir::Sparsity& s = *t.sparsity;
    ASSERT_EQ(t.type, DT::kFloat16) << t.name;
    // The layout this check assumes (and the file has).
    ASSERT_EQ(s.traversal_order, (std::vector<int32_t>{0, 1, 2, 3})) << t.name;
    ASSERT_TRUE(s.block_map.empty()) << t.name;
    ASSERT_EQ(s.dim_metadata.size(), 4u);
    ASSERT_TRUE(s.dim_metadata[3].sparse_csr) << t.name;
    const ir::Bytes& bytes = model->buffers[t.buffer].data;
    std::vector<uint16_t> compressed(bytes.size() / 2);
    std::memcpy(compressed.data(), bytes.data(), compressed.size() * 2);

    OpModel m;
    int c = m.ConstantBytes(DT::kFloat16, t.shape, bytes.ToVector(), t.name);
    m.tensor(c).sparsity = s;
    int y = m.Output(DT::kFloat16, t.shape);
    m.Op(ir::OpKind::kDensify, {c}, {y});
    auto out = m.Run({});
    ASSERT_TRUE(out.ok()) << t.name << ": " << out.status();
    const ir::HostTensor& dense = (*out)[0];
    ASSERT_EQ(dense.shape(),
              std::vector<int64_t>(t.shape.begin(), t.shape.end()));
    const std::vector<uint16_t> d = Values<uint16_t>(dense);

    double sum_compressed = 0, sum_dense = 0;
    int nz_compressed = 0, nz_dense = 0;
    for (uint16_t h : compressed) {
      sum_compressed += std::fabs(HalfToFloat(h));
      nz_compressed += HalfToFloat(h) != 0.0f;
    }
    for (uint16_t h : d) {
      sum_dense += std::fabs(HalfToFloat(h));
      nz_dense += HalfToFloat(h) != 0.0f;
    }
    EXPECT_EQ(sum_dense, sum_compressed) << t.name;
    EXPECT_EQ(nz_dense, nz_compressed) << t.name;

    // Row r (the first three dims flattened) holds the columns
    // indices[segments[r] .. segments[r+1]) with values[k] in that order.
    const std::vector<int32_t>& seg = s.dim_metadata[3].array_segments;
    const std::vector<int32_t>& idx = s.dim_metadata[3].array_indices;
    const int64_t cols = t.shape[3];
    const int64_t rows = static_cast<int64_t>(d.size()) / cols;
    ASSERT_EQ(static_cast<int64_t>(seg.size()), rows + 1) << t.name;
    ASSERT_EQ(idx.size(), compressed.size()) << t.name;
    std::vector<bool> named(d.size(), false);
    for (int64_t r = 0; r < rows; ++r) {
      for (int32_t k = seg[r]; k < seg[r + 1]; ++k) {
        const int64_t at = r * cols + idx[k];
        named[at] = true;
        EXPECT_EQ(d[at], compressed[k]) << t.name << " row " << r;
      }
    }
    for (size_t i = 0; i < d.size(); ++i) {
      if (!named[i]) {
        EXPECT_EQ(d[i], 0) << t.name << " element " << i;
      }
    }
    ++checked;
    stored_values += static_cast<int>(compressed.size());
    nonzeros += nz_dense;
  }
  EXPECT_EQ(checked, 46);
  std::printf(
      "densified %d sparse tensors of face_detection_full_range_sparse: %d "
      "stored values, %d nonzeros\n",
      checked, stored_values, nonzeros);
}

}  // namespace
}  // namespace qforge

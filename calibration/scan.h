// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The hot loop of statistics collection: one read of a chunk of a float
// tensor gives min, max and the NaN/Inf counts of every value and the
// histogram (histogram.h) of every stride-th value. Tensors are cut into
// chunks whose boundaries depend on the tensor size and the stride alone
// (ChunkBounds), chunks may be scanned on any thread, and their results are
// combined with MinOf/MaxOf, whose order of the two zeros is fixed: the
// statistics do not depend on the thread count or on how the chunks were
// shared out.
#ifndef QFORGE_CALIBRATION_SCAN_H_
#define QFORGE_CALIBRATION_SCAN_H_

#include <cstdint>
#include <limits>

namespace qforge::calibration {

// What the scan of one chunk found.
struct ChunkScan {
  // Over the finite values; +inf / -inf when there are none.
  float lo = std::numeric_limits<float>::infinity();
  float hi = -std::numeric_limits<float>::infinity();
  uint64_t finite = 0, nan = 0, pos_inf = 0, neg_inf = 0;

  void Merge(const ChunkScan& other);
};

// min and max over a total order of the non-NaN floats (-0 < +0), so that
// merging is commutative and associative down to the sign of a zero.
float MinOf(float a, float b);
float MaxOf(float a, float b);

// Chunk c of a tensor of n values covers [c * size, min(n, (c + 1) * size)),
// size = ChunkSize(stride), a multiple of 16 * stride: every chunk starts on
// a histogram position of the same phase.
int64_t ChunkSize(int64_t stride);
inline int64_t NumChunks(int64_t n, int64_t stride) {
  const int64_t size = ChunkSize(stride);
  return (n + size - 1) / size;
}

// Scans data[0, n) (one chunk): the statistics of every value, and
// counts[BucketOf(v)] += 1 for the finite v at indices first, first +
// stride, ... (0 <= first < stride). The caller has reserved room for those
// increments (DenseHistogram::Reserve).
ChunkScan ScanChunk(const float* data, int64_t n, int64_t first, int64_t stride,
                    uint32_t* counts);

}  // namespace qforge::calibration

#endif  // QFORGE_CALIBRATION_SCAN_H_

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The vectorised chunk scan (calibration/scan.h) against its definition,
// written out one value at a time below: min and max over the finite
// values, NaN/+Inf/-Inf counts over all, and the histogram key (top 14 bits
// of the pattern, histogram.h) of every finite value at first, first +
// stride, ... Covers tails shorter than a block, strides 1..17 and a large
// one, every phase, NaN/Inf anywhere, signed zeros and denormals. Then the
// collector: one sample observed with 1 and with 2 threads (big tensors are
// split into chunks over the pool) gives the same statistics.
#include "calibration/scan.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "calibration/collector.h"
#include "calibration/histogram.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "runtime/interpreter.h"
#include "tests/support/test_paths.h"

namespace qforge::calibration {
namespace {

uint32_t Bits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof(b));
  return b;
}

struct Reference {
  ChunkScan scan;
  std::vector<uint32_t> counts = std::vector<uint32_t>(kNumBuckets, 0);
};

Reference Define(const std::vector<float>& x, int64_t first, int64_t stride) {
  Reference ref;
  for (float v : x) {
    if (std::isnan(v)) {
      ++ref.scan.nan;
    } else if (std::isinf(v)) {
      (v > 0 ? ref.scan.pos_inf : ref.scan.neg_inf)++;
    } else {
      ++ref.scan.finite;
      ref.scan.lo = MinOf(ref.scan.lo, v);
      ref.scan.hi = MaxOf(ref.scan.hi, v);
    }
  }
  for (size_t i = static_cast<size_t>(first); i < x.size();
       i += static_cast<size_t>(stride)) {
    if (std::isfinite(x[i])) ++ref.counts[BucketOf(x[i])];
  }
  return ref;
}

// ReLU-like data: a third exact zeros, some -0 and denormals, the rest
// spread over several binades; `specials` NaN/Inf at random places.
std::vector<float> Data(std::mt19937& rng, int64_t n, int specials) {
  std::uniform_real_distribution<float> u(-8, 8);
  std::vector<float> x(static_cast<size_t>(n));
  for (float& v : x) {
    switch (rng() % 6) {
      case 0:
      case 1:
        v = 0.0f;
        break;
      case 2:
        v = (rng() % 4 == 0) ? -0.0f : std::numeric_limits<float>::denorm_min();
        break;
      default:
        v = u(rng);
    }
  }
  const float kSpecial[] = {std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity()};
  for (int s = 0; s < specials && n > 0; ++s) {
    x[rng() % static_cast<size_t>(n)] = kSpecial[rng() % 3];
  }
  return x;
}

void ExpectScanMatches(const std::vector<float>& x, int64_t first,
                       int64_t stride) {
  const Reference ref = Define(x, first, stride);
  std::vector<uint32_t> counts(kNumBuckets, 0);
  const ChunkScan got = ScanChunk(x.data(), static_cast<int64_t>(x.size()),
                                  first, stride, counts.data());
  const std::string where = "n " + std::to_string(x.size()) + " first " +
                            std::to_string(first) + " stride " +
                            std::to_string(stride);
  EXPECT_EQ(got.finite, ref.scan.finite) << where;
  EXPECT_EQ(got.nan, ref.scan.nan) << where;
  EXPECT_EQ(got.pos_inf, ref.scan.pos_inf) << where;
  EXPECT_EQ(got.neg_inf, ref.scan.neg_inf) << where;
  if (ref.scan.finite > 0) {
    EXPECT_EQ(Bits(got.lo), Bits(ref.scan.lo)) << where;
    EXPECT_EQ(Bits(got.hi), Bits(ref.scan.hi)) << where;
  }
  EXPECT_TRUE(counts == ref.counts) << where;
}

TEST(ScanTest, ChunkScanEqualsItsDefinition) {
  std::mt19937 rng(5);
  for (int64_t stride : {1, 2, 3, 7, 8, 16, 17, 1000}) {
    for (int64_t n :
         {int64_t{0}, int64_t{1}, int64_t{15}, int64_t{16}, 16 * stride - 1,
          16 * stride, 16 * stride + 5, ChunkSize(stride)}) {
      for (int specials : {0, 1, 4}) {
        const std::vector<float> x = Data(rng, n, specials);
        for (int64_t first = 0; first < std::min<int64_t>(stride, 9); ++first) {
          ExpectScanMatches(x, first, stride);
        }
      }
    }
  }
}

TEST(ScanTest, AllNonFiniteAndAllZero) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  ExpectScanMatches(std::vector<float>(300, nan), 0, 7);
  ExpectScanMatches(std::vector<float>(300, inf), 3, 7);
  ExpectScanMatches(std::vector<float>(300, -0.0f), 1, 1);
  ExpectScanMatches(std::vector<float>(300, 0.0f), 6, 7);
}

TEST(ScanTest, MinMaxOrderTheZeros) {
  // -0 < +0, whichever comes first: merges give the same bits in any order.
  EXPECT_EQ(Bits(MinOf(0.0f, -0.0f)), Bits(-0.0f));
  EXPECT_EQ(Bits(MinOf(-0.0f, 0.0f)), Bits(-0.0f));
  EXPECT_EQ(Bits(MaxOf(0.0f, -0.0f)), Bits(0.0f));
  EXPECT_EQ(Bits(MaxOf(-0.0f, 0.0f)), Bits(0.0f));
  EXPECT_EQ(MinOf(2.0f, -1.0f), -1.0f);
  EXPECT_EQ(MaxOf(2.0f, -1.0f), 2.0f);
}

TEST(ScanTest, CollectorSameWithOneAndTwoThreads) {
  if (testing::CorpusDir().empty()) GTEST_SKIP() << "shared corpus absent";
  absl::StatusOr<ir::Model> model = formats::ReadTfliteFile(
      testing::CorpusDir() + "/models/mlperf-tiny/vww_96_float.tflite");
  ASSERT_TRUE(model.ok()) << model.status();
  // vww_96's first activations (48x48x8 and larger) span several chunks,
  // which the 2-thread interpreter scans on both threads.
  std::vector<std::vector<TensorStats>> stats;
  for (int threads : {1, 2}) {
    runtime::InterpreterOptions o;
    o.threads = threads;
    auto interp = runtime::Interpreter::Create(*model, o);
    ASSERT_TRUE(interp.ok()) << interp.status();
    StatsCollector collector(*model, 7);
    for (uint64_t sample = 0; sample < 3; ++sample) {
      collector.SetSample(sample);
      const ir::Tensor& in =
          model->subgraphs[0].tensors[model->subgraphs[0].inputs[0]];
      ir::HostTensor input(
          ir::DataType::kFloat32,
          std::vector<int64_t>(in.shape.begin(), in.shape.end()));
      std::mt19937 rng(static_cast<uint32_t>(sample) + 1);
      std::uniform_real_distribution<float> u(-1, 1);
      for (float& v : input.Flat<float>()) v = u(rng);
      ASSERT_TRUE((*interp)->Run({input}, &collector).ok());
    }
    stats.push_back(collector.Finish());
  }
  ASSERT_EQ(stats[0].size(), stats[1].size());
  ASSERT_FALSE(stats[0].empty());
  for (size_t i = 0; i < stats[0].size(); ++i) {
    EXPECT_TRUE(stats[0][i] == stats[1][i]) << stats[0][i].name;
  }
}

}  // namespace
}  // namespace qforge::calibration

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/lazy_content_hash.h"

#include <algorithm>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "formats/data/file_range.h"
#include "formats/data/fingerprint.h"
#include "gtest/gtest.h"
#include "tests/formats/data/test_util.h"

namespace qforge::formats {
namespace {

using ::qforge::formats::testing::MakeTempDir;
using ::qforge::formats::testing::WriteBytes;

// Reads of [offset, offset + size) given to the hash, each with the file's
// bytes there (as a sample read hands them over).
struct Reads {
  std::string name;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
};

// Whatever was read, and in whatever order, the digest is the one-shot
// XXH3 of the whole file (ContentHash64, independent of the streaming
// state). The file spans several of the 256 KiB pieces gaps are read in.
TEST(LazyContentHashTest, DigestIsTheWholeFilesWhateverWasRead) {
  std::vector<uint8_t> bytes(1'300'007);
  std::mt19937 rng(7);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
  const std::string path = MakeTempDir() + "/data.bin";
  WriteBytes(path, bytes);
  const uint64_t expected = ContentHash64(bytes);
  const uint64_t size = bytes.size();

  std::vector<Reads> cases;
  cases.push_back({"nothing", {}});
  Reads in_order{"in order, after a 100-byte header", {}};
  for (uint64_t o = 100; o < size; o += 10'000) {
    in_order.ranges.push_back({o, std::min<uint64_t>(10'000, size - o)});
  }
  cases.push_back(in_order);
  Reads reversed = in_order;
  reversed.name = "reversed";
  std::reverse(reversed.ranges.begin(), reversed.ranges.end());
  cases.push_back(reversed);
  cases.push_back({"gaps and overlaps",
                   {{5, 10},
                    {300'000, 70'000},
                    {310'000, 100'000},
                    {1'000'000, 1},
                    {size - 7, 7},
                    {0, size}}});
  cases.push_back({"the whole file", {{0, size}}});
  for (const Reads& c : cases) {
    auto file = OpenFile::Open(path);
    ASSERT_TRUE(file.ok()) << file.status();
    LazyContentHash hash(*file, size);
    for (const auto& [offset, n] : c.ranges) {
      hash.Read(offset, absl::MakeConstSpan(bytes).subspan(offset, n));
    }
    EXPECT_EQ(hash.Digest().value(), expected) << c.name;
    EXPECT_EQ(hash.Digest().value(), expected) << c.name << ", again";
  }

  // Threads reading interleaved samples at once: reads that find another
  // thread hashing are left to Digest().
  auto file = OpenFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status();
  LazyContentHash hash(*file, size);
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t o = 1000 * t; o + 1000 <= size; o += 3000) {
        hash.Read(o, absl::MakeConstSpan(bytes).subspan(o, 1000));
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(hash.Digest().value(), expected);
}

}  // namespace
}  // namespace qforge::formats

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// ContentHash64 runs libxxhash's runtime-dispatched (AVX2 / AVX-512) XXH3.
// Fingerprints in statistics files must not depend on the machine's vector
// width, so it is checked against xxHash's portable scalar code, compiled
// here from the same Debian header (XXH_VECTOR = XXH_SCALAR, inlined), on
// every length class XXH3 treats differently and at unaligned starts.
#define XXH_INLINE_ALL
#define XXH_VECTOR XXH_SCALAR
#include <xxhash.h>

#include <cstdint>
#include <vector>

#include "formats/data/fingerprint.h"
#include "gtest/gtest.h"

namespace qforge::formats {
namespace {

TEST(ContentHash64Test, EqualsPortableScalarXxh3) {
  std::vector<uint8_t> data((1 << 20) + 64);
  uint32_t s = 2463534242u;  // xorshift32: any bytes will do
  for (uint8_t& b : data) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    b = static_cast<uint8_t>(s);
  }
  // 0-16, 17-128, 129-240 have their own code; past 240 bytes XXH3 runs
  // 64-byte stripes in 1024-byte blocks, with a last partial stripe.
  std::vector<size_t> lengths;
  for (size_t n = 0; n <= 300; ++n) lengths.push_back(n);
  for (size_t n : {1023, 1024, 1025, 4096, 65536 + 7, 1 << 20}) {
    lengths.push_back(n);
  }
  for (size_t offset : {0, 1, 7, 32}) {
    for (size_t n : lengths) {
      const absl::Span<const uint8_t> bytes(data.data() + offset, n);
      ASSERT_EQ(ContentHash64(bytes), XXH3_64bits(bytes.data(), bytes.size()))
          << "length " << n << ", offset " << offset;
    }
  }
}

}  // namespace
}  // namespace qforge::formats

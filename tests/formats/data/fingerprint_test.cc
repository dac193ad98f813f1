// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/fingerprint.h"

#include "gtest/gtest.h"

namespace qforge::formats {
namespace {

// Reference values of FNV-1a 64 (Fowler/Noll/Vo test vectors).
TEST(Fnv1a64Test, KnownVectors) {
  EXPECT_EQ(Fnv1a64().HexDigest(), "cbf29ce484222325");
  Fnv1a64 a;
  a.Update("a");
  EXPECT_EQ(a.HexDigest(), "af63dc4c8601ec8c");
  Fnv1a64 foobar;
  foobar.Update("foobar");
  EXPECT_EQ(foobar.digest(), 0x85944171f73967e8ull);
}

TEST(Fnv1a64Test, IncrementalEqualsWhole) {
  Fnv1a64 whole, parts;
  whole.Update("foobar");
  parts.Update("foo");
  parts.Update("bar");
  EXPECT_EQ(whole.digest(), parts.digest());
  // Length prefixes keep ("ab","c") and ("a","bc") apart.
  Fnv1a64 x, y;
  x.UpdateString("ab");
  x.UpdateString("c");
  y.UpdateString("a");
  y.UpdateString("bc");
  EXPECT_NE(x.digest(), y.digest());
}

// XXH3-64's published test vector (xxHash's sanity checks, seed 0): the
// empty input hashes to 0x2D06800538D394C2. Fingerprints must be the same
// everywhere, so the function must be XXH3 itself.
TEST(ContentHash64Test, KnownVector) {
  EXPECT_EQ(ContentHash64({}), 0x2D06800538D394C2ull);
  const uint8_t a[] = {1, 2, 3};
  const uint8_t b[] = {1, 2, 4};
  EXPECT_NE(ContentHash64(a), ContentHash64(b));
}

}  // namespace
}  // namespace qforge::formats

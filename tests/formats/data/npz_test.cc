// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include <zlib.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "formats/data/npy.h"
#include "formats/data/zip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/formats/data/test_util.h"

namespace qforge::formats {
namespace {

using ::qforge::formats::testing::Iota;
using ::qforge::formats::testing::Mutate;
using ::qforge::formats::testing::ReadBytes;
using ::qforge::formats::testing::TestdataPath;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

void Put16(std::vector<uint8_t>& out, uint32_t v) {
  out.push_back(static_cast<uint8_t>(v));
  out.push_back(static_cast<uint8_t>(v >> 8));
}
void Put32(std::vector<uint8_t>& out, uint32_t v) {
  Put16(out, v & 0xFFFF);
  Put16(out, v >> 16);
}

struct Member {
  std::string name;
  std::vector<uint8_t> data;
};

// A plain (non-zip64) zip of STORED members, as the zip spec lays it out:
// local header (30 bytes + name) + data per member, then one 46-byte
// central-directory record (+ name) per member, then the 22-byte end record.
std::vector<uint8_t> StoredZip(const std::vector<Member>& members) {
  std::vector<uint8_t> out;
  std::vector<uint32_t> offsets;
  for (const Member& m : members) {
    offsets.push_back(static_cast<uint32_t>(out.size()));
    const uint32_t crc = crc32_z(0, m.data.data(), m.data.size());
    Put32(out, 0x04034b50);  // local header signature
    Put16(out, 20);          // version needed
    Put16(out, 0);           // flags
    Put16(out, 0);           // method: stored
    Put32(out, 0);           // time, date
    Put32(out, crc);
    Put32(out, static_cast<uint32_t>(m.data.size()));  // compressed
    Put32(out, static_cast<uint32_t>(m.data.size()));  // uncompressed
    Put16(out, static_cast<uint32_t>(m.name.size()));
    Put16(out, 0);  // extra length
    out.insert(out.end(), m.name.begin(), m.name.end());
    out.insert(out.end(), m.data.begin(), m.data.end());
  }
  const uint32_t cd_offset = static_cast<uint32_t>(out.size());
  for (size_t i = 0; i < members.size(); ++i) {
    const Member& m = members[i];
    Put32(out, 0x02014b50);  // central directory signature
    Put16(out, 20);          // version made by
    Put16(out, 20);          // version needed
    Put16(out, 0);           // flags
    Put16(out, 0);           // method
    Put32(out, 0);           // time, date
    Put32(out, crc32_z(0, m.data.data(), m.data.size()));
    Put32(out, static_cast<uint32_t>(m.data.size()));
    Put32(out, static_cast<uint32_t>(m.data.size()));
    Put16(out, static_cast<uint32_t>(m.name.size()));
    Put16(out, 0);  // extra
    Put16(out, 0);  // comment
    Put16(out, 0);  // disk start
    Put16(out, 0);  // internal attributes
    Put32(out, 0);  // external attributes
    Put32(out, offsets[i]);
    out.insert(out.end(), m.name.begin(), m.name.end());
  }
  const uint32_t cd_size = static_cast<uint32_t>(out.size()) - cd_offset;
  Put32(out, 0x06054b50);  // end of central directory
  Put16(out, 0);
  Put16(out, 0);
  Put16(out, static_cast<uint32_t>(members.size()));
  Put16(out, static_cast<uint32_t>(members.size()));
  Put32(out, cd_size);
  Put32(out, cd_offset);
  Put16(out, 0);  // comment length
  return out;
}

std::vector<uint8_t> NpyBytes(const ir::HostTensor& t) {
  return WriteNpy(t).value();
}

void ExpectNumpyArrays(const std::map<std::string, ir::HostTensor>& arrays) {
  ASSERT_EQ(arrays.size(), 2u);
  auto it = arrays.begin();
  EXPECT_EQ(it->first, "image");  // sorted keys
  EXPECT_EQ(it->second.type(), ir::DataType::kFloat32);
  EXPECT_EQ(it->second.shape(), (std::vector<int64_t>{2, 4, 4, 3}));
  for (int i = 0; i < 96; ++i) {
    EXPECT_EQ(it->second.Flat<float>()[i], static_cast<float>(i) / 10) << i;
  }
  ++it;
  EXPECT_EQ(it->first, "mask");
  EXPECT_EQ(it->second.type(), ir::DataType::kUInt8);
  EXPECT_EQ(it->second.shape(), (std::vector<int64_t>{2, 4}));
  EXPECT_THAT(it->second.Flat<uint8_t>(), ElementsAre(0, 1, 2, 3, 4, 5, 6, 7));
}

TEST(NpzTest, ReadsNumpySavez) {
  absl::StatusOr<std::map<std::string, ir::HostTensor>> arrays =
      ReadNpzFile(TestdataPath("npz/savez.npz"));
  ASSERT_TRUE(arrays.ok()) << arrays.status();
  ExpectNumpyArrays(*arrays);
}

TEST(NpzTest, ReadsNumpySavezCompressed) {
  absl::StatusOr<std::map<std::string, ir::HostTensor>> arrays =
      ReadNpzFile(TestdataPath("npz/savez_compressed.npz"));
  ASSERT_TRUE(arrays.ok()) << arrays.status();
  ExpectNumpyArrays(*arrays);
}

TEST(NpzTest, IndexLocatesStoredArraysInTheFile) {
  const std::vector<uint8_t> bytes = ReadBytes(TestdataPath("npz/savez.npz"));
  absl::StatusOr<std::vector<NpzArray>> arrays = IndexNpz(bytes, "savez.npz");
  ASSERT_TRUE(arrays.ok()) << arrays.status();
  ASSERT_EQ(arrays->size(), 2u);
  const NpzArray& image = (*arrays)[0];
  EXPECT_EQ(image.key, "image");
  EXPECT_EQ(image.inflated, nullptr);
  float first[2];
  std::memcpy(first, bytes.data() + image.data_offset, sizeof(first));
  EXPECT_EQ(first[1], 0.1f);

  const std::vector<uint8_t> packed =
      ReadBytes(TestdataPath("npz/savez_compressed.npz"));
  absl::StatusOr<std::vector<NpzArray>> inflated = IndexNpz(packed, "c.npz");
  ASSERT_TRUE(inflated.ok()) << inflated.status();
  // A DEFLATE member is located and its header read, not inflated...
  NpzArray& member = (*inflated)[0];
  ASSERT_TRUE(member.deflated.has_value());
  EXPECT_EQ(member.inflated, nullptr);
  EXPECT_EQ(member.header.shape, (std::vector<int64_t>{2, 4, 4, 3}));
  // ...until asked.
  ASSERT_TRUE(InflateNpzArray(packed, member, "c.npz").ok());
  ASSERT_NE(member.inflated, nullptr);
  EXPECT_EQ(member.inflated->size(),
            member.header.data_offset + member.header.data_size);
}

TEST(NpzTest, ReadsHandBuiltZip) {
  const std::vector<uint8_t> zip =
      StoredZip({{"a.npy", NpyBytes(Iota({3}))},
                 {"serving_default_x:0.npy", NpyBytes(Iota({1, 2}, 5))}});
  absl::StatusOr<std::map<std::string, ir::HostTensor>> arrays =
      ReadNpz(zip, "hand.npz");
  ASSERT_TRUE(arrays.ok()) << arrays.status();
  ASSERT_EQ(arrays->size(), 2u);
  EXPECT_EQ(arrays->at("a"), Iota({3}));
  EXPECT_EQ(arrays->at("serving_default_x:0"), Iota({1, 2}, 5));
}

TEST(NpzTest, RefusesBadArchives) {
  const std::vector<uint8_t> good = StoredZip({{"a.npy", NpyBytes(Iota({3}))}});
  ASSERT_TRUE(ReadNpz(good, "g.npz").ok());

  EXPECT_THAT(ReadNpz(std::vector<uint8_t>(100, 0), "z.npz").status().message(),
              HasSubstr("z.npz: not a zip archive"));
  EXPECT_THAT(
      ReadNpz(StoredZip({{"a.txt", {1, 2, 3}}}), "t.npz").status().message(),
      HasSubstr("member 'a.txt' is not an .npy array"));
  EXPECT_THAT(ReadNpz(StoredZip({{"a.npy", NpyBytes(Iota({3}))},
                                 {"a.npy", NpyBytes(Iota({3}))}}),
                      "d.npz")
                  .status()
                  .message(),
              HasSubstr("key 'a' appears twice"));
  // A member that is not a valid .npy names the archive and the key.
  EXPECT_THAT(
      ReadNpz(StoredZip({{"a.npy", {1, 2, 3}}}), "n.npz").status().message(),
      HasSubstr("n.npz[a]: not an .npy file"));

  std::vector<uint8_t> bad_crc = good;
  bad_crc[30 + 5 + 70] ^= 1;  // a byte inside the member's data
  EXPECT_THAT(ReadNpz(bad_crc, "c.npz").status().message(),
              HasSubstr("fails its CRC-32 check"));

  std::vector<uint8_t> method = good;
  const size_t cd = good.size() - 22 - 46 - 5;
  method[cd + 10] = 14;  // LZMA
  EXPECT_THAT(ReadNpz(method, "m.npz").status().message(),
              HasSubstr("compression method 14"));

  std::vector<uint8_t> encrypted = good;
  encrypted[cd + 8] = 1;
  EXPECT_THAT(ReadNpz(encrypted, "e.npz").status().message(),
              HasSubstr("is encrypted"));

  std::vector<uint8_t> liar = good;
  liar[cd + 20] = 0xF0;  // compressed size far past the end
  liar[cd + 24] = 0xF0;
  EXPECT_FALSE(ReadNpz(liar, "l.npz").ok());
}

TEST(NpzTest, RefusesDeflateBombClaims) {
  // Claiming 1 GiB from a few compressed bytes must fail before allocating.
  std::vector<uint8_t> packed =
      ReadBytes(TestdataPath("npz/savez_compressed.npz"));
  absl::StatusOr<std::vector<ZipEntry>> entries = ListZipEntries(packed, "c");
  ASSERT_TRUE(entries.ok());
  ZipEntry bomb = (*entries)[0];
  bomb.uncompressed_size = uint64_t{1} << 40;
  EXPECT_FALSE(ExtractZipEntry(packed, bomb, "c").ok());
}

// A 20 MB archive declaring a 20 GB member: indexing inflates its header
// only (the rest of its stream is not deflate data, so inflating further
// would fail), and the sizes the zip and the header declare agree.
TEST(NpzTest, IndexReadsOnlyTheHeaderOfADeflatedMember) {
  const uint64_t elements = 5'000'000'000;
  const std::vector<uint8_t> zip = testing::HugeDeflatedNpz(
      "x", {static_cast<int64_t>(elements)}, 20'000'000);
  absl::StatusOr<std::vector<NpzArray>> arrays = IndexNpz(zip, "huge.npz");
  ASSERT_TRUE(arrays.ok()) << arrays.status();
  ASSERT_EQ(arrays->size(), 1u);
  const NpzArray& a = (*arrays)[0];
  EXPECT_EQ(a.header.shape, (std::vector<int64_t>{5'000'000'000}));
  EXPECT_EQ(a.header.data_size, 4 * elements);
  ASSERT_TRUE(a.deflated.has_value());
  EXPECT_EQ(a.inflated, nullptr);
  // Inflating it whole streams, chunk by chunk, so it fails as corrupt
  // where the stream does, without allocating the 20 GB first...
  NpzArray copy = a;
  absl::Status s = InflateNpzArray(zip, copy, "huge.npz");
  EXPECT_THAT(s.message(), HasSubstr("huge.npz: zip entry 'x.npy' is corrupt"));
  // ...and a header disagreeing with the zip's declared size is refused
  // before that.
  std::vector<uint8_t> liar = testing::HugeDeflatedNpz("x", {3}, 200);
  ASSERT_TRUE(IndexNpz(liar, "l.npz").ok());
  liar[liar.size() - 22 - 8] += 1;  // the zip64 uncompressed size
  EXPECT_THAT(IndexNpz(liar, "l.npz").status().message(),
              HasSubstr("= 12 bytes of data, file has 13"));
}

TEST(NpzTest, EveryTruncationIsAnError) {
  for (const char* name : {"npz/savez.npz", "npz/savez_compressed.npz"}) {
    const std::vector<uint8_t> bytes = ReadBytes(TestdataPath(name));
    for (size_t n = 0; n < bytes.size(); ++n) {
      EXPECT_FALSE(ReadNpz(absl::MakeConstSpan(bytes.data(), n), "cut").ok())
          << name << " cut at " << n;
    }
  }
}

TEST(NpzTest, SurvivesMutations) {
  for (const char* name : {"npz/savez.npz", "npz/savez_compressed.npz"}) {
    const std::vector<uint8_t> bytes = ReadBytes(TestdataPath(name));
    for (uint32_t seed = 0; seed < 3000; ++seed) {
      // Only "no crash" is checked; ASan/UBSan builds make that strict.
      (void)ReadNpz(Mutate(bytes, seed), "m.npz");
    }
  }
}

}  // namespace
}  // namespace qforge::formats

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/npy.h"

#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "formats/data/convert.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/formats/data/test_util.h"

namespace qforge::formats {
namespace {

using ::qforge::formats::testing::Mutate;
using ::qforge::formats::testing::ReadBytes;
using ::qforge::formats::testing::TestdataPath;
using ::testing::HasSubstr;

constexpr ir::DataType kNpyTypes[] = {
    ir::DataType::kFloat32, ir::DataType::kFloat64, ir::DataType::kFloat16,
    ir::DataType::kInt8,    ir::DataType::kUInt8,   ir::DataType::kInt16,
    ir::DataType::kUInt16,  ir::DataType::kInt32,   ir::DataType::kUInt32,
    ir::DataType::kInt64,   ir::DataType::kUInt64,  ir::DataType::kBool,
};

std::vector<uint8_t> Bytes(absl::string_view s) {
  return std::vector<uint8_t>(s.begin(), s.end());
}

// A v1 .npy with `dict` as its header (unpadded) followed by `data_bytes`
// zero bytes.
std::vector<uint8_t> NpyWithHeader(absl::string_view dict, size_t data_bytes) {
  std::vector<uint8_t> out = Bytes("\x93NUMPY");
  out.push_back(1);
  out.push_back(0);
  const std::string header = absl::StrCat(dict, "\n");
  out.push_back(static_cast<uint8_t>(header.size() & 0xFF));
  out.push_back(static_cast<uint8_t>(header.size() >> 8));
  out.insert(out.end(), header.begin(), header.end());
  out.resize(out.size() + data_bytes, 0);
  return out;
}

TEST(NpyTest, RoundTripsEveryDtype) {
  for (ir::DataType type : kNpyTypes) {
    for (const std::vector<int64_t>& shape :
         {std::vector<int64_t>{2, 3}, std::vector<int64_t>{5},
          std::vector<int64_t>{}, std::vector<int64_t>{0, 4},
          std::vector<int64_t>{1, 2, 1, 3}}) {
      ir::HostTensor t(type, shape);
      for (size_t i = 0; i < t.ByteSize(); ++i) {
        t.bytes()[i] = static_cast<uint8_t>(
            type == ir::DataType::kBool ? (i % 3 == 0) : i * 37 + 11);
      }
      absl::StatusOr<std::vector<uint8_t>> bytes = WriteNpy(t);
      ASSERT_TRUE(bytes.ok()) << bytes.status();
      // numpy aligns the data to 64 bytes; so do we.
      ASSERT_EQ((bytes->size() - t.ByteSize()) % 64, 0u);
      EXPECT_EQ((*bytes)[6], 1);  // format 1.0
      absl::StatusOr<ir::HostTensor> back = ReadNpy(*bytes, "t.npy");
      ASSERT_TRUE(back.ok()) << back.status();
      EXPECT_EQ(*back, t) << t.DebugString();
    }
  }
}

TEST(NpyTest, WriteRefusesTypesNpyCannotHold) {
  EXPECT_FALSE(WriteNpy(ir::HostTensor(ir::DataType::kInt4, {4})).ok());
  EXPECT_FALSE(WriteNpy(ir::HostTensor(ir::DataType::kString, {1})).ok());
}

// Files written by numpy (testdata/data/make_fixtures.py) read back with the
// values written, and WriteNpy reproduces numpy's bytes exactly.
TEST(NpyTest, ReadsNumpyFilesOfEveryDtype) {
  const struct {
    const char* code;
    ir::DataType type;
  } kCases[] = {
      {"f4", ir::DataType::kFloat32}, {"f8", ir::DataType::kFloat64},
      {"f2", ir::DataType::kFloat16}, {"i1", ir::DataType::kInt8},
      {"u1", ir::DataType::kUInt8},   {"i2", ir::DataType::kInt16},
      {"u2", ir::DataType::kUInt16},  {"i4", ir::DataType::kInt32},
      {"u4", ir::DataType::kUInt32},  {"i8", ir::DataType::kInt64},
      {"u8", ir::DataType::kUInt64},  {"b1", ir::DataType::kBool},
  };
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.code);
    const std::string path = TestdataPath(absl::StrCat("npy/", c.code, ".npy"));
    absl::StatusOr<ir::HostTensor> t = ReadNpyFile(path);
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_EQ(t->type(), c.type);
    EXPECT_EQ(t->shape(), (std::vector<int64_t>{2, 3}));
    const bool shifted = c.code[0] == 'f' || c.code[0] == 'i';
    for (int i = 0; i < 6; ++i) {
      double v = 0;
      switch (c.type) {
        case ir::DataType::kFloat32:
          v = t->Flat<float>()[i];
          break;
        case ir::DataType::kFloat64:
          v = t->Flat<double>()[i];
          break;
        case ir::DataType::kFloat16:
          v = HalfToFloat(t->Flat<uint16_t>()[i]);
          break;
        case ir::DataType::kInt8:
          v = t->Flat<int8_t>()[i];
          break;
        case ir::DataType::kUInt8:
          v = t->Flat<uint8_t>()[i];
          break;
        case ir::DataType::kInt16:
          v = t->Flat<int16_t>()[i];
          break;
        case ir::DataType::kUInt16:
          v = t->Flat<uint16_t>()[i];
          break;
        case ir::DataType::kInt32:
          v = t->Flat<int32_t>()[i];
          break;
        case ir::DataType::kUInt32:
          v = t->Flat<uint32_t>()[i];
          break;
        case ir::DataType::kInt64:
          v = static_cast<double>(t->Flat<int64_t>()[i]);
          break;
        case ir::DataType::kUInt64:
          v = static_cast<double>(t->Flat<uint64_t>()[i]);
          break;
        case ir::DataType::kBool:
          v = t->Flat<uint8_t>()[i];
          break;
        default:
          FAIL();
      }
      const double want =
          c.type == ir::DataType::kBool ? i % 2 : (shifted ? i - 2 : i);
      EXPECT_EQ(v, want) << "element " << i;
    }
    absl::StatusOr<std::vector<uint8_t>> rewritten = WriteNpy(*t);
    ASSERT_TRUE(rewritten.ok());
    EXPECT_EQ(*rewritten, ReadBytes(path)) << "differs from numpy's bytes";
  }
}

TEST(NpyTest, ReadsFormatVersions2And3) {
  for (const char* name : {"npy/f4_v2.npy", "npy/f4_v3.npy"}) {
    absl::StatusOr<ir::HostTensor> t = ReadNpyFile(TestdataPath(name));
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_EQ(t->shape(), (std::vector<int64_t>{2, 3}));
    EXPECT_THAT(t->Flat<float>(),
                ::testing::ElementsAre(0, 0.5, 1, 1.5, 2, 2.5));
  }
}

TEST(NpyTest, ReadsScalarAndEmptyArrays) {
  absl::StatusOr<ir::HostTensor> scalar =
      ReadNpyFile(TestdataPath("npy/scalar.npy"));
  ASSERT_TRUE(scalar.ok()) << scalar.status();
  EXPECT_TRUE(scalar->shape().empty());
  EXPECT_EQ(scalar->Flat<float>()[0], 3.5f);
  absl::StatusOr<ir::HostTensor> empty =
      ReadNpyFile(TestdataPath("npy/empty.npy"));
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->shape(), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(empty->ByteSize(), 0u);
}

TEST(NpyTest, RefusesFortranOrder) {
  absl::StatusOr<ir::HostTensor> t =
      ReadNpyFile(TestdataPath("npy/fortran.npy"));
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(), HasSubstr("fortran_order=True"));
  EXPECT_THAT(t.status().message(), HasSubstr("fortran.npy: "));
}

TEST(NpyTest, RefusesBigEndian) {
  absl::StatusOr<ir::HostTensor> t =
      ReadNpyFile(TestdataPath("npy/big_endian.npy"));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(t.status().message(), HasSubstr("big-endian dtype '>f4'"));
}

TEST(NpyTest, MissingFileIsNotFound) {
  EXPECT_EQ(ReadNpyFile("/nonexistent/x.npy").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(NpyTest, RefusesMalformedHeaders) {
  const struct {
    std::vector<uint8_t> bytes;
    const char* error;
  } kCases[] = {
      {Bytes("PK\x03\x04 not numpy at all"), "bad magic"},
      {Bytes("\x93NUMPY"), "bad magic"},  // too short for a length
      {NpyWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': "
                     "(2, 4), }",
                     24),
       "truncated: header says <f4 [2,4] = 32 bytes of data, file has 24"},
      {NpyWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': "
                     "(2,), }",
                     12),
       "file has 12"},
      {NpyWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': "
                     "(4294967296, 4294967296, 4294967296), }",
                     0),
       "overflows"},
      {NpyWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': "
                     "(99999999999999999999,), }",
                     0),
       "overflows int64"},
      {NpyWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': "
                     "(-1,), }",
                     0),
       "non-negative integer"},
      {NpyWithHeader("{'descr': '<f4', 'fortran_order': False}", 0),
       "lacks key 'shape'"},
      {NpyWithHeader("{'descr': '<f4', 'descr': '<f4', 'fortran_order': "
                     "False, 'shape': ()}",
                     4),
       "repeats key 'descr'"},
      {NpyWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (), "
                     "'extra': 1}",
                     4),
       "unexpected key 'extra'"},
      {NpyWithHeader("{'descr': [('a', '<f4')], 'fortran_order': False, "
                     "'shape': ()}",
                     4),
       "structured dtype"},
      {NpyWithHeader("{'descr': '<c8', 'fortran_order': False, 'shape': ()}",
                     8),
       "dtype '<c8' is not supported"},
      {NpyWithHeader("{'descr': '<f4, 'fortran_order': False, 'shape': ()}", 4),
       ".npy header"},
      {NpyWithHeader("{'descr': '<f4', 'fortran_order': 0, 'shape': ()}", 4),
       "True or False"},
      {NpyWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (3)}",
                     12),
       "'(n)'"},
      {NpyWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': ()} x",
                     4),
       "text after"},
  };
  for (const auto& c : kCases) {
    absl::StatusOr<ir::HostTensor> t = ReadNpy(c.bytes, "bad.npy");
    ASSERT_FALSE(t.ok()) << c.error;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(t.status().message(), HasSubstr(c.error));
    EXPECT_THAT(t.status().message(), HasSubstr("bad.npy: "));
    EXPECT_EQ(std::string(t.status().message()).find('\n'), std::string::npos);
  }
}

TEST(NpyTest, RefusesBadVersionsAndHeaderLengths) {
  std::vector<uint8_t> bytes = ReadBytes(TestdataPath("npy/f4.npy"));
  std::vector<uint8_t> v4 = bytes;
  v4[6] = 4;
  EXPECT_THAT(ReadNpy(v4, "v4.npy").status().message(),
              HasSubstr("version 4.0 is not supported"));
  // A v2 header length of 4 GiB must be refused before any scan.
  std::vector<uint8_t> huge = ReadBytes(TestdataPath("npy/f4_v2.npy"));
  huge[8] = huge[9] = huge[10] = huge[11] = 0xFF;
  EXPECT_THAT(ReadNpy(huge, "huge.npy").status().message(),
              HasSubstr("exceeds"));
  std::vector<uint8_t> long_header = bytes;
  long_header[8] = 0xFF;
  long_header[9] = 0x7F;
  EXPECT_THAT(ReadNpy(long_header, "long.npy").status().message(),
              HasSubstr("header says 32767 bytes"));
  std::vector<uint8_t> trailing = bytes;
  trailing.push_back(0);
  EXPECT_THAT(ReadNpy(trailing, "t.npy").status().message(),
              HasSubstr("24 bytes of data, file has 25"));
}

TEST(NpyTest, EveryTruncationIsAnError) {
  for (const char* name : {"npy/f4.npy", "npy/f4_v2.npy", "npy/b1.npy"}) {
    const std::vector<uint8_t> bytes = ReadBytes(TestdataPath(name));
    for (size_t n = 0; n < bytes.size(); ++n) {
      EXPECT_FALSE(
          ReadNpy(absl::MakeConstSpan(bytes.data(), n), "cut.npy").ok())
          << name << " cut at " << n;
    }
  }
}

// Random corruptions must give an error or a valid tensor, never a crash
// (the sanitizer build checks the "never").
TEST(NpyTest, SurvivesMutations) {
  const std::vector<uint8_t> bytes = ReadBytes(TestdataPath("npy/f8.npy"));
  int ok = 0;
  for (uint32_t seed = 0; seed < 3000; ++seed) {
    absl::StatusOr<ir::HostTensor> t = ReadNpy(Mutate(bytes, seed), "m.npy");
    if (t.ok()) {
      ++ok;
      EXPECT_EQ(static_cast<int64_t>(t->ByteSize()),
                ir::DenseByteSize(t->type(), t->NumElements()).value());
    }
  }
  EXPECT_GT(ok, 0);  // flips in the padding or data still parse
}

}  // namespace
}  // namespace qforge::formats

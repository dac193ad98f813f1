// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "tests/formats/data/test_util.h"

#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "formats/data/npy.h"
#include "gtest/gtest.h"

namespace qforge::formats::testing {

std::string TestdataPath(absl::string_view name) {
  return absl::StrCat(QFORGE_TESTDATA_DATA_DIR, "/", name);
}

namespace {

// Removes the folders MakeTempDir made when the test process exits.
class TempDirs {
 public:
  ~TempDirs() {
    for (const std::string& dir : dirs_) {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  }
  void Add(const std::string& dir) {
    std::lock_guard<std::mutex> lock(mu_);
    dirs_.push_back(dir);
  }

 private:
  std::mutex mu_;
  std::vector<std::string> dirs_;
};

TempDirs& AllTempDirs() {
  static TempDirs dirs;  // destroyed, and so cleaned up, at exit
  return dirs;
}

}  // namespace

std::string MakeTempDir() {
  static std::atomic<int> counter{0};
  const ::testing::TestInfo* info =
      ::testing::UnitTest::GetInstance()->current_test_info();
  std::string dir =
      absl::StrCat(::testing::TempDir(), "/qforge_data_", ::getpid(), "_",
                   info != nullptr ? info->test_suite_name() : "x", "_",
                   info != nullptr ? info->name() : "x", "_", counter++);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  AllTempDirs().Add(dir);
  return dir;
}

std::vector<uint8_t> ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in),
                              std::istreambuf_iterator<char>());
}

void WriteBytes(const std::string& path, absl::Span<const uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

void WriteText(const std::string& path, absl::string_view text) {
  WriteBytes(path,
             absl::Span<const uint8_t>(
                 reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

void WriteNpyFile(const std::string& path, const ir::HostTensor& tensor) {
  absl::StatusOr<std::vector<uint8_t>> bytes = WriteNpy(tensor);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  WriteBytes(path, *bytes);
}

ir::HostTensor Iota(std::vector<int64_t> shape, float start) {
  ir::HostTensor t(ir::DataType::kFloat32, std::move(shape));
  float v = start;
  for (float& x : t.Flat<float>()) x = v++;
  return t;
}

namespace {
void Put16(std::vector<uint8_t>& out, uint32_t v) {
  out.push_back(static_cast<uint8_t>(v));
  out.push_back(static_cast<uint8_t>(v >> 8));
}
void Put32(std::vector<uint8_t>& out, uint32_t v) {
  Put16(out, v & 0xFFFF);
  Put16(out, v >> 16);
}
}  // namespace

std::vector<uint8_t> MakeWav(const WavSpec& spec,
                             absl::Span<const uint8_t> data) {
  std::vector<uint8_t> out;
  const uint32_t block = static_cast<uint32_t>(spec.channels * spec.bits / 8);
  out.insert(out.end(), {'R', 'I', 'F', 'F'});
  Put32(out, static_cast<uint32_t>(36 + data.size()));
  out.insert(out.end(), {'W', 'A', 'V', 'E', 'f', 'm', 't', ' '});
  Put32(out, 16);
  Put16(out, spec.format);
  Put16(out, static_cast<uint32_t>(spec.channels));
  Put32(out, static_cast<uint32_t>(spec.sample_rate));
  Put32(out, static_cast<uint32_t>(spec.sample_rate) * block);
  Put16(out, block);
  Put16(out, static_cast<uint32_t>(spec.bits));
  out.insert(out.end(), {'d', 'a', 't', 'a'});
  Put32(out, static_cast<uint32_t>(data.size()));
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::vector<uint8_t> MakeWav16(const std::vector<int16_t>& samples,
                               int sample_rate) {
  std::vector<uint8_t> data;
  for (int16_t s : samples) Put16(data, static_cast<uint16_t>(s));
  WavSpec spec;
  spec.sample_rate = sample_rate;
  return MakeWav(spec, data);
}

std::vector<uint8_t> Mutate(const std::vector<uint8_t>& bytes, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> out = bytes;
  if (out.empty()) return out;
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int i = 0; i < edits; ++i) {
    const size_t at = rng() % out.size();
    switch (rng() % 4) {
      case 0:
        out[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
        break;
      case 1:
        out[at] = static_cast<uint8_t>(rng());
        break;
      case 2:
        out[at] = (rng() % 2) ? 0xFF : 0x00;
        break;
      default:
        out.resize(at);
        if (out.empty()) return out;
        break;
    }
  }
  return out;
}

namespace {

void PutLeBytes(std::vector<uint8_t>& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

}  // namespace

std::vector<uint8_t> HugeDeflatedNpz(const std::string& key,
                                     const std::vector<int64_t>& shape,
                                     uint64_t compressed_size) {
  // The header numpy writes for a float32 array of `shape`.
  ir::HostTensor empty(ir::DataType::kFloat32, {0});
  std::vector<uint8_t> npy = WriteNpy(empty).value();
  std::string tuple = "(";
  for (int64_t d : shape)
    absl::StrAppend(&tuple, d, shape.size() == 1 ? "," : ", ");
  if (shape.size() > 1) tuple.resize(tuple.size() - 2);
  tuple += ")";
  std::string dict = absl::StrCat(
      "{'descr': '<f4', 'fortran_order': False, 'shape': ", tuple, ", }");
  const size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict.push_back('\n');
  npy.assign(npy.begin(), npy.begin() + 8);  // magic and version 1.0
  PutLeBytes(npy, dict.size(), 2);
  npy.insert(npy.end(), dict.begin(), dict.end());
  uint64_t elements = 1;
  for (int64_t d : shape) elements *= static_cast<uint64_t>(d);
  const uint64_t usize = npy.size() + 4 * elements;
  // Raw deflate of the header, flushed but not finished.
  std::vector<uint8_t> stream(npy.size() + 64);
  z_stream zs{};
  deflateInit2(&zs, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  zs.next_in = npy.data();
  zs.avail_in = static_cast<uInt>(npy.size());
  zs.next_out = stream.data();
  zs.avail_out = static_cast<uInt>(stream.size());
  deflate(&zs, Z_SYNC_FLUSH);
  stream.resize(zs.total_out);
  deflateEnd(&zs);
  stream.resize(compressed_size, 0);
  const std::string name = key + ".npy";
  std::vector<uint8_t> out;
  PutLeBytes(out, 0x04034b50, 4);  // local header
  PutLeBytes(out, 45, 2);
  PutLeBytes(out, 0, 2);
  PutLeBytes(out, 8, 2);  // deflate
  PutLeBytes(out, 0, 4);
  PutLeBytes(out, 0, 4);  // crc: never reached
  PutLeBytes(out, 0xFFFFFFFF, 4);
  PutLeBytes(out, 0xFFFFFFFF, 4);
  PutLeBytes(out, name.size(), 2);
  PutLeBytes(out, 0, 2);
  out.insert(out.end(), name.begin(), name.end());
  out.insert(out.end(), stream.begin(), stream.end());
  const uint64_t cd = out.size();
  PutLeBytes(out, 0x02014b50, 4);  // central directory
  PutLeBytes(out, 45, 2);
  PutLeBytes(out, 45, 2);
  PutLeBytes(out, 0, 2);
  PutLeBytes(out, 8, 2);
  PutLeBytes(out, 0, 4);
  PutLeBytes(out, 0, 4);
  PutLeBytes(out, compressed_size, 4);
  PutLeBytes(out, 0xFFFFFFFF, 4);  // uncompressed: in the zip64 extra field
  PutLeBytes(out, name.size(), 2);
  PutLeBytes(out, 12, 2);  // extra
  PutLeBytes(out, 0, 2);
  PutLeBytes(out, 0, 2);
  PutLeBytes(out, 0, 2);
  PutLeBytes(out, 0, 4);
  PutLeBytes(out, 0, 4);  // local header at 0
  out.insert(out.end(), name.begin(), name.end());
  PutLeBytes(out, 0x0001, 2);
  PutLeBytes(out, 8, 2);
  PutLeBytes(out, usize, 8);
  const uint64_t cd_size = out.size() - cd;
  PutLeBytes(out, 0x06054b50, 4);  // end of central directory
  PutLeBytes(out, 0, 4);
  PutLeBytes(out, 1, 2);
  PutLeBytes(out, 1, 2);
  PutLeBytes(out, cd_size, 4);
  PutLeBytes(out, cd, 4);
  PutLeBytes(out, 0, 2);
  return out;
}

}  // namespace qforge::formats::testing

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Shared helpers for the formats/data tests: fixture paths, scratch folders,
// and tiny synthetic files (wav, npy) built in memory.
#ifndef QFORGE_TESTS_FORMATS_DATA_TEST_UTIL_H_
#define QFORGE_TESTS_FORMATS_DATA_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "ir/host_tensor.h"

namespace qforge::formats::testing {

// A file under testdata/data/.
std::string TestdataPath(absl::string_view name);

// A fresh, empty folder for this test (under the gtest temp dir).
std::string MakeTempDir();

std::vector<uint8_t> ReadBytes(const std::string& path);
void WriteBytes(const std::string& path, absl::Span<const uint8_t> bytes);
void WriteText(const std::string& path, absl::string_view text);
// WriteNpy(tensor) to `path`.
void WriteNpyFile(const std::string& path, const ir::HostTensor& tensor);

// A float32 tensor of `shape` holding start, start + 1, ...
ir::HostTensor Iota(std::vector<int64_t> shape, float start = 0);

struct WavSpec {
  uint16_t format = 1;  // PCM
  int channels = 1;
  int sample_rate = 16000;
  int bits = 16;
};
// A canonical 44-byte-header RIFF WAVE file around `data` (raw bytes).
std::vector<uint8_t> MakeWav(const WavSpec& spec,
                             absl::Span<const uint8_t> data);
std::vector<uint8_t> MakeWav16(const std::vector<int16_t>& samples,
                               int sample_rate = 16000);

// A one-member .npz (zip64 sizes) whose DEFLATE member "KEY.npy" declares
// an .npy of `shape` float32: the member's deflate stream holds that
// header only, then `compressed_size` bytes in all, so that the zip's
// declared sizes pass the deflate-ratio check. Nothing past the header
// inflates: a reader that inflates the member whole fails as corrupt.
std::vector<uint8_t> HugeDeflatedNpz(const std::string& key,
                                     const std::vector<int64_t>& shape,
                                     uint64_t compressed_size);

// Deterministic byte mutations for robustness loops: flips, overwrites and
// truncations driven by a fixed seed.
std::vector<uint8_t> Mutate(const std::vector<uint8_t>& bytes, uint32_t seed);

}  // namespace qforge::formats::testing

#endif  // QFORGE_TESTS_FORMATS_DATA_TEST_UTIL_H_

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target for the data decoders. The first byte picks the decoder
// (0 npy, 1 npz, 2 wav, 3 image); the rest is the file. Seed a corpus by
// prefixing the files of testdata/data with that byte, e.g.
//   (printf '\x03'; cat testdata/data/person.bmp) > corpus/person.bmp
// Any input must be refused with a status or accepted; an accepted .npy must
// write back to the same tensor. Crashes and sanitizer reports are bugs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "formats/data/image.h"
#include "formats/data/npy.h"
#include "formats/data/wav.h"

namespace {

using namespace qforge::formats;  // NOLINT: a fuzzer entry point

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const absl::Span<const uint8_t> file(data + 1, size - 1);
  switch (data[0] % 4) {
    case 0: {
      absl::StatusOr<qforge::ir::HostTensor> t = ReadNpy(file, "fuzz.npy");
      if (!t.ok()) return 0;
      absl::StatusOr<std::vector<uint8_t>> bytes = WriteNpy(*t);
      if (!bytes.ok()) std::abort();
      absl::StatusOr<qforge::ir::HostTensor> again = ReadNpy(*bytes, "again");
      if (!again.ok() || !(*again == *t)) std::abort();
      return 0;
    }
    case 1:
      (void)ReadNpz(file, "fuzz.npz");
      return 0;
    case 2:
      (void)ReadWavFloat(file, "fuzz.wav", WavOptions{0});
      return 0;
    default: {
      InputDesc input;
      input.name = "image";
      input.shape = {1, 17, 23, 3};  // forces a color conversion and resize
      (void)LoadImageTensor(file, input, ImageOptions{}, "fuzz.img");
      return 0;
    }
  }
}

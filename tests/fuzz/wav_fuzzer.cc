// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target for .wav files: the decoder, and the `--data` path
// (header check, windows of the input's length, sample loading). The last
// byte picks the input (float32 or int16, fixed or dynamic length) and the
// required sample rate. Seed with testdata/data/yes_1000ms.wav. Crashes and
// sanitizer reports are bugs.
#include <cstddef>
#include <cstdint>

#include "formats/data/wav.h"
#include "tests/fuzz/data_fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace qforge;  // NOLINT: a fuzzer entry point
  const absl::Span<const uint8_t> file(data, size);
  const uint8_t selector = size > 0 ? data[size - 1] : 0;
  const int rate = (selector & 1) ? 0 : 16000;
  (void)formats::ReadWavFloat(file, "fuzz.wav", formats::WavOptions{rate});
  (void)formats::ReadWavInt16(file, "fuzz.wav", formats::WavOptions{rate});
  formats::InputDesc input;
  input.name = "audio";
  switch ((selector >> 1) % 4) {
    case 0:
      input.shape = {1, 16000};
      break;
    case 1:
      input.shape = {1, 160};
      break;
    case 2:
      input.type = ir::DataType::kInt16;
      input.shape = {480};
      break;
    default:
      input.shape = {-1};
  }
  formats::LoadOptions options;
  options.sample_rate = rate;
  fuzz::ThroughSampleSource(file, "wav", input, options);
  return 0;
}

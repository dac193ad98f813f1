// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The data fuzzers feed their input through SampleSource, the path `--data`
// takes: the bytes are written to a file in a private temp folder (in
// /dev/shm when there is one) and opened as a spec for one model input,
// then the first samples are loaded.
#ifndef QFORGE_TESTS_FUZZ_DATA_FUZZ_UTIL_H_
#define QFORGE_TESTS_FUZZ_DATA_FUZZ_UTIL_H_

#include <cstdint>
#include <string>

#include "absl/types/span.h"
#include "formats/data/data_source.h"
#include "formats/data/input_desc.h"

namespace qforge::fuzz {

// Writes `bytes` to "<temp>/sample.<extension>", opens it for `input` with
// `options` and loads up to 4 samples. Statuses are ignored: only crashes
// count.
void ThroughSampleSource(absl::Span<const uint8_t> bytes,
                         const std::string& extension,
                         const formats::InputDesc& input,
                         const formats::LoadOptions& options);

}  // namespace qforge::fuzz

#endif  // QFORGE_TESTS_FUZZ_DATA_FUZZ_UTIL_H_

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "tests/fuzz/data_fuzz_util.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace qforge::fuzz {
namespace {

const std::string& TempDir() {
  static const std::string* dir = [] {
    std::string base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    std::string templ = base + "/qforge-fuzz-XXXXXX";
    if (mkdtemp(templ.data()) == nullptr) std::abort();
    return new std::string(templ);
  }();
  return *dir;
}

}  // namespace

void ThroughSampleSource(absl::Span<const uint8_t> bytes,
                         const std::string& extension,
                         const formats::InputDesc& input,
                         const formats::LoadOptions& options) {
  const std::string path = TempDir() + "/sample." + extension;
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (!bytes.empty() &&
      std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) {
    std::abort();
  }
  std::fclose(f);
  const std::string specs[] = {path};
  absl::StatusOr<formats::SampleSource> source = formats::SampleSource::Open(
      specs, absl::MakeConstSpan(&input, 1), options);
  if (source.ok()) {
    for (int64_t i = 0; i < std::min<int64_t>(source->size(), 4); ++i) {
      (void)source->Get(i);
      (void)source->SampleName(i);
    }
    // Hashes what the reads above left (lazy_content_hash.h).
    (void)source->Fingerprint();
  }
  std::remove(path.c_str());
}

}  // namespace qforge::fuzz

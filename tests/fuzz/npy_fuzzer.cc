// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target for .npy and .npz files: the decoders (an accepted .npy
// must write back to the same tensor) and the `--data` path (header check,
// fit to a model input, sample loading). A zip signature picks .npz. The
// last byte picks the input the data is bound to. Seed with
// testdata/data/npy and testdata/data/npz. Crashes and sanitizer reports
// are bugs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "formats/data/npy.h"
#include "tests/fuzz/data_fuzz_util.h"

namespace {

using namespace qforge;  // NOLINT: a fuzzer entry point

formats::InputDesc PickInput(uint8_t selector) {
  formats::InputDesc in;
  in.name = "x";
  switch (selector % 6) {
    case 0:
      in.shape = {2, 3};
      break;
    case 1:
      in.shape = {-1, 3};
      break;
    case 2:
      in.type = ir::DataType::kInt8;
      in.shape = {1, 6};
      break;
    case 3:
      in.type = ir::DataType::kUInt8;
      in.shape = {-1, -1};
      break;
    case 4:
      in.type = ir::DataType::kInt32;
      in.shape = {};
      break;
    default:
      in.type = ir::DataType::kFloat16;
      in.shape = {1, -1, 4};
  }
  return in;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::Span<const uint8_t> file(data, size);
  const bool zip = size >= 2 && data[0] == 'P' && data[1] == 'K';
  if (zip) {
    (void)formats::ReadNpz(file, "fuzz.npz");
  } else {
    absl::StatusOr<ir::HostTensor> t = formats::ReadNpy(file, "fuzz.npy");
    if (t.ok()) {
      absl::StatusOr<std::vector<uint8_t>> bytes = formats::WriteNpy(*t);
      if (!bytes.ok()) std::abort();
      absl::StatusOr<ir::HostTensor> again = formats::ReadNpy(*bytes, "again");
      if (!again.ok() || !(*again == *t)) std::abort();
    }
  }
  formats::InputDesc input = PickInput(size > 0 ? data[size - 1] : 0);
  fuzz::ThroughSampleSource(file, zip ? "npz" : "npy", input,
                            formats::LoadOptions{});
  return 0;
}

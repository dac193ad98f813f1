// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// How an array (an .npy, raw .bin bytes, wav samples) is cut into samples of
// a model input. One place for the rules, so every command reads data alike.
#ifndef QFORGE_FORMATS_DATA_ARRAY_FIT_H_
#define QFORGE_FORMATS_DATA_ARRAY_FIT_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "formats/data/convert.h"
#include "formats/data/input_desc.h"
#include "ir/types.h"

namespace qforge::formats {

struct ArrayFit {
  int64_t count = 0;                  // samples
  std::vector<int64_t> sample_shape;  // each sample's tensor shape (batch 1)
  int64_t sample_elements = 0;
  // Elements from one sample's start to the next's: sample_elements, or
  // the hop of overlapping (or gapped) audio windows.
  int64_t stride_elements = 0;
  Conversion conversion = Conversion::kCopy;
};

// An array of `type` and `shape` for `input` (shape S, -1 = dynamic); the
// array's rank decides how it is read, so no shape fits two ways except the
// first case's:
//  - S has rank >= 2 and a batch dim S[0] of -1 or 1, and the array's dims
//    after the first fit S[1:]: array.shape[0] samples of [1, ...]. (A -1
//    batch is always split: samples are batch 1. This is the one shape
//    that could also be read as one sample.)
//  - the array fits S (same rank; -1 matches any size): 1 sample.
//  - S = [1 or -1, ...] and the array fits S[1:]: 1 sample, batch dim added.
//  - the array is [N, ...] and its dims after the first fit S exactly
//    (rank S + 1): N stacked samples of S, for inputs with or without a
//    batch dim ([N, 5360] for a [5360] waveform; [N, 1, 224, 224, 3] as
//    LiteRT's run_model.mjs --samples takes them).
// Types must match, except float64 and float16 arrays for float32 inputs
// (converted).
absl::StatusOr<ArrayFit> FitArray(ir::DataType type,
                                  absl::Span<const int64_t> shape,
                                  const InputDesc& input,
                                  absl::string_view file);

// `elements` values with no shape of their own (raw .bin bytes, wav
// samples), in the input's order: a -1 batch of a rank >= 2 input counts as
// 1; one other -1 dim takes whatever length the data has (1 sample); with
// every dim known, `elements` must be a positive multiple of a sample.
// `conversion` is recorded as given.
absl::StatusOr<ArrayFit> FitFlat(int64_t elements, const InputDesc& input,
                                 Conversion conversion, absl::string_view file);

// Audio windows: `elements` values (wav samples) cut into windows of
// `window` values every `hop` values (0: the defaults below), each one
// sample of the input. The window is the input's length: every dim known
// (a -1 batch counts as 1), `window` 0 or equal to it; with one dynamic dim,
// `window` sets it (0: the whole file is one sample, as FitFlat). `hop`
// defaults to the window (non-overlapping). Windows that do not fit whole
// are dropped; *dropped says how many trailing values no window covers.
absl::StatusOr<ArrayFit> FitWindows(int64_t elements, const InputDesc& input,
                                    int64_t window, int64_t hop,
                                    Conversion conversion,
                                    absl::string_view file, int64_t* dropped);

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_DATA_ARRAY_FIT_H_

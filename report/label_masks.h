// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// `--labels DIR`: ground-truth masks for segmentation outputs, one per
// sample, so that the report gives the float and the quantized model's mIoU
// against the truth next to their agreement with each other
// (docs/report-json.md#task-metrics).
//
// Rules:
//  - sample s's mask is DIR/<stem>.png, DIR/<stem>.bmp or DIR/<stem>.npy
//    (the first that exists, in that order), <stem> being
//    formats::SampleSource::SampleStem(s): the stem of the sample's file
//    ("photos/cat.jpg": cat), with _K for sample K of a multi-sample array;
//  - a pixel holds its class index: a gray PNG / BMP (or one whose R, G and
//    B are equal, as a gray-palette BMP decodes), or an integer .npy of
//    shape [H, W], [1, H, W] or [H, W, 1]. A color image (e.g. Pascal VOC's
//    palette PNGs, which decode to the palette's colors) is refused;
//  - 255 (Pascal VOC's "void" border) and, in an .npy, negative values mark
//    pixels to ignore: they count for neither model;
//  - a mask of another size than the output's H x W is matched by a nearest
//    resize with half-pixel centers (the source pixel under the centre of
//    each output pixel), as qforge stretches images to the input size;
//  - a one-channel output (a foreground probability) has classes 0
//    (background) and 1; a C-channel output classes 0..C-1.
// Errors are one line naming the file and the rule: a missing mask is
// NotFound (exit code 1), an unreadable or wrong-typed one and a class index
// the output does not have InvalidArgument (exit code 2).
#ifndef QFORGE_REPORT_LABEL_MASKS_H_
#define QFORGE_REPORT_LABEL_MASKS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "formats/data/data_source.h"
#include "report/task_kind.h"
#include "report/task_metrics.h"

namespace qforge::report {

// A sample's ground truth: one class per pixel, kIgnored where none counts.
struct LabelMask {
  static constexpr int32_t kIgnored = -1;
  std::string file;
  int64_t height = 0, width = 0;
  std::vector<int32_t> classes;  // height * width, rows top to bottom
};

// DIR/<stem>.png, .bmp or .npy; NotFound naming the files tried.
absl::StatusOr<std::string> FindLabelMask(const std::string& dir,
                                          const std::string& stem);

// The masks of the report's `samples` (data-set indices), each found,
// read and decoded once here so that a bad one fails before any model
// runs, and their fingerprint ("N masks, HASH": file names and contents,
// in sample order), so that only partial reports of the same masks merge.
struct LabelMaskSet {
  std::vector<std::string> paths;  // by sample index of the data set
  std::string fingerprint;
};
absl::StatusOr<LabelMaskSet> FindLabelMasks(
    const std::string& dir, const formats::SampleSource& data,
    const std::vector<int64_t>& samples);

// Reads and decodes the mask at `path`.
absl::StatusOr<LabelMask> ReadLabelMask(const std::string& path);

// Decodes `bytes`, read from `file`.
absl::StatusOr<LabelMask> DecodeLabelMask(const std::vector<uint8_t>& bytes,
                                          const std::string& file);

// Adds the float and quantized masks of segmentation output `o` against
// `truth` to the ground-truth sums of `sums` (per class, intersection and
// union for each model). InvalidArgument for a class index the output does
// not have, or an output that is not [1, H, W(, C)].
absl::Status AddLabelMask(const OutputTask& task, const OutputValues& o,
                          const LabelMask& truth, TaskSums& sums);

}  // namespace qforge::report

#endif  // QFORGE_REPORT_LABEL_MASKS_H_

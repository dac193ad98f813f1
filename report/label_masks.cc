// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/label_masks.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "calibration/stats_file.h"
#include "formats/data/image.h"
#include "formats/data/npy.h"

namespace qforge::report {
namespace {

constexpr int32_t kVoidValue = 255;  // Pascal VOC's border / "void"

absl::Status MaskError(const std::string& file, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat(
      file, ": ", what,
      " (--labels DIR: one mask of class indices a sample, DIR/<stem>.png, "
      ".bmp or .npy)"));
}

bool IsNpy(const std::vector<uint8_t>& bytes) {
  return bytes.size() >= 6 && bytes[0] == 0x93 && bytes[1] == 'N' &&
         bytes[2] == 'U' && bytes[3] == 'M' && bytes[4] == 'P' &&
         bytes[5] == 'Y';
}

bool IsJpegBytes(const std::vector<uint8_t>& bytes) {
  return bytes.size() >= 2 && bytes[0] == 0xFF && bytes[1] == 0xD8;
}

int32_t ImageClass(uint8_t v) {
  return v == kVoidValue ? LabelMask::kIgnored : v;
}

absl::StatusOr<LabelMask> DecodeImageMask(const std::vector<uint8_t>& bytes,
                                          const std::string& file) {
  if (IsJpegBytes(bytes)) {
    return MaskError(file,
                     "a JPEG mask (lossy compression changes class "
                     "indices at edges): give a PNG, BMP or .npy");
  }
  absl::StatusOr<formats::Image> image = formats::DecodeImage(bytes, file);
  if (!image.ok()) {
    return MaskError(
        file, absl::StrCat("unreadable mask: ", image.status().message()));
  }
  LabelMask m;
  m.file = file;
  m.height = image->height;
  m.width = image->width;
  const int c = image->channels;
  m.classes.resize(static_cast<size_t>(m.height * m.width));
  for (size_t p = 0; p < m.classes.size(); ++p) {
    const uint8_t* px = image->pixels.data() + p * static_cast<size_t>(c);
    // Gray, gray + alpha, or R = G = B (a gray palette decodes to RGB).
    if (c >= 3 && (px[0] != px[1] || px[0] != px[2])) {
      return MaskError(
          file, absl::StrCat("a color mask (pixel ", p % m.width, ", ",
                             p / m.width, " is ", px[0], ",", px[1], ",", px[2],
                             "): give class indices as gray values"));
    }
    m.classes[p] = ImageClass(px[0]);
  }
  return m;
}

absl::StatusOr<LabelMask> DecodeNpyMask(const std::vector<uint8_t>& bytes,
                                        const std::string& file) {
  absl::StatusOr<ir::HostTensor> t = formats::ReadNpy(bytes, file);
  if (!t.ok()) {
    return MaskError(file,
                     absl::StrCat("unreadable mask: ", t.status().message()));
  }
  std::vector<int64_t> shape = t->shape();
  if (shape.size() == 3 && shape[0] == 1) shape.erase(shape.begin());
  if (shape.size() == 3 && shape[2] == 1) shape.pop_back();
  if (shape.size() != 2 || shape[0] < 1 || shape[1] < 1) {
    return MaskError(file, absl::StrCat("mask shape ", t->DebugString(),
                                        ": expected [H, W], [1, H, W] or "
                                        "[H, W, 1]"));
  }
  LabelMask m;
  m.file = file;
  m.height = shape[0];
  m.width = shape[1];
  const size_t n = static_cast<size_t>(m.height * m.width);
  m.classes.resize(n);
  auto take = [&](auto span) {
    for (size_t p = 0; p < n; ++p) {
      const int64_t v = static_cast<int64_t>(span[p]);
      m.classes[p] =
          v < 0 || v == kVoidValue
              ? LabelMask::kIgnored
              : static_cast<int32_t>(std::min<int64_t>(v, INT32_MAX));
    }
  };
  using ir::DataType;
  const DataType type = t->type();
  if (type == DataType::kUInt8) {
    take(t->Flat<uint8_t>());
  } else if (type == DataType::kInt8) {
    take(t->Flat<int8_t>());
  } else if (type == DataType::kInt16) {
    take(t->Flat<int16_t>());
  } else if (type == DataType::kUInt16) {
    take(t->Flat<uint16_t>());
  } else if (type == DataType::kInt32) {
    take(t->Flat<int32_t>());
  } else if (type == DataType::kInt64) {
    take(t->Flat<int64_t>());
  } else {
    return MaskError(file, absl::StrCat("mask of type ", t->DebugString(),
                                        ": expected integer class indices"));
  }
  return m;
}

}  // namespace

absl::StatusOr<std::string> FindLabelMask(const std::string& dir,
                                          const std::string& stem) {
  std::vector<std::string> tried;
  for (const char* ext : {".png", ".bmp", ".npy"}) {
    const std::string path =
        (std::filesystem::path(dir) / (stem + ext)).string();
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) return path;
    tried.push_back(stem + ext);
  }
  return absl::NotFoundError(
      absl::StrCat(dir, ": no mask for sample '", stem, "' (looked for ",
                   absl::StrJoin(tried, ", "),
                   "; --labels DIR: one mask a sample, named by the stem of "
                   "its --data file)"));
}

absl::StatusOr<LabelMask> DecodeLabelMask(const std::vector<uint8_t>& bytes,
                                          const std::string& file) {
  if (IsNpy(bytes)) return DecodeNpyMask(bytes, file);
  return DecodeImageMask(bytes, file);
}

absl::StatusOr<LabelMask> ReadLabelMask(const std::string& path) {
  ASSIGN_OR_RETURN(const std::vector<uint8_t> bytes, ReadFileBytes(path));
  return DecodeLabelMask(bytes, path);
}

absl::StatusOr<LabelMaskSet> FindLabelMasks(
    const std::string& dir, const formats::SampleSource& data,
    const std::vector<int64_t>& samples) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return absl::NotFoundError(absl::StrCat(dir, ": not a directory of masks"));
  }
  LabelMaskSet set;
  set.paths.resize(static_cast<size_t>(data.size()));
  std::string digest;
  for (int64_t k : samples) {
    ASSIGN_OR_RETURN(std::string path, FindLabelMask(dir, data.SampleStem(k)));
    ASSIGN_OR_RETURN(const std::vector<uint8_t> bytes, ReadFileBytes(path));
    RETURN_IF_ERROR(DecodeLabelMask(bytes, path).status());
    absl::StrAppend(&digest, std::filesystem::path(path).filename().string(),
                    " ", calibration::HashBytes(bytes.data(), bytes.size()),
                    "\n");
    set.paths[static_cast<size_t>(k)] = std::move(path);
  }
  set.fingerprint = absl::StrCat(
      samples.size(), " masks, ",
      calibration::HashBytes(reinterpret_cast<const uint8_t*>(digest.data()),
                             digest.size()));
  return set;
}

absl::Status AddLabelMask(const OutputTask& task, const OutputValues& o,
                          const LabelMask& truth, TaskSums& s) {
  const std::vector<int64_t>& shape = o.shape;
  if ((shape.size() != 3 && shape.size() != 4) || shape[0] != 1 ||
      shape[1] < 1 || shape[2] < 1) {
    return MaskError(truth.file,
                     "the segmentation output is not [1, H, W] or "
                     "[1, H, W, C]: no pixel grid to match the mask to");
  }
  const int64_t h = shape[1], w = shape[2];
  const int64_t c = SegmentationChannels(shape);
  if (static_cast<int64_t>(o.f->size()) != h * w * c) {
    return MaskError(truth.file,
                     "the segmentation output's size is not "
                     "H x W x C");
  }
  const size_t classes = static_cast<size_t>(std::max<int64_t>(2, c));
  for (size_t p = 0; p < truth.classes.size(); ++p) {
    const int32_t t = truth.classes[p];
    if (t != LabelMask::kIgnored && static_cast<size_t>(t) >= classes) {
      return MaskError(
          truth.file,
          absl::StrCat("class ", t, " at pixel ", p % truth.width, ", ",
                       p / truth.width, " is not one of the output's ", classes,
                       " classes (0..", classes - 1, "; 255 is ignored)"));
    }
  }
  for (std::vector<uint64_t>* v :
       {&s.label_float_intersection, &s.label_float_union,
        &s.label_quant_intersection, &s.label_quant_union}) {
    if (v->size() < classes) v->resize(classes, 0);
  }
  for (int64_t y = 0; y < h; ++y) {
    // Nearest with half-pixel centres: the mask pixel under the output
    // pixel's centre, in integers.
    const int64_t my = (2 * y + 1) * truth.height / (2 * h);
    for (int64_t x = 0; x < w; ++x) {
      const int64_t mx = (2 * x + 1) * truth.width / (2 * w);
      const int32_t t =
          truth.classes[static_cast<size_t>(my * truth.width + mx)];
      if (t == LabelMask::kIgnored) {
        ++s.label_ignored;
        continue;
      }
      const int64_t p = y * w + x;
      const int64_t a = PixelClass(task, o.f->data() + p * c, c);
      const int64_t b = PixelClass(task, o.q->data() + p * c, c);
      ++s.label_pixels;
      const size_t tc = static_cast<size_t>(t);
      ++s.label_float_union[tc];
      ++s.label_quant_union[tc];
      if (a == t) {
        ++s.label_float_intersection[tc];
      } else {
        ++s.label_float_union[static_cast<size_t>(a)];
      }
      if (b == t) {
        ++s.label_quant_intersection[tc];
      } else {
        ++s.label_quant_union[static_cast<size_t>(b)];
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace qforge::report

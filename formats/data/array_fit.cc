// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/array_fit.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "ir/host_tensor.h"

namespace qforge::formats {
namespace {

// Same rank; every input dim is -1 or equal.
bool Fits(absl::Span<const int64_t> shape, absl::Span<const int32_t> want) {
  if (shape.size() != want.size()) return false;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (want[i] != -1 && want[i] != shape[i]) return false;
  }
  return true;
}

int64_t Product(absl::Span<const int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;  // callers pass validated shapes
  return n;
}

std::string Hint(absl::Span<const int32_t> s) {
  // The shapes that would fit, e.g. "[1,224,224,3], [N,224,224,3] or
  // [224,224,3]".
  if (s.size() < 2 || (s[0] != 1 && s[0] != -1)) return ir::ShapeString(s);
  std::vector<int32_t> rest(s.begin() + 1, s.end());
  std::string batched = ir::ShapeString(rest);
  batched.insert(1, rest.empty() ? "N" : "N,");
  return absl::StrCat(ir::ShapeString(s), ", ", batched, " or ",
                      ir::ShapeString(rest));
}

}  // namespace

absl::StatusOr<ArrayFit> FitArray(ir::DataType type,
                                  absl::Span<const int64_t> shape,
                                  const InputDesc& input,
                                  absl::string_view file) {
  ArrayFit fit;
  if (type == input.type) {
    fit.conversion = Conversion::kCopy;
  } else if (input.type == ir::DataType::kFloat32 &&
             type == ir::DataType::kFloat64) {
    fit.conversion = Conversion::kFloat64ToFloat32;
  } else if (input.type == ir::DataType::kFloat32 &&
             type == ir::DataType::kFloat16) {
    fit.conversion = Conversion::kFloat16ToFloat32;
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        file, ": dtype ", ir::DataTypeName(type), " does not match input ",
        DescribeInput(input),
        " (only float64/float16 convert, to float32; save with .astype)"));
  }
  const absl::Span<const int32_t> s = input.shape;
  const bool has_batch = s.size() >= 2 && (s[0] == 1 || s[0] == -1);
  if (has_batch && !shape.empty() && Fits(shape.subspan(1), s.subspan(1)) &&
      (s[0] == -1 || !Fits(shape, s))) {
    fit.count = shape[0];
    fit.sample_shape.assign(shape.begin(), shape.end());
    fit.sample_shape[0] = 1;
  } else if (Fits(shape, s)) {
    fit.count = 1;
    fit.sample_shape.assign(shape.begin(), shape.end());
  } else if (has_batch && Fits(shape, s.subspan(1))) {
    fit.count = 1;
    fit.sample_shape.push_back(1);
    fit.sample_shape.insert(fit.sample_shape.end(), shape.begin(), shape.end());
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        file, ": shape ", ir::ShapeString(shape), " does not fit input ",
        DescribeInput(input), " (want ", Hint(s), ")"));
  }
  fit.sample_elements = Product(fit.sample_shape);
  // An input declared with a 0 dim legitimately takes empty samples.
  const bool empty_input = std::find(s.begin(), s.end(), 0) != s.end();
  if (fit.count == 0 || (fit.sample_elements == 0 && !empty_input)) {
    return absl::InvalidArgumentError(
        absl::StrCat(file, ": shape ", ir::ShapeString(shape),
                     " holds no data for input ", DescribeInput(input)));
  }
  return fit;
}

absl::StatusOr<ArrayFit> FitFlat(int64_t elements, const InputDesc& input,
                                 Conversion conversion,
                                 absl::string_view file) {
  ArrayFit fit;
  fit.conversion = conversion;
  fit.sample_shape.assign(input.shape.begin(), input.shape.end());
  if (fit.sample_shape.size() >= 2 && fit.sample_shape[0] == -1) {
    fit.sample_shape[0] = 1;
  }
  int unknown = -1;
  int64_t known = 1;
  for (size_t i = 0; i < fit.sample_shape.size(); ++i) {
    const int64_t d = fit.sample_shape[i];
    if (d == -1) {
      if (unknown >= 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            file, ": input ", DescribeInput(input),
            " has several dynamic dims; raw data cannot tell its shape (use "
            ".npy)"));
      }
      unknown = static_cast<int>(i);
    } else if (d < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          file, ": input ", DescribeInput(input), " has a negative dim"));
    } else if (__builtin_mul_overflow(known, d, &known)) {
      return absl::InvalidArgumentError(absl::StrCat(
          file, ": input ", DescribeInput(input), " is too large"));
    }
  }
  if (elements <= 0 || known == 0 || elements % known != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        file, ": ", elements, " values is not a positive multiple of input ",
        DescribeInput(input), " (", known, " values per sample)"));
  }
  if (unknown >= 0) {
    fit.sample_shape[static_cast<size_t>(unknown)] = elements / known;
    fit.count = 1;
    fit.sample_elements = elements;
  } else {
    fit.count = elements / known;
    fit.sample_elements = known;
  }
  return fit;
}

}  // namespace qforge::formats

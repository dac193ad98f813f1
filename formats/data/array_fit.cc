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

// "[5360]" -> "[N,5360]".
std::string Stacked(absl::Span<const int32_t> s) {
  std::string text = ir::ShapeString(s);
  text.insert(1, s.empty() ? "N" : "N,");
  return text;
}

std::string Hint(absl::Span<const int32_t> s) {
  // The shapes that would fit, e.g. "[1,224,224,3], [N,224,224,3],
  // [224,224,3] or [N,1,224,224,3]"; "[5360] or [N,5360]".
  if (s.size() < 2 || (s[0] != 1 && s[0] != -1)) {
    return absl::StrCat(ir::ShapeString(s), " or ", Stacked(s));
  }
  const absl::Span<const int32_t> rest = s.subspan(1);
  return absl::StrCat(ir::ShapeString(s), ", ", Stacked(rest), ", ",
                      ir::ShapeString(rest), " or ", Stacked(s));
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
  } else if (!shape.empty() && Fits(shape.subspan(1), s)) {
    fit.count = shape[0];
    fit.sample_shape.assign(shape.begin() + 1, shape.end());
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        file, ": shape ", ir::ShapeString(shape), " does not fit input ",
        DescribeInput(input), " (want ", Hint(s), ")"));
  }
  fit.sample_elements = Product(fit.sample_shape);
  fit.stride_elements = fit.sample_elements;
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
  fit.stride_elements = fit.sample_elements;
  return fit;
}

absl::StatusOr<ArrayFit> FitWindows(int64_t elements, const InputDesc& input,
                                    int64_t window, int64_t hop,
                                    Conversion conversion,
                                    absl::string_view file, int64_t* dropped) {
  *dropped = 0;
  if (window < 0 || hop < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(file, ": --window and --hop must be positive"));
  }
  std::vector<int64_t> shape(input.shape.begin(), input.shape.end());
  if (shape.size() >= 2 && shape[0] == -1) shape[0] = 1;
  int unknown = -1;
  int64_t known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1 && unknown < 0) {
      unknown = static_cast<int>(i);
    } else if (shape[i] < 0 ||
               __builtin_mul_overflow(known, shape[i], &known)) {
      return FitFlat(elements, input, conversion, file);  // its error
    }
  }
  // Without a window, a dynamic length takes the whole file.
  if (unknown >= 0 && window == 0) {
    if (hop != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(file, ": --hop needs --window: input ",
                       DescribeInput(input), " has a dynamic length"));
    }
    return FitFlat(elements, input, conversion, file);
  }
  ArrayFit fit;
  fit.conversion = conversion;
  fit.sample_shape = shape;
  if (unknown >= 0) {
    if (known == 0 || window % known != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          file, ": --window ", window, " is not a multiple of input ",
          DescribeInput(input), " (", known, " values per step)"));
    }
    fit.sample_shape[static_cast<size_t>(unknown)] = window / known;
  } else if (window != 0 && window != known) {
    return absl::InvalidArgumentError(absl::StrCat(
        file, ": --window ", window, " does not match input ",
        DescribeInput(input), ", which takes ", known, " values per sample"));
  } else {
    window = known;
  }
  if (window <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        file, ": input ", DescribeInput(input), " takes no values"));
  }
  if (hop == 0) hop = window;
  if (elements < window) {
    return absl::InvalidArgumentError(absl::StrCat(
        file, ": ", elements, " values is less than one window of ", window,
        " for input ", DescribeInput(input)));
  }
  fit.count = (elements - window) / hop + 1;
  fit.sample_elements = window;
  fit.stride_elements = hop;
  *dropped = elements - ((fit.count - 1) * hop + window);
  return fit;
}

}  // namespace qforge::formats

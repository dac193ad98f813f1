// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// RFFT2D and COMPLEX_ABS, as TFLite's kernels (kernels/rfft2d.cc,
// kernels/complex_support.cc).
//
// RFFT2D(input [..., H_in, W_in] float32, fft_length int32[2] = {H, W})
// -> complex64 [..., H, W/2 + 1]: per slice over the two innermost dims,
//   out[k1, k2] = sum_{n1 < H, n2 < W} x[n1, n2] exp(-2 pi i (k1 n1 / H
//                                                         + k2 n2 / W)),
// the input cropped or zero-padded to H x W; H and W powers of two (TFLite's
// FFT library takes nothing else). TFLite computes in double (Ooura's
// rdft2d) and rounds to float at the end; so does this radix-2 FFT (rows
// first, keeping the W/2 + 1 non-negative frequencies, then columns), so
// the two differ by double rounding noise only.
#include <cmath>
#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/shape/shape.h"
#include "runtime/kernels/spectral/spectral.h"

namespace qforge::runtime {
namespace {

using Cd = std::complex<double>;
constexpr double kPi = 3.14159265358979323846;

// In-place radix-2 FFT of length n (a power of two) with its twiddles
// exp(-2 pi i k / n), k < n / 2, and bit-reversal permutation.
struct Fft {
  int n = 0;
  std::vector<Cd> twiddle;
  std::vector<int> reversed;

  void Init(int length) {
    n = length;
    twiddle.resize(static_cast<size_t>(n / 2));
    for (int k = 0; k < n / 2; ++k) {
      twiddle[static_cast<size_t>(k)] = std::polar(1.0, -2.0 * kPi * k / n);
    }
    reversed.assign(static_cast<size_t>(n), 0);
    int bits = 0;
    while ((1 << bits) < n) ++bits;
    for (int i = 0; i < n; ++i) {
      int r = 0;
      for (int b = 0; b < bits; ++b) r |= ((i >> b) & 1) << (bits - 1 - b);
      reversed[static_cast<size_t>(i)] = r;
    }
  }

  // x[0], x[stride], ..., x[(n - 1) * stride].
  void Run(Cd* x, int64_t stride) const {
    for (int i = 0; i < n; ++i) {
      const int r = reversed[static_cast<size_t>(i)];
      if (r > i) std::swap(x[i * stride], x[r * stride]);
    }
    for (int len = 2; len <= n; len <<= 1) {
      const int half = len / 2, step = n / len;
      for (int start = 0; start < n; start += len) {
        for (int k = 0; k < half; ++k) {
          Cd& a = x[(start + k) * stride];
          Cd& b = x[(start + k + half) * stride];
          const Cd t = b * twiddle[static_cast<size_t>(k * step)];
          b = a - t;
          a += t;
        }
      }
    }
  }
};

struct Rfft2dState : KernelState {
  int h = 0, w = 0;
  Fft rows, cols;
  std::vector<Cd> buffer;  // [H, W]
};

bool IsPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// Reads fft_length and gives the output its shape.
absl::Status ResolveRfft2d(OpContext& ctx, bool in_eval) {
  shape_ops::IntValues len;
  RETURN_IF_ERROR(shape_ops::ReadInts(ctx, 1, "fft_length", &len));
  if (len.size() != 2 || !IsPowerOfTwo(len[0]) || !IsPowerOfTwo(len[1]) ||
      len[0] > (1 << 24) || len[1] > (1 << 24)) {
    return ctx.Error(absl::StrCat("fft_length ", DimsString(len),
                                  " must be two powers of two up to 2^24"));
  }
  // The double working buffer holds H x W values: bound it (1 GiB) so an
  // absurd fft_length is an error, not a failed allocation.
  if (len[0] * len[1] > (int64_t{1} << 26)) {
    return ctx.Error(absl::StrCat("fft_length ", DimsString(len),
                                  " needs more than 2^26 working values"));
  }
  Dims shape = ctx.input(0)->shape;
  shape[shape.size() - 2] = len[0];
  shape[shape.size() - 1] = len[1] / 2 + 1;
  RETURN_IF_ERROR(shape_ops::CheckOutputDims(ctx, 0, shape));
  auto* st = ctx.state<Rfft2dState>();
  if (st->h != len[0] || st->w != len[1]) {
    st->h = static_cast<int>(len[0]);
    st->w = static_cast<int>(len[1]);
    st->rows.Init(st->w);
    st->cols.Init(st->h);
    st->buffer.assign(static_cast<size_t>(len[0] * len[1]), Cd());
  }
  return shape_ops::SetShape(ctx, 0, shape, in_eval);
}

}  // namespace

absl::Status PrepareRfft2d(OpContext& ctx) {
  RETURN_IF_ERROR(ExpectType(ctx, 0, ir::DataType::kFloat32));
  RETURN_IF_ERROR(ExpectType(ctx, 1, ir::DataType::kInt32));
  if (ctx.input(0)->rank() < 2) {
    return ctx.Error(absl::StrCat("input '", ctx.input(0)->name(),
                                  "' has rank ", ctx.input(0)->rank(),
                                  "; RFFT2D needs at least 2"));
  }
  if (ctx.output(0)->type != ir::DataType::kComplex64) {
    return ctx.Unsupported("RFFT2D writes complex64 only");
  }
  ctx.StateOrNew<Rfft2dState>();
  if (!shape_ops::ValuesKnownOrDefer(ctx, {1})) return absl::OkStatus();
  return ResolveRfft2d(ctx, /*in_eval=*/false);
}

absl::Status EvalRfft2d(OpContext& ctx) {
  RETURN_IF_ERROR(ResolveRfft2d(ctx, /*in_eval=*/true));
  Rfft2dState& st = *ctx.state<Rfft2dState>();
  const RtTensor* in = ctx.input(0);
  const int rank = in->rank();
  const int64_t in_h = in->dim(rank - 2), in_w = in->dim(rank - 1);
  const int64_t h = st.h, w = st.w, out_w = w / 2 + 1;
  int64_t slices = 1;
  for (int k = 0; k < rank - 2; ++k) slices *= in->dim(k);
  const float* x = in->Data<float>();
  auto* out = ctx.output(0)->Data<std::complex<float>>();
  const int64_t copy_h = std::min(in_h, h), copy_w = std::min(in_w, w);
  Cd* buf = st.buffer.data();
  for (int64_t s = 0; s < slices; ++s) {
    const float* xs = x + s * in_h * in_w;
    std::fill(st.buffer.begin(), st.buffer.end(), Cd());
    for (int64_t r = 0; r < copy_h; ++r) {
      for (int64_t c = 0; c < copy_w; ++c) {
        buf[r * w + c] = Cd(xs[r * in_w + c], 0.0);
      }
    }
    // Rows with an all-zero input (zero padding) stay zero.
    for (int64_t r = 0; r < copy_h; ++r) st.rows.Run(buf + r * w, 1);
    for (int64_t c = 0; c < out_w; ++c) st.cols.Run(buf + c, w);
    std::complex<float>* os = out + s * h * out_w;
    for (int64_t r = 0; r < h; ++r) {
      for (int64_t c = 0; c < out_w; ++c) {
        const Cd v = buf[r * w + c];
        os[r * out_w + c] = std::complex<float>(static_cast<float>(v.real()),
                                                static_cast<float>(v.imag()));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status PrepareComplexAbs(OpContext& ctx) {
  RETURN_IF_ERROR(ExpectType(ctx, 0, ir::DataType::kComplex64));
  if (ctx.output(0)->type != ir::DataType::kFloat32) {
    return ctx.Unsupported("COMPLEX_ABS of complex64 writes float32 only");
  }
  return PrepareSameShape(ctx);
}

// |z| as TFLite: std::abs of the complex<float> (a hypot, no overflow in
// the squares).
absl::Status EvalComplexAbs(OpContext& ctx) {
  const auto* z = ctx.input(0)->Data<std::complex<float>>();
  float* out = ctx.output(0)->Data<float>();
  const int64_t n = ctx.input(0)->NumElements();
  for (int64_t i = 0; i < n; ++i) out[i] = std::abs(z[i]);
  return absl::OkStatus();
}

}  // namespace qforge::runtime

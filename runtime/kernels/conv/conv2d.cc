// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// CONV_2D (float32): input [N, H, W, C], filter [O, KH, KW, C / groups],
// optional bias [O]. Grouped convolution (C a multiple of the filter's
// channel count) follows TFLite's reference kernel.
//
// As a GEMM per group: rows are output pixels (N * OH * OW), columns output
// channels, k = KH * KW * C/groups in (ky, kx, c) order, which is the
// filter's own layout, so the packed filter is the filter transposed. A 1x1
// stride-1 convolution reads its input in place as a matrix; others with at
// least kIndirectMinChannels channels per group read it in place through a
// pointer per row and tap (implicit im2col, a row of zeros for padded
// taps); thinner ones (an RGB stem) build im2col tiles in scratch a task
// borrows.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/conv/gemm.h"

namespace qforge::runtime {
namespace {

using conv_internal::ActRange;
using conv_internal::GemmPlan;

struct Conv2DState : KernelState {
  int64_t batches = 0, in_h = 0, in_w = 0, in_c = 0, out_c = 0;
  int64_t groups = 1, group_in = 0, group_out = 0, k = 0;
  Window wy, wx;
  ActRange act;
  bool direct = false;  // 1x1, stride 1: A is the input itself
  // Other convolutions with at least kIndirectMinChannels channels per
  // group read their input in place through row pointers; thinner ones
  // (an RGB stem) copy im2col tiles, where a tap is too short a run.
  bool indirect = false;
  std::vector<float> zeros;  // group_in zeros: the padded taps' row
  GemmPlan plan;
  int64_t packed_stride = 0, bias_stride = 0;
  std::vector<float> packed;  // groups x PackedSize(k, group_out)
  std::vector<float> bias;    // groups x PaddedColumns(group_out)
  bool weights_ready = false, bias_ready = false;
  conv_internal::ScratchSlots slots;
};

void PackFilter(Conv2DState& s, const float* filter) {
  // Filter row o is [KH, KW, C/groups] = k contiguous floats.
  for (int64_t g = 0; g < s.groups; ++g) {
    conv_internal::PackRhs(filter + g * s.group_out * s.k, s.k, s.group_out,
                           /*stride_k=*/1, /*stride_n=*/s.k,
                           s.packed.data() + g * s.packed_stride);
  }
}

void PackConvBias(Conv2DState& s, const float* bias) {
  for (int64_t g = 0; g < s.groups; ++g) {
    conv_internal::PackBias(bias == nullptr ? nullptr : bias + g * s.group_out,
                            s.group_out, s.bias.data() + g * s.bias_stride);
  }
}

constexpr int64_t kIndirectMinChannels = 16;

// Copies n floats. The runs here are short (a few channels, or KW x C for
// a thin input such as an RGB stem), where a memcpy call or a generic loop
// costs more than the copy: sizes up to 16 get a fixed-size copy.
template <int N>
inline void CopyN(float* dst, const float* src) {
  std::memcpy(dst, src, N * sizeof(float));
}
inline void CopyFloats(float* dst, const float* src, int64_t n) {
  switch (n) {
    // clang-format off
    case 1: return CopyN<1>(dst, src);    case 2: return CopyN<2>(dst, src);
    case 3: return CopyN<3>(dst, src);    case 4: return CopyN<4>(dst, src);
    case 5: return CopyN<5>(dst, src);    case 6: return CopyN<6>(dst, src);
    case 7: return CopyN<7>(dst, src);    case 8: return CopyN<8>(dst, src);
    case 9: return CopyN<9>(dst, src);    case 10: return CopyN<10>(dst, src);
    case 11: return CopyN<11>(dst, src);  case 12: return CopyN<12>(dst, src);
    case 13: return CopyN<13>(dst, src);  case 14: return CopyN<14>(dst, src);
    case 15: return CopyN<15>(dst, src);  case 16: return CopyN<16>(dst, src);
    // clang-format on
    default:
      std::memcpy(dst, src, sizeof(float) * static_cast<size_t>(n));
  }
}

// Rows [row0, row0 + rows) of group g's im2col matrix into dst (rows x k).
void Im2Col(const Conv2DState& s, const float* input, int64_t g, int64_t row0,
            int64_t rows, float* dst) {
  const int64_t ow = s.wx.out, oh = s.wy.out;
  const int64_t kh = s.wy.filter, kw = s.wx.filter;
  const int64_t cg = s.group_in;
  const bool contiguous_taps = s.wx.dilation == 1 && s.groups == 1;
  // Walk (b, oy, ox) incrementally: no divisions per row.
  int64_t ox = row0 % ow;
  int64_t oy = (row0 / ow) % oh;
  int64_t b = row0 / (ow * oh);
  for (int64_t r = 0; r < rows; ++r) {
    float* out = dst + r * s.k;
    const int64_t ix0 = ox * s.wx.stride - s.wx.pad;
    for (int64_t ky = 0; ky < kh; ++ky) {
      const int64_t iy = oy * s.wy.stride - s.wy.pad + ky * s.wy.dilation;
      float* tap = out + ky * kw * cg;
      if (iy < 0 || iy >= s.in_h) {
        std::fill(tap, tap + kw * cg, 0.0f);
        continue;
      }
      const float* in_row = input + ((b * s.in_h + iy) * s.in_w) * s.in_c;
      if (contiguous_taps && ix0 >= 0 && ix0 + kw <= s.in_w) {
        CopyFloats(tap, in_row + ix0 * s.in_c, kw * cg);
        continue;
      }
      for (int64_t kx = 0; kx < kw; ++kx) {
        const int64_t ix = ix0 + kx * s.wx.dilation;
        float* t = tap + kx * cg;
        if (ix < 0 || ix >= s.in_w) {
          std::fill(t, t + cg, 0.0f);
        } else {
          CopyFloats(t, in_row + ix * s.in_c + g * cg, cg);
        }
      }
    }
    if (++ox == ow) {
      ox = 0;
      if (++oy == oh) {
        oy = 0;
        ++b;
      }
    }
  }
}

}  // namespace

absl::Status PrepareConv2D(OpContext& ctx) {
  ConvGeometry g;
  ActRange act;
  RETURN_IF_ERROR(
      conv_internal::ReadFloatConv(ctx, /*depthwise=*/false, &g, &act));
  const RtTensor& input = *ctx.input(0);
  const RtTensor& filter = *ctx.input(1);
  const RtTensor* bias = ctx.input(2);

  const int64_t in_c = input.dim(3);
  const int64_t out_c = filter.dim(0);
  const int64_t group_in = filter.dim(3);
  if (group_in == 0 || in_c % group_in != 0) {
    return ctx.Error(absl::StrCat(
        "filter '", filter.name(), "' ", DimsString(filter.shape), " has ",
        group_in, " input channels but input '", input.name(), "' ",
        DimsString(input.shape), " has ", in_c,
        "; the input channel count must be a non-zero multiple of the "
        "filter's (dimension 3)"));
  }
  const int64_t groups = in_c / group_in;
  if (out_c % groups != 0) {
    return ctx.Error(absl::StrCat("filter '", filter.name(), "' ",
                                  DimsString(filter.shape), " has ", out_c,
                                  " output channels, not a multiple of the ",
                                  groups, " groups implied by input '",
                                  input.name(), "' ", DimsString(input.shape)));
  }
  RETURN_IF_ERROR(conv_internal::ExpectFloatBias(ctx, 2, filter, out_c));

  Conv2DState* s = ctx.StateOrNew<Conv2DState>();
  s->batches = input.dim(0);
  s->in_h = input.dim(1);
  s->in_w = input.dim(2);
  s->in_c = in_c;
  s->out_c = out_c;
  s->groups = groups;
  s->group_in = group_in;
  s->group_out = out_c / groups;
  RETURN_IF_ERROR(ComputeConvWindows(ctx, g, input.dim(1), input.dim(2),
                                     filter.dim(1), filter.dim(2), &s->wy,
                                     &s->wx));
  s->act = act;
  s->k = filter.dim(1) * filter.dim(2) * group_in;
  s->direct = filter.dim(1) == 1 && filter.dim(2) == 1 && g.stride_h == 1 &&
              g.stride_w == 1;
  s->plan = conv_internal::PlanGemm(s->batches * s->wy.out * s->wx.out,
                                    s->group_out, s->k);
  s->packed_stride = conv_internal::PackedSize(s->k, s->group_out);
  s->bias_stride = conv_internal::PaddedColumns(s->group_out);
  s->packed.resize(static_cast<size_t>(groups * s->packed_stride));
  s->bias.resize(static_cast<size_t>(groups * s->bias_stride));
  s->weights_ready = filter.is_constant && filter.data != nullptr;
  if (s->weights_ready) PackFilter(*s, filter.Data<float>());
  s->bias_ready =
      bias == nullptr || (bias->is_constant && bias->data != nullptr);
  if (s->bias_ready) {
    PackConvBias(*s, bias == nullptr ? nullptr : bias->Data<float>());
  }
  s->indirect = !s->direct && group_in >= kIndirectMinChannels;
  if (s->indirect) s->zeros.assign(static_cast<size_t>(group_in), 0.0f);
  if (!s->direct && !s->indirect) {
    s->slots.Resize(ctx.pool().num_threads(), s->plan.tile_rows * s->k);
  }
  ctx.SetOutputShape(0, Dims{s->batches, s->wy.out, s->wx.out, out_c});
  return absl::OkStatus();
}

absl::Status EvalConv2D(OpContext& ctx) {
  Conv2DState& s = *ctx.state<Conv2DState>();
  RtTensor& output = *ctx.output(0);
  if (output.NumElements() == 0) return absl::OkStatus();
  if (!s.weights_ready) PackFilter(s, ctx.input(1)->Data<float>());
  if (!s.bias_ready) PackConvBias(s, ctx.input(2)->Data<float>());
  const float* in = ctx.input(0)->Data<float>();
  float* out = output.Data<float>();

  auto a_direct = [&](int64_t g, int64_t row0, int64_t, float*,
                      int64_t* lda) -> const float* {
    *lda = s.in_c;
    return in + row0 * s.in_c + g * s.group_in;
  };
  auto a_im2col = [&](int64_t g, int64_t row0, int64_t rows, float* scratch,
                      int64_t* lda) -> const float* {
    Im2Col(s, in, g, row0, rows, scratch);
    *lda = s.k;
    return scratch;
  };
  // Row pointers for the indirect form: walks (batch, oy, ox) from row0.
  auto fill = [&](int64_t g, int64_t row0, int64_t rows, int block_rows,
                  const float** ptrs) {
    constexpr int kRows = conv_internal::kRowPtrStride;
    const int64_t ow = s.wx.out, oh = s.wy.out;
    const int64_t kh = s.wy.filter, kw = s.wx.filter;
    const int64_t h = s.in_h, w = s.in_w, ch = s.in_c;
    int64_t ox = row0 % ow;
    int64_t oy = (row0 / ow) % oh;
    int64_t bi = row0 / (ow * oh);
    const int64_t in_addr =
        static_cast<int64_t>(reinterpret_cast<uintptr_t>(in + g * s.group_in));
    const int64_t zero_addr =
        static_cast<int64_t>(reinterpret_cast<uintptr_t>(s.zeros.data()));
    // Per row of a block: the window's corner and the address its first
    // tap would have (which may lie outside the input).
    alignas(64) int64_t iy0[kRows] = {}, ix0[kRows] = {}, addr0[kRows] = {};
    for (int64_t i0 = 0; i0 < rows; i0 += block_rows) {
      const int n = static_cast<int>(std::min<int64_t>(block_rows, rows - i0));
      for (int r = 0; r < n; ++r) {
        iy0[r] = oy * s.wy.stride - s.wy.pad;
        ix0[r] = ox * s.wx.stride - s.wx.pad;
        addr0[r] = in_addr + (((bi * h + iy0[r]) * w + ix0[r]) * ch) *
                                 static_cast<int64_t>(sizeof(float));
        if (++ox == ow) {
          ox = 0;
          if (++oy == oh) {
            oy = 0;
            ++bi;
          }
        }
      }
      const float** out = ptrs + (i0 / block_rows) * kh * kw * kRows;
      for (int64_t ky = 0; ky < kh; ++ky) {
        for (int64_t kx = 0; kx < kw; ++kx, out += kRows) {
          const int64_t dy = ky * s.wy.dilation, dx = kx * s.wx.dilation;
          const int64_t toff =
              (dy * w + dx) * ch * static_cast<int64_t>(sizeof(float));
          // Both bounds in one unsigned compare; all kRows slots are
          // written (those past n are never read).
#if defined(__AVX512F__)
          for (int r = 0; r < kRows; r += 8) {
            const __m512i y = _mm512_add_epi64(_mm512_load_si512(iy0 + r),
                                               _mm512_set1_epi64(dy));
            const __m512i x = _mm512_add_epi64(_mm512_load_si512(ix0 + r),
                                               _mm512_set1_epi64(dx));
            const __mmask8 inside =
                _mm512_cmplt_epu64_mask(y, _mm512_set1_epi64(h)) &
                _mm512_cmplt_epu64_mask(x, _mm512_set1_epi64(w));
            const __m512i addr = _mm512_add_epi64(_mm512_load_si512(addr0 + r),
                                                  _mm512_set1_epi64(toff));
            _mm512_storeu_si512(
                out + r, _mm512_mask_blend_epi64(
                             inside, _mm512_set1_epi64(zero_addr), addr));
          }
#else
          for (int r = 0; r < kRows; ++r) {
            const bool inside =
                static_cast<uint64_t>(iy0[r] + dy) < static_cast<uint64_t>(h) &&
                static_cast<uint64_t>(ix0[r] + dx) < static_cast<uint64_t>(w);
            out[r] = reinterpret_cast<const float*>(
                static_cast<uintptr_t>(inside ? addr0[r] + toff : zero_addr));
          }
#endif
        }
      }
    }
  };
  const conv_internal::IndirectA indirect{s.wy.filter * s.wx.filter, s.group_in,
                                          fill};
  auto b = [&](int64_t g) { return s.packed.data() + g * s.packed_stride; };
  auto bias = [&](int64_t g) { return s.bias.data() + g * s.bias_stride; };
  auto c = [&](int64_t g) { return out + g * s.group_out; };
  conv_internal::GemmOperands ops{s.direct ? conv_internal::RowsFn(a_direct)
                                           : conv_internal::RowsFn(a_im2col),
                                  !s.direct && !s.indirect,
                                  b,
                                  bias,
                                  c,
                                  s.out_c,
                                  s.act};
  if (s.indirect) ops.indirect = &indirect;
  conv_internal::RunGemm(ctx.pool(), s.plan, s.groups, ops, &s.slots);
  return absl::OkStatus();
}

}  // namespace qforge::runtime

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "tests/tools/op_property_rows.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ir/model.h"
#include "ir/op_kind.h"
#include "ir/options.h"

namespace qforge::op_property {
namespace {

using testing::OpModel;
constexpr ir::DataType kF32 = ir::DataType::kFloat32;

std::vector<int32_t> Shape4(Gen& g) {
  const int k = g.Size();
  return {1, g.I(1, 6 * k), g.I(1, 6 * k), g.I(1, 5 * k)};
}

int In(OpModel& m, std::vector<int32_t> shape) {
  return m.Input(kF32, std::move(shape));
}
int Out(OpModel& m, std::vector<int32_t> shape) {
  return m.Output(kF32, std::move(shape));
}
int Const(Gen& g, OpModel& m, std::vector<int32_t> shape) {
  size_t n = 1;
  for (int32_t d : shape) n *= d;
  return m.Constant<float>(std::move(shape), g.Values(n));
}
int Ints(OpModel& m, std::vector<int32_t> values) {
  return m.Constant<int32_t>({static_cast<int32_t>(values.size())}, values);
}

ir::Activation Act(Gen& g) {
  switch (g.I(0, 5)) {
    case 0:
      return ir::Activation::kRelu;
    case 1:
      return ir::Activation::kRelu6;
    case 2:
      return ir::Activation::kReluN1To1;
    default:
      return ir::Activation::kNone;
  }
}

void Unary(Gen& g, Case& c, ir::OpKind kind, ir::Options options = {}) {
  std::vector<int32_t> s =
      g.P(0.5) ? Shape4(g) : std::vector<int32_t>{1, g.I(1, 40)};
  const int x = In(c.m, s);
  c.m.Op(kind, {x}, {Out(c.m, s)}, std::move(options));
}

// ADD / SUB / MUL / MAXIMUM / MINIMUM: the second operand is an activation
// or a constant (often a scalar: epsilons, masks, scale factors).
void Binary(Gen& g, Case& c, ir::OpKind kind, ir::Options options) {
  const std::vector<int32_t> s = Shape4(g);
  const int a = In(c.m, s);
  int b;
  if (g.P(0.5)) {
    b = In(c.m, g.P(0.3) ? std::vector<int32_t>{1, 1, 1, s[3]} : s);
  } else if (g.P(0.5)) {
    const float eps = static_cast<float>(std::pow(10.0, g.U(-12, -4)));
    const float v = g.P(0.7) ? eps : (g.P(0.5) ? -3.4e38f : g.Mag());
    b = c.m.Constant<float>({1}, {v});
  } else {
    b = Const(g, c.m, {s[3]});
  }
  const int y = Out(c.m, s);
  c.m.Op(kind,
         g.P(0.5) ? std::vector<int32_t>{a, b} : std::vector<int32_t>{b, a},
         {y}, std::move(options));
}

// Conv inputs {x, w} or {x, w, b}.
std::vector<int32_t> Operands(int x, int w, int b) {
  if (b < 0) return {x, w};
  return {x, w, b};
}

void Conv(Gen& g, Case& c, bool depthwise) {
  const int k = g.Size();
  const int h = g.I(1, 6 * k), w = g.I(1, 6 * k), ci = g.I(1, 4 * k);
  const int kh = g.I(1, 3), kw = g.I(1, 3);
  const int x = In(c.m, {1, h, w, ci});
  const bool valid = g.P(0.5) && kh <= h && kw <= w;
  const int oh = valid ? h - kh + 1 : h, ow = valid ? w - kw + 1 : w;
  const ir::Padding pad = valid ? ir::Padding::kValid : ir::Padding::kSame;
  if (depthwise) {
    const int mult = g.I(1, 2);
    const int co = ci * mult;
    const int wt = Const(g, c.m, {1, kh, kw, co});
    const int b = g.P(0.8) ? Const(g, c.m, {co}) : -1;
    ir::DepthwiseConv2DOptions o;
    o.padding = pad;
    o.stride_w = o.stride_h = 1;
    o.depth_multiplier = mult;
    o.activation = Act(g);
    // No bias: two inputs. LiteRT's float kernels refuse a -1 bias
    // ("optional but was expected"), so a conv kept float would fail.
    c.m.Op(ir::OpKind::kDepthwiseConv2D, Operands(x, wt, b),
           {Out(c.m, {1, oh, ow, co})}, o);
  } else {
    const int co = g.I(1, 5 * k);
    const int wt = Const(g, c.m, {co, kh, kw, ci});
    // LiteRT's float CONV_2D requires a bias (conv.cc: has_bias), and a
    // conv kept float stays float.
    const int b = Const(g, c.m, {co});
    ir::Conv2DOptions o;
    o.padding = pad;
    o.stride_w = o.stride_h = 1;
    o.activation = Act(g);
    c.m.Op(ir::OpKind::kConv2D, Operands(x, wt, b), {Out(c.m, {1, oh, ow, co})},
           o);
  }
}

void FullyConnected(Gen& g, Case& c) {
  const int n = g.I(1, 16 * g.Size()), k = g.I(1, 8 * g.Size());
  const int x = In(c.m, {1, n});
  const int w = Const(g, c.m, {k, n});
  const int b = g.P(0.8) ? Const(g, c.m, {k}) : -1;
  ir::FullyConnectedOptions o;
  o.activation = Act(g);
  c.m.Op(ir::OpKind::kFullyConnected, {x, w, b}, {Out(c.m, {1, k})}, o);
}

void TransposeConv(Gen& g, Case& c) {
  const int h = g.I(1, 4), w = g.I(1, 4), ci = g.I(1, 3), co = g.I(1, 3);
  const int k = g.I(1, 3), stride = g.I(1, 2);
  const int oh = h * stride, ow = w * stride;
  const int shape = Ints(c.m, {1, oh, ow, co});
  const int wt = Const(g, c.m, {co, k, k, ci});
  const int x = In(c.m, {1, h, w, ci});
  const int b = g.P(0.5) ? Const(g, c.m, {co}) : -1;
  ir::TransposeConvOptions o;
  o.padding = ir::Padding::kSame;
  o.stride_w = o.stride_h = stride;
  c.m.Op(ir::OpKind::kTransposeConv, {shape, wt, x, b},
         {Out(c.m, {1, oh, ow, co})}, o);
}

void BatchMatMul(Gen& g, Case& c) {
  const int m = g.I(1, 5), k = g.I(1, 6), n = g.I(1, 5);
  const int a = In(c.m, {1, m, k});
  const int b = g.P(0.5) ? In(c.m, {1, k, n}) : Const(g, c.m, {1, k, n});
  c.m.Op(ir::OpKind::kBatchMatMul, {a, b}, {Out(c.m, {1, m, n})},
         ir::BatchMatMulOptions{});
}

void Pool(Gen& g, Case& c, ir::OpKind kind) {
  const int h = g.I(1, 6), w = g.I(1, 6), ch = g.I(1, 4);
  const int f = g.I(1, std::min(3, std::min(h, w)));
  const int x = In(c.m, {1, h, w, ch});
  ir::Pool2DOptions o;
  o.padding = ir::Padding::kValid;
  o.stride_w = o.stride_h = 1;
  o.filter_width = o.filter_height = f;
  o.activation = Act(g);
  c.m.Op(kind, {x}, {Out(c.m, {1, h - f + 1, w - f + 1, ch})}, o);
}

void Mean(Gen& g, Case& c) {
  const std::vector<int32_t> s = Shape4(g);
  const int x = In(c.m, s);
  ir::ReducerOptions o;
  o.keep_dims = true;
  c.m.Op(ir::OpKind::kMean, {x, Ints(c.m, {1, 2})}, {Out(c.m, {1, 1, 1, s[3]})},
         o);
}

void Concat(Gen& g, Case& c, bool pack) {
  const int n = g.I(2, 3);
  const std::vector<int32_t> s = {1, g.I(1, 4), g.I(1, 4)};
  std::vector<int32_t> ins;
  // Input 0 an activation: a model without inputs is all constants, and
  // LiteRT.js returns an unwritten output buffer for it.
  for (int i = 0; i < n; ++i) {
    ins.push_back(i == 0 || g.P(0.8) ? In(c.m, s) : Const(g, c.m, s));
  }
  if (pack) {
    ir::PackOptions o;
    o.values_count = n;
    o.axis = 0;
    c.m.Op(ir::OpKind::kPack, ins, {Out(c.m, {n, 1, s[1], s[2]})}, o);
  } else {
    ir::ConcatenationOptions o;
    o.axis = 2;
    c.m.Op(ir::OpKind::kConcatenation, ins, {Out(c.m, {1, s[1], s[2] * n})}, o);
  }
}

void Movement(Gen& g, Case& c, ir::OpKind kind) {
  const int a = g.I(1, 4), b = g.I(1, 4), d = g.I(1, 4);
  switch (kind) {
    case ir::OpKind::kReshape: {
      const int x = In(c.m, {1, a, b, d});
      ir::ReshapeOptions o;
      o.new_shape = {1, a * b * d};
      c.m.Op(kind, {x, Ints(c.m, {1, a * b * d})}, {Out(c.m, {1, a * b * d})},
             o);
      return;
    }
    case ir::OpKind::kTranspose: {
      const int x = In(c.m, {1, a, b, d});
      c.m.Op(kind, {x, Ints(c.m, {0, 3, 1, 2})}, {Out(c.m, {1, d, a, b})});
      return;
    }
    case ir::OpKind::kPad: {
      const int x = In(c.m, {1, a, b, d});
      const int pads = c.m.Constant<int32_t>({4, 2}, {0, 0, 1, 1, 0, 2, 0, 0});
      c.m.Op(kind, {x, pads}, {Out(c.m, {1, a + 2, b + 2, d})});
      return;
    }
    case ir::OpKind::kSlice: {
      const int x = In(c.m, {1, a + 1, b, d});
      c.m.Op(kind, {x, Ints(c.m, {0, 1, 0, 0}), Ints(c.m, {1, a, b, d})},
             {Out(c.m, {1, a, b, d})});
      return;
    }
    case ir::OpKind::kGather: {
      const int x = In(c.m, {a + 1, b});
      ir::GatherOptions o;
      o.axis = 0;
      c.m.Op(kind, {x, Ints(c.m, {a, 0})}, {Out(c.m, {2, b})}, o);
      return;
    }
    case ir::OpKind::kSpaceToDepth: {
      const int x = In(c.m, {1, 2 * a, 2 * b, d});
      ir::BlockSizeOptions o;
      o.block_size = 2;
      o.is_space_to_depth = true;
      c.m.Op(kind, {x}, {Out(c.m, {1, a, b, 4 * d})}, o);
      return;
    }
    case ir::OpKind::kMatrixSetDiag: {
      // d matrices of a x b; the diagonal an activation or a constant.
      const int x = In(c.m, {d, a, b});
      const std::vector<int32_t> ds = {d, std::min(a, b)};
      const int diag = g.P(0.7) ? In(c.m, ds) : Const(g, c.m, ds);
      c.m.Op(kind, {x, diag}, {Out(c.m, {d, a, b})});
      return;
    }
    case ir::OpKind::kResizeBilinear:
    case ir::OpKind::kResizeNearestNeighbor: {
      const int x = In(c.m, {1, a, b, d});
      ir::ResizeOptions o;
      o.is_nearest = kind == ir::OpKind::kResizeNearestNeighbor;
      o.half_pixel_centers = g.P(0.5);
      c.m.Op(kind, {x, Ints(c.m, {2 * a, 2 * b})},
             {Out(c.m, {1, 2 * a, 2 * b, d})}, o);
      return;
    }
    default:
      return;
  }
}

// A random shape of rank lo..hi with dimensions 1..max_dim.
std::vector<int32_t> RandomShape(Gen& g, int lo, int hi, int max_dim = 5) {
  std::vector<int32_t> s(static_cast<size_t>(g.I(lo, hi)));
  for (int32_t& d : s) d = g.I(1, max_dim);
  return s;
}

// `axis` in [0, rank) written as itself or as axis - rank.
int32_t SignedAxis(Gen& g, int axis, int rank) {
  return g.P(0.5) ? axis : axis - rank;
}

// PRELU: the slope a constant or an activation, of the input's shape or
// broadcast to it (activations.cc PreluPrepare / BroadcastPrelu4DSlow): per
// channel ([C], [1, 1, C], [1, 1, 1, C]), per position without batch
// ([H, W, C]), a scalar ([1]) or of the full shape.
void Prelu(Gen& g, Case& c) {
  const std::vector<int32_t> s =
      g.P(0.7) ? Shape4(g) : std::vector<int32_t>{1, g.I(1, 6), g.I(1, 6)};
  const int32_t ch = s.back();
  std::vector<int32_t> as;
  switch (g.I(0, 5)) {
    case 0:
      as = {ch};
      break;
    case 1:
      as = {1, 1, ch};
      break;
    case 2:
      as = std::vector<int32_t>(s.size(), 1);
      as.back() = ch;
      break;
    case 3:
      as = std::vector<int32_t>(s.begin() + 1, s.end());
      break;
    case 4:
      as = {1};
      break;
    default:
      as = s;
      break;
  }
  const int x = In(c.m, s);
  int alpha;
  if (g.P(0.7)) {
    // Slopes as models have them (in [-0.5, 1)), or any values.
    size_t n = 1;
    for (int32_t d : as) n *= d;
    std::vector<float> v = g.Values(n);
    if (g.P(0.6)) {
      for (float& a : v) a = static_cast<float>(g.U(-0.5, 1.0));
    }
    alpha = c.m.Constant<float>(as, v);
  } else {
    alpha = In(c.m, as);
  }
  c.m.Op(ir::OpKind::kPrelu, {x, alpha}, {Out(c.m, s)});
}

// SPLIT into 1..4 equal parts along a random axis (negative half the time,
// split.cc adds the rank), the axis a constant scalar or [1].
void Split(Gen& g, Case& c) {
  std::vector<int32_t> s = RandomShape(g, 1, 4);
  const int rank = static_cast<int>(s.size());
  const int axis = g.I(0, rank - 1);
  const int n = g.I(1, 4);
  s[axis] = n * g.I(1, 3);
  const int32_t a = SignedAxis(g, axis, rank);
  const int ax = g.P(0.5) ? c.m.Constant<int32_t>({}, {a})
                          : c.m.Constant<int32_t>({1}, {a});
  const int x = In(c.m, s);
  std::vector<int32_t> part = s;
  part[axis] = s[axis] / n;
  std::vector<int32_t> outs;
  for (int i = 0; i < n; ++i) outs.push_back(Out(c.m, part));
  ir::SplitOptions o;
  o.num_splits = n;
  c.m.Op(ir::OpKind::kSplit, {ax, x}, outs, o);
}

// SQUEEZE: some unit dimensions named (positive or negative), or none
// (every unit dimension goes: squeeze.cc Prepare).
void Squeeze(Gen& g, Case& c) {
  std::vector<int32_t> s = RandomShape(g, 2, 5, 4);
  const int rank = static_cast<int>(s.size());
  for (int32_t& d : s) {
    if (g.P(0.5)) d = 1;
  }
  s[g.I(0, rank - 1)] = g.I(2, 4);  // keep the output rank >= 1
  ir::SqueezeOptions o;
  std::vector<int32_t> out;
  const bool all = g.P(0.3);
  for (int i = 0; i < rank; ++i) {
    const bool drop = s[i] == 1 && (all || g.P(0.6));
    if (drop && !all) o.squeeze_dims.push_back(SignedAxis(g, i, rank));
    if (!drop) out.push_back(s[i]);
  }
  if (!all && o.squeeze_dims.empty()) {  // nothing named: every unit goes
    out.clear();
    for (int32_t d : s) {
      if (d != 1) out.push_back(d);
    }
  }
  c.m.Op(ir::OpKind::kSqueeze, {In(c.m, s)}, {Out(c.m, out)}, o);
}

// STRIDED_SLICE: per axis a stride in {-2, -1, 1, 2, 3}, a start and a
// non-empty count, written with begin / end masks, negative indices,
// out-of-range ends (clamped) or shrink-axis bits; begin/end/strides
// sometimes shorter than the rank (the rest taken whole). Indices follow
// strided_slice_logic.h (StartForAxis / StopForAxis): a negative index
// wraps once, then clamps to [0, size] (stride > 0) or [-1, size - 1].
void StridedSlice(Gen& g, Case& c) {
  const std::vector<int32_t> s = RandomShape(g, 1, 4, 6);
  const int rank = static_cast<int>(s.size());
  const int count = g.P(0.8) ? rank : g.I(1, rank);
  ir::StridedSliceOptions o;
  std::vector<int32_t> begin, end, strides, out;
  bool kept = false;
  for (int i = 0; i < count; ++i) {
    const int d = s[i];
    const bool last_can_shrink = kept || i + 1 < count || count < rank;
    if (g.P(0.15) && last_can_shrink) {
      const int start = g.I(0, d - 1);
      o.shrink_axis_mask |= 1 << i;
      begin.push_back(g.P(0.5) ? start : start - d);
      end.push_back(g.P(0.5) ? start + 1 : g.I(-3, 3));
      strides.push_back(1);
      continue;
    }
    const int st = std::vector<int>{-2, -1, 1, 1, 1, 2, 3}[g.I(0, 6)];
    const int start = g.I(0, d - 1);
    const int room = st > 0 ? (d - 1 - start) / st + 1 : start / (-st) + 1;
    const int n = g.I(1, room);
    // Any stop past the n-th element and not past the (n+1)-th.
    const int first_stop =
        st > 0 ? start + (n - 1) * st + 1 : start + (n - 1) * st - 1;
    const int last_stop =
        st > 0 ? std::min(start + n * st, d) : std::max(start + n * st, -1);
    const int stop =
        st > 0 ? g.I(first_stop, last_stop) : g.I(last_stop, first_stop);
    const bool whole_begin = start == (st > 0 ? 0 : d - 1);
    if (whole_begin && g.P(0.4)) {
      o.begin_mask |= 1 << i;
      begin.push_back(g.I(-9, 9));  // ignored
    } else {
      begin.push_back(g.P(0.5) ? start : start - d);
    }
    const bool whole_end = stop == (st > 0 ? d : -1);
    if (whole_end && g.P(0.4)) {
      o.end_mask |= 1 << i;
      end.push_back(g.I(-9, 9));  // ignored
    } else if (stop == -1) {
      end.push_back(-d - g.I(1, 3));  // below -size: clamped to -1
    } else if (stop == d) {
      end.push_back(d + g.I(0, 3));  // past the end: clamped
    } else {
      end.push_back(g.P(0.5) ? stop : stop - d);
    }
    strides.push_back(st);
    out.push_back(n);
    kept = true;
  }
  for (int i = count; i < rank; ++i) out.push_back(s[i]);
  const int x = In(c.m, s);
  c.m.Op(ir::OpKind::kStridedSlice,
         {x, Ints(c.m, begin), Ints(c.m, end), Ints(c.m, strides)},
         {Out(c.m, out)}, o);
}

// UNPACK along a random axis (negative half the time: unpack.cc adds the
// rank) of a rank 2..4 input.
void Unpack(Gen& g, Case& c) {
  const std::vector<int32_t> s = RandomShape(g, 2, 4, 4);
  const int rank = static_cast<int>(s.size());
  const int axis = g.I(0, rank - 1);
  std::vector<int32_t> part = s;
  part.erase(part.begin() + axis);
  const int x = In(c.m, s);
  std::vector<int32_t> outs;
  for (int i = 0; i < s[axis]; ++i) outs.push_back(Out(c.m, part));
  ir::UnpackOptions o;
  o.num = s[axis];
  o.axis = SignedAxis(g, axis, rank);
  c.m.Op(ir::OpKind::kUnpack, {x}, outs, o);
}

// EXPAND_DIMS at any position of a rank 1..4 input, the axis in
// [-rank - 1, rank] (expand_dims.cc adds rank + 1 to a negative one), a
// constant scalar or [1].
void ExpandDims(Gen& g, Case& c) {
  const std::vector<int32_t> s = RandomShape(g, 1, 4);
  const int rank = static_cast<int>(s.size());
  const int axis = g.I(0, rank);
  const int32_t a = g.P(0.5) ? axis : axis - rank - 1;
  std::vector<int32_t> out = s;
  out.insert(out.begin() + axis, 1);
  const int ax = g.P(0.5) ? c.m.Constant<int32_t>({}, {a})
                          : c.m.Constant<int32_t>({1}, {a});
  c.m.Op(ir::OpKind::kExpandDims, {In(c.m, s), ax}, {Out(c.m, out)});
}

// DEPTH_TO_SPACE with block size 1..3.
void DepthToSpace(Gen& g, Case& c) {
  const int b = g.P(0.1) ? 1 : g.I(2, 3);
  const int h = g.I(1, 4), w = g.I(1, 4), ch = g.I(1, 3);
  const int x = In(c.m, {1, h, w, b * b * ch});
  ir::BlockSizeOptions o;
  o.block_size = b;
  o.is_space_to_depth = false;
  c.m.Op(ir::OpKind::kDepthToSpace, {x}, {Out(c.m, {1, h * b, w * b, ch})}, o);
}

}  // namespace

std::vector<OpRow> Rows() {
  using K = ir::OpKind;
  auto unary = [](K k) { return [k](Gen& g, Case& c) { Unary(g, c, k); }; };
  auto movement = [](K k) {
    return [k](Gen& g, Case& c) { Movement(g, c, k); };
  };
  return {
      {"CONV_2D", [](Gen& g, Case& c) { Conv(g, c, false); }},
      {"DEPTHWISE_CONV_2D", [](Gen& g, Case& c) { Conv(g, c, true); }},
      {"FULLY_CONNECTED", FullyConnected},
      {"TRANSPOSE_CONV", TransposeConv},
      {"BATCH_MATMUL", BatchMatMul},
      {"ADD",
       [](Gen& g, Case& c) {
         Binary(g, c, K::kAdd, ir::AddSubOptions{Act(g), true, false});
       }},
      {"SUB",
       [](Gen& g, Case& c) {
         Binary(g, c, K::kSub, ir::AddSubOptions{Act(g), true, true});
       }},
      {"MUL",
       [](Gen& g, Case& c) {
         ir::ActivationOptions o;
         o.activation = Act(g);
         Binary(g, c, K::kMul, o);
       }},
      {"MAXIMUM", [](Gen& g, Case& c) { Binary(g, c, K::kMaximum, {}); }},
      {"MINIMUM", [](Gen& g, Case& c) { Binary(g, c, K::kMinimum, {}); }},
      {"MEAN", Mean},
      {"RELU", unary(K::kRelu)},
      {"RELU6", unary(K::kRelu6)},
      {"RELU_N1_TO_1", unary(K::kReluN1To1)},
      {"HARD_SWISH", unary(K::kHardSwish)},
      {"LEAKY_RELU",
       [](Gen& g, Case& c) {
         ir::LeakyReluOptions o;
         o.alpha = static_cast<float>(g.U(0.0, 1.0));
         Unary(g, c, K::kLeakyRelu, o);
       }},
      {"RSQRT", unary(K::kRsqrt)},
      {"LOGISTIC", unary(K::kLogistic)},
      {"TANH", unary(K::kTanh)},
      {"SOFTMAX",
       [](Gen& g, Case& c) {
         ir::SoftmaxOptions o;
         o.beta = static_cast<float>(std::pow(10.0, g.U(-2, 2)));
         Unary(g, c, K::kSoftmax, o);
       }},
      {"AVERAGE_POOL_2D",
       [](Gen& g, Case& c) { Pool(g, c, K::kAveragePool2D); }},
      {"MAX_POOL_2D", [](Gen& g, Case& c) { Pool(g, c, K::kMaxPool2D); }},
      {"CONCATENATION", [](Gen& g, Case& c) { Concat(g, c, false); }},
      {"PACK", [](Gen& g, Case& c) { Concat(g, c, true); }},
      {"RESHAPE", movement(K::kReshape)},
      {"TRANSPOSE", movement(K::kTranspose)},
      {"PAD", movement(K::kPad)},
      {"SLICE", movement(K::kSlice)},
      {"GATHER", movement(K::kGather)},
      {"SPACE_TO_DEPTH", movement(K::kSpaceToDepth)},
      {"RESIZE_BILINEAR", movement(K::kResizeBilinear)},
      {"RESIZE_NEAREST_NEIGHBOR", movement(K::kResizeNearestNeighbor)},
      {"MATRIX_SET_DIAG", movement(K::kMatrixSetDiag)},
      {"PRELU", Prelu},
      {"SPLIT", Split},
      {"SQUEEZE", Squeeze},
      {"STRIDED_SLICE", StridedSlice},
      {"UNPACK", Unpack},
      {"EXPAND_DIMS", ExpandDims},
      {"DEPTH_TO_SPACE", DepthToSpace},
      {"RELU_0_TO_1", unary(K::kRelu0To1)},
      // Plain ranges: XNNPACK and TFLite's builtin kernels round these
      // differently, so LiteRT's outputs show the fast-path prediction right
      // or wrong (adversarial ranges mostly saturate both alike).
      {"CONV_2D+plain", [](Gen& g, Case& c) { Conv(g, c, false); }, true},
      {"DEPTHWISE_CONV_2D+plain", [](Gen& g, Case& c) { Conv(g, c, true); },
       true},
      {"FULLY_CONNECTED+plain", FullyConnected, true},
      {"ADD+plain",
       [](Gen& g, Case& c) {
         Binary(g, c, K::kAdd, ir::AddSubOptions{Act(g), true, false});
       },
       true},
  };
}

}  // namespace qforge::op_property

#!/usr/bin/python3
"""Minimal TFLite -> ONNX converter for the ORT anchor (CPU timing and cross-checks).

Usage:  convert.py MODEL.tflite -o OUT.onnx [--opset 13] [--no-fold-pad] [--keep-s8]

* Graph inputs/outputs keep TFLite's NHWC layout and dtypes (the same .npy feeds every engine);
  inside, 4-D activations are NCHW, with Transposes only where a layout-sensitive op meets a
  tensor in the other layout (normally only at the graph boundary).
* int8/uint8 tensors become QDQ: each quantized activation is an integer tensor; every float op
  reads it through its own DequantizeLinear and writes it through QuantizeLinear. int8 activations
  are stored as uint8 (q + 128, same scale: exact), the form ORT fuses on x86; int8 graph inputs and
  outputs convert at the boundary (--keep-s8: keep int8 throughout). Weights are
  integer initializers + DequantizeLinear (per-channel scales on axis 0 of OIHW weights), int32
  bias is DequantizeLinear(bias, s_in * s_w[c]). ORT fuses these into QLinearConv / QGemm / ...
  Layout-only ops (RESHAPE, SQUEEZE, the boundary Transposes, PAD) move the integer tensor itself.
* A fused activation that the output quantization range already implies (RELU with zero point
  = qmin, RELU6 with 6 >= the top of the range) is left out, as TFLite's int8 kernels make it a
  no-op; otherwise it is emitted as a float Relu/Clip before QuantizeLinear.
* SHAPE / STRIDED_SLICE / PACK on static shapes (batch pinned to 1) are folded to constants.
* PAD (constant, spatial only) feeding a VALID conv is folded into that op's pads.

Ops: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, ADD, MUL, AVERAGE_POOL_2D, MAX_POOL_2D, MEAN,
RESHAPE, SQUEEZE, SOFTMAX, PAD, RELU, RELU6, LOGISTIC, CONCATENATION, QUANTIZE, DEQUANTIZE,
SHAPE, STRIDED_SLICE, PACK. Anything else fails with a clear error.
Prints one JSON line (inputs/outputs with quantization, op histogram, folded ops).
"""
import argparse
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("TFLITE_GEN", os.path.join(_HERE, "gen")))
from tflite.Model import Model, ModelT  # noqa: E402
from tflite.BuiltinOperator import BuiltinOperator  # noqa: E402
from tflite.TensorType import TensorType  # noqa: E402

OPNAME = {v: k for k, v in vars(BuiltinOperator).items() if not k.startswith("_")}
NP = {TensorType.FLOAT32: np.float32, TensorType.INT32: np.int32, TensorType.UINT8: np.uint8,
      TensorType.INT64: np.int64, TensorType.INT16: np.int16, TensorType.INT8: np.int8,
      TensorType.FLOAT16: np.float16, TensorType.BOOL: np.bool_}
ONNX_T = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.int32): TensorProto.INT32,
          np.dtype(np.uint8): TensorProto.UINT8, np.dtype(np.int8): TensorProto.INT8,
          np.dtype(np.int64): TensorProto.INT64, np.dtype(np.int16): TensorProto.INT16,
          np.dtype(np.float16): TensorProto.FLOAT16, np.dtype(np.bool_): TensorProto.BOOL}
QTYPES = (np.dtype(np.int8), np.dtype(np.uint8))
NHWC2NCHW = [0, 3, 1, 2]
NCHW2NHWC = [0, 2, 3, 1]
ACT = {0: None, 1: "RELU", 2: "RELU_N1_TO_1", 3: "RELU6", 4: "TANH"}


class ConvertError(Exception):
    pass


class Val:
    """What the converter knows about one TFLite tensor."""

    def __init__(self, idx, t, data):
        self.idx = idx
        self.name = t.name.decode() if isinstance(t.name, bytes) else (t.name or f"t{idx}")
        self.dtype = np.dtype(NP[t.type])
        self.shape = [int(d) for d in (t.shape if t.shape is not None else [])]
        self.const = data                 # numpy array (TFLite layout) or None
        q = t.quantization
        self.q = None
        if q is not None and q.scale is not None and len(q.scale) > 0 and self.dtype != np.float32:
            zp = q.zeroPoint if q.zeroPoint is not None and len(q.zeroPoint) else [0] * len(q.scale)
            self.q = (np.asarray(q.scale, np.float32), np.asarray(zp, np.int64), int(q.quantizedDimension))
        self.u8 = False                   # int8 activation stored as uint8 (q + 128, same scale)
        self.onnx = None                  # ONNX value name (integer tensor if quantized activation)
        self.nchw = False                 # onnx value is the NCHW permutation of the TFLite tensor
        self.alt = {}                     # cached other-layout names


class Converter:
    def __init__(self, path, opset=13, fold_pad=True, act_u8=True):
        buf = open(path, "rb").read()
        self.m = ModelT.InitFromObj(Model.GetRootAs(buf, 0))
        if len(self.m.subgraphs) != 1:
            raise ConvertError(f"{len(self.m.subgraphs)} subgraphs; only 1 is supported")
        self.g = self.m.subgraphs[0]
        self.opset = opset
        self.fold_pad = fold_pad
        self.act_u8 = act_u8
        self.nodes, self.inits, self.uid = [], [], 0
        self.hist, self.folded, self.notes = {}, [], []
        self.vals = []
        for i, t in enumerate(self.g.tensors):
            b = self.m.buffers[t.buffer] if t.buffer < len(self.m.buffers) else None
            data = None
            if b is not None and b.data is not None and len(b.data) > 0:
                data = np.frombuffer(bytes(np.asarray(b.data, np.uint8)), dtype=NP[t.type]).reshape(
                    [int(d) for d in t.shape] if t.shape is not None else [])
            self.vals.append(Val(i, t, data))
        # consumers, for PAD folding
        self.consumers = {}
        for k, op in enumerate(self.g.operators):
            for i in (op.inputs if op.inputs is not None else []):
                if i >= 0:
                    self.consumers.setdefault(int(i), []).append(k)

    # ---------------------------------------------------------------- helpers
    def fresh(self, base):
        self.uid += 1
        return f"{base}__{self.uid}"

    def node(self, op, inputs, outputs=None, name=None, domain=None, **attrs):
        outputs = outputs or [self.fresh(op)]
        n = helper.make_node(op, inputs, outputs, name=name or self.fresh("n_" + op), **attrs)
        if domain:
            n.domain = domain
        self.nodes.append(n)
        return outputs[0]

    def init(self, arr, base="c"):
        name = self.fresh(base)
        arr = np.asarray(arr)  # (np.ascontiguousarray would turn a scalar into shape [1])
        self.inits.append(numpy_helper.from_array(arr.copy(order="C"), name))
        return name

    def qparams(self, v, axis_map=None):
        """(scale_name, zp_name, axis) initializers for a quantized value."""
        s, z, qd = v.q
        zdt = np.int32 if v.dtype == np.int32 else v.dtype
        if v.u8:
            z, zdt = z + 128, np.uint8
        if len(s) == 1:
            return self.init(np.float32(s[0]), "scale"), self.init(np.asarray(z[0], zdt), "zp"), None
        axis = axis_map(qd) if axis_map else qd
        return self.init(s, "scale"), self.init(z.astype(zdt), "zp"), axis

    def dq(self, name, v, axis_map=None):
        s, z, axis = self.qparams(v, axis_map)
        kw = {"axis": axis} if axis is not None else {}
        return self.node("DequantizeLinear", [name, s, z], **kw)

    def is_q(self, v):
        return v.q is not None and v.dtype in QTYPES

    def materialize(self, v):
        """Give a constant (folded or stored) an ONNX name, TFLite layout."""
        if v.onnx is None:
            if v.const is None:
                raise ConvertError(f"tensor {v.name} used before it is produced")
            v.onnx = self.init(v.const, "const")
            v.nchw = False
        return v.onnx

    def layout(self, v, nchw):
        """ONNX name of v in the requested layout (integer tensor stays integer)."""
        self.materialize(v)
        if len(v.shape) != 4 or v.nchw == nchw:
            return v.onnx
        key = "nchw" if nchw else "nhwc"
        if key not in v.alt:
            if v.const is not None and v.onnx.startswith("const"):
                v.alt[key] = self.init(np.transpose(v.const, NHWC2NCHW if nchw else NCHW2NHWC), "const")
            else:
                v.alt[key] = self.node("Transpose", [v.onnx], perm=NHWC2NCHW if nchw else NCHW2NHWC)
        return v.alt[key]

    def fin(self, v, nchw):
        """Float input of an op: DequantizeLinear (one per consumer) of the integer tensor."""
        name = self.layout(v, nchw)
        if self.is_q(v):
            return self.dq(name, v)
        if v.dtype != np.float32:
            raise ConvertError(f"tensor {v.name}: {v.dtype} input without quantization")
        return name

    def fout(self, v, fname, nchw, act=None):
        """Bind float result fname (plus fused activation) to TFLite tensor v (QuantizeLinear if quantized)."""
        if act is not None and not (self.is_q(v) and self.act_implied(v, act)):
            if act == "RELU":
                fname = self.node("Relu", [fname])
            elif act == "RELU6":
                fname = self.node("Clip", [fname, self.init(np.float32(0)), self.init(np.float32(6))])
            elif act == "RELU_N1_TO_1":
                fname = self.node("Clip", [fname, self.init(np.float32(-1)), self.init(np.float32(1))])
            elif act == "TANH":
                fname = self.node("Tanh", [fname])
            else:
                raise ConvertError(f"fused activation {act}")
        if self.is_q(v):
            if len(v.q[0]) != 1:
                raise ConvertError(f"per-channel quantized activation {v.name}")
            s, z, _ = self.qparams(v)
            fname = self.node("QuantizeLinear", [fname, s, z])
        v.onnx, v.nchw = fname, (nchw and len(v.shape) == 4)

    def act_implied(self, v, act):
        s, z = float(v.q[0][0]), int(v.q[1][0])
        qmin, qmax = (-128, 127) if v.dtype == np.int8 else (0, 255)
        lo_ok = z <= qmin if act in ("RELU", "RELU6") else (z + round(-1 / s) <= qmin)
        if act == "RELU":
            return lo_ok
        if act == "RELU6":
            return lo_ok and z + round(6 / s) >= qmax
        if act == "RELU_N1_TO_1":
            return lo_ok and z + round(1 / s) >= qmax
        return False

    def same_q(self, a, b):
        return (self.is_q(a) and self.is_q(b) and a.dtype == b.dtype and a.u8 == b.u8 and len(a.q[0]) == 1 and len(b.q[0]) == 1
                and np.float32(a.q[0][0]) == np.float32(b.q[0][0]) and a.q[1][0] == b.q[1][0])

    def passthrough(self, vi, vo):
        """Layout-only op on an integer tensor with identical in/out quantization: no Q/DQ."""
        return self.same_q(vi, vo) or (vi.q is None and vo.q is None)

    @staticmethod
    def same_pads(n_in, k, stride, dil):
        eff = (k - 1) * dil + 1
        out = (n_in + stride - 1) // stride
        total = max((out - 1) * stride + eff - n_in, 0)
        return total // 2, total - total // 2

    def conv_pads(self, opt, in_hw, k_hw):
        if opt.padding == 1:  # VALID
            return [0, 0, 0, 0]
        dh = getattr(opt, "dilationHFactor", 1) or 1
        dw = getattr(opt, "dilationWFactor", 1) or 1
        t, b = self.same_pads(in_hw[0], k_hw[0], opt.strideH, dh)
        l, r = self.same_pads(in_hw[1], k_hw[1], opt.strideW, dw)
        return [t, l, b, r]

    def pad_source(self, xi):
        """If tensor xi comes from a foldable PAD, return (pad_input_val, [t,l,b,r])."""
        if not self.fold_pad:
            return None
        prod = self.producer.get(xi)
        if prod is None:
            return None
        op = self.g.operators[prod]
        if OPNAME.get(self.opcode(op)) not in ("PAD", "PADV2") or len(self.consumers.get(xi, [])) != 1:
            return None
        p = self.vals[op.inputs[1]].const
        if p is None or p.shape != (4, 2) or p[0].any() or p[3].any() or (p < 0).any():
            return None
        vin, vout = self.vals[op.inputs[0]], self.vals[xi]
        if len(op.inputs) > 2 and op.inputs[2] >= 0:
            cv = self.vals[op.inputs[2]].const
            zero = vin.q[1][0] if self.is_q(vin) else 0
            if cv is None or np.any(cv.astype(np.int64) != zero):
                return None
        if not (self.passthrough(vin, vout) and (self.is_q(vin) or vin.dtype == np.float32)):
            return None
        return vin, [int(p[1, 0]), int(p[2, 0]), int(p[1, 1]), int(p[2, 1])]

    def opcode(self, op):
        oc = self.m.operatorCodes[op.opcodeIndex]
        return max(oc.builtinCode, oc.deprecatedBuiltinCode)

    # ---------------------------------------------------------------- ops
    def op_conv(self, op, opt, depthwise):
        xi, wi = int(op.inputs[0]), int(op.inputs[1])
        bi = int(op.inputs[2]) if len(op.inputs) > 2 else -1
        x, w, y = self.vals[xi], self.vals[wi], self.vals[int(op.outputs[0])]
        if w.const is None:
            raise ConvertError("non-constant conv weights")
        extra = [0, 0, 0, 0]
        if opt.padding == 1:
            ps = self.pad_source(xi)
            if ps is not None:
                x, extra = ps
                self.folded.append(f"PAD->{'DEPTHWISE_' if depthwise else ''}CONV_2D")
        if depthwise:
            # TFLite [1, KH, KW, C*M] -> ONNX [C*M, 1, KH, KW], group = C
            kh, kw, cm = w.shape[1], w.shape[2], w.shape[3]
            wt = np.transpose(w.const, (3, 0, 1, 2))
            group = x.shape[3]
            waxis = {3: 0}
        else:
            kh, kw = w.shape[1], w.shape[2]
            wt = np.transpose(w.const, (0, 3, 1, 2))
            group = 1
            waxis = {0: 0}
        in_hw = (x.shape[1] + extra[0] + extra[2], x.shape[2] + extra[1] + extra[3])
        pads = self.conv_pads(opt, in_hw, (kh, kw))
        pads = [pads[0] + extra[0], pads[1] + extra[1], pads[2] + extra[2], pads[3] + extra[3]]
        xin = self.fin(x, True)
        wname = self.init(wt, "w")
        if self.is_q(w):
            wname = self.dq(wname, w, axis_map=lambda d: waxis.get(d, 0))
        ins = [xin, wname]
        if bi >= 0:
            b = self.vals[bi]
            if b.const is None:
                raise ConvertError("non-constant bias")
            bname = self.init(b.const, "b")
            if b.q is not None and b.dtype in (np.dtype(np.int32), np.dtype(np.int64)):
                bname = self.dq(bname, b, axis_map=lambda d: 0)
            ins.append(bname)
        attrs = dict(pads=pads, strides=[opt.strideH, opt.strideW], kernel_shape=[kh, kw], group=group,
                     dilations=[opt.dilationHFactor or 1, opt.dilationWFactor or 1])
        out = self.node("Conv", ins, **attrs)
        self.fout(y, out, True, ACT[opt.fusedActivationFunction])

    def op_pool(self, op, opt, kind):
        xi = int(op.inputs[0])
        x, y = self.vals[xi], self.vals[int(op.outputs[0])]
        # SAME average pooling: ONNX count_include_pad=0 (default) matches TFLite's divisor
        pads = self.conv_pads(opt, (x.shape[1], x.shape[2]), (opt.filterHeight, opt.filterWidth))
        out = self.node(kind, [self.fin(x, True)], kernel_shape=[opt.filterHeight, opt.filterWidth],
                        strides=[opt.strideH, opt.strideW], pads=pads)
        self.fout(y, out, True, ACT[opt.fusedActivationFunction])

    def op_fc(self, op, opt):
        xi, wi = int(op.inputs[0]), int(op.inputs[1])
        bi = int(op.inputs[2]) if len(op.inputs) > 2 else -1
        x, w, y = self.vals[xi], self.vals[wi], self.vals[int(op.outputs[0])]
        if w.const is None:
            raise ConvertError("non-constant FC weights")
        k = w.shape[1]
        name = self.flat_nhwc(x, [-1, k])
        if self.is_q(x):
            name = self.dq(name, x)
        wname = self.init(w.const, "w")
        if self.is_q(w):
            wname = self.dq(wname, w, axis_map=lambda d: 0)
        ins = [name, wname]
        if bi >= 0:
            b = self.vals[bi]
            bname = self.init(b.const, "b")
            if b.q is not None and b.dtype == np.int32:
                bname = self.dq(bname, b, axis_map=lambda d: 0)
            ins.append(bname)
        out = self.node("Gemm", ins, transB=1)
        if len(y.shape) != 2:
            out = self.node("Reshape", [out, self.init(np.asarray(y.shape, np.int64), "shape")])
        self.fout(y, out, False, ACT[opt.fusedActivationFunction])

    def flat_nhwc(self, x, shape):
        """Reshape x (TFLite semantics, NHWC order) to shape; works on the integer tensor."""
        self.materialize(x)
        if x.nchw and len(x.shape) == 4 and x.shape[1] * x.shape[2] != 1 and x.shape[3] != 1:
            src = self.layout(x, False)
        else:
            src = x.onnx  # NCHW and NHWC have the same element order here
        return self.node("Reshape", [src, self.init(np.asarray(shape, np.int64), "shape")])

    def op_reshape(self, op):
        x, y = self.vals[int(op.inputs[0])], self.vals[int(op.outputs[0])]
        if x.const is not None and x.onnx is None:
            y.const = x.const.reshape(y.shape)
            self.folded.append("RESHAPE(const)")
            return
        # a 4-D result whose NCHW and NHWC element orders agree is produced directly in NCHW
        nchw = len(y.shape) == 4 and (y.shape[1] * y.shape[2] == 1 or y.shape[3] == 1)
        target = [y.shape[i] for i in NHWC2NCHW] if nchw else y.shape
        if self.passthrough(x, y):
            y.onnx, y.nchw = self.flat_nhwc(x, target), nchw
            return
        f = self.flat_nhwc(x, target)
        if self.is_q(x):
            f = self.dq(f, x)
        self.fout(y, f, nchw)

    def op_binary(self, op, opt, kind):
        a, b = self.vals[int(op.inputs[0])], self.vals[int(op.inputs[1])]
        y = self.vals[int(op.outputs[0])]
        nchw = (a.nchw or b.nchw) and len(y.shape) == 4
        ins = []
        for v in (a, b):
            if v.const is not None and v.onnx is None and len(v.shape) < 4 and nchw and len(v.shape) > 0 and v.shape[-1] > 1:
                # per-channel constant broadcast along NHWC's last dim -> [C,1,1]
                c = v.const.reshape(-1, 1, 1)
                name = self.init(c, "const")
                ins.append(self.dq(name, v) if self.is_q(v) else name)
            else:
                if v.const is not None and len(v.shape) < 4:
                    self.materialize(v)
                    name = v.onnx
                    ins.append(self.dq(name, v) if self.is_q(v) else name)
                else:
                    ins.append(self.fin(v, nchw))
        out = self.node(kind, ins)
        self.fout(y, out, nchw, ACT[getattr(opt, "fusedActivationFunction", 0)] if opt is not None else None)

    def op_mean(self, op, opt):
        x, y = self.vals[int(op.inputs[0])], self.vals[int(op.outputs[0])]
        axes = sorted(int(a) % len(x.shape) for a in np.asarray(self.vals[int(op.inputs[1])].const).ravel())
        if len(x.shape) == 4 and axes == [1, 2]:
            out = self.node("GlobalAveragePool", [self.fin(x, True)])
            if opt.keepDims:
                self.fout(y, out, True)
            else:
                out = self.node("Reshape", [out, self.init(np.asarray(y.shape, np.int64), "shape")])
                self.fout(y, out, False)
            return
        nchw = x.nchw and len(x.shape) == 4
        oax = [NHWC2NCHW.index(a) for a in axes] if nchw else axes
        out = self.node("ReduceMean", [self.fin(x, nchw)], axes=oax, keepdims=int(bool(opt.keepDims)))
        if nchw and not opt.keepDims:
            nchw = False
            if not all(a in axes for a in (1, 2)) and 3 not in axes:
                raise ConvertError("MEAN over a mix of axes in NCHW")
        self.fout(y, out, nchw)

    def op_softmax(self, op, opt):
        x, y = self.vals[int(op.inputs[0])], self.vals[int(op.outputs[0])]
        nchw = x.nchw and len(x.shape) == 4
        f = self.fin(x, nchw)
        if opt.beta != 1.0:
            f = self.node("Mul", [f, self.init(np.float32(opt.beta))])
        out = self.node("Softmax", [f], axis=1 if nchw else -1)
        self.fout(y, out, nchw)

    def op_pad(self, op):
        xi, yi = int(op.inputs[0]), int(op.outputs[0])
        cons = self.consumers.get(yi, [])
        if self.fold_pad and len(cons) == 1:
            c = self.g.operators[cons[0]]
            cname = OPNAME.get(self.opcode(c))
            if cname in ("CONV_2D", "DEPTHWISE_CONV_2D") and c.builtinOptions.padding == 1 and self.pad_source(yi):
                return  # folded into the conv
        x, y = self.vals[xi], self.vals[yi]
        p = self.vals[int(op.inputs[1])].const.astype(np.int64)
        nchw = x.nchw and len(x.shape) == 4
        if nchw:
            p = p[NHWC2NCHW]
        pads = self.init(np.concatenate([p[:, 0], p[:, 1]]).astype(np.int64), "pads")
        if self.passthrough(x, y):
            cval = self.init(np.asarray(x.q[1][0] + (128 if x.u8 else 0) if self.is_q(x) else 0,
                                        np.uint8 if x.u8 else x.dtype), "padval")
            out = self.node("Pad", [self.layout(x, nchw), pads, cval])
            y.onnx, y.nchw = out, nchw
            return
        out = self.node("Pad", [self.fin(x, nchw), pads, self.init(np.float32(0), "padval")])
        self.fout(y, out, nchw)

    def op_squeeze(self, op, opt):
        x, y = self.vals[int(op.inputs[0])], self.vals[int(op.outputs[0])]
        if x.const is not None and x.onnx is None:
            y.const = x.const.reshape(y.shape)
            return
        if not self.passthrough(x, y):
            raise ConvertError("SQUEEZE with requantization")
        y.onnx, y.nchw = self.flat_nhwc(x, y.shape), False

    def op_concat(self, op, opt):
        ins = [self.vals[int(i)] for i in op.inputs]
        y = self.vals[int(op.outputs[0])]
        rank = len(y.shape)
        nchw = rank == 4 and any(v.nchw for v in ins)
        ax = opt.axis % rank
        if nchw:
            ax = NHWC2NCHW.index(ax)
        out = self.node("Concat", [self.fin(v, nchw) for v in ins], axis=ax)
        self.fout(y, out, nchw, ACT[opt.fusedActivationFunction])

    def op_quantize(self, op):
        x, y = self.vals[int(op.inputs[0])], self.vals[int(op.outputs[0])]
        nchw = x.nchw and len(x.shape) == 4
        self.fout(y, self.fin(x, nchw), nchw)

    def op_dequantize(self, op):
        x, y = self.vals[int(op.inputs[0])], self.vals[int(op.outputs[0])]
        if x.const is not None and x.dtype == np.float16:
            y.const = x.const.astype(np.float32)
            return
        nchw = x.nchw and len(x.shape) == 4
        name = self.layout(x, nchw)
        if x.q is None:
            raise ConvertError("DEQUANTIZE without quantization")
        if len(x.q[0]) > 1 and x.const is not None:
            y.const = ((x.const.astype(np.float32) - np.expand_dims(x.q[1], tuple(i for i in range(len(x.shape)) if i != x.q[2]))) *
                       np.expand_dims(x.q[0], tuple(i for i in range(len(x.shape)) if i != x.q[2]))).astype(np.float32)
            return
        y.onnx, y.nchw = self.dq(name, x), nchw

    def op_unary(self, op, kind):
        x, y = self.vals[int(op.inputs[0])], self.vals[int(op.outputs[0])]
        nchw = x.nchw and len(x.shape) == 4
        f = self.fin(x, nchw)
        if kind in ("RELU", "RELU6", "RELU_N1_TO_1"):
            if self.is_q(y) and self.act_implied(y, kind):
                self.fout(y, f, nchw)
            else:
                self.fout(y, f, nchw, kind)
        else:
            self.fout(y, self.node(kind, [f]), nchw)

    def fold_shape_ops(self, op, name):
        """SHAPE / STRIDED_SLICE / PACK on constants. Returns True when folded."""
        ins = [self.vals[int(i)] for i in op.inputs]
        y = self.vals[int(op.outputs[0])]
        if name == "SHAPE":
            y.const = np.asarray(ins[0].shape, y.dtype)
        elif name == "PACK":
            if any(v.const is None for v in ins):
                return False
            y.const = np.stack([v.const for v in ins], axis=op.builtinOptions.axis).astype(y.dtype)
        elif name == "STRIDED_SLICE":
            if any(v.const is None for v in ins):
                return False
            o = op.builtinOptions
            if o.ellipsisMask or o.newAxisMask:
                return False
            x, b, e, s = ins[0].const, ins[1].const, ins[2].const, ins[3].const
            sl, shrink = [], []
            for d in range(x.ndim):
                bb = None if (o.beginMask >> d) & 1 else int(b[d])
                ee = None if (o.endMask >> d) & 1 else int(e[d])
                if (o.shrinkAxisMask >> d) & 1:
                    sl.append(slice(int(b[d]), int(b[d]) + 1 if int(b[d]) != -1 else None, 1))
                    shrink.append(d)
                else:
                    sl.append(slice(bb, ee, int(s[d])))
            r = x[tuple(sl)]
            y.const = np.squeeze(r, axis=tuple(shrink)) if shrink else r
        else:
            return False
        self.folded.append(name)
        return True

    # ---------------------------------------------------------------- driver
    def convert(self):
        self.producer = {}
        for k, op in enumerate(self.g.operators):
            for o in op.outputs:
                self.producer[int(o)] = k
        graph_inputs, graph_outputs = [], []
        if self.act_u8:
            for v in self.vals:
                v.u8 = v.dtype == np.int8 and v.q is not None and v.const is None
        for i in self.g.inputs:
            v = self.vals[int(i)]
            shape = list(v.shape)  # batch pinned to the flatbuffer's static shape (1)
            graph_inputs.append(helper.make_tensor_value_info(v.name, ONNX_T[v.dtype], shape))
            v.onnx, v.nchw = v.name, False
            if v.u8:  # int8 graph input -> uint8 storage (exact: same scale, zero point + 128)
                v.u8 = False
                f = self.dq(v.name, v)
                v.u8 = True
                s_, z_, _ = self.qparams(v)
                v.onnx = self.node("QuantizeLinear", [f, s_, z_])
        for k, op in enumerate(self.g.operators):
            name = OPNAME.get(self.opcode(op), f"op{self.opcode(op)}")
            self.hist[name] = self.hist.get(name, 0) + 1
            opt = op.builtinOptions
            if name in ("SHAPE", "STRIDED_SLICE", "PACK"):
                if self.fold_shape_ops(op, name):
                    continue
                raise ConvertError(f"{name} on a non-constant")
            if name == "CONV_2D":
                self.op_conv(op, opt, False)
            elif name == "DEPTHWISE_CONV_2D":
                self.op_conv(op, opt, True)
            elif name == "AVERAGE_POOL_2D":
                self.op_pool(op, opt, "AveragePool")
            elif name == "MAX_POOL_2D":
                self.op_pool(op, opt, "MaxPool")
            elif name == "FULLY_CONNECTED":
                self.op_fc(op, opt)
            elif name in ("ADD", "MUL", "SUB"):
                self.op_binary(op, opt, {"ADD": "Add", "MUL": "Mul", "SUB": "Sub"}[name])
            elif name == "MEAN":
                self.op_mean(op, opt)
            elif name == "RESHAPE":
                self.op_reshape(op)
            elif name == "SQUEEZE":
                self.op_squeeze(op, opt)
            elif name == "SOFTMAX":
                self.op_softmax(op, opt)
            elif name in ("PAD", "PADV2"):
                self.op_pad(op)
            elif name == "CONCATENATION":
                self.op_concat(op, opt)
            elif name == "QUANTIZE":
                self.op_quantize(op)
            elif name == "DEQUANTIZE":
                self.op_dequantize(op)
            elif name in ("RELU", "RELU6", "RELU_N1_TO_1"):
                self.op_unary(op, name)
            elif name in ("LOGISTIC", "TANH"):
                self.op_unary(op, {"LOGISTIC": "Sigmoid", "TANH": "Tanh"}[name])
            else:
                raise ConvertError(f"unsupported op {name}")
        out_info = []
        for i in self.g.outputs:
            v = self.vals[int(i)]
            src = self.layout(v, False)
            if v.u8:  # back to the model's int8 output (exact)
                f = self.dq(src, v)
                v.u8 = False
                s_, z_, _ = self.qparams(v)
                self.node("QuantizeLinear", [f, s_, z_], outputs=[v.name])
            else:
                self.node("Identity", [src], outputs=[v.name])
            shape = list(v.shape)
            graph_outputs.append(helper.make_tensor_value_info(v.name, ONNX_T[v.dtype], shape))
            out_info.append(self.info(v))
        graph = helper.make_graph(self.nodes, "tflite_converted", graph_inputs, graph_outputs, self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", self.opset)],
                                  producer_name="tflite-to-onnx-anchor")
        model.ir_version = 8
        onnx.checker.check_model(model)
        return model, {"inputs": [self.info(self.vals[int(i)]) for i in self.g.inputs], "outputs": out_info,
                       "tflite_ops": self.hist, "folded": self.folded}

    def info(self, v):
        d = {"name": v.name, "dtype": str(v.dtype), "shape": v.shape}
        if v.q is not None:
            d["quantization"] = {"scale": [float(s) for s in v.q[0]], "zero_point": [int(z) for z in v.q[1]]}
        return d


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--opset", type=int, default=13)
    ap.add_argument("--no-fold-pad", action="store_true")
    ap.add_argument("--keep-s8", action="store_true",
                    help="keep int8 activations as int8 (default: store them as uint8 = q + 128, ORT's preferred "
                         "x86 form; exact, only the graph input/output convert)")
    a = ap.parse_args()
    try:
        model, info = Converter(a.model, a.opset, not a.no_fold_pad, not a.keep_s8).convert()
    except ConvertError as e:
        print(json.dumps({"ok": False, "model": a.model, "error": str(e)}))
        sys.exit(1)
    onnx.save(model, a.output)
    hist = {}
    for n in model.graph.node:
        hist[n.op_type] = hist.get(n.op_type, 0) + 1
    info.update(ok=True, model=a.model, output=a.output, onnx_ops=hist)
    print(json.dumps(info))


if __name__ == "__main__":
    main()

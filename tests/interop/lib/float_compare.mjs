// Output comparison for float_vs_litert.mjs: qforge's outputs against
// LiteRT's, per sample and output.
//   float outputs:   |a - b| <= tol * max(1, |b|)   (a = qforge, b = LiteRT;
//                    NaN matches only NaN, infinities only themselves)
//   integer / bool:  equal. An index output of ARG_MAX / ARG_MIN / TOPK_V2
//                    that differs only where the two picked indices hold
//                    values equal within the tolerance is a tie-break, not
//                    a mismatch (checked when those values are visible: a
//                    model input, or a model output such as TOPK_V2's values).

const FLOAT_VIEWS = { float32: Float32Array, float64: Float64Array };
const INT_VIEWS = {
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array, int32: Int32Array,
  uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array, bool: Uint8Array,
};

function halfToFloat(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

/** Bytes of a float tensor -> Float64Array (float32/float16/float64), else null. */
export function floatValues(dtype, bytes) {
  const copy = bytes.slice(); // aligned
  if (dtype === 'float16') return Float64Array.from(new Uint16Array(copy.buffer), halfToFloat);
  const C = FLOAT_VIEWS[dtype];
  return C ? Float64Array.from(new C(copy.buffer)) : null;
}

function intValues(dtype, bytes) {
  const C = INT_VIEWS[dtype];
  if (!C) return null;
  return Array.from(new C(bytes.slice().buffer), (v) => Number(v));
}

export const isFloat = (dtype) => dtype === 'float32' || dtype === 'float16' || dtype === 'float64';

/** Normalised error of a against b; 0 when equal, Infinity for a NaN on one side only. */
export function relError(a, b) {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b) ? 0 : Infinity;
  if (a === b) return 0;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return Infinity;
  return Math.abs(a - b) / Math.max(1, Math.abs(b));
}

/** Compares two float arrays. Returns { worst: { err, index, a, b } | null, bad, first_bad }. */
export function compareFloats(a, b, tol) {
  let worst = null, bad = 0, firstBad = null;
  for (let i = 0; i < b.length; i++) {
    const err = relError(a[i], b[i]);
    if (!worst || err > worst.err) worst = { err, index: i, a: a[i], b: b[i] };
    if (err > tol) {
      bad++;
      firstBad ??= { err, index: i, a: a[i], b: b[i] };
    }
  }
  return { worst, bad, first_bad: firstBad };
}

const prod = (s) => s.reduce((x, y) => x * y, 1);

function constInt(fb, ti) {
  const t = fb.subgraphs[0].tensors[ti];
  const data = fb.constantData(0, ti);
  if (!t || !data) return null;
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (t.dtype === 'int32' && data.byteLength >= 4) return dv.getInt32(0, true);
  if (t.dtype === 'int64' && data.byteLength >= 8) return Number(dv.getBigInt64(0, true));
  return null;
}

/**
 * Whether output tensor `ti` holds indices picked by value: null if not, else
 * { op, valuesTensor (the op's input), axis, sortedTensor (TOPK_V2's values output) }.
 */
function indexOutputInfo(fb, ti) {
  const op = fb.subgraphs[0].operators.find((o) => o.outputs.includes(ti));
  if (!op) return null;
  if ((op.name === 'ARG_MAX' || op.name === 'ARG_MIN') && op.outputs[0] === ti) {
    return { op: op.name, valuesTensor: op.inputs[0], axis: constInt(fb, op.inputs[1]) };
  }
  if (op.name === 'TOPK_V2' && op.outputs[1] === ti) {
    return { op: op.name, valuesTensor: op.inputs[0], sortedTensor: op.outputs[0], axis: -1 };
  }
  return null;
}

/**
 * Index differences explained by ties. `diffs`: element indices where the
 * outputs differ; `q`, `l`: qforge's and LiteRT's index values; `outShape`:
 * LiteRT's output shape. Returns { ties: n, unexplained: [element...], how,
 * checked } (how: where the values came from, or why they could not be had).
 */
function explainTies(info, diffs, q, l, outShape, visible, tol) {
  if (!info) return { ties: 0, unexplained: diffs, how: null };
  const x = visible(info.valuesTensor, 'litert');
  if (!x) {
    // TOPK_V2 whose values are an output too: rank j's value is the same in both.
    const sq = info.sortedTensor !== undefined && visible(info.sortedTensor, 'qforge');
    const sl = info.sortedTensor !== undefined && visible(info.sortedTensor, 'litert');
    if (sq && sl) {
      const un = diffs.filter((e) => relError(sq.values[e], sl.values[e]) > tol);
      return { ties: diffs.length - un.length, unexplained: un, how: 'values from the TOPK_V2 values output', checked: true };
    }
    return { ties: 0, unexplained: diffs, how: `the values ${info.op} reads are no model input or output`, checked: false };
  }
  let axis = info.axis;
  if (axis === null || axis === undefined) return { ties: 0, unexplained: diffs, how: `${info.op} axis is not a constant`, checked: false };
  if (axis < 0) axis += x.shape.length;
  const A = x.shape[axis], inner = prod(x.shape.slice(axis + 1));
  const k = info.op === 'TOPK_V2' ? outShape[outShape.length - 1] : 1;
  const at = (e, idx) => {
    const row = info.op === 'TOPK_V2' ? Math.floor(e / k) : e;
    const outer = Math.floor(row / inner), within = row % inner;
    return x.values[(outer * A + idx) * inner + within];
  };
  const un = diffs.filter((e) => !(q[e] >= 0 && q[e] < A && relError(at(e, q[e]), at(e, l[e])) <= tol));
  return { ties: diffs.length - un.length, unexplained: un, how: `values from the ${info.op} input`, checked: true };
}

/**
 * Compares one output of one sample.
 *   q, l: { dtype, shape, bytes } (qforge, LiteRT), same element count
 *   visible(tensor, side): values of a model input/output for this sample
 * Returns { kind: 'float', worst, bad, first_bad } | { kind: 'exact', bad, ties, first_bad, how }.
 */
export function compareOutput(fb, ti, q, l, visible, tol) {
  if (isFloat(l.dtype)) {
    const a = floatValues(q.dtype, q.bytes), b = floatValues(l.dtype, l.bytes);
    return { kind: 'float', ...compareFloats(a, b, tol), elements: b.length };
  }
  const a = intValues(q.dtype, q.bytes), b = intValues(l.dtype, l.bytes);
  if (!a || !b) {
    const same = Buffer.from(q.bytes).equals(Buffer.from(l.bytes));
    return { kind: 'exact', bad: same ? 0 : 1, ties: 0, first_bad: same ? null : { index: 0, a: '(bytes)', b: '(bytes)' }, elements: 1 };
  }
  const diffs = [];
  for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) diffs.push(i);
  const t = explainTies(diffs.length ? indexOutputInfo(fb, ti) : null, diffs, a, b, l.shape, visible, tol);
  const e = t.unexplained[0];
  return {
    kind: 'exact', bad: t.unexplained.length, ties: t.ties, how: t.how, tie_checked: t.checked, elements: b.length,
    first_bad: e === undefined ? null : { index: e, a: a[e], b: b[e] },
  };
}

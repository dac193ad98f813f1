// Read-only view of a .tflite flatbuffer: just what the harness needs that the
// runtimes do not tell (quantization parameters, static shapes, variable
// tensors, custom/Flex ops, constant shape operands). Field ids follow the
// TFLite schema (formats/schema/tflite.fbs); a union takes two ids.
import { opName } from './op_names.mjs';

export const TENSOR_TYPES = [
  'float32', 'float16', 'int32', 'uint8', 'int64', 'string', 'bool', 'int16', 'complex64', 'int8',
  'float64', 'complex128', 'uint64', 'resource', 'variant', 'uint32', 'uint16', 'int4', 'bfloat16',
];

class Reader {
  constructor(bytes) {
    this.bytes = bytes;
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  // A table at absolute position `pos` -> accessor for its fields.
  table(pos) {
    const dv = this.dv;
    const vt = pos - dv.getInt32(pos, true);
    const vtLen = dv.getUint16(vt, true);
    const field = (id) => {
      const o = 4 + 2 * id;
      return o < vtLen ? dv.getUint16(vt + o, true) : 0;
    };
    const at = (id) => { const o = field(id); return o ? pos + o : 0; };
    const deref = (id) => { const p = at(id); return p ? p + dv.getUint32(p, true) : 0; };
    const vector = (id) => { const p = deref(id); return p ? { n: dv.getUint32(p, true), base: p + 4 } : null; };
    const r = this;
    return {
      has: (id) => field(id) !== 0,
      int8: (id, d = 0) => (at(id) ? dv.getInt8(at(id)) : d),
      uint8: (id, d = 0) => (at(id) ? dv.getUint8(at(id)) : d),
      int32: (id, d = 0) => (at(id) ? dv.getInt32(at(id), true) : d),
      uint32: (id, d = 0) => (at(id) ? dv.getUint32(at(id), true) : d),
      uint64: (id, d = 0) => (at(id) ? Number(dv.getBigUint64(at(id), true)) : d),
      string: (id) => {
        const v = vector(id);
        return v ? Buffer.from(r.bytes.buffer, r.bytes.byteOffset + v.base, v.n).toString('utf8') : null;
      },
      ubytes: (id) => { const v = vector(id); return v ? r.bytes.subarray(v.base, v.base + v.n) : null; },
      ints: (id) => { const v = vector(id); return v ? Array.from({ length: v.n }, (_, i) => dv.getInt32(v.base + 4 * i, true)) : null; },
      floats: (id) => { const v = vector(id); return v ? Array.from({ length: v.n }, (_, i) => dv.getFloat32(v.base + 4 * i, true)) : null; },
      longs: (id) => { const v = vector(id); return v ? Array.from({ length: v.n }, (_, i) => Number(dv.getBigInt64(v.base + 8 * i, true))) : null; },
      tables: (id) => {
        const v = vector(id);
        if (!v) return [];
        return Array.from({ length: v.n }, (_, i) => { const p = v.base + 4 * i; return r.table(p + dv.getUint32(p, true)); });
      },
      child: (id) => { const p = deref(id); return p ? r.table(p) : null; },
    };
  }
}

function readQuantization(q) {
  if (!q) return null;
  const scale = q.floats(2) ?? [];
  const zeroPoint = q.longs(3) ?? [];
  if (!scale.length && !zeroPoint.length) return null;
  return { scale, zero_point: zeroPoint, quantized_dimension: q.int32(6, 0) };
}

/**
 * Parses .tflite bytes (Uint8Array). Returns
 * { subgraphs: [{ tensors, inputs, outputs, operators }], signatures, opcodes,
 *   isConstant(subgraph, tensorIndex) }.
 */
export function parseModel(bytes) {
  if (bytes.byteLength < 8 || Buffer.from(bytes.subarray(4, 8)).toString('latin1') !== 'TFL3') {
    throw new Error('not a TFLite flatbuffer (no TFL3 identifier)');
  }
  const r = new Reader(bytes);
  const model = r.table(r.dv.getUint32(0, true));
  const opcodes = model.tables(1).map((oc) => {
    // builtin_code (id 3) supersedes deprecated_builtin_code (id 0) past 127.
    const code = Math.max(oc.int8(0, 0), oc.int32(3, 0));
    const custom = code === 32 ? oc.string(1) : null;
    return { code, custom, name: custom !== null ? `CUSTOM:${custom}` : opName(code) };
  });
  const buffers = model.tables(4);
  const bufferData = (i) => {
    const b = buffers[i];
    if (!b) return null;
    const d = b.ubytes(0);
    if (d && d.length) return d;
    const off = b.uint64(1, 0), size = b.uint64(2, 0); // data stored after the flatbuffer
    return off > 1 && size > 0 ? bytes.subarray(off, off + size) : null;
  };
  const subgraphs = model.tables(2).map((sg) => ({
    name: sg.string(4),
    tensors: sg.tables(0).map((t, index) => {
      const shape = t.ints(0) ?? [];
      return {
        index,
        name: t.string(3),
        dtype: TENSOR_TYPES[t.int8(1, 0)] ?? `type${t.int8(1, 0)}`,
        shape,
        shape_signature: t.ints(7),
        buffer: t.uint32(2, 0),
        is_variable: t.uint8(5, 0) !== 0,
        quantization: readQuantization(t.child(4)),
      };
    }),
    inputs: sg.ints(1) ?? [],
    outputs: sg.ints(2) ?? [],
    operators: sg.tables(3).map((op) => {
      const oc = opcodes[op.uint32(0, 0)];
      return { name: oc ? oc.name : '?', code: oc ? oc.code : -1, custom: oc ? oc.custom : null, inputs: op.ints(1) ?? [], outputs: op.ints(2) ?? [],
        options: op.child(4) }; // builtin_options table (its type follows from the op)
    }),
  }));
  const signatures = model.tables(7).map((s) => ({
    key: s.string(2),
    subgraph: s.uint32(4, 0),
    inputs: s.tables(0).map((m) => ({ name: m.string(0), tensor: m.uint32(1, 0) })),
    outputs: s.tables(1).map((m) => ({ name: m.string(0), tensor: m.uint32(1, 0) })),
  }));
  const constantData = (sgIndex, ti) => {
    const t = subgraphs[sgIndex]?.tensors[ti];
    return t ? bufferData(t.buffer) : null;
  };
  const isConstant = (sgIndex, ti) => !!constantData(sgIndex, ti);
  return { opcodes, subgraphs, signatures, isConstant, constantData };
}

const TYPE_BYTES = { float32: 4, float16: 2, int32: 4, uint8: 1, int64: 8, bool: 1, int16: 2, complex64: 8, int8: 1, float64: 8, complex128: 16, uint64: 8, uint32: 4, uint16: 2, int4: 1, bfloat16: 2 };

/** Bytes of all non-constant tensors at their static shapes: a bound on what a runtime's arena holds. */
export function activationBytes(fb) {
  let n = 0;
  fb.subgraphs.forEach((sg, s) => {
    for (const t of sg.tensors) {
      if (fb.isConstant(s, t.index)) continue;
      n += t.shape.reduce((a, d) => a * Math.max(1, d), 1) * (TYPE_BYTES[t.dtype] ?? 8);
    }
  });
  return n;
}

/** Tensors marked is_variable (LSTM/SVDF state) anywhere in the model. */
export function variableTensors(fb) {
  const out = [];
  fb.subgraphs.forEach((sg, s) => sg.tensors.forEach((t) => { if (t.is_variable) out.push({ subgraph: s, tensor: t.index, name: t.name }); }));
  return out;
}

const STATE_OPS = new Set(['VAR_HANDLE', 'READ_VARIABLE', 'ASSIGN_VARIABLE', 'HASHTABLE', 'HASHTABLE_IMPORT', 'HASHTABLE_FIND', 'HASHTABLE_SIZE']);

/** Whether running the model can change what the next run computes (state tensors, resource variables, hash tables). */
export function hasState(fb) {
  return variableTensors(fb).length > 0 || fb.subgraphs.some((sg) => sg.operators.some((op) => STATE_OPS.has(op.name)));
}

/** Names of custom ops used by the model (Flex ops included, as CUSTOM:Flex...). */
export function customOps(fb) {
  return [...new Set(fb.opcodes.filter((o) => o.custom !== null).map((o) => o.custom))];
}

// Ops whose output shape comes from the values of some operand (positions
// listed): when that operand is not a constant, TFLite makes the output a
// dynamic tensor, sized only while the op runs.
const SHAPE_FROM_OPERANDS = {
  RESHAPE: [1], TRANSPOSE_CONV: [0], PAD: [1], PADV2: [1], MIRROR_PAD: [1], BROADCAST_TO: [1],
  FILL: [0], SLICE: [1, 2], STRIDED_SLICE: [1, 2, 3], TILE: [1], RESIZE_BILINEAR: [1],
  RESIZE_NEAREST_NEIGHBOR: [1], SPLIT: [0], SPLIT_V: [1, 2], MEAN: [1], SUM: [1], REDUCE_PROD: [1],
  REDUCE_MAX: [1], REDUCE_MIN: [1], REDUCE_ANY: [1], REDUCE_ALL: [1], EXPAND_DIMS: [1], TRANSPOSE: [1],
  ARG_MAX: [1], ARG_MIN: [1], ONE_HOT: [1], RANGE: [0, 1, 2], SPACE_TO_BATCH_ND: [1, 2],
  BATCH_TO_SPACE_ND: [1, 2], SCATTER_ND: [2], SPARSE_TO_DENSE: [1],
};
// Ops whose output shape depends on the data itself.
const DATA_DEPENDENT_SHAPE = new Set(['WHERE', 'UNIQUE', 'NON_MAX_SUPPRESSION_V4', 'NON_MAX_SUPPRESSION_V5']);

/**
 * Outputs of subgraph `sgIndex` whose shape TFLite can only know at run time.
 * Returns [{ tensor, name, reason }]. A reshape-like op whose shape operand is
 * itself computed from constants is still flagged (conservative).
 */
export function runtimeShapedOutputs(fb, sgIndex = 0) {
  const sg = fb.subgraphs[sgIndex];
  if (!sg) return [];
  const why = new Map(); // tensor index -> reason its shape is dynamic
  for (const op of sg.operators) {
    let reason = null;
    if (DATA_DEPENDENT_SHAPE.has(op.name)) reason = `${op.name}: output shape depends on the data`;
    for (const k of SHAPE_FROM_OPERANDS[op.name] ?? []) {
      const ti = op.inputs[k];
      if (ti !== undefined && ti >= 0 && !fb.isConstant(sgIndex, ti)) {
        reason = `${op.name}: shape operand ${k} (tensor ${ti} '${sg.tensors[ti]?.name}') is not a constant`;
      }
    }
    if (!reason) {
      const from = op.inputs.find((ti) => why.has(ti));
      if (from !== undefined) reason = why.get(from);
    }
    if (reason) for (const o of op.outputs) why.set(o, reason);
  }
  return sg.outputs.filter((o) => why.has(o)).map((o) => ({ tensor: o, name: sg.tensors[o]?.name, reason: why.get(o) }));
}

/**
 * Upper bounds (exclusive) for integer tensors used directly as indices:
 * GATHER indices (by params.shape[axis]), GATHER_ND indices (by the smallest
 * of the params dims they address), EMBEDDING_LOOKUP ids (params.shape[0]),
 * SCATTER_ND indices (by the smallest of the constant output shape's dims
 * they address). Returns Map(tensor index -> bound) for subgraph sgIndex.
 */
export function indexBounds(fb, sgIndex = 0) {
  const sg = fb.subgraphs[sgIndex];
  const bounds = new Map();
  const limit = (ti, b) => {
    if (ti === undefined || ti < 0 || !(b > 0)) return;
    bounds.set(ti, Math.min(b, bounds.get(ti) ?? Infinity));
  };
  const shapeOf = (ti) => sg.tensors[ti]?.shape ?? [];
  for (const op of sg?.operators ?? []) {
    if (op.name === 'GATHER') {
      const params = shapeOf(op.inputs[0]);
      let axis = op.options ? op.options.int32(0, 0) : 0; // GatherOptions.axis
      if (axis < 0) axis += params.length;
      limit(op.inputs[1], params[axis]);
    } else if (op.name === 'GATHER_ND') {
      const params = shapeOf(op.inputs[0]);
      const idx = shapeOf(op.inputs[1]);
      const k = idx[idx.length - 1] ?? 0;
      if (k > 0) limit(op.inputs[1], Math.min(...params.slice(0, k)));
    } else if (op.name === 'EMBEDDING_LOOKUP') {
      limit(op.inputs[0], shapeOf(op.inputs[1])[0]);
    } else if (op.name === 'SCATTER_ND') {
      const shape = fb.constantData(sgIndex, op.inputs[2]);
      const idx = shapeOf(op.inputs[0]);
      const k = idx[idx.length - 1] ?? 0;
      const st = sg.tensors[op.inputs[2]];
      if (shape && k > 0 && st?.dtype === 'int32' && shape.byteLength >= 4 * k) {
        const dv = new DataView(shape.buffer, shape.byteOffset, shape.byteLength);
        limit(op.inputs[0], Math.min(...Array.from({ length: k }, (_, j) => dv.getInt32(4 * j, true))));
      }
    }
  }
  return bounds;
}

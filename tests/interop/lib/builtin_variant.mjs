// A copy of a model that tfjs-tflite runs in TFLite's builtin kernels only.
//
// tflite::Interpreter applies its default XNNPACK delegate lazily and drops
// it when the graph has tensors whose shapes are known only at run time. So:
// the shape operand of one RESHAPE (a constant) becomes a model input, fed
// the very values it held; the reshape's output turns dynamic, XNNPACK steps
// aside, and the model computes exactly what it did, in the builtin kernels.
// The flatbuffer is patched in place, as bench/quant_eval/expose.mjs does: a
// new inputs vector for subgraph 0 is appended at the end of the file (all
// FlatBuffers offsets point forward), the tensor's buffer index is set to 0
// (no data) and the signature list is emptied, so that tfjs-tflite lists
// subgraph 0's inputs: the model's own, then the shape.

/**
 * `fb` = parseModel(bytes). Returns { bytes, shapeInput: { tensor_index, name,
 * dtype, shape, values: Uint8Array } } or null when no RESHAPE takes a
 * constant shape operand.
 */
export function builtinVariant(bytes, fb) {
  const sg = fb.subgraphs[0];
  const op = sg.operators.find((o) => o.name === 'RESHAPE' && o.inputs.length > 1 && o.inputs[1] >= 0 && fb.isConstant(0, o.inputs[1]));
  if (!op) return null;
  const ti = op.inputs[1];
  const t = sg.tensors[ti];
  if (t.dtype !== 'int32') return null;
  const base = (bytes.byteLength + 3) & ~3;
  const inputs = [...sg.inputs, ti];
  const out = new Uint8Array(base + 4 + 4 * inputs.length);
  out.set(bytes);
  const dv = new DataView(out.buffer);
  const field = (table, id) => {
    const vt = table - dv.getInt32(table, true);
    const o = 4 + 2 * id;
    return o < dv.getUint16(vt, true) ? dv.getUint16(vt + o, true) : 0;
  };
  const deref = (at) => at + dv.getUint32(at, true);
  const model = dv.getUint32(0, true);
  const sg0 = deref(deref(model + field(model, 2)) + 4); // Model.subgraphs[0]
  const inField = field(sg0, 1); // SubGraph.inputs
  const tensor = deref(deref(sg0 + field(sg0, 0)) + 4 + 4 * ti); // SubGraph.tensors[ti]
  const bufField = field(tensor, 2); // Tensor.buffer
  if (!inField || !bufField) return null;
  dv.setUint32(base, inputs.length, true);
  inputs.forEach((x, i) => dv.setInt32(base + 4 + 4 * i, x, true));
  dv.setUint32(sg0 + inField, base - (sg0 + inField), true);
  dv.setUint32(tensor + bufField, 0, true);
  const sigField = field(model, 7); // Model.signature_defs
  if (sigField) dv.setUint32(deref(model + sigField), 0, true);
  return {
    bytes: out,
    shapeInput: { tensor_index: ti, name: t.name ?? '', dtype: 'int32', shape: t.shape, values: fb.constantData(0, ti).slice() },
  };
}

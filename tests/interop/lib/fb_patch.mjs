// In-place patches of a .tflite flatbuffer, for copies that expose more
// tensors or take a constant as an input (a JSON round trip through flatc
// would print floats with 6 digits and change every quantization scale).
// A replacement int32 vector for a field of subgraph 0 is appended at the
// end of the file and the field re-pointed at it (FlatBuffers offsets point
// forward); the signature list is emptied in place, so that runtimes list
// subgraph 0's own inputs and outputs.

/**
 * Subgraph 0 of `bytes` with its inputs and/or outputs replaced (tensor
 * indices; undefined keeps the field) and its signatures dropped; `edit`
 * may patch tables further through the helpers it is given. Returns the
 * new bytes.
 */
export function patchSubgraph0(bytes, { inputs, outputs, edit } = {}) {
  const lists = [[1, inputs], [2, outputs]].filter(([, l]) => l !== undefined);
  let size = (bytes.byteLength + 3) & ~3;
  const at = lists.map(([, l]) => { const base = size; size += 4 + 4 * l.length; return base; });
  const out = new Uint8Array(size);
  out.set(bytes);
  const dv = new DataView(out.buffer);
  const field = (table, id) => {
    const vt = table - dv.getInt32(table, true);
    const o = 4 + 2 * id;
    return o < dv.getUint16(vt, true) ? dv.getUint16(vt + o, true) : 0;
  };
  const deref = (p) => p + dv.getUint32(p, true);
  const model = dv.getUint32(0, true);
  const sg0 = deref(deref(model + field(model, 2)) + 4); // Model.subgraphs[0]
  lists.forEach(([id, list], k) => {
    const f = field(sg0, id); // SubGraph.inputs (1) / outputs (2)
    if (!f) throw new Error(`subgraph 0 has no ${id === 1 ? 'inputs' : 'outputs'} field`);
    dv.setUint32(at[k], list.length, true);
    list.forEach((t, i) => dv.setInt32(at[k] + 4 + 4 * i, t, true));
    dv.setUint32(sg0 + f, at[k] - (sg0 + f), true);
  });
  const sigField = field(model, 7); // Model.signature_defs
  if (sigField) dv.setUint32(deref(model + sigField), 0, true);
  edit?.({ dv, field, deref, sg0 });
  return out;
}

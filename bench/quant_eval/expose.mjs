// Copies of a .tflite model with more tensors exposed as model outputs, made by
// patching the flatbuffer in place (a JSON round trip through flatc would print
// floats with 6 digits and change every quantization scale): a new outputs
// vector for subgraph 0 is appended at the end of the file and the field is
// re-pointed at it (FlatBuffers offsets point forward), and the signature list
// is emptied in place, so that LiteRT lists subgraph 0's outputs.
import fs from 'node:fs';
import { parseModel } from '../../tests/interop/lib/tflite.mjs';

/** `bytes` (a .tflite) with subgraph 0's outputs replaced by `outputs` (tensor indices). */
export function withOutputs(bytes, outputs) {
  const base = (bytes.byteLength + 3) & ~3;
  const out = new Uint8Array(base + 4 + 4 * outputs.length);
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
  const outField = field(sg0, 2); // SubGraph.outputs
  if (!outField) throw new Error('subgraph 0 has no outputs field');
  dv.setUint32(base, outputs.length, true);
  outputs.forEach((t, i) => dv.setInt32(base + 4 + 4 * i, t, true));
  dv.setUint32(sg0 + outField, base - (sg0 + outField), true);
  const sigField = field(model, 7); // Model.signature_defs
  if (sigField) dv.setUint32(deref(model + sigField), 0, true);
  return out;
}

/**
 * Every tensor an op of subgraph 0 writes, except weight-path tensors
 * (DEQUANTIZE / DENSIFY of constants...: the runtimes compute them once at
 * load time, LiteRT leaves them unwritten as outputs, and exposing them
 * changes how XNNPACK takes the graph). Model outputs first.
 */
export function activationTensors(fb) {
  const sg = fb.subgraphs[0];
  const isStatic = new Set();
  for (const op of sg.operators) {
    const ins = op.inputs.filter((t) => t >= 0);
    if (ins.length && ins.every((t) => fb.isConstant(0, t) || isStatic.has(t))) op.outputs.forEach((t) => isStatic.add(t));
  }
  const outs = [...sg.outputs];
  for (const op of sg.operators) for (const t of op.outputs) if (t >= 0 && !isStatic.has(t) && !outs.includes(t)) outs.push(t);
  return outs;
}

/**
 * The logits of a classifier: the input of the SOFTMAX whose output is model
 * output 0 (directly or through DEQUANTIZE / RESHAPE). Returns a tensor index or null.
 */
export function logitsTensor(fb) {
  const sg = fb.subgraphs[0];
  const producer = new Map();
  sg.operators.forEach((op) => op.outputs.forEach((t) => producer.set(t, op)));
  let t = sg.outputs[0];
  for (let hops = 0; hops < 4; hops++) {
    const op = producer.get(t);
    if (!op) return null;
    if (op.name === 'SOFTMAX') return op.inputs[0];
    if (!['DEQUANTIZE', 'QUANTIZE', 'RESHAPE'].includes(op.name)) return null;
    t = op.inputs[0];
  }
  return null;
}

/** Writes a copy of `file` whose outputs are its own plus its logits; returns the path, or null when there are no logits. */
export function writeWithLogits(file, out) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const fb = parseModel(bytes);
  const logits = logitsTensor(fb);
  if (logits === null || logits === undefined) return null;
  fs.writeFileSync(out, withOutputs(bytes, [...fb.subgraphs[0].outputs, logits]));
  return out;
}

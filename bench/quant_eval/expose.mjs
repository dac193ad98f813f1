// Copies of a .tflite model with more tensors exposed as model outputs, made by
// patching the flatbuffer in place (tests/interop/lib/fb_patch.mjs).
import fs from 'node:fs';
import { parseModel } from '../../tests/interop/lib/tflite.mjs';
import { patchSubgraph0 } from '../../tests/interop/lib/fb_patch.mjs';

/** `bytes` (a .tflite) with subgraph 0's outputs replaced by `outputs` (tensor indices). */
export function withOutputs(bytes, outputs) {
  return patchSubgraph0(bytes, { outputs });
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

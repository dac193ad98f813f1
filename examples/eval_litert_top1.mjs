#!/usr/bin/env node
// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// An evaluator for `qforge quantize --eval-cmd`: the top-1 accuracy (percent)
// of a classifier run in LiteRT (npm @litertjs/core, the build the interop
// tests use: tests/interop/node_modules) on your labelled samples, printed
// alone on the last line of stdout.
//
//   node examples/eval_litert_top1.mjs MODEL.tflite INPUTS.npy LABELS
//        [--output K] [--save-predictions FILE]
//
// INPUTS.npy holds the samples stacked along axis 0, as the model takes them.
// `qforge run` writes that file with qforge's own preprocessing:
//   qforge run model.tflite --data 'eval/*.jpg' --mean 127.5 --std 127.5 \
//     --output-dir /tmp/out --save-inputs evalset
// gives evalset/input_0.npy, the images in file-name order. LABELS: one
// integer class a line, in the same order (or a .npy of integers). Output K
// (default 0) is the class scores; its argmax is the prediction.
// --save-predictions FILE writes the predictions, one a line: the float
// model's predictions make a LABELS file of top-1 agreement with it.
//
// Then:
//   qforge quantize model.tflite --data 'calib/*.jpg' --mean 127.5 --std 127.5 \
//     -o model_q.tflite --eval-min 70 \
//     --eval-cmd 'node examples/eval_litert_top1.mjs {model} evalset/input_0.npy labels.txt'
import fs from 'node:fs';
import { readNpy } from '../tests/interop/lib/npy.mjs';
import { runModel } from '../tests/interop/lib/run.mjs';

const USAGE = 'usage: node eval_litert_top1.mjs MODEL.tflite INPUTS.npy LABELS [--output K] [--save-predictions FILE]';

function parseArgs(argv) {
  const a = { output: 0, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (k === '--output') a.output = Number(argv[++i]);
    else if (k === '--save-predictions') a.save = argv[++i];
    else if (k.startsWith('--')) throw new Error(`unknown flag ${k}\n${USAGE}`);
    else a.files.push(k);
  }
  if (a.files.length !== 3 || !Number.isInteger(a.output) || a.output < 0) throw new Error(USAGE);
  return a;
}

function readLabels(file) {
  if (file.endsWith('.npy')) {
    const t = readNpy(file);
    const View = { int32: Int32Array, int64: BigInt64Array, uint8: Uint8Array, int8: Int8Array, int16: Int16Array }[t.dtype];
    if (!View) throw new Error(`${file}: labels of dtype ${t.dtype}; expected integers`);
    return Array.from(new View(t.bytes.buffer, t.bytes.byteOffset, t.bytes.byteLength / View.BYTES_PER_ELEMENT), Number);
  }
  return fs.readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l !== '').map((l) => {
    const v = Number(l);
    if (!Number.isInteger(v)) throw new Error(`${file}: '${l}' is not an integer class`);
    return v;
  });
}

// The argmax of each sample's scores (raw values: a positive quantization
// scale keeps their order, so integer outputs need no dequantizing).
function predictions(out) {
  const View = { float32: Float32Array, int8: Int8Array, uint8: Uint8Array, int16: Int16Array }[out.dtype];
  if (!View) throw new Error(`output dtype ${out.dtype} is not class scores`);
  const v = new View(out.bytes.buffer, out.bytes.byteOffset, out.bytes.byteLength / View.BYTES_PER_ELEMENT);
  const n = out.shape[0];
  const per = v.length / n;
  const best = [];
  for (let s = 0; s < n; s++) {
    let k = 0;
    for (let c = 1; c < per; c++) if (v[s * per + c] > v[s * per + k]) k = c;
    best.push(k);
  }
  return best;
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const [modelFile, inputsFile, labelsFile] = a.files;
  const inputs = readNpy(inputsFile);
  const labels = readLabels(labelsFile);
  if (labels.length !== inputs.shape[0]) {
    throw new Error(`${labelsFile}: ${labels.length} labels for ${inputs.shape[0]} samples in ${inputsFile}`);
  }
  const res = await runModel(new Uint8Array(fs.readFileSync(modelFile)), { runtime: 'litert', inputs: [inputs], samples: true });
  const out = res.outputs[a.output];
  if (!out) throw new Error(`the model has ${res.outputs.length} outputs, no output ${a.output}`);
  const pred = predictions(out);
  if (a.save) fs.writeFileSync(a.save, pred.join('\n') + '\n');
  const right = pred.filter((p, i) => p === labels[i]).length;
  console.log(`${res.runtime_label}: ${right} of ${labels.length} right`);
  console.log((100 * right / labels.length).toFixed(2));
}

main().catch((e) => {
  process.stderr.write(`eval_litert_top1: ${e.message ?? e}\n`);
  process.exit(1);
});

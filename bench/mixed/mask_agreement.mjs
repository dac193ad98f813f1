#!/usr/bin/env node
// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Mask agreement of two segmentation outputs, as qforge's report defines it
// (report/task_metrics.h): per pixel the class (argmax over C >= 2
// channels; one channel: foreground when the value is > 0.5, a
// probability), the share of pixels whose class agrees and the mean IoU
// over classes either mask uses.
//   node bench/mixed/mask_agreement.mjs REF.npy CAND.npy   # [N, H, W, C] float32
// Prints one JSON line: {"pixels", "agree", "agreement", "miou"}.
import { readNpy } from '../../tests/interop/lib/npy.mjs';

const [refPath, candPath] = process.argv.slice(2);
if (!candPath) {
  console.error('usage: node mask_agreement.mjs REF.npy CAND.npy');
  process.exit(2);
}
const load = (p) => {
  const t = readNpy(p);
  if (t.dtype !== 'float32') throw new Error(`${p}: ${t.dtype}, expected float32`);
  return { shape: t.shape, v: new Float32Array(t.bytes.buffer, t.bytes.byteOffset, t.bytes.byteLength / 4) };
};
const ref = load(refPath), cand = load(candPath);
if (ref.v.length !== cand.v.length) throw new Error('the two outputs differ in size');
const c = ref.shape.length === 4 ? ref.shape[3] : 1;
const classes = Math.max(2, c);
const cls = (v, p) => {
  if (c === 1) return v[p] > 0.5 ? 1 : 0;
  let best = 0;
  for (let k = 1; k < c; k++) if (v[p * c + k] > v[p * c + best]) best = k;
  return best;
};
const inter = new Array(classes).fill(0), uni = new Array(classes).fill(0);
const pixels = ref.v.length / c;
let agree = 0;
for (let p = 0; p < pixels; p++) {
  const a = cls(ref.v, p), b = cls(cand.v, p);
  uni[a]++;
  if (a === b) { agree++; inter[a]++; } else uni[b]++;
}
let iou = 0, used = 0;
for (let k = 0; k < classes; k++) if (uni[k] > 0) { iou += inter[k] / uni[k]; used++; }
console.log(JSON.stringify({ pixels, agree, agreement: agree / pixels, miou: used ? iou / used : null }));

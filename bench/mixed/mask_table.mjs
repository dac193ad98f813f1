#!/usr/bin/env node
// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The table of bench/mixed/mask_target.sh: one JSON line per model in,
// Markdown on stdout and the rows as JSON (--json FILE).
//   node bench/mixed/mask_table.mjs ROWS.jsonl --commit C --load L --json OUT.json
import fs from 'node:fs';

const args = process.argv.slice(2);
const opt = (k) => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : null; };
const rows = fs.readFileSync(args[0], 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const date = new Date().toISOString().slice(0, 10);
const pct = (v) => (v === null || v === undefined ? '—' : `${(100 * v).toFixed(2)}%`);
const kib = (b) => (b === null || b === undefined ? '—' : `${(b / 1024).toFixed(1)} KiB`);
const cell = (f) => {
  if (f.exit_code !== 0 && !f.bytes) return `exit ${f.exit_code}: ${f.error ?? ''}`;
  if (!f.litert) return `not run in LiteRT: ${f.litert_error ?? ''}`;
  return pct(f.litert.agreement);
};
const plan = (f) => {
  if (f.exit_code !== 0) return `exit ${f.exit_code}`;
  const parts = [`${f.ops_quantized} int ops, ${f.float_ops} float`];
  if (f.steps !== null) parts.push(`${f.steps} raised`);
  return parts.join(', ');
};
const lines = [];
lines.push(`\`--target-metric mask-agreement --target 0.99\` on the corpus segmentation models, held out in LiteRT (\`bench/mixed/mask_target.sh\`, ${date}, ${opt('--commit')}, load average ${opt('--load')}).`);
lines.push('Calibration: the 9 people photos at even positions of bench/quant_eval\'s PEOPLE pool (qforge\'s check samples, every 4th, come out of them); held out: the 8 at odd positions, run in LiteRT (@litertjs/core) by the float model and each quantized form. Mask agreement: the share of held-out pixels whose class (argmax; one channel: > 0.5) matches the float model\'s in LiteRT.');
lines.push('Forms: `int8` as asked; `target 0.99`, the default search (`--runtime litert`), which ends at the whole model in float with float16 weights (0 int ops) when that meets the target and is estimated faster; `--keep-integer`, the search kept to a mixed plan. "raised": the plan\'s steps. hair_segmentation\'s MediaPipe custom ops (Convolution2DTransposeBias, MaxPoolingWithArgmax2D, MaxUnpooling2D) run in @litertjs/core 2.5.3; its 4th input channel (the previous frame\'s mask) is 0, a first frame (`--mean 0,0,0,1` on the image\'s alpha of 255 scaled by 1/255).');
lines.push('');
lines.push('| model | form | plan | size | check samples (qforge) | held out in LiteRT | ≥ 98% | quantize s |');
lines.push('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  for (const [name, f] of [['int8', r.int8], ['target 0.99', r.target], ['target 0.99 --keep-integer', r.keep_integer]]) {
    const held = f.litert?.agreement ?? null;
    const ok = held === null ? '—' : held >= 0.98 ? 'yes' : 'NO';
    const check = f.check_reached === null || f.check_reached === undefined ? '—' : `${pct(f.check_reached)} (${f.check_samples})`;
    lines.push(`| ${r.id} | ${name} | ${plan(f)} | ${kib(f.bytes)} (float ${kib(r.float_bytes)}) | ${check} | ${cell(f)} | ${name === 'int8' ? '' : ok} | ${f.seconds} |`);
  }
}
console.log(lines.join('\n'));
if (opt('--json')) {
  fs.writeFileSync(opt('--json'), JSON.stringify({ date, commit: opt('--commit'), load: opt('--load'), models: rows }, null, 1) + '\n');
}

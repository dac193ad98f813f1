#!/usr/bin/env node
// The compact table of docs/quantization.md ("Accuracy over the corpus"):
// one row per evaluated model, one column per scheme, "SQNR dB (top-1)"
// from a quant_eval.mjs results.json; then the twin gates.
//
//   node bench/quant_eval/readme_table.mjs [bench/quant_eval/results.json]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmtDb } from './metrics.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const file = process.argv[2] ?? path.join(here, 'results.json');
const { meta, models } = JSON.parse(fs.readFileSync(file, 'utf8'));
const schemes = meta.schemes;
// results.json stores infinite SQNR (identical outputs) as a string.
const db = (v) => fmtDb(typeof v === 'string' ? Number(v.replace('inf', 'Infinity')) : v);

function cell(s) {
  if (!s) return '—';
  if (s.skipped) return 'no calibration';
  if (s.quantize && !s.quantize.ok) return 'quantize fails';
  const src = s.ok ? s : s.alt?.ok ? s.alt : null;
  if (!src) return 'LiteRT fails';
  if (s.ops_quantized === 0) {
    return s.scheme === 'float16' ? 'already float16' : 'nothing to quantize';
  }
  const d = db(src.sqnr_db);
  return src.top1 ? `${d} (${src.top1.agree}/${src.top1.of})` : d;
}

const L = [];
L.push(`| model | ${schemes.join(' | ')} |`);
L.push(`| --- |${schemes.map(() => ' --- |').join('')}`);
for (const m of models) {
  if (m.status !== 'done') continue;
  L.push(`| ${m.id} | ${schemes.map((s) => cell(m.schemes[s])).join(' | ')} |`);
}
L.push('');
L.push('| model | twin | twin dB | ours dB | Δ dB | gate |');
L.push('| --- | --- | --- | --- | --- | --- |');
for (const m of models) {
  for (const t of m.twins ?? []) {
    if (!t.gate || t.delta_db === undefined || t.delta_db === null) continue;
    L.push(`| ${m.id} | ${path.basename(t.path)} (${t.gate}) | ${t.ok ? db(t.sqnr_db) : `${db(t.alt?.sqnr_db)} (tfjs)`} | ${db(t.ours_db)} | ${t.delta_db >= 0 ? '+' : ''}${t.delta_db.toFixed(1)} | ${t.pass ? 'pass' : 'FAIL'} |`);
  }
}
process.stdout.write(`${L.join('\n')}\n`);

// The --target-sqnr table from bench/mixed/target_sqnr.sh's quant_eval
// results.json and LiteRT timings: per model, size (KiB), output SQNR on the
// evaluation samples (dB, LiteRT) and LiteRT latency (ms) of float, float16,
// int8, int16x8 and the --target-sqnr 30 model, with the search's SQNR on
// its check samples and the ops it put in each precision.
//   node target_table.mjs RESULTS.json TIMES.jsonl WORK_DIR OUT.json > target_sqnr.md
import fs from 'node:fs';
import path from 'node:path';
import { sqnrCell } from '../quant_eval/sqnr_cell.mjs';

const [resultsPath, timesPath, work, jsonOut] = process.argv.slice(2);
const results = JSON.parse(fs.readFileSync(resultsPath, 'utf8'));
const times = new Map();
for (const line of fs.readFileSync(timesPath, 'utf8').split('\n').filter(Boolean)) {
  const t = JSON.parse(line);
  times.set(path.resolve(t.model), t.error ? null : t.ms_per_sample);
}
const ms = (file) => {
  const t = times.get(path.resolve(file));
  return typeof t === 'number' ? t.toFixed(1) : '—';
};
const kib = (b) => (typeof b === 'number' ? (b / 1024).toFixed(0) : '—');
const COLS = [['float16', 'float16'], ['int8', 'int8'], ['int16x8', 'int16x8'], ['target 30', 'int8+t30']];
const lines = [
  `| model | float KiB / ms | ${COLS.map(([n]) => `${n}: KiB / dB / ms`).join(' | ')} | target: check dB | target: ops int8 / int16 / float16 / float32 |`,
  `| --- |${' --- |'.repeat(COLS.length + 3)}`,
];
const rows = [];
for (const m of results.models) {
  const s = m.schemes ?? {};
  const file = (key) => path.join(work, m.id, `${m.id}.${key.replace('int8+', '')}.tflite`);
  const floatFile = path.join('../shared/corpus', m.model);
  const cells = COLS.map(([, key]) => (s[key] ? `${kib(s[key].bytes)} / ${sqnrCell(s[key])} / ${ms(file(key))}` : '—'));
  const t = s['int8+t30'] ?? {};
  const p = t.precisions ?? {};
  const miss = /reaches (-?[\d.]+) dB on the (\d+) check samples after raising (\d+) ops/.exec(t.quantize?.error ?? '');
  const check = t.target ? `${t.target.check_db.toFixed(1)} (${t.target.check_samples} samples)`
    : miss ? `not met: ${miss[1]} (${miss[2]} samples) after ${miss[3]} ops` : '—';
  lines.push(`| ${m.id} | ${kib(m.float_bytes)} / ${ms(floatFile)} | ${cells.join(' | ')} | ${check} | ${p.int8 ?? 0} / ${p.int16 ?? 0} / ${p.float16 ?? 0} / ${(p.float ?? 0) + (p.float32 ?? 0)} |`);
  rows.push({ id: m.id, float_bytes: m.float_bytes, float_ms: times.get(path.resolve(floatFile)) ?? null,
    schemes: Object.fromEntries(COLS.map(([n, key]) => [n, s[key] ? { bytes: s[key].bytes, sqnr_db: s[key].sqnr_db ?? null, ms: times.get(path.resolve(file(key))) ?? null } : null])),
    target: t.target ?? null, precisions: p });
}
fs.writeFileSync(jsonOut, JSON.stringify({ date: results.date, models: rows }, null, 1) + '\n');
console.log(lines.join('\n'));

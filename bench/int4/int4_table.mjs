// The int4-weights table from a bench/quant_eval results.json run with the
// variants of bench/int4/int4.sh: one row per model, the model's size (KiB)
// and output SQNR in dB (top-1 agreement for classifiers) per column,
// measured in LiteRT on evaluation samples disjoint from the calibration.
//   node bench/int4/int4_table.mjs RESULTS.json > int4.md
import fs from 'node:fs';
import { sqnrCell } from '../quant_eval/sqnr_cell.mjs';

const COLUMNS = [
  ['int8', 'int8'],
  ['int4', 'int8+w4'],
  ['int4 +bias corr.', 'int8+w4bc'],
  ['int4 +AdaRound', 'int8+w4ada'],
  ['int4 --optimize accuracy', 'int8+w4opt'],
  ['float16', 'float16'],
];
const results = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const kib = (b) => (typeof b === 'number' ? `${(b / 1024).toFixed(0)}` : '—');
const cell = sqnrCell;
const lines = [
  `| model | float KiB | int8 KiB | int4 KiB | ${COLUMNS.map((c) => c[0]).join(' | ')} |`,
  `| --- |${' --- |'.repeat(COLUMNS.length + 3)}`,
];
const gain = { ada: [], bc: [], opt: [] };
for (const m of results.models) {
  const s = m.schemes ?? {};
  if (!s.int8) continue;
  const base = s['int8+w4'];
  for (const [k, key] of [['ada', 'int8+w4ada'], ['bc', 'int8+w4bc'], ['opt', 'int8+w4opt']]) {
    if (base?.ok && s[key]?.ok && Number.isFinite(base.sqnr_db) && Number.isFinite(s[key].sqnr_db)) gain[k].push(s[key].sqnr_db - base.sqnr_db);
  }
  lines.push(`| ${m.id} | ${kib(m.float_bytes)} | ${kib(s.int8.bytes)} | ${kib(base?.bytes)} | ${COLUMNS.map(([, key]) => cell(s[key])).join(' | ')} |`);
}
const mean = (v) => (v.length ? (v.reduce((x, y) => x + y, 0) / v.length).toFixed(2) : '—');
const worst = (v) => (v.length ? Math.min(...v).toFixed(2) : '—');
lines.push('');
lines.push(`Mean gain over int4 with nearest rounding (dB): AdaRound ${mean(gain.ada)} (${gain.ada.length} models, worst ${worst(gain.ada)}); bias correction ${mean(gain.bc)} (worst ${worst(gain.bc)}); --optimize accuracy ${mean(gain.opt)} (worst ${worst(gain.opt)}).`);
console.log(lines.join('\n'));

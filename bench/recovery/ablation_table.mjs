// The ablation table of weight recovery from a bench/quant_eval results.json
// run with the variants of bench/recovery/ablation.sh: one row per model,
// output SQNR in dB (top-1 agreement for classifiers) per column, measured
// in LiteRT on evaluation samples disjoint from the calibration samples.
//   node bench/recovery/ablation_table.mjs RESULTS.json > ablation.md
import fs from 'node:fs';
import { sqnrCell } from '../quant_eval/sqnr_cell.mjs';

const COLUMNS = [
  ['plain int8', 'int8'],
  ['+CLE', 'int8+cle'],
  ['+bias correction', 'int8+bc'],
  ['+AdaRound', 'int8+ada'],
  ['--optimize accuracy', 'int8+opt'],
];
const results = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const cell = sqnrCell;
const lines = [
  `| model | ${COLUMNS.map((c) => c[0]).join(' | ')} | twin | float16 |`,
  `| --- |${' --- |'.repeat(COLUMNS.length + 2)}`,
];
const gains = Object.fromEntries(COLUMNS.slice(1).map((c) => [c[1], []]));
for (const m of results.models) {
  if (!m.schemes?.int8) continue;
  const twin = m.twins?.find((t) => t.gate === 'int8') ?? m.twins?.[0];
  const row = COLUMNS.map(([, key]) => cell(m.schemes[key]));
  for (const [, key] of COLUMNS.slice(1)) {
    const a = m.schemes.int8, b = m.schemes[key];
    if (a?.ok && b?.ok && Number.isFinite(a.sqnr_db) && Number.isFinite(b.sqnr_db)) gains[key].push(b.sqnr_db - a.sqnr_db);
  }
  lines.push(`| ${m.id} | ${row.join(' | ')} | ${twin ? cell(twin) : ''} | ${cell(m.schemes.float16)} |`);
}
const mean = (v) => (v.length ? (v.reduce((x, y) => x + y, 0) / v.length).toFixed(2) : '—');
lines.push('');
lines.push(`Mean gain over plain int8 (dB): ${COLUMNS.slice(1).map(([n, k]) => `${n} ${mean(gains[k])} (${gains[k].length} models, worst ${gains[k].length ? Math.min(...gains[k]).toFixed(2) : '—'})`).join('; ')}.`);
console.log(lines.join('\n'));

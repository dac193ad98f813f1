// The ablation table of weight recovery from a bench/quant_eval results.json
// run with the variants of bench/recovery/ablation.sh: one row per model,
// output SQNR in dB (top-1 agreement for classifiers) per column, measured
// in LiteRT on evaluation samples disjoint from the calibration samples.
//   node bench/recovery/ablation_table.mjs RESULTS.json > ablation.md
import fs from 'node:fs';
import { pairedDbInterval } from '../quant_eval/metrics.mjs';
import { sqnrCell } from '../quant_eval/sqnr_cell.mjs';

const COLUMNS = [
  ['plain int8', 'int8'],
  ['+CLE', 'int8+cle'],
  ['+bias correction', 'int8+bc'],
  ['--optimize fast', 'int8+fast'],
  ['+AdaRound', 'int8+ada'],
  ['--method auto', 'int8+auto'],
  ['--optimize accuracy', 'int8+opt'],
];
const results = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const cell = sqnrCell;
const lines = [
  `| model | ${COLUMNS.map((c) => c[0]).join(' | ')} | official twins | float16 |`,
  `| --- |${' --- |'.repeat(COLUMNS.length + 2)}`,
];
const gains = Object.fromEntries(COLUMNS.slice(1).map((c) => [c[1], []]));
// Against the official twins that quantize the same weights to int8
// (gate 'int8'): ours minus the twin, per pair.
const vsTwin = { int8: [], 'int8+fast': [], 'int8+opt': [] };
const twinName = (t) => t.path.split('/').pop().replace(/\.tflite$/, '');
// A twin LiteRT's WebAssembly build cannot run is measured in tfjs-tflite.
const twinResult = (t) => (t.ok ? t : t.alt?.ok ? { ...t, ...t.alt, tfjs: true } : t);
for (const m of results.models) {
  if (!m.schemes?.int8) continue;
  const row = COLUMNS.map(([, key]) => cell(m.schemes[key]));
  for (const [, key] of COLUMNS.slice(1)) {
    const a = m.schemes.int8, b = m.schemes[key];
    if (a?.ok && b?.ok && Number.isFinite(a.sqnr_db) && Number.isFinite(b.sqnr_db)) gains[key].push(b.sqnr_db - a.sqnr_db);
  }
  const twins = (m.twins ?? []).map((t) => twinResult(t)).map((t) =>
    `${twinName(t)}${t.gate ? '' : ' (other weights)'}: ${cell(t)}${t.tfjs ? ' (tfjs)' : ''}`);
  for (const t of (m.twins ?? []).map((x) => twinResult(x))) {
    if (t.gate !== 'int8' || !t.ok || !Number.isFinite(t.sqnr_db)) continue;
    for (const key of Object.keys(vsTwin)) {
      const s = m.schemes[key];
      if (s?.ok && Number.isFinite(s.sqnr_db)) {
        vsTwin[key].push({ model: m.id, d: s.sqnr_db - t.sqnr_db, ci: pairedDbInterval(s.sample_err, t.sample_err) });
      }
    }
  }
  lines.push(`| ${m.id} | ${row.join(' | ')} | ${twins.join('<br>')} | ${cell(m.schemes.float16)} |`);
}
const mean = (v) => (v.length ? (v.reduce((x, y) => x + y, 0) / v.length).toFixed(2) : '—');
lines.push('');
lines.push(`Mean gain over plain int8 (dB): ${COLUMNS.slice(1).map(([n, k]) => `${n} ${mean(gains[k])} (${gains[k].length} models, worst ${gains[k].length ? Math.min(...gains[k]).toFixed(2) : '—'})`).join('; ')}.`);
const twinLine = (label, v) => {
  if (!v.length) return `${label}: no pair measured`;
  const worst = v.reduce((a, b) => (b.d < a.d ? b : a));
  const ci = (x) => (x.ci ? ` [${x.ci[0].toFixed(2)}, ${x.ci[1].toFixed(2)}]` : '');
  const below = v.filter((x) => x.d < 0).map((x) => `${x.model} ${x.d.toFixed(2)}${ci(x)}`);
  // Below beyond the sampling noise of the evaluation set: the whole 95%
  // interval under zero.
  const clearly = v.filter((x) => x.ci && x.ci[1] < 0).map((x) => x.model);
  return `${label} ${mean(v.map((x) => x.d))} dB on average over ${v.length} pairs, ` +
    `worst ${worst.d.toFixed(2)} (${worst.model}); below the twin: ${below.length ? below.join(', ') : 'none'}; ` +
    `below it beyond the 95% interval: ${v.some((x) => !x.ci) ? 'not measured' : clearly.length ? clearly.join(', ') : 'none'}`;
};
lines.push('');
lines.push(`Against the official int8 twins of the same weights (ours minus twin; in brackets the 95% interval of a paired bootstrap over the evaluation samples): ${twinLine('plain int8', vsTwin.int8)}; ${twinLine('--optimize fast', vsTwin['int8+fast'])}; ${twinLine('--optimize accuracy', vsTwin['int8+opt'])}.`);
console.log(lines.join('\n'));

// The weight-rounding table from bench/weights/rounding.sh's rounding.json:
// one row per corpus model (output SQNR in dB in LiteRT on held-out
// samples, top-1 agreement for classifiers), then the synthetic decoder
// block (qforge's interpreter, held-out random inputs), and the mean gain
// of each method over nearest rounding.
//   node bench/weights/rounding_table.mjs rounding.json > rounding.md
import fs from 'node:fs';
import { sqnrCell } from '../quant_eval/sqnr_cell.mjs';

const COLUMNS = [
  ['int8', 'int8'],
  ['int4 nearest', 'w4'],
  ['clip mse', 'w4clip'],
  ['GPTQ', 'w4gptq'],
  ['GPTQ + clip', 'w4gptqclip'],
  ['AWQ', 'w4awq'],
  ['GPTQ + bias correction', 'w4gptqbc'],
  ['AdaRound + bias correction', 'w4bcada'],
];
const key = (k) => (k === 'int8' ? 'int8' : `int8+${k}`);
const r = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const lines = [
  `| model | ${COLUMNS.map((c) => c[0]).join(' | ')} |`,
  `| --- |${' --- |'.repeat(COLUMNS.length)}`,
];
const gains = Object.fromEntries(COLUMNS.slice(2).map(([, k]) => [k, []]));
const ok = (c) => c?.ok && Number.isFinite(c.sqnr_db);
for (const m of r.models) {
  const s = m.schemes ?? {};
  if (!s.int8) continue;
  const base = s[key('w4')];
  for (const k of Object.keys(gains)) {
    if (ok(base) && ok(s[key(k)])) gains[k].push({ model: m.id, gain: s[key(k)].sqnr_db - base.sqnr_db });
  }
  lines.push(`| ${m.id} | ${COLUMNS.map(([, k]) => sqnrCell(s[key(k)])).join(' | ')} |`);
}
const dec = r.decoder_block;
if (dec) {
  const cell = (k) => {
    const v = dec[k]?.report?.outputs?.[0]?.sqnr_db;
    return typeof v === 'number' ? v.toFixed(1) : '—';
  };
  lines.push(`| decoder block (SYNTHETIC, qforge interpreter) | — | ${COLUMNS.slice(1).map(([, k]) => cell(k)).join(' | ')} |`);
}
const mean = (v) => (v.length ? (v.reduce((x, y) => x + y.gain, 0) / v.length).toFixed(2) : '—');
const worst = (v) => (v.length ? v.reduce((a, b) => (b.gain < a.gain ? b : a)) : null);
lines.push('');
lines.push('Mean gain over int4 nearest rounding on the corpus models (dB), and the worst model:');
lines.push('');
for (const [name, k] of COLUMNS.slice(2)) {
  const w = worst(gains[k]);
  lines.push(`- ${name}: ${mean(gains[k])} over ${gains[k].length} models${w ? `, worst ${w.gain.toFixed(2)} (${w.model})` : ''}`);
}
if (dec) {
  lines.push('');
  lines.push('Decoder block, what --awq did (quantize notes):');
  lines.push('');
  for (const k of ['w4awq']) {
    const note = (dec[k]?.log ?? '').split('\n').find((l) => l.includes('awq:'));
    if (note) lines.push(`- ${k}: ${note.trim()}`);
  }
}
console.log(lines.join('\n'));

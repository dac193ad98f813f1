// The table of bench/recovery/fast.sh from its quant_eval results.json: per
// model, plain int8 and --optimize fast (output SQNR in dB, top-1 agreement
// for classifiers, LiteRT, held-out samples), the gain, and the time of
// `quantize --data --optimize fast` over that of `calibrate` + `quantize
// --stats` (the plain route on the same samples and threads).
//   node bench/recovery/fast_table.mjs RESULTS.json > fast.md
import fs from 'node:fs';
import { sqnrCell } from '../quant_eval/sqnr_cell.mjs';

const results = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const lines = [
  '| model | calibration / evaluation samples | plain int8 | --optimize fast | gain dB | time, fast / plain |',
  '| --- | --- | --- | --- | --- | --- |',
];
const gains = [], times = [];
for (const m of results.models) {
  const plain = m.schemes?.int8, fast = m.schemes?.['int8+fast'];
  if (!plain?.ok || !fast?.ok || !Number.isFinite(plain.sqnr_db) || !Number.isFinite(fast.sqnr_db)) continue;
  const gain = fast.sqnr_db - plain.sqnr_db;
  gains.push({ model: m.id, d: gain });
  const t = m.calibrate?.ok && plain.quantize?.ms != null && fast.quantize?.ms != null
    ? fast.quantize.ms / (m.calibrate.ms + plain.quantize.ms) : null;
  if (t !== null) times.push(t);
  lines.push(`| ${m.id} | ${m.calib_samples} / ${m.eval_samples} | ${sqnrCell(plain)} | ${sqnrCell(fast)} | ` +
    `${gain >= 0 ? '+' : ''}${gain.toFixed(2)} | ${t === null ? '—' : t.toFixed(2)} |`);
}
const mean = (v) => v.reduce((a, b) => a + b, 0) / v.length;
const losses = gains.filter((g) => g.d < 0).sort((a, b) => a.d - b.d);
const ties = gains.filter((g) => g.d === 0).length;
const sorted = [...times].sort((a, b) => a - b);
lines.push('');
lines.push(`Over ${gains.length} models: mean gain ${mean(gains.map((g) => g.d)).toFixed(2)} dB; ` +
  `${gains.length - losses.length - ties} gain, ${ties} unchanged, ` +
  `${losses.length} lose${losses.length ? ` (${losses.map((g) => `${g.model} ${g.d.toFixed(2)}`).join(', ')})` : ''}. ` +
  `Time against calibrate + quantize: median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)}x, most ${sorted[sorted.length - 1].toFixed(2)}x.`);
console.log(lines.join('\n'));

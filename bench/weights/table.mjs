// The Markdown table of bench/weights/weights.sh from its two JSON files:
// node bench/weights/table.mjs weights_real.json weights_synthetic.json
import fs from 'node:fs';

const [realPath, synPath] = process.argv.slice(2);
const out = [];
const f1 = (x) => (x === null || x === undefined ? '—' : x === 'inf' || x === Infinity ? 'inf' : Number(x).toFixed(1));
const kib = (b) => (b ? `${(b / 1024).toFixed(1)} KiB` : '—');
const pct = (b, f) => (b && f ? ` (${Math.round((100 * b) / f)}%)` : '');

if (realPath && fs.existsSync(realPath)) {
  const real = JSON.parse(fs.readFileSync(realPath, 'utf8'));
  out.push('## Real data (held-out samples; SQNR against the float model, both in LiteRT)', '');
  out.push('| model | form | rounding | size | SQNR dB | LiteRT runs it | ops kept float |', '| --- | --- | --- | --- | --- | --- | --- |');
  for (const m of real.results ?? real.models ?? []) {
    const floatBytes = m.float_bytes ?? m.bytes;
    const entries = Object.entries(m.schemes ?? {});
    for (const [key, s] of entries) {
      const [form, rounding] = (s.variant ?? key).split('.');
      const ran = s.quantize && !s.quantize.ok ? `quantize failed: ${s.quantize.error}` : s.ok ? 'yes' : s.error ? `no: ${String(s.error).slice(0, 80)}` : '—';
      out.push(`| ${m.id} | ${form} | ${rounding ?? '—'} | ${kib(s.bytes)}${pct(s.bytes, floatBytes)} | ${f1(s.sqnr_db)} | ${ran} | ${s.ops_float ?? '—'} |`);
    }
  }
  out.push('');
}
if (synPath && fs.existsSync(synPath)) {
  const syn = JSON.parse(fs.readFileSync(synPath, 'utf8'));
  out.push(`## Generated inputs (run_model.mjs --seed ${syn.seeds.join(', ')}: how far the weights moved, not a task metric)`, '');
  out.push('| model | form | rounding | size | SQNR dB vs float (LiteRT) | LiteRT runs it | qforge vs LiteRT dB |', '| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of syn.rows) {
    if (r.error) { out.push(`| ${r.model} | — | — | — | — | ${r.error} | — |`); continue; }
    const ran = r.quantize_error ? `quantize failed: ${r.quantize_error}` : r.litert_ok ? 'yes' : `no: ${String(r.litert_error).slice(0, 80)}`;
    out.push(`| ${r.model} | ${r.form} | ${r.rounding} | ${kib(r.bytes)}${pct(r.bytes, r.float_bytes)} | ${f1(r.sqnr_db)} | ${ran} | ${r.qforge_error ? `error: ${r.qforge_error.slice(0, 60)}` : f1(r.qforge_vs_litert_db)} |`);
  }
  out.push('');
}
console.log(out.join('\n'));

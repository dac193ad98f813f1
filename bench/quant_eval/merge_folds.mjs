// Pools quant_eval runs made on disjoint evaluation samples of the same
// models: the two folds of a 2-fold cross-validation (a plain run and one
// with --swap-halves, each calibrating on the samples the other evaluates
// on). Every SQNR is recomputed over all the samples from the per-sample
// sums (sample_sig, sample_err), top-1 counts and sample counts add up, and
// times add up. A result missing or failed in any fold is failed in the
// pool. The pooled file has results.json's shape, so the bench tables read
// it unchanged.
//   node bench/quant_eval/merge_folds.mjs FOLD1.json FOLD2.json > pooled.json
import fs from 'node:fs';
import { db } from './metrics.mjs';
import { resultsJson } from './results_json.mjs';

const runs = process.argv.slice(2).map((f) => JSON.parse(fs.readFileSync(f, 'utf8')));
if (runs.length < 2) {
  process.stderr.write('usage: node bench/quant_eval/merge_folds.mjs FOLD1.json FOLD2.json...\n');
  process.exit(2);
}
const sum = (v) => v.reduce((a, b) => a + b, 0);
const addMs = (parts) => (parts.every((p) => p?.ms != null) ? sum(parts.map((p) => p.ms)) : null);

// One evaluated model (a scheme, a variant or a twin; a twin LiteRT refused
// is measured in tfjs-tflite, its `alt`) pooled over the folds.
function pool(parts) {
  const eff = parts.map((p) => (p?.ok ? p : p?.alt?.ok ? { ...p, ...p.alt } : null));
  const out = { ...parts[0] };
  for (const k of ['sqnr_db', 'per_output_db', 'logits_sqnr_db', 'sample_sig', 'sample_err', 'top1', 'alt', 'ours_db', 'delta_db', 'pass']) delete out[k];
  out.quantize = parts[0]?.quantize && { ...parts[0].quantize, ms: addMs(parts.map((p) => p?.quantize)) };
  if (eff.some((e) => !e?.sample_err || !e?.sample_sig)) {
    out.ok = false;
    out.error = out.error ?? 'not measured in every fold';
    return out;
  }
  const m = { ok: true };
  m.sample_sig = eff.flatMap((e) => e.sample_sig);
  m.sample_err = eff.flatMap((e) => e.sample_err);
  m.sqnr_db = db(sum(m.sample_sig), sum(m.sample_err));
  if (eff.every((e) => e.top1)) {
    m.top1 = { agree: sum(eff.map((e) => e.top1.agree)), of: sum(eff.map((e) => e.top1.of)) };
  }
  // Measured in tfjs-tflite in some fold: pooled as such, in `alt`.
  if (parts.some((p) => !p.ok)) return { ...out, ok: false, alt: { runtime: 'tfjs-tflite', ...m } };
  return { ...out, ...m };
}

const first = runs[0];
const models = first.models.map((m) => {
  const folds = runs.map((r) => r.models.find((x) => x.id === m.id));
  const out = { ...m, folds: runs.length };
  if (folds.some((f) => !f)) return { ...out, status: 'not in every fold' };
  out.calib_samples = sum(folds.map((f) => f.calib_samples ?? 0));
  out.eval_samples = sum(folds.map((f) => f.eval_samples ?? 0));
  out.calibrate = m.calibrate && { ...m.calibrate, ok: folds.every((f) => f.calibrate?.ok), ms: addMs(folds.map((f) => f.calibrate)) };
  out.schemes = Object.fromEntries(Object.keys(m.schemes ?? {}).map((k) => [k, pool(folds.map((f) => f.schemes?.[k]))]));
  out.twins = (m.twins ?? []).map((t) => pool(folds.map((f) => f.twins?.find((x) => x.path === t.path))));
  return out;
});
const meta = { ...first.meta, folds: runs.map((r) => r.meta), seconds: sum(runs.map((r) => r.meta?.seconds ?? 0)) };
process.stdout.write(resultsJson({ meta, failures: runs.flatMap((r) => r.failures ?? []), models }));

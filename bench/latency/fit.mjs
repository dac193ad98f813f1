// Fits qforge's LiteRT latency model (runtime/latency.h) to measured
// LiteRT.js timings and states the fit.
//   node bench/latency/fit.mjs --qforge BIN TIMES.jsonl [TIMES2.jsonl ...]
//        [--write]   also rewrite runtime/latency_fit.inc
//        [--models RESULTS.json]  quant_eval's results.json: corpus float
//                    models join the forms quant_eval wrote of them
// TIMES: lines of bench/latency/litert_latency.mjs ({ model, ms }). Each
// model's features come from `qforge inspect MODEL --json --runtime litert`
// (the feature sums of runtime/latency.h). The coefficients are
// non-negative and minimize the squared relative error sum of
// ((estimate - measured) / measured)^2 over every timed model form. The fit
// is judged by leave-one-model-out: every form of a model (its float, int8,
// int16x8, float16 files, which share a folder or a corpus name) is
// estimated by coefficients fitted without it. Writes fit.md and fit.json
// beside this script.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..', '..');
const args = process.argv.slice(2);
let qforge = path.join(root, 'build/cmd/qforge');
let write = false;
let modelsJson = null;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--qforge') qforge = args[++i];
  else if (args[i] === '--write') write = true;
  else if (args[i] === '--models') modelsJson = args[++i];
  else files.push(args[i]);
}
const NAMES = ['xnn_ops', 'xnn_macs_f32', 'xnn_macs_int8', 'xnn_elements', 'builtin_ops',
  'builtin_macs_f32', 'builtin_macs_int8', 'builtin_macs_int16', 'builtin_elements_f32',
  'builtin_elements_int8', 'builtin_elements_int16', 'xnn_partitions'];

// The model a timed file is a form of: quant_eval keeps WORK/ID/ID.SCHEME.tflite;
// corpus float models are their own.
const corpusId = new Map();
if (modelsJson) {
  for (const m of JSON.parse(fs.readFileSync(modelsJson, 'utf8')).models) corpusId.set(m.model, m.id);
}
const groupOf = (p) => {
  const m = /\/([^/]+)\/\1\.[a-z0-9]+\.tflite$/.exec(p);
  if (m) return m[1];
  const rel = /\/corpus\/(models\/.*)$/.exec(p)?.[1];
  return (rel && corpusId.get(rel)) ?? path.basename(p, '.tflite');
};
const formOf = (p) => (/\.(int8|int16x8|float16|keep8)\.tflite$/.exec(p)?.[1] ?? 'float32');

const rows = [];
const seen = new Set();
for (const f of files) {
  for (const line of fs.readFileSync(f, 'utf8').trim().split('\n')) {
    const t = JSON.parse(line);
    if (t.error || !(t.ms > 0) || seen.has(t.model)) continue;
    seen.add(t.model);
    let j;
    try {
      j = JSON.parse(execFileSync(qforge, ['inspect', t.model, '--json', '--runtime', 'litert'], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] }));
    } catch { continue; }
    const feat = j.runtime?.features;
    if (!feat) continue;
    rows.push({ model: t.model, group: groupOf(t.model), form: formOf(t.model), ms: t.ms, x: NAMES.map((n) => feat[n]) });
  }
}
if (rows.length < NAMES.length) {
  console.error(`fit: ${rows.length} timed models, too few`);
  process.exit(1);
}

// Non-negative least squares of the relative error, by coordinate descent on
// the normal equations of columns scaled to unit norm.
function fit(data) {
  const n = NAMES.length;
  const A = data.map((r) => r.x.map((v) => v / r.ms));  // rows scaled by 1/measured
  const b = data.map(() => 1);
  const norm = Array.from({ length: n }, (_, k) => Math.sqrt(A.reduce((s, a) => s + a[k] * a[k], 0)) || 1);
  const As = A.map((a) => a.map((v, k) => v / norm[k]));
  const G = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, k) => As.reduce((s, a) => s + a[i] * a[k], 0)));
  const c = Array.from({ length: n }, (_, i) => As.reduce((s, a, r) => s + a[i] * b[r], 0));
  const w = new Array(n).fill(0);
  for (let iter = 0; iter < 20000; iter++) {
    let change = 0;
    for (let i = 0; i < n; i++) {
      if (G[i][i] === 0) continue;
      let g = c[i];
      for (let k = 0; k < n; k++) if (k !== i) g -= G[i][k] * w[k];
      const v = Math.max(0, g / G[i][i]);
      change = Math.max(change, Math.abs(v - w[i]));
      w[i] = v;
    }
    if (change < 1e-12) break;
  }
  return w.map((v, k) => v / norm[k]);
}
const estimate = (w, x) => x.reduce((s, v, k) => s + v * w[k], 0);

const w = fit(rows);
// Leave one model (all its forms) out.
const groups = [...new Set(rows.map((r) => r.group))];
for (const g of groups) {
  const wg = fit(rows.filter((r) => r.group !== g));
  for (const r of rows) if (r.group === g) r.held_out = estimate(wg, r.x);
}
for (const r of rows) r.fitted = estimate(w, r.x);

const ranks = (v) => {
  const idx = v.map((x, i) => [x, i]).sort((a, b) => a[0] - b[0]);
  const rk = new Array(v.length);
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j + 1 < idx.length && idx[j + 1][0] === idx[i][0]) j++;
    for (let k = i; k <= j; k++) rk[idx[k][1]] = (i + j) / 2;
    i = j + 1;
  }
  return rk;
};
const spearman = (a, b) => {
  const ra = ranks(a), rb = ranks(b), n = a.length, ma = (n - 1) / 2;
  let num = 0, da = 0, db = 0;
  for (let i = 0; i < n; i++) { num += (ra[i] - ma) * (rb[i] - ma); da += (ra[i] - ma) ** 2; db += (rb[i] - ma) ** 2; }
  return num / Math.sqrt(da * db);
};
const quantile = (v, q) => { const s = [...v].sort((a, b) => a - b); const p = (s.length - 1) * q; const lo = Math.floor(p); return s[lo] + (s[Math.ceil(p)] - s[lo]) * (p - lo); };
// Within each model: pairs of forms the estimate orders as the measurement
// does (pairs whose measured times differ by less than 10% are ties: left out).
function pairOrder(key) {
  let right = 0, total = 0;
  for (const g of groups) {
    const rs = rows.filter((r) => r.group === g);
    for (let i = 0; i < rs.length; i++) for (let k = i + 1; k < rs.length; k++) {
      const a = rs[i], b = rs[k];
      if (Math.abs(a.ms - b.ms) < 0.1 * Math.min(a.ms, b.ms)) continue;
      total++;
      if ((a.ms < b.ms) === (a[key] < b[key])) right++;
    }
  }
  return { right, total };
}
const stats = (key) => {
  const ratio = rows.map((r) => r[key] / r.ms);
  const order = pairOrder(key);
  return {
    spearman: spearman(rows.map((r) => r.ms), rows.map((r) => r[key])),
    ratio_min: Math.min(...ratio), ratio_p10: quantile(ratio, 0.1), ratio_median: quantile(ratio, 0.5),
    ratio_p90: quantile(ratio, 0.9), ratio_max: Math.max(...ratio),
    forms_ordered: order.right, form_pairs: order.total,
  };
};
const result = { models: groups.length, forms: rows.length, coefficients: Object.fromEntries(NAMES.map((n, k) => [n, w[k]])), fitted: stats('fitted'), held_out: stats('held_out'), rows };
fs.writeFileSync(path.join(here, 'fit.json'), JSON.stringify(result, null, 1) + '\n');

const f3 = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
const line = (s) => `Spearman ${s.spearman.toFixed(3)}; estimate / measured: median ${s.ratio_median.toFixed(2)}, 10-90% ${s.ratio_p10.toFixed(2)}-${s.ratio_p90.toFixed(2)}, range ${s.ratio_min.toFixed(2)}-${s.ratio_max.toFixed(2)}; forms of one model ordered as measured: ${s.forms_ordered} of ${s.form_pairs} pairs`;
let md = `# LiteRT latency model: the fit\n\nGenerated by \`node bench/latency/fit.mjs\` from LiteRT.js 2.5.3 timings (SIMD build, one thread, batch 1; medians of interleaved rounds, bench/latency/litert_latency.mjs) of ${groups.length} corpus models in ${rows.length} forms (float32, int8, int16x8, float16 as bench/quant_eval writes them).\n\n`;
md += `- fitted on all: ${line(result.fitted)}\n- each model left out of its own fit: ${line(result.held_out)}\n\n`;
md += '| coefficient | ms per unit |\n| --- | --- |\n' + NAMES.map((n, k) => `| ${n} | ${w[k].toExponential(3)} |`).join('\n') + '\n\n';
md += '| model | form | measured ms | estimate ms | left-out estimate ms |\n| --- | --- | --- | --- | --- |\n';
for (const r of [...rows].sort((a, b) => a.group.localeCompare(b.group) || a.form.localeCompare(b.form))) {
  md += `| ${r.group} | ${r.form} | ${f3(r.ms)} | ${f3(r.fitted)} | ${f3(r.held_out)} |\n`;
}
fs.writeFileSync(path.join(here, 'fit.md'), md);
console.log(`fit: ${groups.length} models, ${rows.length} forms\n  fitted:   ${line(result.fitted)}\n  held out: ${line(result.held_out)}`);
if (write) {
  const inc = ['// Generated by bench/latency/fit.mjs: do not edit. ms per unit of each',
    '// runtime::LatencyFeature, in its order (runtime/latency.h); the fit is',
    '// stated in bench/latency/fit.md.',
    ...NAMES.map((n, k) => `${w[k].toExponential(6)},  // ${n}`)].join('\n') + '\n';
  fs.writeFileSync(path.join(root, 'runtime/latency_fit.inc'), inc);
  console.log('fit: wrote runtime/latency_fit.inc');
}

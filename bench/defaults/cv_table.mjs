// The table of bench/defaults/cv.sh: candidate default range rules scored
// against the official same-weights int8 twins, and chosen by
// leave-one-family-out cross-validation (issue 29). Reads the pooled
// quant_eval results (2-fold, held-out samples) that cv.sh writes.
//   node bench/defaults/cv_table.mjs bench/defaults/cv.json > cv.md
// crossValidate() is exported for bench/results.mjs.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

// The candidates, simplest first: the order breaks ties. A candidate is a
// quant_eval variant (int8+NAME); without --optimize before with it, then
// by how much machinery the method needs (minmax: no histogram; auto: a
// search with a trial per tensor).
export const CANDIDATES = [
  { key: 'minmax', label: 'minmax' },
  { key: 'percentile', label: 'percentile:99.99' },
  { key: 'mse', label: 'mse', current: true },
  { key: 'kl', label: 'kl' },
  { key: 'auto', label: 'auto' },
  { key: 'minmax+fast', label: 'minmax +fast' },
  { key: 'percentile+fast', label: 'percentile:99.99 +fast' },
  { key: 'mse+fast', label: 'mse +fast' },
  { key: 'kl+fast', label: 'kl +fast' },
];

// Families by origin: who trained the model and converted its twin. MLPerf
// Tiny's three benchmarks are three families: each has its own data set,
// training code and converter run (TF 2.3 for the anomaly detector), so
// holding one out holds out everything its models share. `coarse`: by
// repository alone, the check grouping.
export const FAMILIES = {
  hello_world_no_quant: { family: 'TFLite Micro examples', coarse: 'TFLite Micro' },
  trained_lstm: { family: 'TFLite Micro examples', coarse: 'TFLite Micro' },
  vww_96: { family: 'MLPerf Tiny VWW', coarse: 'MLPerf Tiny' },
  vww_96_14blk: { family: 'MLPerf Tiny VWW', coarse: 'MLPerf Tiny' },
  pretrainedResnet: { family: 'MLPerf Tiny image classification', coarse: 'MLPerf Tiny' },
  trainedResnet_6blk: { family: 'MLPerf Tiny image classification', coarse: 'MLPerf Tiny' },
  model_ToyCar: { family: 'MLPerf Tiny anomaly detection', coarse: 'MLPerf Tiny' },
};

// A change of default must beat the current one on the held-out families
// by the mean, and lose at most this much on the worst pair.
export const WORST_SLACK_DB = 0.5;

const num = (v) => (typeof v === 'string' ? Number(v.replace('inf', 'Infinity')) : v);
const mean = (v) => v.reduce((a, b) => a + b, 0) / v.length;
// Ties are judged on the means as printed.
const r2 = (x) => Math.round(x * 100) / 100;

/** The pairs (model, same-weights int8 twin) with every candidate's Δ = ours − twin (dB). */
export function pairs(results) {
  const out = [];
  for (const m of results.models) {
    for (const t of m.twins ?? []) {
      if (t.gate !== 'int8') continue;
      const fam = FAMILIES[m.id];
      if (!fam) throw new Error(`${m.id}: no family in cv_table.mjs`);
      const twin = t.ok ? num(t.sqnr_db) : t.alt?.ok ? num(t.alt.sqnr_db) : null;
      if (!Number.isFinite(twin)) throw new Error(`${m.id}: twin ${t.path} not measured`);
      const delta = {}, db = {}, ms = {};
      for (const c of CANDIDATES) {
        const s = m.schemes?.[`int8+${c.key}`];
        if (!s?.ok || !Number.isFinite(num(s.sqnr_db))) throw new Error(`${m.id}: candidate ${c.key} not measured`);
        db[c.key] = num(s.sqnr_db);
        delta[c.key] = db[c.key] - twin;
        ms[c.key] = s.quantize?.ms ?? null;
      }
      const twinName = t.path.split('/').pop().replace(/\.tflite$/, '');
      out.push({ model: m.id, twin: twinName, tfjs: !t.ok, twin_db: twin, ...fam, delta, db, ms,
        plain_db: num(m.schemes?.int8?.sqnr_db) });
    }
  }
  return out;
}

/** The candidate of `keys` with the best mean Δ over `ps` (ties, as printed: the simpler). */
function choose(ps, keys) {
  let best = null;
  for (const c of CANDIDATES.filter((x) => keys.includes(x.key))) {
    const d = r2(mean(ps.map((p) => p.delta[c.key])));
    if (best === null || d > best.mean) best = { key: c.key, mean: d };
  }
  return best;
}

/** Leave-one-family-out over the grouping `by` ('family' or 'coarse'), choosing among `keys`. */
export function leaveOneOut(ps, by, keys = CANDIDATES.map((c) => c.key)) {
  const fams = [...new Set(ps.map((p) => p[by]))];
  const rows = fams.map((f) => {
    const held = ps.filter((p) => p[by] === f);
    const chosen = choose(ps.filter((p) => p[by] !== f), keys);
    const d = held.map((p) => p.delta[chosen.key]);
    const cur = held.map((p) => p.delta.mse);
    return { family: f, pairs: held.length, chosen: chosen.key, train_mean: chosen.mean,
      held_mean: mean(d), held_worst: Math.min(...d), current_mean: mean(cur), current_worst: Math.min(...cur) };
  });
  // Every pair is held out once: pooled over pairs, as the current default's.
  const held = rows.flatMap((r) => ps.filter((p) => p[by] === r.family).map((p) => p.delta[r.chosen]));
  const cur = ps.map((p) => p.delta.mse);
  const all = choose(ps, keys);
  const summary = { held_mean: mean(held), held_worst: Math.min(...held), current_mean: mean(cur), current_worst: Math.min(...cur),
    chosen_all: all.key, chosen_all_mean: all.mean };
  summary.change = all.key !== 'mse' && summary.held_mean > summary.current_mean &&
    summary.held_worst >= summary.current_worst - WORST_SLACK_DB;
  return { rows, summary };
}

export function crossValidate(results) {
  const ps = pairs(results);
  const fine = leaveOneOut(ps, 'family');
  const coarse = leaveOneOut(ps, 'coarse');
  // The two questions apart, after the fact (not the decision rule): the
  // method alone, without --optimize (auto aside: its cost), and
  // --optimize fast alone with today's method.
  const apart = [
    ['the method alone (no --optimize; minmax, percentile:99.99, mse, kl)', ['minmax', 'percentile', 'mse', 'kl']],
    ['--optimize fast alone (mse with or without it)', ['mse', 'mse+fast']],
  ].map(([what, keys]) => ({ what, fine: leaveOneOut(ps, 'family', keys).summary, coarse: leaveOneOut(ps, 'coarse', keys).summary,
    fine_rows: leaveOneOut(ps, 'family', keys).rows, coarse_rows: leaveOneOut(ps, 'coarse', keys).rows }));
  return { pairs: ps, fine, coarse, apart, change: fine.summary.change && coarse.summary.change };
}

const label = (k) => CANDIDATES.find((c) => c.key === k).label;
const f2 = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;

function render(results) {
  const cv = crossValidate(results);
  const { pairs: ps } = cv;
  const meta = results.meta ?? {};
  const lines = [];
  lines.push('Candidate defaults against the official int8 twins of the same weights, chosen by leave-one-family-out cross-validation.');
  lines.push('');
  lines.push('Protocol. Every corpus model with an official int8 twin of the same weights and real data (bench/quant_eval/models.mjs) is ' +
    'quantized to int8 by each candidate (`qforge quantize --data` on the calibration samples, with the candidate\'s `--method` and ' +
    '`--optimize`), 2-fold: each half of the samples calibrates once and is evaluated once, and every SQNR pools both folds. ' +
    'Output SQNR against the float model, in LiteRT, on the held-out samples; the twin runs on the same samples. ' +
    'A candidate\'s score on a pair is Δ = ours − twin (dB). For each family F, the candidate with the best mean Δ over the pairs ' +
    'of the other families is chosen (ties at 0.01 dB: the simpler, in the column order) and its Δ on F\'s pairs recorded. ' +
    `The default changes only if the candidate chosen on all families differs from today's (mse) and, held out, beats it: a better mean Δ, ` +
    `and a worst pair at most ${WORST_SLACK_DB} dB below today's worst; under both groupings (by family, and by repository alone).`);
  lines.push('');
  lines.push(`Measured ${meta.date ?? '?'} with ${meta.qforge ?? 'qforge'}; machine load (1/5/15-minute averages, 2 cores) ` +
    `${meta.load_start ?? '?'} at the start, ${meta.load_end ?? '?'} at the end.`);
  lines.push('');
  lines.push(`| pair | family | twin dB | ${CANDIDATES.map((c) => (c.current ? `${c.label} (default)` : c.label)).join(' | ')} |`);
  lines.push(`| --- | --- | --- | ${CANDIDATES.map(() => '---').join(' | ')} |`);
  for (const p of ps) {
    lines.push(`| ${p.model} / ${p.twin}${p.tfjs ? ' (tfjs)' : ''} | ${p.family} | ${p.twin_db.toFixed(1)} | ` +
      `${CANDIDATES.map((c) => f2(p.delta[c.key])).join(' | ')} |`);
  }
  lines.push(`| mean over ${ps.length} pairs | | | ${CANDIDATES.map((c) => f2(mean(ps.map((p) => p.delta[c.key])))).join(' | ')} |`);
  lines.push(`| worst | | | ${CANDIDATES.map((c) => f2(Math.min(...ps.map((p) => p.delta[c.key])))).join(' | ')} |`);
  // Cost: the quantize time (it calibrates itself) over mse's, per model.
  const models = [...new Map(ps.map((p) => [p.model, p])).values()];
  lines.push(`| quantize time / mse's, median over ${models.length} models | | | ${CANDIDATES.map((c) => {
    const r = models.map((p) => p.ms[c.key] / p.ms.mse).sort((a, b) => a - b);
    return `${r[Math.floor(r.length / 2)].toFixed(2)}x`;
  }).join(' | ')} |`);
  // The default's own route (calibrate --histogram-stride 1, then quantize
  // --stats) must give the mse column: the same statistics and method.
  const same = models.filter((p) => p.plain_db === p.db.mse).length;
  lines.push('');
  lines.push(`calibrate --histogram-stride 1 + quantize --stats (today's default route, mse) gives the mse column's SQNR exactly on ${same} of ${models.length} models.`);
  for (const [name, g] of [['by family', cv.fine], ['by repository alone (check)', cv.coarse]]) {
    lines.push('');
    lines.push(`Held out, ${name}:`);
    lines.push('');
    lines.push('| held-out family | pairs | chosen on the other families (their mean Δ) | held-out Δ mean | held-out Δ worst | default mse: mean | default mse: worst |');
    lines.push('| --- | --- | --- | --- | --- | --- | --- |');
    for (const r of g.rows) {
      lines.push(`| ${r.family} | ${r.pairs} | ${label(r.chosen)} (${f2(r.train_mean)}) | ${f2(r.held_mean)} | ${f2(r.held_worst)} | ` +
        `${f2(r.current_mean)} | ${f2(r.current_worst)} |`);
    }
    const s = g.summary;
    lines.push(`| every pair held out once | ${ps.length} | | ${f2(s.held_mean)} | ${f2(s.held_worst)} | ${f2(s.current_mean)} | ${f2(s.current_worst)} |`);
  }
  lines.push('');
  lines.push('The two questions apart, after the fact (not part of the decision rule): the same protocol choosing among fewer candidates.');
  lines.push('');
  lines.push('| candidates | grouping | chosen per held-out family | held-out Δ mean | held-out Δ worst | chosen on all |');
  lines.push('| --- | --- | --- | --- | --- | --- |');
  for (const a of cv.apart) {
    for (const [g, s, rows] of [['by family', a.fine, a.fine_rows], ['by repository', a.coarse, a.coarse_rows]]) {
      lines.push(`| ${a.what} | ${g} | ${rows.map((r) => `${r.family}: ${label(r.chosen)}`).join('; ')} | ${f2(s.held_mean)} | ${f2(s.held_worst)} | ${label(s.chosen_all)} |`);
    }
  }
  const s = cv.fine.summary;
  lines.push('');
  lines.push(`Held out by family: mean Δ ${f2(s.held_mean)} dB, worst ${f2(s.held_worst)}; the default mse on every pair: mean ${f2(s.current_mean)}, ` +
    `worst ${f2(s.current_worst)}. Chosen on all families: ${label(s.chosen_all)} (mean Δ ${f2(s.chosen_all_mean)}). ` +
    `By repository alone: mean ${f2(cv.coarse.summary.held_mean)}, worst ${f2(cv.coarse.summary.held_worst)}. ` +
    (cv.change ? `Decision: the default changes to ${label(s.chosen_all)}.`
      : `Decision: the default stays mse without --optimize (the rule ${s.change ? 'holds by family but fails by repository alone' : 'fails'}).`));
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: node bench/defaults/cv_table.mjs CV.json\n');
    process.exit(2);
  }
  console.log(render(JSON.parse(fs.readFileSync(file, 'utf8'))));
}

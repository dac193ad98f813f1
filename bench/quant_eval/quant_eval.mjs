#!/usr/bin/env node
// Quantization that LiteRT runs: for every real float model of the corpus
// (models.mjs), calibrate on real data, quantize with each scheme, run the
// float model and every quantized model in LiteRT (the oracle; tfjs-tflite for
// models with state, as tests/interop does) on the same held-out evaluation
// inputs, and report whether LiteRT loads and runs each, the output SQNR
// against the float model, top-1 agreement for classifiers, sizes and the ops
// kept float. The official quantized twins run on the same inputs for
// comparison (gates: our int8 within 1 dB of a same-weights int8 twin; our
// dynamic-range model no worse than a same-weights dynamic-range twin).
//
//   node bench/quant_eval/quant_eval.mjs [--quick] [--qforge BIN] [--make-inputs BIN]
//        [--corpus DIR] [--schemes int8,int16x8,dynamic,float16] [--method M]
//        [--histogram-stride N] (qforge calibrate's; default 1: every value,
//        so that percentile/kl/mse see whole tensors)
//        [--filter REGEX] [--jobs 2] [--timeout 180] [--out DIR] [--work DIR] [--keep]
//
// --quick: the starter set (corpus README 7a), int8 only, int8 twins only.
// Writes OUT/results.md (also printed) and OUT/results.json (OUT defaults to
// this folder; --quick writes results_quick.*). Exit code 1 when a quantized
// model fails to quantize or to load/run in LiteRT, or a twin gate fails;
// 2 on usage errors; else 0.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseModel, hasState } from '../../tests/interop/lib/tflite.mjs';
import { runtimeLabel } from '../../tests/interop/lib/engines.mjs';
import { FloatRunner } from '../../tests/interop/lib/float_runner.mjs';
import { buildInputs, modelInputs, runProgram, InputError } from '../../tests/interop/lib/float_inputs.mjs';
import { MODELS } from './models.mjs';
import { outputValues, quantizeInput, sqnr, top1, distinctTop1 } from './metrics.mjs';
import { writeDataNpy, calibrate, quantize, inspect } from './qforge_steps.mjs';
import { renderMarkdown } from './report.mjs';
import { resultsJson } from './results_json.mjs';
import { writeWithLogits } from './expose.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const SCHEMES = ['int8', 'int16x8', 'dynamic', 'float16'];
const USAGE = 'usage: node bench/quant_eval/quant_eval.mjs [--quick] [--qforge BIN] [--make-inputs BIN] [--corpus DIR] [--schemes LIST] [--method M] [--histogram-stride N] [--filter REGEX] [--variant NAME=OPTIONS] [--variant-qforge NAME=BIN] [--jobs N] [--timeout S] [--out DIR] [--work DIR] [--keep] [--swap-halves]';

function usage(msg) {
  process.stderr.write(`quant_eval: ${msg}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const a = { qforge: path.join(root, 'build/cmd/qforge'), corpus: path.resolve(root, '../shared/corpus'), jobs: Math.min(2, os.cpus().length), timeout: 180, out: here, variants: [], variantQforge: {}, variantThreads: 1 };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${k} needs a value`));
    if (k === '--quick') a.quick = true;
    else if (k === '--qforge') a.qforge = path.resolve(value());
    else if (k === '--make-inputs') a.makeInputs = path.resolve(value());
    else if (k === '--corpus') a.corpus = path.resolve(value());
    else if (k === '--schemes') a.schemes = value().split(',').filter(Boolean);
    // --variant NAME='--equalize --adaround': int8 with these options too.
    else if (k === '--variant') { const v = value(); const i = v.indexOf('='); if (i <= 0) usage(`--variant ${v}: expected NAME=OPTIONS`); a.variants.push([v.slice(0, i), v.slice(i + 1).split(' ').filter(Boolean)]); }
    // --variant-qforge NAME=BIN: run variant NAME with another qforge binary
    // (an older build, for before/after tables).
    else if (k === '--variant-qforge') { const v = value(); const i = v.indexOf('='); if (i <= 0) usage(`--variant-qforge ${v}: expected NAME=BIN`); a.variantQforge[v.slice(0, i)] = path.resolve(v.slice(i + 1)); }
    else if (k === '--variant-threads') a.variantThreads = Number(value());
    else if (k === '--method') a.method = value();
    else if (k === '--histogram-stride') a.histogramStride = Number(value());
    else if (k === '--filter') a.filter = new RegExp(value());
    else if (k === '--jobs') a.jobs = Number(value());
    else if (k === '--timeout') a.timeout = Number(value());
    else if (k === '--out') a.out = path.resolve(value());
    else if (k === '--work') a.work = path.resolve(value());
    else if (k === '--keep') a.keep = true;
    // The second fold of a 2-fold cross-validation: every model calibrates
    // on its evaluation samples and is evaluated on its calibration ones
    // (merge_folds.mjs pools the two runs).
    else if (k === '--swap-halves') a.swapHalves = true;
    else if (k === '--help' || k === '-h') { process.stdout.write(USAGE + '\n'); process.exit(0); }
    else usage(`unexpected argument ${k}`);
  }
  a.schemes ??= a.quick ? ['int8'] : SCHEMES;
  for (const s of a.schemes) if (!SCHEMES.includes(s)) usage(`unknown scheme ${s} (${SCHEMES.join(', ')})`);
  if (!fs.existsSync(a.qforge)) usage(`${a.qforge} does not exist (build it: make -C build -j2 qforge)`);
  if (!fs.existsSync(path.join(a.corpus, 'models'))) usage(`${a.corpus}/models does not exist (--corpus)`);
  if (!Number.isInteger(a.jobs) || a.jobs < 1) usage('--jobs must be >= 1');
  if (!(a.timeout > 0)) usage('--timeout must be > 0');
  return a;
}

/** qforge_make_inputs: given, next to the build's tests, else built from tests/interop/make_inputs.cc into the work dir. */
async function findMakeInputs(a, work) {
  if (a.makeInputs) {
    if (!fs.existsSync(a.makeInputs)) usage(`${a.makeInputs} does not exist`);
    return a.makeInputs;
  }
  const built = path.resolve(path.dirname(a.qforge), '../tests/qforge_make_inputs');
  if (fs.existsSync(built)) return built;
  const out = path.join(work, 'bin/qforge_make_inputs');
  const r = await runProgram('bash', [path.join(here, 'build_make_inputs.sh'), path.resolve(path.dirname(a.qforge), '..'), out], 600000);
  if (r.code !== 0) throw new Error(`cannot build qforge_make_inputs: ${r.stderr.trim()}`);
  return out;
}

const prod = (s) => s.reduce((x, y) => x * y, 1);
const sampleSlice = (inputs, lo, hi) => inputs.map((x) => ({ ...x, samples: x.samples.slice(lo, hi) }));

/** A model's data with calibration and evaluation sides exchanged (--swap-halves). */
function swapHalves(d) {
  if (d.kind === 'random') return { ...d, calibSeed: d.evalSeed, evalSeed: d.calibSeed, calibN: d.evalN, evalN: d.calibN };
  if (d.pool) return { ...d, swapped: true };
  return { ...d, calib: d.eval, eval: d.calib };
}

/** Calibration and evaluation inputs of a model (lib/float_inputs.mjs format). */
async function makeData(m, fb, modelPath, a, workDir) {
  const d = a.swapHalves ? swapHalves(m.data) : m.data;
  const common = { rel: m.model, corpus: a.corpus, model: modelPath, makeInputs: a.makeInputs, timeoutMs: a.timeout * 1000 };
  const side = async (recipe, samples, seed, sub) => {
    const dir = path.join(workDir, sub);
    fs.mkdirSync(dir, { recursive: true });
    return (await buildInputs(fb, { ...common, recipe, samples, seed, workDir: dir })).inputs;
  };
  let calib, evalIn;
  if (d.kind === 'random') {
    calib = await side({ kind: 'random', range: d.range }, d.calibN, d.calibSeed, 'calib');
    evalIn = await side({ kind: 'random', range: d.range }, d.evalN, d.evalSeed, 'eval');
  } else if (d.pool) {
    const all = await side({ kind: 'qforge-data', specs: d.pool, flags: d.flags }, 100000, 0, 'pool');
    const n = all[0].samples.length, half = Math.floor(n / 2);
    calib = sampleSlice(all, 0, half);
    evalIn = sampleSlice(all, half, n);
    if (d.swapped) [calib, evalIn] = [evalIn, calib];
  } else {
    calib = await side({ kind: 'qforge-data', specs: d.calib, flags: d.flags }, m.maxCalib ?? 100000, 0, 'calib');
    evalIn = await side({ kind: 'qforge-data', specs: d.eval, flags: d.flags }, m.maxEval ?? 100000, 0, 'eval');
  }
  if (m.maxCalib) calib = sampleSlice(calib, 0, m.maxCalib);
  if (m.maxEval) evalIn = sampleSlice(evalIn, 0, m.maxEval);
  return { calib, eval: evalIn };
}

/**
 * Feeds for `fb` (the float model, a qforge output or a twin): the evaluation
 * samples by input position, converted to the model's input dtype (quantized
 * with its input scale/zero point when it takes integers).
 */
function feedsFor(fb, evalInputs) {
  const ins = modelInputs(fb);
  if (ins.length !== evalInputs.length) throw new Error(`the model has ${ins.length} inputs, the float model ${evalInputs.length}`);
  return ins.map((x, k) => {
    const src = evalInputs[k];
    if (prod(x.shape) !== prod(src.shape)) throw new Error(`input ${k} '${x.name}' is ${JSON.stringify(x.shape)}, the float model's ${JSON.stringify(src.shape)}`);
    const q = fb.subgraphs[0].tensors[x.tensor_index].quantization;
    const samples = x.dtype === src.dtype ? src.samples : src.samples.map((b) => quantizeInput(b, x.dtype, q));
    return { ...x, shape: src.shape.length === x.shape.length ? x.shape : src.shape, samples };
  });
}

/** A runner reply -> { names, values: [[Float64Array per output] per sample] } (integer outputs dequantized). */
function collect(reply, fb) {
  const sgIndex = reply.runtime === 'litert' ? (fb.signatures[0]?.subgraph ?? 0) : 0;
  const tensors = fb.subgraphs[sgIndex].tensors;
  const values = [];
  const names = [];
  for (const o of reply.outputs) {
    const s = o.sample ?? 0;
    values[s] ??= [];
    if (s === 0) names.push(o.name);
    values[s].push(outputValues(o.dtype, o.bytes, tensors[o.tensor_index]?.quantization));
  }
  return { names, values };
}

/** Reorders `test` outputs to the reference's order: by name when the names match one to one, else by position. */
function align(ref, test) {
  if (test.names.length !== ref.names.length) throw new Error(`${test.names.length} outputs, the float model has ${ref.names.length}`);
  const perm = ref.names.map((n) => test.names.indexOf(n));
  const byName = perm.every((p) => p >= 0) && new Set(perm).size === perm.length;
  return byName ? test.values.map((outs) => perm.map((p) => outs[p])) : test.values;
}

/** Runs one model on the evaluation inputs; compares with the reference. */
async function evaluate(runner, file, runtime, evalInputs, ref, classifier) {
  const fb = parseModel(new Uint8Array(fs.readFileSync(file)));
  const feeds = feedsFor(fb, evalInputs);
  let reply = await runner.runInputs(file, runtime, feeds);
  const out = { runtime, ok: reply.ok };
  if (!reply.ok) {
    out.error = `${reply.kind}: ${reply.error}`;
    if (runtime !== 'litert') return out;
    // LiteRT refused it: tfjs-tflite (older TFLite) still tells how accurate it is.
    const alt = await runner.runInputs(file, 'tfjs-tflite', feeds);
    if (!alt.ok) { out.alt = { runtime: 'tfjs-tflite', ok: false, error: `${alt.kind}: ${alt.error}` }; return out; }
    reply = alt;
    out.alt = { runtime: 'tfjs-tflite', ok: true };
  }
  const vals = align(ref, collect(reply, fb));
  const s = sqnr(ref.values, vals);
  const res = { sqnr_db: s.db, per_output_db: s.per_output, nonfinite: s.nonfinite || undefined, sample_sig: s.sample_sig, sample_err: s.sample_err };
  if (classifier) res.top1 = top1(ref.values, vals);
  if (out.alt) Object.assign(out.alt, res); else Object.assign(out, res);
  return out;
}

/**
 * Classifiers: the logits (the SOFTMAX input) of `file` on the evaluation
 * inputs, from a copy exposing them as an extra output (expose.mjs), as
 * [[Float64Array] per sample] (integer logits dequantized), or null.
 * A 2-class softmax hides common-mode logit errors and exaggerates errors on
 * the few samples near the decision boundary, so the logit SQNR is reported
 * next to the output SQNR.
 */
async function logits(runner, file, runtime, evalInputs, workDir) {
  const copy = writeWithLogits(file, path.join(workDir, `${path.basename(file, '.tflite')}.logits.tflite`));
  if (!copy) return null;
  const fb = parseModel(new Uint8Array(fs.readFileSync(copy)));
  let reply = await runner.runInputs(copy, runtime, feedsFor(fb, evalInputs));
  if (!reply.ok && runtime === 'litert') reply = await runner.runInputs(copy, 'tfjs-tflite', feedsFor(fb, evalInputs));
  if (!reply.ok) return null;
  return collect(reply, fb).values.map((outs) => [outs[outs.length - 1]]);
}

async function evalModel(m, runner, a, work) {
  const t0 = performance.now();
  const modelPath = path.join(a.corpus, m.model);
  const res = { id: m.id, model: m.model, starter: !!m.starter, classifier: !!m.classifier, data: m.data?.note, schemes: {}, twins: [] };
  const workDir = path.join(work, m.id);
  fs.mkdirSync(workDir, { recursive: true });
  const done = (status, reason) => Object.assign(res, { status, reason, seconds: +((performance.now() - t0) / 1000).toFixed(1) });
  if (m.skip) return done('skipped', m.skip);
  if (!fs.existsSync(modelPath)) return done('skipped', `${m.model} not in the corpus`);
  const fb = parseModel(new Uint8Array(fs.readFileSync(modelPath)));
  res.float_bytes = fs.statSync(modelPath).size;
  let data;
  try {
    data = await makeData(m, fb, modelPath, a, workDir);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return done('error', `inputs: ${e.message}`);
  }
  res.calib_samples = data.calib[0].samples.length;
  res.eval_samples = data.eval[0].samples.length;

  // The float reference, in the oracle (tfjs-tflite for models with state).
  const runtime = hasState(fb) ? 'tfjs-tflite' : 'litert';
  res.runtime = runtime;
  const refReply = await runner.runInputs(modelPath, runtime, feedsFor(fb, data.eval));
  if (!refReply.ok) return done('skipped', `${runtime} cannot run the float model: ${refReply.kind}: ${refReply.error}`);
  const ref = collect(refReply, fb);
  res.outputs = ref.names;
  if (m.classifier) res.float_classes = distinctTop1(ref.values);
  const refLogits = m.classifier ? await logits(runner, modelPath, runtime, data.eval, workDir) : null;
  const logitDb = async (file, where) => {
    if (!refLogits) return;
    const l = await logits(runner, file, runtime, data.eval, workDir);
    if (l) where.logits_sqnr_db = sqnr(refLogits, l).db;
  };

  // Calibration (the static schemes need it; dynamic and float16 do not).
  const stats = path.join(workDir, 'stats.json');
  const calibData = writeDataNpy(data.calib, path.join(workDir, 'calib_npy'));
  const cal = await calibrate(a.qforge, modelPath, calibData, stats, { timeoutMs: a.timeout * 1000, histogramStride: a.histogramStride ?? 1 });
  res.calibrate = { ok: cal.ok, ms: cal.ms, error: cal.ok ? undefined : cal.message, code: cal.code };

  for (const scheme of a.schemes) {
    const r = { scheme };
    res.schemes[scheme] = r;
    const static_ = scheme === 'int8' || scheme === 'int16x8';
    if (static_ && !cal.ok) { r.skipped = `no calibration: ${cal.message}`; continue; }
    const out = path.join(workDir, `${m.id}.${scheme}.tflite`);
    const q = await quantize(a.qforge, modelPath, cal.ok ? stats : null, out, { scheme, method: a.method, timeoutMs: a.timeout * 1000 });
    r.quantize = { ok: q.ok, ms: q.ms, code: q.code, error: q.ok ? undefined : q.message };
    if (!q.ok) continue;
    Object.assign(r, { ops_quantized: q.summary.quantized, ops_float: q.summary.kept_float, float_ops: q.summary.float_ops });
    r.bytes = fs.statSync(out).size;
    r.state = (await inspect(a.qforge, out, { timeoutMs: 60000 }))?.quantization_state ?? null;
    r.file = out;
    Object.assign(r, await evaluate(runner, out, runtime, data.eval, ref, m.classifier));
    if (scheme === 'int8') await logitDb(out, r);
  }

  // Variants: int8 with extra quantize options (weight recovery), which
  // calibrate on the same calibration samples themselves (--data).
  for (const [name, extra] of a.variants) {
    // A variant whose options start with --scheme S (a weight form:
    // bench/weights) quantizes in S with the statistics, as the schemes do.
    if (extra[0] === '--scheme' && extra.length > 1) {
      const r = { scheme: extra[1], variant: name, args: extra.join(' ') };
      res.schemes[`${extra[1]}+${name}`] = r;
      const out = path.join(workDir, `${m.id}.${name}.tflite`);
      // Weight rounding (--gptq, --awq, --weight-clip, --optimize) fits on
      // the calibration samples itself (--data, not --stats).
      const rounds = extra.some((x) => ['--gptq', '--awq', '--awq-mul', '--weight-clip', '--optimize'].includes(x));
      const fit = rounds ? [...calibData, '--threads', String(a.variantThreads)] : [];
      const q = await quantize(a.variantQforge[name] ?? a.qforge, modelPath, !rounds && cal.ok ? stats : null, out, { scheme: extra[1], method: a.method, timeoutMs: a.timeout * 1000, extra: [...fit, ...extra.slice(2)] });
      r.quantize = { ok: q.ok, ms: q.ms, code: q.code, error: q.ok ? undefined : q.message };
      if (!q.ok) continue;
      Object.assign(r, { ops_quantized: q.summary.quantized, ops_float: q.summary.kept_float, float_ops: q.summary.float_ops });
      r.bytes = fs.statSync(out).size;
      r.file = out;
      Object.assign(r, await evaluate(runner, out, runtime, data.eval, ref, m.classifier));
      continue;
    }
    const key = `int8+${name}`;
    const r = { scheme: 'int8', variant: name, args: extra.join(' ') };
    res.schemes[key] = r;
    const out = path.join(workDir, `${m.id}.${name}.tflite`);
    const recipe = `${out}.recipe.json`;
    const q = await quantize(a.variantQforge[name] ?? a.qforge, modelPath, null, out, { scheme: 'int8', method: a.method, timeoutMs: a.timeout * 1000, extra: [...calibData, '--threads', String(a.variantThreads), '--save-recipe', recipe, ...extra] });
    r.quantize = { ok: q.ok, ms: q.ms, code: q.code, error: q.ok ? undefined : q.message };
    if (!q.ok && q.stderr) r.quantize.stderr_tail = q.stderr.trim().split('\n').slice(-12).join('\n');
    // --target-sqnr's result on its check samples (every 4th calibration sample).
    const t = /target-sqnr: (-?[\d.]+|inf) dB >= [\d.]+ on (\d+) check samples.* after raising (\d+) ops/.exec(q.stderr ?? '');
    if (t) r.target = { check_db: Number(t[1]), check_samples: Number(t[2]), raised: Number(t[3]) };
    if (!q.ok) continue;
    // How many ops got each precision (the recipe qforge saved).
    r.precisions = {};
    for (const rule of JSON.parse(fs.readFileSync(recipe, 'utf8')).rules) r.precisions[rule.precision] = (r.precisions[rule.precision] ?? 0) + 1;
    Object.assign(r, { ops_quantized: q.summary.quantized, ops_float: q.summary.kept_float, float_ops: q.summary.float_ops });
    r.bytes = fs.statSync(out).size;
    r.file = out;
    Object.assign(r, await evaluate(runner, out, runtime, data.eval, ref, m.classifier));
  }

  for (const t of m.twins ?? []) {
    if (a.quick && t.gate !== 'int8') continue;
    const file = path.join(a.corpus, t.path);
    const tw = { path: t.path, what: t.what, gate: t.gate, bytes: fs.existsSync(file) ? fs.statSync(file).size : null };
    res.twins.push(tw);
    if (!tw.bytes) { tw.ok = false; tw.error = 'not in the corpus'; continue; }
    Object.assign(tw, await evaluate(runner, file, runtime, data.eval, ref, m.classifier));
    await logitDb(file, tw);
    const ours = res.schemes[t.gate === 'dynamic' ? 'dynamic' : 'int8'];
    tw.ours_scheme = t.gate === 'dynamic' ? 'dynamic' : 'int8';
    tw.ours_db = ours?.ok ? ours.sqnr_db : null;
    // The twin's own SQNR: from the oracle, else (a twin LiteRT refuses is not
    // ours to fix) from tfjs-tflite against the same float reference.
    const twinDb = tw.ok ? tw.sqnr_db : tw.alt?.ok ? tw.alt.sqnr_db : null;
    if (t.gate && twinDb !== null && tw.ours_db !== null) {
      tw.delta_db = tw.ours_db - twinDb;
      tw.pass = t.gate === 'int8' ? tw.delta_db >= -1 : tw.delta_db >= 0;
    }
  }
  return done('done');
}

/** The failures that make the exit code 1. */
function failures(results) {
  const out = [];
  for (const r of results) {
    for (const s of Object.values(r.schemes)) {
      if (s.quantize && !s.quantize.ok) out.push(`${r.id} ${s.scheme}: quantize failed: ${s.quantize.error}`);
      else if (s.quantize && !s.ok) out.push(`${r.id} ${s.scheme}: ${r.runtime} cannot run it: ${s.error}`);
    }
    for (const t of r.twins) if (t.pass === false) out.push(`${r.id}: gate vs ${path.basename(t.path)} failed (ours ${t.ours_db?.toFixed(2)} dB, twin ${t.sqnr_db?.toFixed(2)} dB)`);
    if (r.status === 'error') out.push(`${r.id}: ${r.reason}`);
  }
  return out;
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const t0 = performance.now();
  const work = a.work ?? fs.mkdtempSync(path.join(os.tmpdir(), 'quant_eval-'));
  fs.mkdirSync(work, { recursive: true });
  a.makeInputs = await findMakeInputs(a, work);
  // Private copies: a rebuild during the run must not swap the binaries under it.
  fs.mkdirSync(path.join(work, 'bin'), { recursive: true });
  for (const k of ['qforge', 'makeInputs']) {
    const copy = path.join(work, 'bin', `${path.basename(a[k])}.copy`);
    fs.copyFileSync(a[k], copy);
    fs.chmodSync(copy, 0o755);
    a[k] = copy;
  }
  for (const [name, bin] of Object.entries(a.variantQforge)) {
    if (!fs.existsSync(bin)) usage(`--variant-qforge ${name}: ${bin} does not exist`);
    const copy = path.join(work, 'bin', `qforge.${name}.copy`);
    fs.copyFileSync(bin, copy);
    fs.chmodSync(copy, 0o755);
    a.variantQforge[name] = copy;
  }
  let models = MODELS.filter((m) => (!a.quick || m.starter) && (!a.filter || a.filter.test(m.id) || a.filter.test(m.model)));
  if (!models.length) usage('no model matches');
  const labels = { litert: await runtimeLabel('litert'), tfjs: await runtimeLabel('tfjs-tflite') };
  const version = (await runProgram(a.qforge, ['--version'], 10000)).stdout.trim();

  // --jobs models at a time, one runner (worker thread) each; results in table order.
  const results = new Array(models.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(a.jobs, models.length) }, () => new FloatRunner({ timeoutMs: a.timeout * 1000 }));
  await Promise.all(runners.map(async (runner) => {
    while (next < models.length) {
      const i = next++;
      const m = models[i];
      try {
        results[i] = await evalModel(m, runner, a, work);
      } catch (e) {
        results[i] = { id: m.id, model: m.model, status: 'error', reason: `internal: ${e.stack ?? e}`, schemes: {}, twins: [] };
      }
      const r = results[i];
      process.stderr.write(`quant_eval: ${r.id}: ${r.status}${r.reason ? ` (${r.reason.split('\n')[0]})` : ''} ${r.seconds ?? ''}s\n`);
    }
  }));
  await Promise.all(runners.map((r) => r.close()));

  const seconds = (performance.now() - t0) / 1000;
  const meta = {
    date: new Date().toISOString(), quick: !!a.quick, schemes: a.schemes, method: a.method ?? 'default (mse on exact histograms)', histogram_stride: a.histogramStride ?? 1,
    qforge: version, corpus: a.corpus, runtimes: labels, seconds: +seconds.toFixed(1), jobs: a.jobs, cpus: os.cpus().length, swap_halves: !!a.swapHalves,
  };
  const fails = failures(results);
  const base = a.quick ? 'results_quick' : 'results';
  fs.mkdirSync(a.out, { recursive: true });
  // Ops kept float as one line each ("op 27 AVERAGE_POOL_2D: no hybrid kernel"): the file stays small enough to diff.
  const opLine = (f) => `op ${f.subgraph ? `${f.subgraph}:` : ''}${f.index} ${f.op}: ${f.reason}`;
  const strip = (r) => ({ ...r, schemes: Object.fromEntries(Object.entries(r.schemes).map(([k, s]) => [k, { ...s, file: undefined, float_ops: s.float_ops?.map(opLine) }])) });
  fs.writeFileSync(path.join(a.out, `${base}.json`), resultsJson({ meta, failures: fails, models: results.map(strip) }));
  const md = renderMarkdown(meta, results, fails);
  fs.writeFileSync(path.join(a.out, `${base}.md`), md);
  process.stdout.write(md);
  if (!a.keep && !a.work) fs.rmSync(work, { recursive: true, force: true });
  else process.stderr.write(`quant_eval: work files (quantized models, stats, inputs) kept in ${work}\n`);
  process.exit(fails.length ? 1 : 0);
}

main().catch((e) => {
  process.stderr.write(`quant_eval: ${e.stack ?? e}\n`);
  process.exit(2);
});

#!/usr/bin/env node
// Checks qforge's float interpreter against LiteRT: every model runs in both
// on the same input tensors, and every output must agree within
// |a - b| <= tol * max(1, |b|) (a = qforge, b = LiteRT, tol = 1e-4);
// integer and bool outputs must be equal (index outputs of ARG_MAX/ARG_MIN/
// TOPK_V2 that differ only on ties are reported apart, not failed).
//
//   node float_vs_litert.mjs --qforge BIN [--corpus DIR] [--make-inputs BIN]
//        [--samples 2] [--seed 1] [--tol 1e-4] [--timeout 120] [--jobs 1]
//        [--filter REGEX] [--json FILE] [--keep DIR] [--strict]
//        [--quantize int8,int16x8,dynamic,float16] [MODEL.tflite ...]
//
// --quantize: also quantizes every model both runtimes ran, calibrated on
// the same inputs, with each scheme, and runs each written model in LiteRT
// on them: a model qforge writes that LiteRT cannot load or run fails the
// model (docs/legality.md). Exit 3 from quantize (an unsupported model) is
// noted, not failed.
// Models: the ones given, else every models/**/*.tflite of the corpus.
// Inputs (float_cases.mjs): the real data that fits the model per the corpus
// README, made into tensors by qforge_make_inputs (the code `qforge run
// --data` uses); glow's golden inputs; else seeded random values. Both
// runtimes get the very same tensors (.npy for qforge). Up to --samples
// samples per model, each run alone in LiteRT (runtime auto: tfjs-tflite for
// models with state or that LiteRT cannot run).
// A float output beyond the tolerance passes as 'spread' when tfjs-tflite
// (the other TFLite build) is itself about as far from LiteRT on it: qforge
// at most 4 times tfjs-tflite's worst error (--strict: fails instead).
// Prints one line per model, a summary, and the closing line
// `N passed, N failed, N skipped`. Exit code 1 on any mismatch or qforge
// error on a model LiteRT runs, 2 on usage errors, else 0.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseModel } from './lib/tflite.mjs';
import { runtimeLabel } from './lib/engines.mjs';
import { FloatRunner } from './lib/float_runner.mjs';
import { buildInputs, InputError } from './lib/float_inputs.mjs';
import { runQforge, bindingNames } from './lib/qforge_run.mjs';
import { runProgram } from './lib/float_inputs.mjs';
import { compareOutput, compareFloats, floatValues } from './lib/float_compare.mjs';
import { recipeFor } from './float_cases.mjs';
import { summarize } from './lib/float_report.mjs';
import { snapshot } from './lib/snapshot.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const USAGE = 'usage: node float_vs_litert.mjs --qforge BIN [--corpus DIR] [--make-inputs BIN] [--samples 2] [--seed 1] [--tol 1e-4] [--timeout 120] [--jobs 1] [--filter REGEX] [--json FILE] [--keep DIR] [--strict] [--quantize SCHEMES] [MODEL.tflite ...]';

function usage(msg) {
  process.stderr.write(`float_vs_litert: ${msg}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const a = { corpus: path.resolve(here, '../../../shared/corpus'), samples: 2, seed: 1, tol: 1e-4, timeout: 120, jobs: 1, models: [] };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${k} needs a value`));
    if (k === '--qforge') a.qforge = value();
    else if (k === '--corpus') a.corpus = value();
    else if (k === '--make-inputs') a.makeInputs = value();
    else if (k === '--samples') a.samples = Number(value());
    else if (k === '--seed') a.seed = Number(value());
    else if (k === '--tol') a.tol = Number(value());
    else if (k === '--timeout') a.timeout = Number(value());
    else if (k === '--jobs') a.jobs = Number(value());
    else if (k === '--filter') a.filter = new RegExp(value());
    else if (k === '--json') a.json = value();
    else if (k === '--keep') a.keep = value();
    else if (k === '--strict') a.strict = true;
    else if (k === '--quantize') a.quantize = value().split(',').filter(Boolean);
    else if (k === '--help' || k === '-h') { process.stdout.write(USAGE + '\n'); process.exit(0); }
    else if (k.startsWith('-')) usage(`unexpected argument ${k}`);
    else a.models.push(k);
  }
  if (!a.qforge) usage('--qforge is required');
  if (!fs.existsSync(a.qforge)) usage(`${a.qforge} does not exist`);
  if (!Number.isInteger(a.samples) || a.samples < 1 || a.samples > 16) usage('--samples must be 1..16');
  if (!Number.isInteger(a.seed) || a.seed < 0 || a.seed > 0xffffffff) usage('--seed must be an integer in [0, 2^32)');
  if (!(a.tol > 0)) usage('--tol must be > 0');
  if (!(a.timeout > 0)) usage('--timeout must be > 0 seconds');
  if (!Number.isInteger(a.jobs) || a.jobs < 1 || a.jobs > Math.max(1, os.cpus().length)) usage(`--jobs must be 1..${os.cpus().length}`);
  // qforge_make_inputs: given, else next to the build's tests.
  a.makeInputs ??= [path.resolve(path.dirname(a.qforge), '../tests/qforge_make_inputs')].find((f) => fs.existsSync(f));
  if (a.makeInputs && !fs.existsSync(a.makeInputs)) usage(`${a.makeInputs} does not exist`);
  return a;
}

function listModels(a) {
  let models = a.models;
  if (!models.length) {
    if (!fs.existsSync(path.join(a.corpus, 'models'))) usage(`no models given and ${a.corpus}/models does not exist`);
    models = execFileSync('find', [path.join(a.corpus, 'models'), '-name', '*.tflite'], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
  }
  const corpus = path.resolve(a.corpus) + path.sep;
  return models.map((m) => {
    const abs = path.resolve(m);
    return { path: abs, rel: abs.startsWith(corpus) ? abs.slice(corpus.length) : m };
  }).filter((m) => !a.filter || a.filter.test(m.rel));
}

const fmt = (v) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toPrecision(7)) : String(v));
const sameShape = (x, y) => x.length === y.length && x.every((d, i) => d === y[i]);

// qforge's output shape for one sample: as LiteRT's when it ran alone; in a
// batched run [N, ...shape], or [N, ...shape[1:]] for a batch-1 output.
function shapeAgrees(q, l) {
  if (q.stacked === 1) return sameShape(q.shape, l);
  return q.shape[0] === q.stacked && (sameShape(q.shape.slice(1), l) || (l[0] === 1 && sameShape(q.shape.slice(1), l.slice(1))));
}

/** Compares every LiteRT output with qforge's. Returns the model's result fields. */
function compareModel(fb, lit, qf, inputs, tol) {
  const sg = fb.subgraphs[0];
  let worst = null;
  const problems = [], ties = [];
  const passthrough = new Set();
  let elements = 0;
  for (let l of lit.outputs) {
    const k = sg.outputs.indexOf(l.tensor_index);
    const where = { output: k, name: l.name, sample: l.sample, tensor_index: l.tensor_index };
    if (k < 0) { problems.push({ ...where, what: `LiteRT output '${l.name}' (tensor ${l.tensor_index}) is not an output of subgraph 0` }); continue; }
    // An output that is a model input: LiteRT.js leaves it unwritten, so the
    // input fed is what qforge must return.
    if (sg.inputs.includes(l.tensor_index)) {
      const x = inputs.find((i) => i.tensor_index === l.tensor_index);
      l = { ...l, bytes: x.samples[l.sample], passthrough: true };
      passthrough.add(l.name);
    }
    const q = qf.outputs[k]?.[l.sample];
    if (!q) { problems.push({ ...where, what: 'qforge wrote no such output' }); continue; }
    if (q.dtype !== l.dtype) { problems.push({ ...where, what: `dtype: qforge ${q.dtype}, LiteRT ${l.dtype}` }); continue; }
    if (!shapeAgrees(q, l.shape) || q.bytes.byteLength !== l.bytes.byteLength) {
      problems.push({ ...where, what: `shape: qforge ${JSON.stringify(q.shape)}${q.stacked > 1 ? ` (${q.stacked} samples stacked)` : ''}, LiteRT ${JSON.stringify(l.shape)}` });
      continue;
    }
    // Values of model inputs and outputs of this sample, for tie checks.
    const visible = (ti, side) => {
      const x = inputs.find((i) => i.tensor_index === ti);
      if (x) return { values: floatValues(x.dtype, x.samples[l.sample]), shape: x.shape };
      const j = sg.outputs.indexOf(ti);
      if (j < 0) return null;
      const o = side === 'qforge' ? qf.outputs[j]?.[l.sample] : lit.outputs.find((m) => m.tensor_index === ti && m.sample === l.sample);
      const v = o && floatValues(o.dtype, o.bytes);
      return v ? { values: v, shape: side === 'qforge' ? lit.outputs.find((m) => m.tensor_index === ti)?.shape : o.shape } : null;
    };
    const c = compareOutput(fb, l.tensor_index, q, l, visible, tol);
    elements += c.elements;
    if (c.kind === 'float' && c.worst && (!worst || c.worst.err > worst.err)) worst = { ...where, ...c.worst };
    if (c.ties) ties.push({ ...where, ties: c.ties, elements: c.elements, how: c.how });
    const tieNote = c.how === undefined || c.how === null ? '' : c.tie_checked ? ` (no ties: ${c.how} differ)` : ` (ties not checkable: ${c.how})`;
    if (c.bad) {
      const b = c.first_bad;
      problems.push({ ...where, what: c.kind === 'float'
        ? `[${b.index}] qforge ${fmt(b.a)} LiteRT ${fmt(b.b)} (err ${fmt(b.err)}); ${c.bad} of ${c.elements} beyond tolerance`
        : `[${b.index}] qforge ${fmt(b.a)} LiteRT ${fmt(b.b)}; ${c.bad} of ${c.elements} differ${tieNote}`, err: c.kind === 'float' ? c.worst.err : Infinity });
    }
  }
  const status = problems.length ? 'mismatch' : ties.length ? 'tie' : 'ok';
  return { status, worst, problems, ties, passthrough: passthrough.size ? [...passthrough] : undefined, elements };
}

// Quantizes `m` with each scheme of --quantize on the inputs qforge was fed
// (workDir/qforge_0), runs each written model in LiteRT on the same inputs.
// Records out.quantized = [{ scheme, result }]; returns why the model fails,
// or null.
async function quantizeAndRun(m, fb, runner, runtime, inputs, a, workDir, out) {
  const dir = path.join(workDir, 'qforge_0');
  const names = inputs.length > 1 ? bindingNames(inputs) : [''];
  const data = inputs.flatMap((_, k) => ['--data', names.length > 1 ? `${names[k]}=${path.join(dir, `input_${k}.npy`)}` : path.join(dir, `input_${k}.npy`)]);
  out.quantized = [];
  for (const scheme of a.quantize) {
    const q = path.join(workDir, `q_${scheme}.tflite`);
    const r = await runProgram(a.qforge, ['quantize', m.path, ...data, '--scheme', scheme, '-o', q, '-q'], a.timeout * 1000);
    if (r.code !== 0) {
      const line = r.stderr.trim().split('\n').pop() ?? '';
      out.quantized.push({ scheme, result: `not written (exit ${r.code}): ${line.slice(0, 160)}` });
      if (r.code === 3) continue;
      return `quantize ${scheme}: exit ${r.code}${r.signal ? ` (${r.signal})` : ''}: ${line}`;
    }
    const lit = await runner.runInputs(q, runtime, inputs);
    if (!lit.ok) return `the ${scheme} model qforge wrote fails in LiteRT: ${lit.kind}: ${String(lit.error).slice(0, 300)}`;
    out.quantized.push({ scheme, result: 'runs in LiteRT' });
  }
  return null;
}

async function checkModel(m, runner, a, work) {
  const out = { model: m.rel, status: null, reason: null };
  let fb;
  try {
    fb = parseModel(new Uint8Array(fs.readFileSync(m.path)));
  } catch (e) {
    return { ...out, status: 'skipped', group: 'unreadable', reason: `not a readable .tflite: ${e.message}` };
  }
  out.ops = [...new Set(fb.subgraphs.flatMap((sg) => sg.operators.map((op) => op.name)))];
  const workDir = path.join(work, m.rel.replace(/[^A-Za-z0-9._-]+/g, '_'));
  fs.mkdirSync(workDir, { recursive: true });
  let made;
  try {
    made = await buildInputs(fb, { rel: m.rel, recipe: recipeFor(m.rel), corpus: a.corpus, model: m.path, makeInputs: a.makeInputs, samples: a.samples, seed: a.seed, workDir, timeoutMs: a.timeout * 1000 });
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    if (e.kind === 'string-input') return { ...out, status: 'skipped', group: 'string inputs', reason: e.message };
    if (e.kind === 'input-dtype') return { ...out, status: 'skipped', group: 'input dtype the harness cannot feed', reason: e.message };
    return { ...out, status: 'error', reason: `inputs: ${e.message}` };
  }
  out.inputs = made.source;
  out.samples = made.inputs[0]?.samples.length ?? 0;
  // LiteRT and qforge at the same time (LiteRT is single-threaded).
  const runtime = fb.signatures.length && fb.signatures[0].subgraph !== 0 ? 'tfjs-tflite' : 'auto';
  const [lit, qf] = await Promise.all([
    runner.runInputs(m.path, runtime, made.inputs),
    runQforge(a.qforge, m.path, fb, made.inputs, { workDir, threads: Math.max(1, os.cpus().length - 1), timeoutMs: a.timeout * 1000 }),
  ]);
  if (!qf.ok && qf.no_kernel) {
    out.no_kernel = qf.no_kernel;
    // The ops qforge got past before the one it has no kernel for.
    const ops = fb.subgraphs[qf.no_kernel.subgraph]?.operators ?? [];
    out.covered_ops = [...new Set(ops.slice(0, qf.no_kernel.index).map((op) => op.name))].filter((o) => o !== qf.no_kernel.op);
  }
  out.qforge_ms = qf.ms && Math.round(qf.ms);
  if (!lit.ok) {
    if (lit.kind === 'internal') return { ...out, status: 'error', reason: `harness error: ${lit.error}` };
    return { ...out, status: 'skipped', group: `LiteRT cannot run it: ${lit.kind}`, reason: `LiteRT: ${lit.kind}: ${lit.error}` };
  }
  out.runtime = lit.runtime;
  out.litert_ms = lit.ms && Math.round(lit.ms.total);
  if (lit.fallback) out.runtime_note = lit.fallback;
  if (!qf.ok) {
    if (qf.unbindable) return { ...out, status: 'skipped', group: 'inputs qforge --data cannot bind by name', reason: qf.message };
    if (qf.no_kernel) return { ...out, status: 'skipped', group: 'no kernel', reason: `no kernel: ${qf.no_kernel.op} (subgraph ${qf.no_kernel.subgraph} op ${qf.no_kernel.index})` };
    if (qf.code === 3) return { ...out, status: 'skipped', group: 'unsupported (exit 3)', reason: `unsupported: ${qf.message}` };
    const how = qf.timedOut ? `timed out after ${a.timeout} s` : qf.signal ? `died of ${qf.signal}` : `exit ${qf.code}`;
    return { ...out, status: 'error', reason: `qforge ${how}: ${qf.message}` };
  }
  if (a.quantize) {
    const problem = await quantizeAndRun(m, fb, runner, runtime, made.inputs, a, workDir, out);
    if (problem) return { ...out, status: 'error', reason: problem };
  }
  const result = { ...out, ...compareModel(fb, lit, qf, made.inputs, a.tol) };
  if (result.status === 'ok' && result.elements === 0) {
    return { ...result, status: 'skipped', group: 'outputs empty (nothing to compare)', reason: 'every output is empty on these inputs: give the model a recipe in float_cases.mjs' };
  }
  return result.status === 'mismatch' ? spreadCheck(result, m, runner, made.inputs, lit, a.tol) : result;
}

// How much further from LiteRT than tfjs-tflite qforge may be on an output
// where the two Google runtimes themselves differ beyond the tolerance.
const SPREAD_FACTOR = 4;

/**
 * Float outputs beyond the tolerance in a deep network may only show that
 * float sums depend on their order: run the model in tfjs-tflite (the other
 * TFLite build: its own XNNPACK and kernels) on the same inputs, and accept
 * an output when qforge's worst error is at most SPREAD_FACTOR times
 * tfjs-tflite's own worst error against LiteRT (status 'spread': reported,
 * not failed, unless --strict).
 */
async function spreadCheck(result, m, runner, inputs, lit, tol) {
  if (lit.runtime !== 'litert' || !result.problems.every((p) => Number.isFinite(p.err) && !(result.passthrough ?? []).includes(p.name))) return result;
  const t = await runner.runInputs(m.path, 'tfjs-tflite', inputs);
  if (!t.ok) return { ...result, spread_note: `tfjs-tflite cannot run it to tell the runtimes' own spread: ${t.kind}` };
  const spreads = [], rest = [];
  for (const p of result.problems) {
    const same = (o) => o.tensor_index === p.tensor_index && o.sample === p.sample;
    const l = lit.outputs.find(same), o = t.outputs.find(same);
    const ref = l && o && o.bytes.byteLength === l.bytes.byteLength ? compareFloats(floatValues(o.dtype, o.bytes), floatValues(l.dtype, l.bytes), tol) : null;
    const refErr = ref?.worst?.err ?? 0;
    if (ref && p.err <= SPREAD_FACTOR * refErr) spreads.push({ ...p, reference_err: refErr, reference_bad: ref.bad });
    else rest.push({ ...p, what: `${p.what}; tfjs-tflite vs LiteRT: worst ${ref ? fmt(refErr) : '?'}` });
  }
  return { ...result, problems: rest, spreads, status: rest.length ? 'mismatch' : 'spread' };
}

function line(r) {
  const tag = { ok: 'ok      ', tie: 'ok (tie)', spread: 'spread  ', mismatch: 'MISMATCH', error: 'FAILED  ', skipped: 'skipped ' }[r.status];
  let text = `${tag} ${r.model}`;
  if (['ok', 'tie', 'spread', 'mismatch'].includes(r.status)) {
    const w = r.worst;
    text += `  [${r.runtime}, ${r.samples} sample${r.samples > 1 ? 's' : ''}: ${r.inputs}]`;
    text += !w || w.err === 0 ? ' exact' : ` worst ${fmt(w.err)} at output ${w.output} '${w.name}' sample ${w.sample} [${w.index}]`;
    for (const t of r.ties ?? []) text += `\n           tie-break: output ${t.output} '${t.name}' sample ${t.sample}: ${t.ties} of ${t.elements} indices differ where the values are equal within tolerance (${t.how})`;
    for (const p of r.spreads ?? []) text += `\n           within the runtimes' spread: output ${p.output} '${p.name}' sample ${p.sample}: ${p.what}; tfjs-tflite vs LiteRT: worst ${fmt(p.reference_err)}, ${p.reference_bad} beyond tolerance`;
    for (const p of r.problems ?? []) text += `\n           output ${p.output} '${p.name}' sample ${p.sample}: ${p.what}`;
    if (r.passthrough) text += `\n           output${r.passthrough.length > 1 ? 's' : ''} ${r.passthrough.map((n) => `'${n}'`).join(', ')} = model input${r.passthrough.length > 1 ? 's' : ''}: compared with the input fed (LiteRT.js leaves such outputs unwritten)`;
    if (r.spread_note) text += `\n           ${r.spread_note}`;
    for (const q of r.quantized ?? []) text += `\n           ${q.scheme}: ${q.result}`;
  } else {
    text += `  ${r.reason}`;
  }
  return text;
}

// A closed stdout (| head) ends the run quietly.
process.stdout.on('error', (e) => { if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0); throw e; });

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const models = listModels(a);
  try {
    await Promise.all(['litert', 'tfjs-tflite'].map(runtimeLabel));
  } catch (e) {
    process.stderr.write(`float_vs_litert: the runtimes do not load: ${e.message}\n`);
    process.exit(2);
  }
  if (!a.makeInputs) process.stdout.write('float_vs_litert: qforge_make_inputs not found (--make-inputs): models whose real data it makes fail\n');
  const work = a.keep ? path.resolve(a.keep) : fs.mkdtempSync(path.join(os.tmpdir(), 'float_vs_litert-'));
  fs.mkdirSync(work, { recursive: true });
  // Private copies: a rebuild of the binaries during the run changes nothing.
  a.qforge = snapshot(a.qforge, work, 'float_vs_litert');
  if (a.makeInputs) a.makeInputs = snapshot(a.makeInputs, work, 'float_vs_litert');
  const t0 = performance.now();
  const runners = Array.from({ length: a.jobs }, () => new FloatRunner({ timeoutMs: a.timeout * 1000 }));
  const results = new Array(models.length);
  let printed = 0, next = 0;
  const flush = () => {
    while (printed < models.length && results[printed]) process.stdout.write(line(results[printed++]) + '\n');
  };
  try {
    await Promise.all(runners.map(async (runner) => {
      while (next < models.length) {
        const i = next++;
        try {
          results[i] = await checkModel(models[i], runner, a, work);
        } catch (e) {
          results[i] = { model: models[i].rel, status: 'error', reason: `harness error: ${e.stack ?? e}` };
        }
        flush();
      }
    }));
  } finally {
    await Promise.all(runners.map((r) => r.close()));
    if (!a.keep) fs.rmSync(work, { recursive: true, force: true });
  }
  const { text, passed, failed, skipped } = summarize(results, { tol: a.tol, strict: a.strict, seconds: (performance.now() - t0) / 1000 });
  process.stdout.write(text);
  if (a.json) fs.writeFileSync(a.json, JSON.stringify(results, null, 1) + '\n');
  process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((e) => {
  process.stderr.write(`float_vs_litert: ${e.stack ?? e}\n`);
  process.exitCode = 2;
});

#!/usr/bin/env node
// Checks qforge's integer interpreter against LiteRT on whole quantized
// models: the official twins (corpus/twins), corpus/int_refs/tflite-micro, and
// models qforge quantized itself (--model QUANT=FLOAT).
//
//   node int_vs_litert.mjs --qforge BIN [--corpus DIR] [--make-inputs BIN]
//        [--samples 4] [--seed 1] [--min-sqnr 35] [--min-top1 0.99]
//        [--timeout 120] [--jobs 1] [--filter REGEX] [--no-corpus]
//        [--model QUANT.tflite[=FLOAT.tflite] ...] [--json FILE]
//        [--arithmetic xnnpack|tflite] [--strict]
//
// Inputs: a model with a float counterpart (the corpus README's twin tables,
// or =FLOAT) gets the float model's real data (float_cases.mjs, as
// float_vs_litert.mjs), quantized with the model's input scale and zero point
// where its input is an integer tensor; the others get seeded values spread
// over each input's integer range. Both runtimes get the same tensors.
// Per output, over all samples, with dequantized values (LiteRT = reference):
// SQNR in dB, the largest difference in steps (LSB) for integer outputs, and
// for classifier outputs ([..., C], C >= 2, one row per sample) whether the
// top-1 class agrees. XNNPACK (LiteRT's 8-bit CONV/DEPTHWISE/FC/ADD path)
// requantizes in float and adds in its own fixed point, differing from
// TFLite's builtin kernels by up to 1 LSB per step, which compounds over
// depth; qforge runs with --arithmetic xnnpack (--arithmetic, default
// xnnpack here), which emulates it, for the comparison with LiteRT, and in
// its default (TFLite) arithmetic for the one with the builtin kernels.
// Measured: 37 of 41 models exact vs LiteRT (32 with --arithmetic tflite),
// 19 of 21 exact vs the builtin kernels (14 before --rounding legacy),
// worst output 47.7 dB (22.1 dB).
// TFLite's builtin kernels are the exact reference: where tfjs-tflite runs
// the model without XNNPACK (its profiler shows no XNNPACK partition:
// lib/kernel_report.mjs), or runs the model's dynamic-shape variant so
// (lib/builtin_variant.mjs), qforge's outputs must equal tfjs-tflite's
// exactly. (LiteRT's build rounds int8 requantization once, "single
// rounding", like XNNPACK; qforge's default --rounding single matches it.
// tfjs-tflite's older TFLite rounds twice except in ruy's GEMM output stage
// (int8 CONV_2D/FULLY_CONNECTED/BATCH_MATMUL), which rounds once: qforge
// runs with --rounding legacy against it.)
// A model passes when its outputs equal LiteRT's or TFLite's builtin
// kernels' exactly, or reach --min-sqnr against LiteRT; below that, with
// top-1 intact and above 20 dB, it is 'drift' (LiteRT's XNNPACK arithmetic
// compounding over depth: reported, failed only with --strict). The run
// fails on any other model, when classifiers (models not settled as exact
// vs the builtin kernels) agree with LiteRT on fewer than --min-top1 of
// their samples, or when qforge fails on a model LiteRT runs other than
// for an integer form it lacks (exit 3: skipped and listed). Closing line:
// `N passed, N failed, N skipped`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseModel} from './lib/tflite.mjs';
import {runtimeLabel} from './lib/engines.mjs';
import {FloatRunner} from './lib/float_runner.mjs';
import {buildInputs, modelInputs, InputError} from './lib/float_inputs.mjs';
import {mulberry32} from './lib/inputs.mjs';
import {runQforge} from './lib/qforge_run.mjs';
import {kernelReport, XNNPACK_NODE} from './lib/kernel_report.mjs';
import {recipeFor} from './float_cases.mjs';
import {snapshot} from './lib/snapshot.mjs';
import {builtinVariant} from './lib/builtin_variant.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const USAGE =
    'usage: node int_vs_litert.mjs --qforge BIN [--corpus DIR] [--make-inputs BIN] [--samples 4] [--seed 1] [--min-sqnr 35] [--min-top1 0.99] [--timeout 120] [--jobs 1] [--filter REGEX] [--no-corpus] [--model QUANT[=FLOAT] ...] [--json FILE] [--strict]';

function usage(msg) {
  process.stderr.write(`int_vs_litert: ${msg}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const a = {
    corpus: path.resolve(here, '../../../shared/corpus'),
    samples: 4,
    seed: 1,
    minSqnr: 35,
    minTop1: 0.99,
    timeout: 120,
    jobs: 1,
    models: [],
    useCorpus: true,
    arithmetic: 'xnnpack'
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const value = () =>
        (i + 1 < argv.length ? argv[++i] : usage(`${k} needs a value`));
    if (k === '--qforge')
      a.qforge = value();
    else if (k === '--corpus')
      a.corpus = value();
    else if (k === '--make-inputs')
      a.makeInputs = value();
    else if (k === '--samples')
      a.samples = Number(value());
    else if (k === '--seed')
      a.seed = Number(value());
    else if (k === '--min-sqnr')
      a.minSqnr = Number(value());
    else if (k === '--min-top1')
      a.minTop1 = Number(value());
    else if (k === '--timeout')
      a.timeout = Number(value());
    else if (k === '--jobs')
      a.jobs = Number(value());
    else if (k === '--filter')
      a.filter = new RegExp(value());
    else if (k === '--no-corpus')
      a.useCorpus = false;
    else if (k === '--model')
      a.models.push(value());
    else if (k === '--json')
      a.json = value();
    else if (k === '--strict')
      a.strict = true;
    else if (k === '--arithmetic')
      a.arithmetic = value();
    else if (k === '--help' || k === '-h') {
      process.stdout.write(USAGE + '\n');
      process.exit(0);
    } else
      usage(`unexpected argument ${k}`);
  }
  if (!a.qforge || !fs.existsSync(a.qforge))
    usage('--qforge BIN is required and must exist');
  if (!Number.isInteger(a.samples) || a.samples < 1 || a.samples > 64)
    usage('--samples must be 1..64');
  if (!Number.isInteger(a.jobs) || a.jobs < 1 ||
      a.jobs > Math.max(1, os.cpus().length))
    usage(`--jobs must be 1..${os.cpus().length}`);
  if (!(a.minTop1 >= 0 && a.minTop1 <= 1))
    usage('--min-top1 must be in [0, 1]');
  if (!['tflite', 'xnnpack'].includes(a.arithmetic))
    usage('--arithmetic must be tflite or xnnpack');
  a.makeInputs ??= [
    path.resolve(path.dirname(a.qforge), '../tests/qforge_make_inputs')
  ].find((f) => fs.existsSync(f));
  return a;
}

/**
 * twin path -> float model path (relative to the corpus), from the README's
 * tables.
 */
function twinMap(corpus) {
  const map = new Map();
  const readme = path.join(corpus, 'README.md');
  if (!fs.existsSync(readme)) return map;
  for (const line of fs.readFileSync(readme, 'utf8').split('\n')) {
    const m = /^\| `(models\/[^`]+\.tflite)`/.exec(line);
    if (!m) continue;
    for (const t of line.matchAll(/`?(twins\/[A-Za-z0-9_./-]+\.tflite)`?/g))
      if (!map.has(t[1])) map.set(t[1], m[1]);
  }
  return map;
}

function listModels(a) {
  const corpus = path.resolve(a.corpus) + path.sep;
  const rel = (p) => (p.startsWith(corpus) ? p.slice(corpus.length) : p);
  const out = [];
  if (a.useCorpus && fs.existsSync(path.join(a.corpus, 'twins'))) {
    const twins = twinMap(a.corpus);
    const find = (dir) => fs.readdirSync(dir, {recursive: true})
                              .filter((f) => f.endsWith('.tflite'))
                              .sort()
                              .map((f) => path.join(dir, f));
    for (const dir of ['twins', 'int_refs/tflite-micro']) {
      for (const p of find(path.join(a.corpus, dir))) {
        const float = twins.get(rel(p));
        out.push({
          path: p,
          rel: rel(p),
          float: float ? path.join(a.corpus, float) : null,
          floatRel: float ?? null
        });
      }
    }
  }
  for (const spec of a.models) {
    const [q, f] = spec.split('=');
    const fAbs = f ? path.resolve(f) : null;
    out.push({
      path: path.resolve(q),
      rel: q,
      float: fAbs,
      floatRel: fAbs ? rel(fAbs) : null
    });
  }
  return out.filter((m) => !a.filter || a.filter.test(m.rel));
}

const INT_RANGE = {
  int8: [-128, 127],
  uint8: [0, 255],
  int16: [-32768, 32767]
};
const VIEW = {
  int8: Int8Array,
  uint8: Uint8Array,
  int16: Int16Array,
  int32: Int32Array,
  float32: Float32Array
};
const prod = (s) => s.reduce((x, y) => x * y, 1);
const quantOf = (t) =>
    (t.quantization && t.quantization.scale?.length === 1 ? {
      scale: t.quantization.scale[0],
      zp: Number(t.quantization.zero_point?.[0] ?? 0)
    } :
                                                            null);

/**
 * The float model's inputs made into this model's: float as is, integer inputs
 * quantized.
 */
async function inputsFromFloat(m, fb, a, workDir) {
  const ffb = parseModel(new Uint8Array(fs.readFileSync(m.float)));
  const made = await buildInputs(ffb, {
    rel: m.floatRel,
    recipe: recipeFor(m.floatRel),
    corpus: a.corpus,
    model: m.float,
    makeInputs: a.makeInputs,
    samples: a.samples,
    seed: a.seed,
    workDir,
    timeoutMs: a.timeout * 1000
  });
  const mine = modelInputs(fb);
  if (mine.length !== made.inputs.length)
    throw new InputError(
        'data-mismatch',
        `${mine.length} inputs, the float model ${made.inputs.length}`);
  const inputs = mine.map((x, k) => {
    const f = made.inputs[k];
    if (prod(x.shape) !== prod(f.shape))
      throw new InputError(
          'data-mismatch',
          `input ${k} '${x.name}' ${
              JSON.stringify(
                  x.shape)}, the float model's ${JSON.stringify(f.shape)}`);
    if (x.dtype === f.dtype) return {...x, samples: f.samples};
    const q = quantOf(fb.subgraphs[0].tensors[x.tensor_index]);
    if (f.dtype !== 'float32' || !q || !INT_RANGE[x.dtype])
      throw new InputError(
          'data-mismatch',
          `input ${k} '${x.name}' is ${x.dtype}, the float model's ${f.dtype}`);
    const [lo, hi] = INT_RANGE[x.dtype];
    const samples = f.samples.map((bytes) => {
      const v = new Float32Array(bytes.slice().buffer);
      const out = VIEW[x.dtype].from(
          v, (y) => Math.min(hi, Math.max(lo, Math.round(y / q.scale) + q.zp)));
      return new Uint8Array(out.buffer);
    });
    return {...x, samples};
  });
  return {source: `${made.source} (data of ${m.floatRel})`, inputs};
}

/** Seeded values over each integer input's range; floats in [-1, 1). */
function spreadInputs(fb, a) {
  const rand = mulberry32(a.seed);
  const inputs = modelInputs(fb).map((x) => {
    const n = prod(x.shape);
    const samples = [];
    for (let k = 0; k < a.samples; k++) {
      let arr;
      if (INT_RANGE[x.dtype]) {
        const [lo, hi] = INT_RANGE[x.dtype];
        arr = VIEW[x.dtype].from(
            {length: n}, () => lo + Math.floor(rand() * (hi - lo + 1)));
      } else if (x.dtype === 'float32') {
        arr = Float32Array.from({length: n}, () => rand() * 2 - 1);
      } else {
        throw new InputError(
            'input-dtype',
            `input '${x.name}' is ${
                x.dtype}, which the check does not generate`);
      }
      samples.push(new Uint8Array(arr.buffer));
    }
    return {...x, samples};
  });
  return {source: 'seeded values over each input range', inputs};
}

function values(dtype, bytes, q) {
  const C = VIEW[dtype];
  if (!C) return null;
  const v = new C(bytes.slice().buffer);
  return q ? Float64Array.from(v, (x) => (x - q.zp) * q.scale) :
             Float64Array.from(v);
}

/**
 * Whether output tensor `ti` holds class scores: a SOFTMAX output (through
 * RESHAPE / QUANTIZE / DEQUANTIZE), or a vector sized unlike every model
 * input (an autoencoder's reconstruction is not one).
 */
function classifier(fb, ti) {
  const sg = fb.subgraphs[0];
  const producer = new Map();
  sg.operators.forEach((op) => op.outputs.forEach((t) => producer.set(t, op)));
  for (let t = ti, hops = 0; hops < 4; hops++) {
    const op = producer.get(t);
    if (!op) break;
    if (op.name === 'SOFTMAX') return true;
    if (!['RESHAPE', 'QUANTIZE', 'DEQUANTIZE'].includes(op.name)) break;
    t = op.inputs[0];
  }
  const n = prod(sg.tensors[ti].shape);
  return sg.inputs.every((x) => prod(sg.tensors[x].shape) !== n);
}

/** Per-output agreement of qforge (qf) with a reference run (ref). */
function compare(fb, ref, qf) {
  const sg = fb.subgraphs[0];
  const outs = [];
  for (const [k, ti] of sg.outputs.entries()) {
    const t = sg.tensors[ti];
    const q = quantOf(t);
    const isInt = !!INT_RANGE[t.dtype] || t.dtype === 'int32';
    let sig = 0, noise = 0, maxLsb = 0, differ = 0, elements = 0, top1 = 0,
        top1n = 0, exact = true;
    const samples = ref.outputs.filter((o) => o.tensor_index === ti);
    if (!samples.length)
      return {error: `the reference has no output for tensor ${ti}`};
    for (const r of samples) {
      const o = qf.outputs[k]?.[r.sample];
      if (!o || o.dtype !== r.dtype ||
          o.bytes.byteLength !== r.bytes.byteLength)
        return {
          error: `output ${k} '${t.name}' sample ${r.sample}: qforge ${
              o ? `${o.dtype} ${o.bytes.byteLength} bytes` :
                  'missing'}, reference ${r.dtype} ${r.bytes.byteLength} bytes`
        };
      const a = values(o.dtype, o.bytes, isInt ? q : null),
            b = values(r.dtype, r.bytes, isInt ? q : null);
      if (!a)
        return {
          error: `output ${k} '${t.name}' has dtype ${
              o.dtype}, which the check cannot compare`
        };
      const ai = isInt ? values(o.dtype, o.bytes, null) : null,
            bi = isInt ? values(r.dtype, r.bytes, null) : null;
      for (let i = 0; i < a.length; i++) {
        sig += b[i] * b[i];
        noise += (a[i] - b[i]) ** 2;
        if (a[i] !== b[i]) {
          differ++;
          exact = false;
        }
        if (isInt) maxLsb = Math.max(maxLsb, Math.abs(ai[i] - bi[i]));
      }
      elements += a.length;
      const classes = t.shape[t.shape.length - 1];
      if (classes >= 2 && a.length === classes && classifier(fb, ti)) {
        const argmax = (v) =>
            v.reduce((best, x, i) => (x > v[best] ? i : best), 0);
        top1n++;
        if (argmax(a) === argmax(b)) top1++;
      }
    }
    const sqnr = noise === 0 ? Infinity :
        sig === 0            ? -Infinity :
                               10 * Math.log10(sig / noise);
    outs.push({
      output: k,
      name: t.name,
      dtype: t.dtype,
      sqnr,
      max_lsb: isInt ? maxLsb : undefined,
      differ,
      elements,
      exact,
      top1,
      top1n
    });
  }
  return {outs};
}

// Below this an SQNR gap is never taken for runtime drift.
const DRIFT_FLOOR = 20;

const db = (x) => (x === Infinity ? 'exact' : `${x.toFixed(1)} dB`);

// Models neither LiteRT nor tfjs-tflite can judge: skipped with the reason.
const NO_REFERENCE = new Map([[
  'int_refs/tflite-micro/keyword_scrambled_8bit.tflite',
  'TFLite Micro\'s 8-bit-state SVDF: LiteRT reads its int8 state and time ' +
      'weights as int16 (with every tensor exposed, its SVDF outputs differ ' +
      'from qforge\'s by up to 255 LSB), so only TFLite Micro is a reference'
]]);

async function checkModel(m, runner, a, work) {
  const out = {model: m.rel, status: null};
  if (NO_REFERENCE.has(m.rel))
    return {...out, status: 'skipped', reason: NO_REFERENCE.get(m.rel)};
  const bytes = new Uint8Array(fs.readFileSync(m.path));
  const fb = parseModel(bytes);
  const workDir = path.join(work, m.rel.replace(/[^A-Za-z0-9._-]+/g, '_'));
  fs.mkdirSync(workDir, {recursive: true});
  let made;
  try {
    const recipe = recipeFor(m.rel);
    if (m.float) {
      made = await inputsFromFloat(m, fb, a, workDir);
    } else if (recipe) {
      made = await buildInputs(fb, {
        rel: m.rel,
        recipe,
        corpus: a.corpus,
        model: m.path,
        makeInputs: a.makeInputs,
        samples: a.samples,
        seed: a.seed,
        workDir,
        timeoutMs: a.timeout * 1000
      });
    } else {
      made = spreadInputs(fb, a);
    }
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return {...out, status: 'skipped', reason: `inputs: ${e.message}`};
  }
  out.inputs = made.source;
  out.samples = made.inputs[0]?.samples.length ?? 0;
  // qforge against LiteRT in --arithmetic a.arithmetic; against TFLite's
  // builtin kernels in its default (TFLite) arithmetic, --rounding legacy.
  const qfOptions = {
    workDir,
    threads: Math.max(1, os.cpus().length - 1),
    timeoutMs: a.timeout * 1000
  };
  const [lit, qf] = await Promise.all([
    runner.runInputs(m.path, 'auto', made.inputs),
    runQforge(a.qforge, m.path, fb, made.inputs, {
      ...qfOptions,
      flags: ['--arithmetic', a.arithmetic]
    }),
  ]);
  if (!lit.ok)
    return {
      ...out,
      status: 'skipped',
      reason: `LiteRT: ${lit.kind}: ${lit.error}`
    };
  out.runtime = lit.runtime;
  if (!qf.ok) {
    if (qf.no_kernel)
      return {
        ...out,
        status: 'skipped',
        reason: `qforge has no kernel: ${qf.no_kernel.op} (subgraph ${
            qf.no_kernel.subgraph} op ${qf.no_kernel.index})`,
        no_kernel: qf.no_kernel.op
      };
    // Exit 3: an integer form qforge lacks (listed as a coverage gap).
    return {
      ...out,
      status: qf.code === 3 ? 'skipped' : 'failed',
      reason: `qforge exit ${qf.code}: ${qf.message}`,
      unsupported: qf.code === 3 || undefined
    };
  }
  const c = compare(fb, lit, qf);
  if (c.error) return {...out, status: 'failed', reason: c.error};
  out.outputs = c.outs;
  const low = c.outs.filter((o) => o.sqnr < a.minSqnr);
  // Exactness where tfjs-tflite runs only builtin kernels: the model as it
  // is, or else its builtin variant (lib/builtin_variant.mjs).
  const kr = await kernelReport(bytes);
  let builtinRun = null;
  if (kr.ok && !kr.nodeTypes.includes(XNNPACK_NODE)) {
    out.builtin = 'as is';
    builtinRun = lit.runtime === 'tfjs-tflite' ?
        lit :
        await runner.runInputs(m.path, 'tfjs-tflite', made.inputs);
  } else {
    const v = builtinVariant(bytes, fb);
    if (v) {
      const file = path.join(workDir, 'builtin_variant.tflite');
      fs.writeFileSync(file, v.bytes);
      const shapeInput = {
        ...v.shapeInput,
        signature_name: null,
        samples: made.inputs[0].samples.map(() => v.shapeInput.values)
      };
      const vr = await kernelReport(v.bytes, [
        ...made.inputs.map((x) => ({bytes: x.samples[0]})),
        {bytes: v.shapeInput.values}
      ]);
      if (vr.ok && !vr.nodeTypes.includes(XNNPACK_NODE)) {
        out.builtin = 'variant';
        builtinRun = await runner.runInputs(
            file, 'tfjs-tflite', [...made.inputs, shapeInput]);
      }
    }
  }
  if (builtinRun) {
    // tfjs-tflite's TFLite predates single rounding: --rounding legacy.
    const qfTflite = await runQforge(a.qforge, m.path, fb, made.inputs, {
      ...qfOptions,
      workDir: path.join(workDir, 'tflite_arithmetic'),
      flags: ['--rounding', 'legacy']
    });
    if (!builtinRun.ok)
      out.builtin_note = `tfjs-tflite cannot run it: ${builtinRun.kind}`;
    else if (!qfTflite.ok)
      out.builtin_note = `qforge (--rounding legacy) failed: ${qfTflite.message}`;
    else {
      const e = compare(fb, builtinRun, qfTflite);
      out.builtin_exact = !e.error && e.outs.every((o) => o.exact);
      if (!out.builtin_exact)
        out.builtin_diff = e.error ??
            e.outs.filter((o) => !o.exact)
                .map(
                    (o) => `output ${o.output}: ${o.differ} of ${
                        o.elements} differ${
                        o.max_lsb !== undefined ? `, max ${o.max_lsb} LSB` :
                                                  ''}`)
                .join('; ');
    }
  }
  // Verdict. Exact agreement with LiteRT, or with TFLite's builtin kernels
  // (the arithmetic XNNPACK only approximates), passes. Otherwise every
  // output must reach --min-sqnr against LiteRT; an output below it whose
  // classifier top-1 still agrees and that stays above DRIFT_FLOOR dB is
  // 'drift' (XNNPACK's own elementwise arithmetic, e.g. its ADD, differs by
  // 1 LSB now and then and compounds over depth), reported, not failed,
  // unless --strict.
  const exactLiteRt = c.outs.every((o) => o.exact);
  const problems = [];
  let status = 'ok';
  if (!exactLiteRt && !out.builtin_exact && low.length) {
    const drift = low.every((o) => o.sqnr >= DRIFT_FLOOR && o.top1 === o.top1n);
    status = drift && !a.strict ? 'drift' : 'failed';
    problems.push(...low.map((o) => `output ${o.output} '${o.name}' ${db(o.sqnr)} < ${a.minSqnr} dB vs LiteRT`));
  }
  if (out.builtin && out.builtin_exact === false) {
    out.builtin_note = `not exact: ${out.builtin_diff}`;
  }
  return {...out, status, reason: problems.join('; ') || null};
}

function line(r) {
  if (r.status === 'skipped') return `skipped  ${r.model}  ${r.reason}`;
  const tag = {ok: 'ok      ', drift: 'drift   ', failed: 'FAILED  '}[r.status];
  let text = `${tag} ${r.model}`;
  if (r.outputs) {
    text += `  [${r.runtime}, ${r.samples} sample${r.samples > 1 ? 's' : ''}: ${
        r.inputs}]`;
    text += ' ' +
        r.outputs
            .map(
                (o) => `out${o.output} ${db(o.sqnr)}${
                    o.max_lsb !== undefined ?
                        ` max ${o.max_lsb} LSB` :
                        ''} (${o.differ}/${o.elements} differ)${
                    o.top1n ? ` top-1 ${o.top1}/${o.top1n}` : ''}`)
            .join(', ');
    if (r.builtin)
      text += `; TFLite builtin kernels (${
          r.builtin === 'variant' ? 'dynamic-shape variant' :
                                    'tfjs-tflite'}): ${
          r.builtin_exact ? 'exact' : r.builtin_note ?? 'NOT exact'}`;
  }
  if (r.reason) text += `\n           ${r.reason}`;
  return text;
}

process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const models = listModels(a);
  if (!models.length) {
    process.stdout.write(`int_vs_litert: SKIP: no models (corpus ${
        a.corpus} absent and no --model)\n`);
    process.exit(77);
  }
  try {
    await Promise.all(['litert', 'tfjs-tflite'].map(runtimeLabel));
  } catch (e) {
    process.stderr.write(
        `int_vs_litert: the runtimes do not load: ${e.message}\n`);
    process.exit(2);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'int_vs_litert-'));
  a.qforge = snapshot(a.qforge, work, 'int_vs_litert');
  if (a.makeInputs)
    a.makeInputs = snapshot(a.makeInputs, work, 'int_vs_litert');
  const t0 = performance.now();
  const runners = Array.from(
      {length: a.jobs}, () => new FloatRunner({timeoutMs: a.timeout * 1000}));
  const results = new Array(models.length);
  let printed = 0, next = 0;
  const flush = () => {
    while (printed < models.length && results[printed])
      process.stdout.write(line(results[printed++]) + '\n');
  };
  try {
    await Promise.all(runners.map(async (runner) => {
      while (next < models.length) {
        const i = next++;
        try {
          results[i] = await checkModel(models[i], runner, a, work);
        } catch (e) {
          results[i] = {
            model: models[i].rel,
            status: 'failed',
            reason: `harness error: ${e.stack ?? e}`
          };
        }
        flush();
      }
    }));
  } finally {
    await Promise.all(runners.map((r) => r.close()));
    fs.rmSync(work, {recursive: true, force: true});
  }
  const count = (s) => results.filter((r) => r.status === s).length;
  const checked = results.filter((r) => r.outputs);
  const all = checked.flatMap((r) => r.outputs);
  // Top-1 against LiteRT, over the models not settled as exact vs TFLite's
  // builtin kernels (where LiteRT's XNNPACK is the one that drifts).
  const vsLiteRt = checked.filter((r) => !r.builtin_exact).flatMap((r) => r.outputs);
  const top1 = vsLiteRt.reduce((s, o) => s + o.top1, 0),
        top1n = vsLiteRt.reduce((s, o) => s + o.top1n, 0);
  const finite = all.map((o) => o.sqnr).filter(Number.isFinite);
  const builtin = checked.filter((r) => r.builtin);
  let failed = count('failed');
  process.stdout.write(
      `int_vs_litert: ${checked.length} models compared with LiteRT (${
          all.length} outputs), worst output SQNR ${
          finite.length ? db(Math.min(...finite)) : 'exact'}, ` +
      `${
          all.filter((o) => o.sqnr === Infinity)
              .length} outputs exact; classifiers: top-1 agrees on ${top1}/${
          top1n} samples; ` +
      `exact vs TFLite's builtin kernels: ${
          builtin.filter((r) => r.builtin_exact).length}/${
          builtin.length} models; ${
          ((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  if (top1n && top1 < a.minTop1 * top1n) {
    process.stdout.write(`int_vs_litert: FAILED: top-1 agreement ${top1}/${
        top1n} below ${a.minTop1}\n`);
    failed++;
  }
  if (a.json) fs.writeFileSync(a.json, JSON.stringify(results, null, 1) + '\n');
  const drift = results.filter((r) => r.status === 'drift');
  if (drift.length) process.stdout.write(`int_vs_litert: within LiteRT's XNNPACK drift (not failed): ${drift.map((r) => r.model).join(', ')}\n`);
  const gaps = results.filter((r) => r.unsupported || r.no_kernel);
  if (gaps.length) process.stdout.write(`int_vs_litert: no integer form in qforge yet (skipped): ${gaps.map((r) => r.model).join(', ')}\n`);
  process.stdout.write(
      `${count('ok') + drift.length} passed, ${failed} failed, ${count('skipped')} skipped\n`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((e) => {
  process.stderr.write(`int_vs_litert: ${e.stack ?? e}\n`);
  process.exitCode = 2;
});

#!/usr/bin/env node
// Per-op integer agreement with LiteRT (issue 5): for every op kind qforge's
// quantizer emits, a corpus single-op (or few-op) float model (or, for ops
// no corpus model uses, one of testdata/ops/) is quantized
// by qforge (--strict, integer model inputs and outputs), then run by
// `qforge run` and by LiteRT on the very same integer input tensors; every
// output value must agree within 1 LSB.
//
//   node int_ops_litert.mjs --qforge BIN [--corpus DIR] [--scheme int8,int16x8]
//        [--samples 8] [--seed 1] [--filter REGEX] [--keep DIR] [--tol 1]
//
// LiteRT runs int8 conv/FC/elementwise ops in XNNPACK, whose requantization
// rounds differently from TFLite's reference kernels (qforge's model) by up
// to 1 LSB; int16x8 ops run in TFLite's reference kernels (expect exact).
// Calibration inputs: seeded uniform floats in the case's range (default
// [-1, 1)); evaluation inputs: other seeded floats, quantized with the
// quantized model's input parameters. Index inputs (GATHER) stay int32.
//
// Prints one line per case and scheme: op, model, scheme, elements, max LSB
// difference, % of elements differing; `skip` when qforge has no integer
// form of the op in that scheme (quantize --strict exits 3: the reason is
// shown). Ends with `N passed, N failed, N skipped`; exit code 1 on any
// difference above --tol, quantize/run failure or LiteRT refusal of a
// model qforge wrote, 2 on usage errors.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseModel, indexBounds } from './lib/tflite.mjs';
import { FloatRunner } from './lib/float_runner.mjs';
import { modelInputs, runProgram } from './lib/float_inputs.mjs';
import { runQforge, bindingNames } from './lib/qforge_run.mjs';
import { mulberry32 } from './lib/inputs.mjs';
import { writeNpy } from './lib/npy.mjs';
import { CASES } from './int_ops_cases.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const USAGE = 'usage: node int_ops_litert.mjs --qforge BIN [--corpus DIR] [--scheme int8,int16x8] [--samples 8] [--seed 1] [--filter REGEX] [--keep DIR] [--tol 1]';

function usage(msg) {
  process.stderr.write(`int_ops_litert: ${msg}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const a = { corpus: path.resolve(here, '../../../shared/corpus'), schemes: ['int8', 'int16x8'], samples: 8, seed: 1, tol: 1 };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${k} needs a value`));
    if (k === '--qforge') a.qforge = value();
    else if (k === '--corpus') a.corpus = value();
    else if (k === '--scheme') a.schemes = value().split(',');
    else if (k === '--samples') a.samples = Number(value());
    else if (k === '--seed') a.seed = Number(value());
    else if (k === '--filter') a.filter = new RegExp(value());
    else if (k === '--keep') a.keep = value();
    else if (k === '--tol') a.tol = Number(value());
    else if (k === '--help' || k === '-h') { process.stdout.write(USAGE + '\n'); process.exit(0); }
    else usage(`unexpected argument ${k}`);
  }
  if (!a.qforge) usage('--qforge is required');
  if (!fs.existsSync(a.qforge)) usage(`${a.qforge} does not exist`);
  if (a.schemes.some((s) => s !== 'int8' && s !== 'int16x8')) usage('--scheme takes int8 and/or int16x8');
  if (!Number.isInteger(a.samples) || a.samples < 1 || a.samples > 64) usage('--samples must be 1..64');
  if (!(a.tol >= 0)) usage('--tol must be >= 0');
  return a;
}

const prod = (s) => s.reduce((x, y) => x * y, 1);
const INT_TYPES = { int8: [Int8Array, -128, 127], int16: [Int16Array, -32768, 32767] };
const TYPED = { int8: Int8Array, uint8: Uint8Array, int16: Int16Array, int32: Int32Array, int64: BigInt64Array, float32: Float32Array };
const values = (dtype, bytes) => {
  const C = TYPED[dtype];
  return new C(bytes.buffer, bytes.byteOffset, bytes.byteLength / C.BYTES_PER_ELEMENT);
};

// Float samples per input (floats uniform in the case's range; int32 index
// inputs within the dim they index, or the case's fixed values).
function floatSamples(fb, inputs, c, seed, n) {
  const rand = mulberry32(seed);
  const bounds = indexBounds(fb, 0);
  const [lo, hi] = c.range ?? [-1, 1];
  return inputs.map((x) => {
    const list = [];
    for (let s = 0; s < n; s++) {
      const count = prod(x.shape);
      if (x.dtype === 'float32') {
        list.push(Float32Array.from({ length: count }, () => lo + rand() * (hi - lo)));
      } else if (x.dtype === 'int32') {
        const high = Math.min(10, bounds.get(x.tensor_index) ?? 10);
        list.push(Int32Array.from({ length: count }, () => Math.floor(rand() * high)));
      } else {
        throw new Error(`input '${x.name}' is ${x.dtype}; the cases take float32 and int32 inputs`);
      }
    }
    return { ...x, floats: list };
  });
}

// The integer tensors fed to both runtimes: each float input quantized with
// the quantized model's parameters for it (round half away from zero, as
// TFLite's QUANTIZE), other inputs as they are.
function integerSamples(qfb, qinputs, floatIns) {
  return qinputs.map((x, k) => {
    const src = floatIns[k];
    if (x.dtype === src.dtype) return { ...x, samples: src.floats.map((a) => new Uint8Array(a.buffer.slice(0))) };
    const [C, lo, hi] = INT_TYPES[x.dtype] ?? [];
    const q = qfb.subgraphs[0].tensors[x.tensor_index].quantization;
    if (!C || !q) throw new Error(`quantized input '${x.name}' is ${x.dtype} without parameters`);
    const scale = q.scale[0], zp = Number(q.zero_point[0] ?? 0);
    return {
      ...x,
      samples: src.floats.map((a) => {
        const out = C.from(a, (v) => Math.min(hi, Math.max(lo, zp + Math.sign(v / scale) * Math.round(Math.abs(v / scale)))));
        return new Uint8Array(out.buffer);
      }),
    };
  });
}

// Calibration data: per input, one .npy per sample and a list file naming
// them (the --data list form fits every input shape, scalars included).
function writeCalibration(dir, inputs) {
  return inputs.map((x, k) => {
    const lines = x.floats.map((a, s) => {
      const name = `calib_${k}_${s}.npy`;
      writeNpy(path.join(dir, name), x.dtype, x.shape, new Uint8Array(a.buffer));
      return name;
    });
    const file = path.join(dir, `calib_${k}.txt`);
    fs.writeFileSync(file, lines.join('\n') + '\n');
    return file;
  });
}

async function runCase(a, runner, c, scheme, work) {
  const model = c.testdata ? path.join(here, '../../testdata', c.model) : path.join(a.corpus, c.model);
  const row = { op: c.op, model: c.model, scheme };
  if (!fs.existsSync(model)) return { ...row, status: 'FAILED', why: `${c.model} absent from ${c.testdata ? 'testdata' : 'the corpus'}` };
  const fb = parseModel(new Uint8Array(fs.readFileSync(model)));
  const inputs = modelInputs(fb);
  const names = inputs.length > 1 ? bindingNames(inputs) : [''];
  if (!names) return { ...row, status: 'FAILED', why: 'inputs cannot be bound by name' };
  const calib = floatSamples(fb, inputs, c, a.seed, a.samples);
  const files = writeCalibration(work, calib);
  const qtype = scheme === 'int8' ? 'int8' : 'int16';
  const qmodel = path.join(work, `${scheme}.tflite`);
  const args = ['quantize', model, ...files.flatMap((f, k) => ['--data', names.length > 1 ? `${names[k]}=${f}` : f]),
    '--scheme', scheme, '--input-type', qtype, '--output-type', qtype, '--strict', '-o', qmodel, '-q'];
  const qr = await runProgram(a.qforge, args, 60000);
  if (qr.code === 3) return { ...row, status: 'skip', why: (qr.stderr.trim().split('\n').pop() ?? '').replace(/^qforge: error: /, '').slice(0, 160) };
  if (qr.code !== 0) return { ...row, status: 'FAILED', why: `quantize exit ${qr.code}: ${qr.stderr.trim().split('\n').pop()}` };
  const qfb = parseModel(new Uint8Array(fs.readFileSync(qmodel)));
  const qinputs = modelInputs(qfb);
  const evalFloats = floatSamples(fb, inputs, c, a.seed + 1000, a.samples);
  const ins = integerSamples(qfb, qinputs, evalFloats);
  const qf = await runQforge(a.qforge, qmodel, qfb, ins, { workDir: work, threads: 1 });
  if (!qf.ok) return { ...row, status: 'FAILED', why: `qforge run: ${qf.message}` };
  const lr = await runner.runInputs(qmodel, 'litert', ins);
  if (!lr.ok) return { ...row, status: 'FAILED', why: `LiteRT: ${lr.kind}: ${lr.error}` };
  const outs = qfb.subgraphs[0].outputs;
  let elements = 0, differing = 0, maxDiff = 0;
  for (const [k, ti] of outs.entries()) {
    for (let s = 0; s < a.samples; s++) {
      const mine = qf.outputs[k][s];
      const theirs = lr.outputs.find((t) => t.tensor_index === ti && t.sample === s);
      if (!theirs) return { ...row, status: 'FAILED', why: `LiteRT gave no output for tensor ${ti}` };
      if (mine.dtype !== theirs.dtype || mine.bytes.byteLength !== theirs.bytes.byteLength) {
        return { ...row, status: 'FAILED', why: `output ${k}: qforge ${mine.dtype} ${mine.bytes.byteLength} B, LiteRT ${theirs.dtype} ${theirs.bytes.byteLength} B` };
      }
      const x = values(mine.dtype, mine.bytes), y = values(theirs.dtype, theirs.bytes);
      for (let i = 0; i < x.length; i++) {
        const d = Math.abs(Number(x[i]) - Number(y[i]));
        if (d > 0) differing++;
        if (d > maxDiff) maxDiff = d;
      }
      elements += x.length;
    }
  }
  const dtype = qfb.subgraphs[0].tensors[outs[0]].dtype;
  return { ...row, status: maxDiff <= a.tol ? 'ok' : 'MISMATCH', dtype, elements, maxDiff, pct: elements ? (100 * differing) / elements : 0 };
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const cases = CASES.filter((c) => !a.filter || a.filter.test(`${c.op} ${c.model}`));
  const root = a.keep ? path.resolve(a.keep) : fs.mkdtempSync(path.join(os.tmpdir(), 'int_ops_'));
  const runner = new FloatRunner({ timeoutMs: 60000 });
  const t0 = performance.now();
  const results = [];
  const pad = (s, n) => String(s).padEnd(n);
  console.log(`${pad('op', 24)} ${pad('model', 58)} ${pad('scheme', 8)} ${pad('elements', 9)} ${pad('max LSB', 8)} ${pad('% diff', 7)} status`);
  try {
    for (const [i, c] of cases.entries()) {
      for (const scheme of a.schemes) {
        if (c.schemes && !c.schemes.includes(scheme)) continue;
        const work = path.join(root, `${i}_${c.op}_${scheme}`);
        fs.mkdirSync(work, { recursive: true });
        let r;
        try {
          r = await runCase(a, runner, c, scheme, work);
        } catch (e) {
          r = { op: c.op, model: c.model, scheme, status: 'FAILED', why: String(e.message ?? e) };
        }
        results.push(r);
        const nums = r.elements !== undefined ? `${pad(r.elements, 9)} ${pad(r.maxDiff, 8)} ${pad(r.pct.toFixed(2), 7)}` : `${pad('-', 9)} ${pad('-', 8)} ${pad('-', 7)}`;
        console.log(`${pad(r.op, 24)} ${pad(r.model, 58)} ${pad(scheme, 8)} ${nums} ${r.status}${r.why ? `: ${r.why}` : ''}`);
      }
    }
  } finally {
    await runner.close();
    if (!a.keep) fs.rmSync(root, { recursive: true, force: true });
  }
  const passed = results.filter((r) => r.status === 'ok').length;
  const skipped = results.filter((r) => r.status === 'skip').length;
  const failed = results.length - passed - skipped;
  console.log(`int_ops_litert: ${((performance.now() - t0) / 1000).toFixed(1)} s, tolerance ${a.tol} LSB`);
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exit(failed ? 1 : 0);
}

main();

#!/usr/bin/env node
// Runs the cases of tests/tools/op_property_cases.cc in LiteRT: every model
// qforge's quantizer wrote must load and run, and its integer outputs must be
// within --tol LSB (default 1) of `qforge run`'s. Cases qforge's own
// interpreter refused are run too: LiteRT refusing or aborting on them as
// well is agreement (the rule is real), LiteRT running them is counted as
// "qforge stricter" (and listed with --verbose).
//
//   node op_property_litert.mjs CASE_DIR [--tol 1] [--verbose] [--json OUT]
//
// Cases with a fast-path prediction (int8 CONV_2D, DEPTHWISE_CONV_2D,
// FULLY_CONNECTED, ADD; "xnnpack" in the manifest) are also told apart by
// path: LiteRT's outputs equal to qforge's under --arithmetic xnnpack
// (NNNNN_xnn_out_K.npy) and not to its default ones mean XNNPACK ran them,
// the reverse that TFLite's builtin kernel did; equal to both says nothing.
// A path other than the predicted one is a fast-path disagreement: counted
// and listed per op, and a failure (the rules agree on every case so far).
//
// Prints one summary line per op and a total; exit 1 when any case qforge
// accepted fails in LiteRT (load error, abort, > tol LSB, shape/type
// mismatch) or runs on another path than predicted, 0 otherwise.
import fs from 'node:fs';
import path from 'node:path';
import { ModelRunner } from './lib/pool.mjs';
import { readNpy } from './lib/npy.mjs';

const USAGE = 'usage: node op_property_litert.mjs CASE_DIR [--tol 1] [--verbose] [--json OUT]';
const args = process.argv.slice(2);
let dir = null, tol = 1, verbose = false, jsonOut = null;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--tol') tol = Number(args[++i]);
  else if (a === '--verbose') verbose = true;
  else if (a === '--json') jsonOut = args[++i];
  else if (!dir && !a.startsWith('-')) dir = a;
  else { process.stderr.write(`${USAGE}\n`); process.exit(2); }
}
if (!dir || !(tol >= 0)) { process.stderr.write(`${USAGE}\n`); process.exit(2); }

const TYPED = { int8: Int8Array, uint8: Uint8Array, int16: Int16Array, int32: Int32Array, float32: Float32Array };
const view = (dtype, bytes) => {
  const C = TYPED[dtype];
  if (!C) throw new Error(`unexpected output type ${dtype}`);
  return new C(bytes.buffer, bytes.byteOffset, bytes.byteLength / C.BYTES_PER_ELEMENT);
};

function inputsOf(id) {
  const list = [];
  for (let k = 0; ; k++) {
    const f = path.join(dir, `${id}_in_${k}.npy`);
    if (!fs.existsSync(f)) break;
    const a = readNpy(f);
    list.push({ dtype: a.dtype, shape: a.shape, bytes: a.bytes });
  }
  return list;
}

// Whether LiteRT's `outputs` equal qforge's files `${id}${suffix}K.npy`
// bit for bit.
function sameAs(id, suffix, outputs) {
  for (let k = 0; k < outputs.length; k++) {
    const f = path.join(dir, `${id}${suffix}${k}.npy`);
    if (!fs.existsSync(f)) return false;
    const mine = readNpy(f);
    if (mine.dtype !== outputs[k].dtype) return false;
    if (Buffer.compare(Buffer.from(mine.bytes.buffer, mine.bytes.byteOffset, mine.bytes.byteLength),
      Buffer.from(outputs[k].bytes.buffer, outputs[k].bytes.byteOffset, outputs[k].bytes.byteLength)) !== 0) return false;
  }
  return true;
}

// Which path LiteRT ran a case with a fast-path prediction on.
function pathOf(id, outputs) {
  const xnn = sameAs(id, '_xnn_out_', outputs), builtin = sameAs(id, '_out_', outputs);
  if (xnn && !builtin) return 'xnnpack';
  if (builtin && !xnn) return 'builtin';
  return xnn ? 'either' : 'neither';
}

function compare(id, outputs) {
  let maxDiff = 0;
  for (let k = 0; k < outputs.length; k++) {
    const f = path.join(dir, `${id}_out_${k}.npy`);
    if (!fs.existsSync(f)) return { ok: false, why: `qforge wrote no output ${k}` };
    const mine = readNpy(f);
    const theirs = outputs[k];
    if (mine.dtype !== theirs.dtype || mine.bytes.byteLength !== theirs.bytes.byteLength) {
      return { ok: false, why: `output ${k}: qforge ${mine.dtype}[${mine.shape}] vs LiteRT ${theirs.dtype}[${theirs.shape}]` };
    }
    const x = view(mine.dtype, mine.bytes), y = view(theirs.dtype, theirs.bytes);
    const isFloat = mine.dtype === 'float32';
    // Float outputs (ops kept float): 1 "LSB" is 1e-5 of the output's
    // largest finite magnitude, as summation order and FMA differ between
    // qforge's float kernels and XNNPACK's.
    let range = 1;
    if (isFloat) {
      for (let i = 0; i < y.length; i++) {
        if (Number.isFinite(y[i])) range = Math.max(range, Math.abs(y[i]));
      }
    }
    for (let i = 0; i < x.length; i++) {
      // Equal values (infinities included) agree; inf - inf would be NaN.
      if (x[i] === y[i]) continue;
      // Overflow territory: inf against a same-signed value near FLT_MAX is
      // summation order, not a wrong form.
      if (isFloat && (!Number.isFinite(x[i]) || !Number.isFinite(y[i])) &&
          Math.sign(x[i]) === Math.sign(y[i]) &&
          Math.min(Math.abs(x[i]), Math.abs(y[i])) >= 1e37) continue;
      // NaN against an infinity: inf - inf in one summation order, not in
      // the other.
      if (isFloat && ((Number.isNaN(x[i]) && Math.abs(y[i]) === Infinity) ||
          (Number.isNaN(y[i]) && Math.abs(x[i]) === Infinity))) continue;
      let d = Math.abs(Number(x[i]) - Number(y[i]));
      if (isFloat) d = Number.isNaN(d) ? (Number.isNaN(x[i]) && Number.isNaN(y[i]) ? 0 : Infinity) : d / range / 1e-5;
      if (d > maxDiff) maxDiff = d;
    }
  }
  return maxDiff <= tol ? { ok: true, maxDiff } : { ok: false, why: `differs by ${maxDiff} LSB`, maxDiff };
}

const lines = fs.readFileSync(path.join(dir, 'manifest.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const runner = new ModelRunner({ timeoutMs: 30000 });
const perOp = new Map();
const failures = [];
const stricter = [];
// Per op: predicted path x observed path counts, and the disagreements.
const paths = new Map();
const pathMisses = [];
let accepted = 0, refused = 0, refusedAgreed = 0;
for (const c of lines) {
  const row = perOp.get(c.op) ?? { ok: 0, failed: 0, refused: 0, stricter: 0 };
  perOp.set(c.op, row);
  const model = path.join(dir, `${c.case}.tflite`);
  const inputs = inputsOf(c.case);
  if (c.status !== 'ok') {
    refused++;
    row.refused++;
    if (!fs.existsSync(model)) { refusedAgreed++; continue; }
    const r = await runner.run({ model, runtime: 'litert', inputs });
    if (r.ok) { row.stricter++; stricter.push({ ...c, litert: 'ran' }); } else refusedAgreed++;
    continue;
  }
  accepted++;
  const r = await runner.run({ model, runtime: 'litert', inputs });
  let verdict;
  if (!r.ok) verdict = { ok: false, why: `LiteRT ${r.kind}: ${String(r.error).slice(0, 200)}` };
  else verdict = compare(c.case, r.outputs);
  if (verdict.ok) row.ok++;
  else { row.failed++; failures.push({ ...c, why: verdict.why }); }
  if (r.ok && typeof c.xnnpack === 'boolean') {
    const seen = pathOf(c.case, r.outputs);
    const predicted = c.xnnpack ? 'xnnpack' : 'builtin';
    const p = paths.get(c.op) ?? { xnnpack: { xnnpack: 0, builtin: 0, either: 0, neither: 0 }, builtin: { xnnpack: 0, builtin: 0, either: 0, neither: 0 } };
    paths.set(c.op, p);
    p[predicted][seen]++;
    if ((seen === 'xnnpack' || seen === 'builtin') && seen !== predicted) {
      pathMisses.push({ ...c, predicted, seen });
    }
  }
}
await runner.close();

for (const [op, r] of [...perOp].sort()) {
  process.stdout.write(`${op.padEnd(24)} ok ${String(r.ok).padStart(4)}  failed ${String(r.failed).padStart(3)}  refused by qforge ${String(r.refused).padStart(3)} (LiteRT runs ${r.stricter})\n`);
}
for (const [op, p] of [...paths].sort()) {
  const line = (k) => `${p[k].xnnpack} xnnpack, ${p[k].builtin} builtin, ${p[k].either} either, ${p[k].neither} neither`;
  process.stdout.write(`fast path ${op.padEnd(18)} predicted xnnpack: ${line('xnnpack')}; predicted builtin: ${line('builtin')}\n`);
}
for (const m of pathMisses) {
  process.stdout.write(`FAST PATH ${m.case} ${m.op}: predicted ${m.predicted}${m.xnnpack_refusal ? ` (${m.xnnpack_refusal})` : ''}, LiteRT ran ${m.seen}\n`);
}
for (const f of failures) {
  process.stdout.write(`FAIL ${f.case} ${f.op} ${f.scheme}: ${f.why}; ranges ${JSON.stringify(f.ranges)}; kept float ${JSON.stringify(f.kept_float)}\n`);
}
if (verbose) {
  for (const s of stricter) process.stdout.write(`stricter ${s.case} ${s.op}: ${s.detail}\n`);
}
const summary = { cases: lines.length, accepted, passed: accepted - failures.length, failed: failures.length, refused_by_qforge: refused, refused_litert_agrees: refusedAgreed, refused_litert_runs: stricter.length, fast_path_disagreements: pathMisses.length };
process.stdout.write(`${JSON.stringify(summary)}\n`);
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ summary, failures, stricter, fast_path_disagreements: pathMisses }, null, 1));
process.stdout.write(`${summary.passed} passed, ${summary.failed} failed, ${pathMisses.length} fast-path disagreements\n`);
process.exit(failures.length || pathMisses.length ? 1 : 0);

#!/usr/bin/env node
// Where does a quantized model lose accuracy? Runs the float model and a
// quantized version of it in LiteRT with every activation tensor exposed as
// a model output (a patched copy: subgraph 0's outputs = every tensor an op
// writes; signatures dropped), matches tensors by name, dequantizes the
// integer ones with their own scale / zero point, and prints per tensor, in
// the quantized graph's op order: the op, the SQNR against the float
// tensor, the float range seen, the quantized range representable, and the
// share of float values outside it (clipped).
//
//   node bench/quant_eval/layerwise.mjs FLOAT.tflite QUANT.tflite --input X.npy
//        [--samples N] [--runtime litert|tfjs-tflite] [--json FILE] [--work DIR]
//        [--channels TENSOR_NAME]
//
// --channels: also per channel (last axis) of that tensor: SQNR, float mean
// and range, quantized mean.
// X.npy: [N, ...input shape] (qforge_make_inputs / quant_eval's eval/data/input_0.npy),
// one input models only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runModel } from '../../tests/interop/lib/run.mjs';
import { parseModel } from '../../tests/interop/lib/tflite.mjs';
import { readNpy } from '../../tests/interop/lib/npy.mjs';
import { outputValues, quantizeInput, fmtDb } from './metrics.mjs';
import { withOutputs, activationTensors } from './expose.mjs';


function parseArgs(argv) {
  const a = { samples: 4, runtime: 'litert', files: [] };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (k === '--input') a.input = argv[++i];
    else if (k === '--samples') a.samples = Number(argv[++i]);
    else if (k === '--runtime') a.runtime = argv[++i];
    else if (k === '--json') a.json = argv[++i];
    else if (k === '--work') a.work = argv[++i];
    else if (k === '--channels') a.channels = argv[++i];
    else a.files.push(k);
  }
  if (a.files.length !== 2 || !a.input) {
    process.stderr.write('usage: node layerwise.mjs FLOAT.tflite QUANT.tflite --input X.npy [--samples N] [--runtime litert|tfjs-tflite] [--json FILE]\n');
    process.exit(2);
  }
  return a;
}

/** A copy of `file` whose subgraph 0 outputs every activation tensor (expose.mjs). */
function exposeAll(file, work) {
  const src = new Uint8Array(fs.readFileSync(file));
  const out = path.join(work, `${path.basename(file, '.tflite')}.all_outputs.tflite`);
  fs.writeFileSync(out, withOutputs(src, activationTensors(parseModel(src))));
  return out;
}

async function runAll(file, x, samples, runtime) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const fb = parseModel(bytes);
  const sg = fb.subgraphs[0];
  const inT = sg.tensors[sg.inputs[0]];
  const per = x.bytes.byteLength / x.shape[0];
  const n = Math.min(samples, x.shape[0]);
  const bytesIn = x.bytes.subarray(0, n * per);
  const fed = inT.dtype === 'float32' ? bytesIn : quantizeInput(bytesIn, inT.dtype, inT.quantization);
  const shape = [n, ...inT.shape.map((d) => Math.max(1, d))];
  const res = await runModel(bytes, { runtime, inputs: [{ dtype: inT.dtype, shape, bytes: fed }], samples: true, stack: false });
  const byName = new Map();
  for (const o of res.outputs) {
    const t = sg.tensors[o.tensor_index];
    const key = t?.name ?? o.name;
    if (!byName.has(key)) byName.set(key, { tensor: t, values: [] });
    byName.get(key).values.push(outputValues(o.dtype, o.bytes, t?.quantization));
  }
  return { fb, byName };
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const work = a.work ?? fs.mkdtempSync(path.join(os.tmpdir(), 'layerwise-'));
  const x = readNpy(a.input);
  const [fFile, qFile] = a.files.map((f) => exposeAll(f, work));
  const F = await runAll(fFile, x, a.samples, a.runtime);
  const Q = await runAll(qFile, x, a.samples, a.runtime);
  const rows = [];
  const qsg = Q.fb.subgraphs[0];
  qsg.operators.forEach((op, i) => {
    for (const ti of op.outputs) {
      const t = qsg.tensors[ti];
      const q = Q.byName.get(t.name), f = F.byName.get(t.name);
      if (!q) continue; // a weight-path tensor, not exposed
      if (!q || !f) { rows.push({ op: i, kind: op.name, tensor: t.name, dtype: t.dtype, note: 'no float tensor of that name' }); continue; }
      let sig = 0, err = 0, lo = Infinity, hi = -Infinity, clipped = 0, count = 0;
      const qz = t.quantization;
      const range = qz && t.dtype !== 'float32' ? (() => {
        const [qmin, qmax] = { int8: [-128, 127], uint8: [0, 255], int16: [-32768, 32767], int32: [-(2 ** 31), 2 ** 31 - 1] }[t.dtype] ?? [0, 0];
        return qz.scale.length === 1 ? [(qmin - qz.zero_point[0]) * qz.scale[0], (qmax - qz.zero_point[0]) * qz.scale[0]] : null;
      })() : null;
      f.values.forEach((fv, s) => {
        const qv = q.values[s];
        if (!qv || qv.length !== fv.length) return;
        for (let k = 0; k < fv.length; k++) {
          sig += fv[k] * fv[k]; err += (fv[k] - qv[k]) ** 2;
          lo = Math.min(lo, fv[k]); hi = Math.max(hi, fv[k]);
          if (range && (fv[k] < range[0] - qz.scale[0] / 2 || fv[k] > range[1] + qz.scale[0] / 2)) clipped++;
          count++;
        }
      });
      rows.push({
        op: i, kind: op.name, tensor: t.name, dtype: t.dtype,
        scale: qz?.scale?.length === 1 ? qz.scale[0] : qz?.scale ? `${qz.scale.length} scales` : null,
        zero_point: qz?.zero_point?.length === 1 ? qz.zero_point[0] : null,
        sqnr_db: err === 0 ? Infinity : 10 * Math.log10(sig / err),
        float_range: [lo, hi], q_range: range, clipped: count ? clipped / count : null,
      });
    }
  });
  const g = (v) => (typeof v === 'number' ? (Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(2) : v.toFixed(3)) : String(v ?? '—'));
  for (const r of rows) {
    if (r.note) { console.log(`${String(r.op).padStart(4)} ${r.kind.padEnd(18)} ${r.dtype.padEnd(7)} ${r.tensor}: ${r.note}`); continue; }
    console.log(`${String(r.op).padStart(4)} ${r.kind.padEnd(18)} ${r.dtype.padEnd(7)} SQNR ${fmtDb(r.sqnr_db).padStart(6)}  float [${g(r.float_range[0])}, ${g(r.float_range[1])}]  q ${r.q_range ? `[${g(r.q_range[0])}, ${g(r.q_range[1])}]` : '—'}  clipped ${r.clipped === null ? '—' : (100 * r.clipped).toFixed(2) + '%'}  ${r.tensor}`);
  }
  if (a.channels) {
    const f = F.byName.get(a.channels), q = Q.byName.get(a.channels);
    if (!f || !q) throw new Error(`no tensor '${a.channels}' in both models`);
    const t = q.tensor, C = t.shape[t.shape.length - 1];
    console.log(`\nper channel of ${a.channels} ${JSON.stringify(t.shape)}:`);
    for (let c = 0; c < C; c++) {
      let sig = 0, err = 0, fs_ = 0, qs = 0, n = 0, lo = Infinity, hi = -Infinity;
      f.values.forEach((fv, s) => { const qv = q.values[s]; for (let k = c; k < fv.length; k += C) { sig += fv[k] ** 2; err += (fv[k] - qv[k]) ** 2; fs_ += fv[k]; qs += qv[k]; n++; lo = Math.min(lo, fv[k]); hi = Math.max(hi, fv[k]); } });
      console.log(`  ch ${String(c).padStart(4)}  SQNR ${fmtDb(err === 0 ? Infinity : 10 * Math.log10(sig / err)).padStart(6)}  float mean ${(fs_ / n).toFixed(4)} [${lo.toFixed(3)}, ${hi.toFixed(3)}]  quantized mean ${(qs / n).toFixed(4)}`);
    }
  }
  if (a.json) fs.writeFileSync(a.json, JSON.stringify(rows, (k, v) => (v === Infinity ? 'inf' : v), 2));
  if (!a.work) fs.rmSync(work, { recursive: true, force: true });
}

main().catch((e) => {
  process.stderr.write(`layerwise: ${e.stack ?? e}\n`);
  process.exit(1);
});

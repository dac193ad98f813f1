#!/usr/bin/env node
// qforge's interpreter against a native runtime (issue 30): ONNX Runtime 1.30
// (CPU, MLAS kernels; bench/ort) on ONNX conversions of the same .tflite
// models, float and int8, at 1 and 2 threads.
//
// For every model: the float model, qforge's int8 model (quantize
// --keep-integer on real data, so that every op with an integer form has
// it) and the official int8 twin where the corpus has one. Each is converted
// (bench/ort/convert.py), both engines run it on the same random input and
// their outputs are compared (float: largest difference relative to the
// output's range; integer: largest difference in steps), then it is timed
// at batch 1: qforge through bench/model_bench, ORT through bench/ort's
// ort_bench (C API), alternated round by round (the machine's speed drifts
// 10-20% over minutes, so only alternation compares like with like); each
// round takes each engine's median over its repeats, the table the median
// over rounds. Speed = ORT ms / qforge ms (above 1: qforge faster).
//
//   node bench/speed/ort.mjs [--build DIR] [--rounds 5] [--filter REGEX]
//        [--out bench/speed/ort]     writes OUT.md and OUT.json
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const corpus = path.resolve(root, '../shared/corpus');
const a = { build: path.join(root, 'build'), rounds: 5, filter: '', out: path.join(here, 'ort') };
for (let i = 2; i < process.argv.length; i += 2) {
  a[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
}
a.rounds = Number(a.rounds);

const D = `${corpus}/data`;
const IMAGENET = ['--data', `${D}/coral/*.bmp`, '--mean', '127.5', '--std', '127.5'];
const UNIT = ['--scale', '0.003921569'];
const PERSON = ['--data', `${D}/tflite-micro/tensorflow/lite/micro/examples/person_detection/testdata/*.bmp`,
  '--data', `${D}/coral/squat.bmp`, ...UNIT];
const RAW = ['--data', `${D}/coral/*.bmp`];  // the MLPerf ResNets take 0..255
const MNIST = ['--data', `${root}/testdata/mnist/*.png`, ...UNIT];
const PHOTOS = ['--data', `${D}/coral/*.jpg`, '--data', `${D}/coral/*.bmp`, ...UNIT];
const HANDS = ['--data', `${D}/mediapipe/mediapipe/model_maker/python/vision/gesture_recognizer/testdata/raw_data/rock/*.jpg`, ...UNIT];

// `kind`: conv (convolution at the core) or fc (FULLY_CONNECTED / BATCH_MATMUL).
const MODELS = [
  { id: 'mobilenet_v1_0.25_224', kind: 'conv', model: 'models/tflite-support/mobilenet_v1_0.25_224_1_metadata_1.tflite', data: IMAGENET },
  { id: 'vww_96', kind: 'conv', model: 'models/mlperf-tiny/vww_96_float.tflite', data: PERSON, twin: 'twins/mlperf-tiny/vww_96_int8.tflite' },
  { id: 'vww_96_14blk', kind: 'conv', model: 'models/mlperf-tiny/vww_96_14blk_836k_float.tflite', data: PERSON, twin: 'twins/mlperf-tiny/vww_96_14blk_836k_int8.tflite' },
  { id: 'pretrainedResnet', kind: 'conv', model: 'models/mlperf-tiny/pretrainedResnet.tflite', data: RAW, twin: 'twins/mlperf-tiny/pretrainedResnet_quant.tflite' },
  { id: 'trainedResnet_6blk', kind: 'conv', model: 'models/mlperf-tiny/trainedResnet_6blk_750k_float.tflite', data: RAW, twin: 'twins/mlperf-tiny/trainedResnet_6blk_750k_int8.tflite' },
  { id: 'mobilenet_v1_0.25_128', kind: 'conv', model: 'models/tflite2onnx/mobilenet_v1_0.25_128.tflite', data: IMAGENET },
  { id: 'conv_fc_mnist', kind: 'conv', model: 'models/ai-edge-quantizer/conv_fc_mnist.tflite', data: MNIST },
  { id: 'face_detection_short_range', kind: 'conv', model: 'models/mediapipe/face_detection_short_range.tflite', data: PHOTOS },
  { id: 'face_detection_back', kind: 'conv', model: 'models/mediapipe/face_detection_back.tflite', data: PHOTOS },
  { id: 'pose_detection', kind: 'conv', model: 'models/mediapipe/pose_detection__20201209.tflite', data: PHOTOS },
  { id: 'hand_landmark_2020', kind: 'conv', model: 'models/mediapipe/hand_landmark__20201104.tflite', data: HANDS },
  { id: 'face_landmark', kind: 'conv', model: 'models/mediapipe/face_landmark__20211006.tflite', data: PHOTOS },
  { id: 'model_ToyCar', kind: 'fc', model: 'models/mlperf-tiny/model_ToyCar.tflite', data: 'toycar', twin: 'twins/mlperf-tiny/model_ToyCar_quant_fullint.tflite' },
  { id: 'planestrike', kind: 'fc', model: 'models/tf-examples/planestrike_tf.tflite', data: 'random' },
];

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'qforge-ort-'));
process.on('exit', () => fs.rmSync(work, { recursive: true, force: true }));
// Copies, so that a rebuild during the run does not change what is timed.
const qforge = path.join(work, 'qforge');
const modelBench = path.join(work, 'model_bench');
fs.copyFileSync(path.join(a.build, 'cmd/qforge'), qforge);
fs.copyFileSync(path.join(a.build, 'bench/model_bench'), modelBench);
fs.chmodSync(qforge, 0o755);
fs.chmodSync(modelBench, 0o755);
const ortDir = path.join(root, 'bench/ort');
const ortBench = path.join(ortDir, 'bin/ort_bench');

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26, ...opts });
  if (r.status !== 0) {
    throw new Error(`${path.basename(cmd)} ${args.slice(0, 3).join(' ')}: ${(r.stderr || r.stdout || '').trim().split('\n').pop()}`);
  }
  return r.stdout;
}
const lastJson = (text) => JSON.parse(text.trim().split('\n').pop());

// npy writer: float32 or int8/uint8, C order.
function writeNpy(file, dtype, shape, bytes) {
  const descr = { float32: '<f4', int8: '|i1', uint8: '|u1', int16: '<i2', int32: '<i4' }[dtype];
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += ' '.repeat(pad % 64) + '\n';
  const pre = Buffer.alloc(10);
  pre.write('\x93NUMPY', 0, 'latin1');
  pre[6] = 1; pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'), Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]));
}
function readNpy(file) {
  const b = fs.readFileSync(file);
  const hlen = b.readUInt16LE(8);
  const header = b.toString('latin1', 10, 10 + hlen);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  const data = b.subarray(10 + hlen);
  const C = { '<f4': Float32Array, '|i1': Int8Array, '|u1': Uint8Array, '<i2': Int16Array, '<i4': Int32Array }[descr];
  const copy = new Uint8Array(data);
  return { descr, values: new C(copy.buffer, 0, copy.byteLength / C.BYTES_PER_ELEMENT) };
}
// Deterministic input: U(-1, 1) for float, every byte value for integers.
function randomInput(file, dtype, shape, seed) {
  let s = seed >>> 0;
  const next = () => { s = (s + 0x6d2b79f5) >>> 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  const n = shape.reduce((x, y) => x * y, 1);
  const v = dtype === 'float32' ? new Float32Array(n) : dtype === 'int8' ? new Int8Array(n) : new Uint8Array(n);
  for (let i = 0; i < n; i++) v[i] = dtype === 'float32' ? next() * 2 - 1 : Math.floor(next() * 256) - (dtype === 'int8' ? 128 : 0);
  writeNpy(file, dtype, shape, v);
}

// Quantizes with qforge on the model's data: the int8 model qforge writes
// with every integer form taken.
function quantize(m, out) {
  let data = m.data;
  if (data === 'toycar' || data === 'random') {
    const f = path.join(work, `${m.id}_calib.npy`);
    if (data === 'toycar') {
      const bin = fs.readFileSync(`${D}/mlperf-tiny/benchmark/reference_submissions/anomaly_detection/datasets/dcase01/normal_id_01_00000000_hist_librosa.bin`);
      const v = new Float32Array(new Uint8Array(bin).buffer);
      writeNpy(f, 'float32', [v.length / 640, 640], v);
    } else {
      const info = JSON.parse(run(qforge, ['inspect', path.join(corpus, m.model), '--json']));
      const shape = info.inputs[0].shape.map((d) => (d < 0 ? 1 : d));
      for (let k = 0; k < 8; k++) randomInput(path.join(work, `${m.id}_calib_${k}.npy`), 'float32', shape, 100 + k);
      data = ['--data', path.join(work, `${m.id}_calib_*.npy`)];
    }
    if (data === 'toycar') data = ['--data', f];
  }
  run(qforge, ['-q', 'quantize', path.join(corpus, m.model), ...data, '--keep-integer', '-o', out]);
}

// Largest output difference: relative to the output's range for float,
// in steps for integers.
function compare(dirA, dirB, nOut) {
  let worst = 0, unit = 'steps';
  for (let k = 0; k < nOut; k++) {
    const x = readNpy(path.join(dirA, `output_${k}.npy`)).values;
    const y = readNpy(path.join(dirB, `output_${k}.npy`)).values;
    if (x.length !== y.length) return NaN;
    const isFloat = x instanceof Float32Array;
    if (isFloat) unit = 'relative';
    let lo = Infinity, hi = -Infinity, d = 0;
    for (let i = 0; i < x.length; i++) {
      lo = Math.min(lo, x[i]); hi = Math.max(hi, x[i]);
      d = Math.max(d, Math.abs(x[i] - y[i]));
    }
    // A one-value output has no range: relative to its magnitude then.
    const span = Math.max(hi - lo, Math.abs(hi), Math.abs(lo), 1e-30);
    worst = Math.max(worst, isFloat ? d / span : d);
  }
  return { worst, unit };
}

const median = (v) => { const s = [...v].sort((x, y) => x - y); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };

function timeForm(tflite, onnx, threads, repeat) {
  const q = [], o = [];
  for (let r = 0; r < a.rounds; r++) {
    const qf = () => q.push(lastJson(run(modelBench, [tflite, '--repeat', String(repeat), '--batch', '1', '--threads', String(threads), '--stats', '0'])).ms_per_sample_median);
    const ort = () => o.push(lastJson(run(ortBench, [onnx, '--threads', String(threads), '--repeat', String(repeat)])).run_ms_median);
    if (r % 2) { ort(); qf(); } else { qf(); ort(); }
  }
  return { qforge_ms: median(q), ort_ms: median(o), qforge_rounds: q, ort_rounds: o };
}

const rows = [];
const filter = new RegExp(a.filter);
for (const m of MODELS) {
  if (!filter.test(m.id)) continue;
  const forms = [{ form: 'float', file: path.join(corpus, m.model) }];
  const q8 = path.join(work, `${m.id}.int8.tflite`);
  try { quantize(m, q8); forms.push({ form: 'int8', file: q8 }); } catch (e) { rows.push({ id: m.id, kind: m.kind, form: 'int8', error: String(e.message) }); }
  if (m.twin) forms.push({ form: 'int8 twin', file: path.join(corpus, m.twin) });
  for (const f of forms) {
    const onnx = path.join(work, `${m.id}.${f.form.replace(' ', '_')}.onnx`);
    const row = { id: m.id, kind: m.kind, form: f.form };
    try {
      const conv = lastJson(run('/usr/bin/python3', [path.join(ortDir, 'convert.py'), f.file, '-o', onnx]));
      if (!conv.ok) throw new Error(conv.error);
      const input = conv.inputs[0];
      const x = path.join(work, 'x.npy');
      randomInput(x, input.dtype, input.shape.map((d) => (d < 0 ? 1 : d)), 7);
      const dq = path.join(work, 'out_q'), dorts = path.join(work, 'out_o');
      fs.rmSync(dq, { recursive: true, force: true });
      fs.rmSync(dorts, { recursive: true, force: true });
      run(qforge, ['-q', 'run', f.file, '--data', x, '--output-dir', dq]);
      run('node', [path.join(ortDir, 'run.mjs'), onnx, '--input', x, '--out-dir', dorts]);
      const c = compare(dq, dorts, conv.outputs.length);
      row.max_diff = c.worst;
      row.diff_unit = c.unit;
      // Repeats for about 0.3 s a process.
      const probe = lastJson(run(modelBench, [f.file, '--repeat', '5', '--batch', '1', '--threads', '1', '--stats', '0'])).ms_per_sample_median;
      const repeat = Math.max(10, Math.min(3000, Math.round(300 / Math.max(probe, 0.01))));
      for (const threads of [1, 2]) {
        const t = timeForm(f.file, onnx, threads, repeat);
        rows.push({ ...row, threads, repeat, ...t, speed: t.ort_ms / t.qforge_ms });
        process.stderr.write(`${m.id} ${f.form} t${threads}: ORT ${t.ort_ms.toFixed(3)} qforge ${t.qforge_ms.toFixed(3)} ms, speed ${(t.ort_ms / t.qforge_ms).toFixed(2)}\n`);
      }
    } catch (e) {
      rows.push({ ...row, error: String(e.message) });
      process.stderr.write(`${m.id} ${f.form}: ${e.message}\n`);
    }
  }
}

// Geometric mean and worst of the speed per (form kind, threads).
const timed = rows.filter((r) => r.speed);
const groups = {};
for (const r of timed) {
  const k = `${r.form === 'float' ? 'float' : 'int8'} t${r.threads}`;
  (groups[k] ??= []).push(r);
}
const summary = Object.entries(groups).map(([k, rs]) => {
  const gm = Math.exp(rs.reduce((s, r) => s + Math.log(r.speed), 0) / rs.length);
  const worst = rs.reduce((w, r) => (r.speed < w.speed ? r : w));
  return { group: k, n: rs.length, geomean: gm, worst: worst.speed, worst_model: `${worst.id} ${worst.form}` };
});
const cpu = (fs.readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/) || [])[1] ?? 'unknown';
const gitRev = spawnSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
const f3 = (x) => (x === undefined ? '' : x.toFixed(3));
let md = `# qforge against ONNX Runtime (MLAS)\n\nGenerated by \`node bench/speed/ort.mjs\` at ${gitRev} on ${cpu}, ${os.cpus().length} cores. ` +
  `Batch 1; ${a.rounds} rounds alternating the engines, each round an engine's median over its repeats, the table the median over rounds. ` +
  `Speed = ORT ms / qforge ms (above 1: qforge faster). int8 is qforge's own int8 model (\`--keep-integer\`), and the TFLite converter's twin where the corpus has one. ` +
  `qforge runs TFLite's arithmetic (the default); diff is the largest output difference of the two engines on one random input (float: relative to the output's range; int8: steps).\n\n` +
  '| group | models | geometric mean | worst |\n| --- | --- | --- | --- |\n' +
  summary.map((s) => `| ${s.group} | ${s.n} | ${s.geomean.toFixed(2)} | ${s.worst.toFixed(2)} (${s.worst_model}) |`).join('\n') +
  '\n\n| model | core | form | threads | ORT ms | qforge ms | speed | diff |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n';
for (const r of rows) {
  if (r.error) { md += `| ${r.id} | ${r.kind} | ${r.form} | | | | | not run: ${r.error.replace(/\|/g, '/')} |\n`; continue; }
  const diff = r.diff_unit === 'relative' ? r.max_diff.toExponential(1) : `${r.max_diff} steps`;
  md += `| ${r.id} | ${r.kind} | ${r.form} | ${r.threads} | ${f3(r.ort_ms)} | ${f3(r.qforge_ms)} | ${r.speed.toFixed(2)} | ${diff} |\n`;
}
fs.writeFileSync(`${a.out}.md`, md);
fs.writeFileSync(`${a.out}.json`, JSON.stringify({ rev: gitRev, cpu, rounds: a.rounds, summary, rows }, null, 1) + '\n');
process.stderr.write(`wrote ${a.out}.md\n`);

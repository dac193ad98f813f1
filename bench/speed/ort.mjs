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
// --base DIR adds a second qforge build (DIR/bench/model_bench, e.g. the
// commit before a change) to the same alternation: its speed against ORT
// is the "before" column. --stat best takes each process's fastest repeat
// instead of its median: on a busy machine the least disturbed run. The load average is recorded with the tables:
// on the shared 2-core machine it says how much the 2-thread figures mean.
//
//   node bench/speed/ort.mjs [--build DIR] [--base DIR] [--rounds 5]
//        [--stat median|best] [--filter REGEX] [--out bench/speed/ort]
//   writes OUT.md and OUT.json
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const corpus = path.resolve(root, '../shared/corpus');
const a = { build: path.join(root, 'build'), base: '', stat: 'median', rounds: 5, filter: '', out: path.join(here, 'ort') };
for (let i = 2; i < process.argv.length; i += 2) {
  a[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
}
a.rounds = Number(a.rounds);
if (!['median', 'best'].includes(a.stat)) throw new Error('--stat median|best');
const qStat = a.stat === 'best' ? 'ms_per_sample' : 'ms_per_sample_median';
const oStat = a.stat === 'best' ? 'run_ms_min' : 'run_ms_median';

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
const baseBench = a.base ? path.join(work, 'model_bench.base') : '';
if (baseBench) {
  fs.copyFileSync(path.join(a.base, 'bench/model_bench'), baseBench);
  fs.chmodSync(baseBench, 0o755);
}
// This core's peaks (bench/peak_bench.cc), the best of a run before and
// one after the timings: each model's GOP/s is given as a share of them.
const peakBench = path.join(a.build, 'bench/peak_bench');
const peaks = { vnni_int8_gops: 0, fma_fp32_gflops: 0 };
const measurePeaks = () => {
  if (!fs.existsSync(peakBench)) return;
  const p = JSON.parse(spawnSync(peakBench, [], { encoding: 'utf8' }).stdout.trim());
  peaks.vnni_int8_gops = Math.max(peaks.vnni_int8_gops, p.vnni_int8_gops);
  peaks.fma_fp32_gflops = Math.max(peaks.fma_fp32_gflops, p.fma_fp32_gflops);
};
measurePeaks();
// Multiply-adds of one inference (qforge's LiteRT cost model counts them).
const macsOf = (file) => {
  const r = spawnSync(qforge, ['inspect', '--runtime', 'litert', '--json', file], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) return null;
  return JSON.parse(r.stdout).runtime.ops.reduce((x, o) => x + (o.macs ?? 0), 0);
};
const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const loadStart = loadavg();
const loads = [];
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
  const q = [], o = [], b = [];
  const mb = (bin, out) => () => out.push(lastJson(run(bin, [tflite, '--repeat', String(repeat), '--batch', '1', '--threads', String(threads), '--stats', '0']))[qStat]);
  const engines = [mb(modelBench, q), () => o.push(lastJson(run(ortBench, [onnx, '--threads', String(threads), '--repeat', String(repeat)]))[oStat])];
  if (baseBench) engines.push(mb(baseBench, b));
  for (let r = 0; r < a.rounds; r++) {
    // Each engine in turn, starting one later every round.
    for (let e = 0; e < engines.length; e++) engines[(e + r) % engines.length]();
  }
  loads.push(Number(loadavg().split(' ')[0]));
  const t = { qforge_ms: median(q), ort_ms: median(o), qforge_rounds: q, ort_rounds: o };
  if (baseBench) Object.assign(t, { base_ms: median(b), base_rounds: b, base_speed: t.ort_ms / median(b) });
  return t;
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
    const row = { id: m.id, kind: m.kind, form: f.form, macs: macsOf(f.file) };
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
        process.stderr.write(`${m.id} ${f.form} t${threads}: ORT ${t.ort_ms.toFixed(3)} qforge ${t.qforge_ms.toFixed(3)} ms, speed ${(t.ort_ms / t.qforge_ms).toFixed(2)}${t.base_ms ? `, before ${t.base_ms.toFixed(3)} ms ${t.base_speed.toFixed(2)}` : ''}\n`);
      }
    } catch (e) {
      rows.push({ ...row, error: String(e.message) });
      process.stderr.write(`${m.id} ${f.form}: ${e.message}\n`);
    }
  }
}

measurePeaks();
// qforge's GOP/s (2 ops a multiply-add) and its share of the peak of the
// form's arithmetic (int8: VNNI, float: FMA) over the threads used.
for (const r of rows) {
  if (!r.qforge_ms || !r.macs) continue;
  r.qforge_gops = (2 * r.macs) / (r.qforge_ms * 1e6);
  const peak = r.form === 'float' ? peaks.fma_fp32_gflops : peaks.vnni_int8_gops;
  if (peak > 0) r.peak_share = r.qforge_gops / (peak * r.threads);
}
// Geometric mean and worst of the speed (and of the speed before, with
// --base) per form kind and thread count.
const timed = rows.filter((r) => r.speed);
const groupOf = (r) => (r.form === 'float' ? 'float' : 'int8');
const stats = (rs, key) => {
  const gm = Math.exp(rs.reduce((s, r) => s + Math.log(r[key]), 0) / rs.length);
  const worst = rs.reduce((w, r) => (r[key] < w[key] ? r : w));
  return { geomean: gm, worst: worst[key], worst_model: `${worst.id} ${worst.form}` };
};
const summary = [];
for (const g of ['float', 'int8']) {
  for (const threads of [1, 2]) {
    const rs = timed.filter((r) => groupOf(r) === g && r.threads === threads);
    if (!rs.length) continue;
    const s = { group: `${g} t${threads}`, n: rs.length, ...stats(rs, 'speed') };
    if (baseBench) s.before = stats(rs, 'base_speed');
    summary.push(s);
  }
}
const cpu = (fs.readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/) || [])[1] ?? 'unknown';
const gitRev = spawnSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
const baseRev = a.base ? spawnSync('git', ['-C', a.base, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim() : '';
const loadEnd = loadavg();
const f3 = (x) => (x === undefined ? '' : x.toFixed(x < 0.1 ? 4 : 3));
const f2 = (x) => (x === undefined ? '' : x.toFixed(2));
const wm = (s) => `${s.worst.toFixed(2)} (${s.worst_model})`;
let md = `# qforge against ONNX Runtime (MLAS)\n\nGenerated by \`node bench/speed/ort.mjs\` at ${gitRev} on ${cpu}, ${os.cpus().length} cores. ` +
  `Batch 1; ${a.rounds} round${a.rounds === 1 ? '' : 's'} alternating the engines, each round an engine's ${a.stat === 'best' ? 'fastest repeat (`--stat best`)' : 'median over its repeats'}, the table the median over rounds. ` +
  `Speed = ORT ms / qforge ms (above 1: qforge faster). int8 is qforge's own int8 model (\`--keep-integer\`), and the TFLite converter's twin where the corpus has one. ` +
  `qforge runs TFLite's arithmetic (the default); diff is the largest output difference of the two engines on one random input (float: relative to the output's range; int8: steps).\n\n` +
  (baseBench ? `"before" is a second qforge build (${a.base}${baseRev ? `, ${baseRev}` : ''}) timed in the same rounds. ` : '') +
  `Load average (1, 5, 15 min) at the start: ${loadStart}; at the end: ${loadEnd}; the 1-minute figure after each timing ranged ${Math.min(...loads)}-${Math.max(...loads)}. ` +
  `The machine has 2 cores: with a load above 2, the second thread often waits for a core, so the 2-thread figures of both engines are then more the scheduler's than theirs. ` +
  `GOP/s: 2 x the model's multiply-adds (\`qforge inspect --runtime litert\`) per qforge run; peak: its share of this core's measured peak times the threads (bench/peak_bench: ${peaks.vnni_int8_gops.toFixed(0)} GOP/s int8 VNNI, ${peaks.fma_fp32_gflops.toFixed(0)} GFLOP/s fp32 FMA, one thread; int8 forms against VNNI, float against FMA).\n\n` +
  (baseBench
    ? '| group | models | geometric mean | worst | before: geometric mean | before: worst |\n| --- | --- | --- | --- | --- | --- |\n' +
      summary.map((s) => `| ${s.group} | ${s.n} | ${s.geomean.toFixed(2)} | ${wm(s)} | ${s.before.geomean.toFixed(2)} | ${wm(s.before)} |`).join('\n')
    : '| group | models | geometric mean | worst |\n| --- | --- | --- | --- |\n' +
      summary.map((s) => `| ${s.group} | ${s.n} | ${s.geomean.toFixed(2)} | ${wm(s)} |`).join('\n')) +
  '\n\n';
// One line per model and form, the thread counts side by side.
const cols = ['ORT ms', 'qforge ms', 'speed', 'qforge GOP/s (peak)', ...(baseBench ? ['before ms', 'before speed'] : [])];
md += `| model | core | form | ${[1, 2].map((t) => cols.map((c) => `t${t} ${c}`).join(' | ')).join(' | ')} | diff |\n`;
md += `| --- | --- | --- | ${Array(2 * cols.length).fill('---').join(' | ')} | --- |\n`;
const lines = new Map();
for (const r of rows) {
  const k = `${r.id}\u0000${r.form}`;
  if (!lines.has(k)) lines.set(k, { id: r.id, kind: r.kind, form: r.form, t: {}, error: null, r });
  const l = lines.get(k);
  if (r.error) l.error = r.error; else l.t[r.threads] = r;
}
for (const l of lines.values()) {
  if (l.error && !Object.keys(l.t).length) {
    md += `| ${l.id} | ${l.kind} | ${l.form} | ${Array(2 * cols.length).fill('').join(' | ')} | not run: ${l.error.replace(/\|/g, '/')} |\n`;
    continue;
  }
  const cells = [1, 2].map((t) => {
    const r = l.t[t];
    if (!r) return cols.map(() => '').join(' | ');
    const c = [f3(r.ort_ms), f3(r.qforge_ms), f2(r.speed),
      r.qforge_gops ? `${r.qforge_gops.toFixed(1)}${r.peak_share ? ` (${(100 * r.peak_share).toFixed(0)}%)` : ''}` : ''];
    if (baseBench) c.push(f3(r.base_ms), f2(r.base_speed));
    return c.join(' | ');
  }).join(' | ');
  const any = l.t[1] ?? l.t[2];
  const diff = any.diff_unit === 'relative' ? any.max_diff.toExponential(1) : `${any.max_diff} steps`;
  md += `| ${l.id} | ${l.kind} | ${l.form} | ${cells} | ${diff} |\n`;
}
// Issue 30: every int8 conv net faster than its float model in qforge.
const ms = (id, form, t) => rows.find((r) => r.id === id && r.form === form && r.threads === t)?.qforge_ms;
const pairs = [...new Set(rows.map((r) => r.id))].flatMap((id) => {
  const v = [1, 2].map((t) => (ms(id, 'float', t) && ms(id, 'int8', t) ? ms(id, 'float', t) / ms(id, 'int8', t) : null));
  return v.every((x) => x === null) ? [] : [{ id, v }];
});
if (pairs.length) {
  md += `\nqforge's int8 model (\`--keep-integer\`) against its float model, float ms / int8 ms at 1 and 2 threads (above 1: int8 faster): ` +
    pairs.map((p) => `${p.id} ${p.v.map((x) => (x === null ? '—' : x.toFixed(2))).join(' / ')}`).join('; ') +
    `. Slower at 1 thread: ${pairs.filter((p) => p.v[0] !== null && p.v[0] < 1).map((p) => p.id).join(', ') || 'none'}.\n`;
}
fs.writeFileSync(`${a.out}.md`, md);
fs.writeFileSync(`${a.out}.json`, JSON.stringify({ rev: gitRev, base: a.base || undefined, base_rev: baseRev || undefined, cpu, rounds: a.rounds, stat: a.stat, load_start: loadStart, load_end: loadEnd, peaks, summary, rows }, null, 1) + '\n');
process.stderr.write(`wrote ${a.out}.md\n`);

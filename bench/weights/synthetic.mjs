// Part 2 of bench/weights/weights.sh: the weight forms on models without
// data in bench/quant_eval, on generated inputs (run_model.mjs --seed:
// uniform [-1, 1), token ids in range). For each model, form and rounding:
// size, SQNR against the float model in LiteRT over three draws, whether
// LiteRT runs it, and qforge's interpreter against LiteRT on the same
// inputs. Prints one JSON document. (LiteRT's ff.tflite, a feed-forward
// block with constant BATCH_MATMUL operands, is left out: its output is
// zero for every input.)
//   node bench/weights/synthetic.mjs --qforge BIN --work DIR [--rounding LIST]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readNpy } from '../../tests/interop/lib/npy.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const args = Object.fromEntries(process.argv.slice(2).reduce((acc, v, i, a) => (i % 2 === 0 ? acc.concat([[v.replace(/^--/, ''), a[i + 1]]]) : acc), []));
const qforge = path.resolve(args.qforge ?? path.join(root, 'build/cmd/qforge'));
const work = path.resolve(args.work ?? '/tmp/weights_synthetic');
const roundings = (args.rounding ?? 'nearest').split(',');
const corpus = path.resolve(root, '../shared/corpus/models');
const MODELS = [
  ['movie_review', `${corpus}/tflite-support/movie_review.tflite`, 'GATHER embedding [10000, 16] + FULLY_CONNECTED'],
  ['regex_one_embedding', `${corpus}/tflite-support/regex_one_embedding_with_metadata.tflite`, 'GATHER embedding + FULLY_CONNECTED'],
  ['q_einsum', `${corpus}/litert/q_einsum.tflite`, 'FULLY_CONNECTED [128 -> 128]'],
  ['bmm_constant_input', `${corpus}/ai-edge-quantizer/bmm_constant_input.tflite`, 'BATCH_MATMUL, constant operand'],
  ['embedding_lookup_blocks', `${root}/testdata/ops/embedding_lookup_blocks.tflite`, 'generated EMBEDDING_LOOKUP [32, 128]'],
  ['fc_blocks', `${root}/testdata/ops/fc_blocks.tflite`, 'generated FULLY_CONNECTED [64, 256], every 16th input 8x larger'],
];
const FORMS = [
  ['wo8', ['--scheme', 'weight-only', '--weight-bits', '8']],
  ['wo4', ['--scheme', 'weight-only', '--weight-bits', '4']],
  ['wo4_b32', ['--scheme', 'weight-only', '--weight-bits', '4', '--block-size', '32']],
  ['wo4_b128', ['--scheme', 'weight-only', '--weight-bits', '4', '--block-size', '128']],
  ['dyn8', ['--scheme', 'dynamic']],
  ['dyn4', ['--scheme', 'dynamic', '--weight-bits', '4']],
  ['dyn4_b32', ['--scheme', 'dynamic', '--weight-bits', '4', '--block-size', '32']],
  ['dyn4_b128', ['--scheme', 'dynamic', '--weight-bits', '4', '--block-size', '128']],
];
const ROUNDING_FLAGS = { nearest: [], clip: ['--weight-clip', 'mse'], gptq: ['--gptq'], awq: ['--awq'] };
const SEEDS = [1, 2, 3];
const runModel = path.join(root, 'tests/interop/run_model.mjs');

const floats = (f) => { const x = readNpy(f); return new Float32Array(x.bytes.buffer, x.bytes.byteOffset, x.bytes.byteLength / 4); };
function litert(model, seed, dir) {
  try {
    execFileSync('node', [runModel, model, '--runtime', 'litert', '--seed', String(seed), '--out-dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    return { ok: true };
  } catch (e) {
    const text = `${e.stdout ?? ''}`.trim();
    try { return { ok: false, error: JSON.parse(text).error }; } catch { return { ok: false, error: text.slice(0, 300) || String(e) }; }
  }
}
const sums = () => ({ sig: 0, err: 0 });
function add(s, ref, got) { for (let i = 0; i < ref.length; i++) { s.sig += ref[i] * ref[i]; s.err += (ref[i] - got[i]) ** 2; } }
const db = (s) => (s.err === 0 ? Infinity : 10 * Math.log10(s.sig / s.err));

fs.mkdirSync(work, { recursive: true });
const rows = [];
for (const [id, model, what] of MODELS) {
  if (!fs.existsSync(model)) { rows.push({ model: id, what, error: 'missing' }); continue; }
  const floatBytes = fs.statSync(model).size;
  for (const seed of SEEDS) litert(model, seed, path.join(work, id, `float.${seed}`));
  for (const r of roundings) {
    for (const [form, flags] of FORMS) {
      const row = { model: id, what, form, rounding: r, float_bytes: floatBytes };
      rows.push(row);
      const q = path.join(work, id, `${form}.${r}.tflite`);
      try {
        const err = execFileSync(qforge, ['quantize', model, ...flags, ...ROUNDING_FLAGS[r], '-o', q], { stdio: ['ignore', 'pipe', 'pipe'] });
        void err;
      } catch (e) { row.quantize_error = `${e.stderr ?? e}`.trim().split('\n').pop(); continue; }
      row.bytes = fs.statSync(q).size;
      const vsFloat = sums(), vsLitert = sums();
      for (const seed of SEEDS) {
        const dir = path.join(work, id, `${form}.${r}.${seed}`);
        const lr = litert(q, seed, dir);
        if (!lr.ok) { row.litert_ok = false; row.litert_error = lr.error; break; }
        row.litert_ok = true;
        const ref = path.join(work, id, `float.${seed}`, 'output_0.npy');
        if (fs.existsSync(ref)) add(vsFloat, floats(ref), floats(path.join(dir, 'output_0.npy')));
        const ins = fs.readdirSync(dir).filter((f) => f.startsWith('input_')).sort().flatMap((f) => ['--data', path.join(dir, f)]);
        try {
          execFileSync(qforge, ['run', q, ...ins, '--output-dir', path.join(dir, 'qf'), '-q'], { stdio: ['ignore', 'pipe', 'pipe'] });
          const out0 = fs.readdirSync(path.join(dir, 'qf')).filter((f) => f.endsWith('.npy')).sort()[0];
          add(vsLitert, floats(path.join(dir, 'output_0.npy')), floats(path.join(dir, 'qf', out0)));
        } catch (e) { row.qforge_error = `${e.stderr ?? e}`.trim().split('\n').pop(); }
      }
      if (row.litert_ok) {
        row.sqnr_db = db(vsFloat);
        if (!row.qforge_error) row.qforge_vs_litert_db = db(vsLitert);
      }
    }
  }
}
console.log(JSON.stringify({ seeds: SEEDS, rows }, (k, v) => (v === Infinity ? 'inf' : v), 1));

// The qforge side of quant_eval.mjs: calibrate, quantize (parsing the summary
// it prints on stderr), inspect.
import fs from 'node:fs';
import path from 'node:path';
import { runProgram } from '../../tests/interop/lib/float_inputs.mjs';
import { writeNpy } from '../../tests/interop/lib/npy.mjs';

const firstError = (stderr) => {
  const lines = stderr.trim().split('\n');
  return (lines.find((l) => l.startsWith('qforge: error:')) ?? lines.pop() ?? '').replace(/^qforge: error: /, '');
};

/**
 * Writes `inputs` (lib/float_inputs.mjs: per input, one byte array per sample,
 * shape as LiteRT is fed) as one .npy per input, stacked the way `--data`
 * reads a batch: [N, ...shape[1:]] when the model's batch dim is 1 or
 * dynamic, else [N, ...shape]. Returns the --data arguments.
 */
export function writeDataNpy(inputs, dir) {
  fs.mkdirSync(dir, { recursive: true });
  return inputs.flatMap((x, k) => {
    const file = path.join(dir, `input_${k}.npy`);
    const batchOne = x.shape.length >= 2 && x.shape[0] === 1 && (x.shape_signature[0] === 1 || x.shape_signature[0] === -1);
    const shape = batchOne ? [x.samples.length, ...x.shape.slice(1)] : [x.samples.length, ...x.shape];
    writeNpy(file, x.dtype, shape, Buffer.concat(x.samples));
    return ['--data', inputs.length > 1 ? `${x.name}=${file}` : file];
  });
}

/** qforge calibrate. Returns { ok, ms, message, code }. */
export async function calibrate(qforge, model, data, out, { timeoutMs, histogramStride = 1 }) {
  const t0 = performance.now();
  const r = await runProgram(qforge, ['calibrate', model, ...data, '-o', out, '--threads', '1', '--histogram-stride', String(histogramStride), '-q'], timeoutMs);
  const ms = Math.round(performance.now() - t0);
  if (r.code !== 0) return { ok: false, ms, code: r.code, message: r.timedOut ? 'timeout' : firstError(r.stderr) };
  return { ok: true, ms };
}

/**
 * Parses quantize's summary:
 *   quantize (int8, minmax): 31 ops quantized, 0 kept float
 *     float: op 27 AVERAGE_POOL_2D: no hybrid kernel
 *     size: 866284 -> 311376 bytes (35.9%)
 */
export function parseSummary(stderr) {
  const s = { quantized: null, kept_float: null, float_ops: [], size_before: null, size_after: null, other: [] };
  for (const line of stderr.split('\n')) {
    let m;
    if ((m = /^quantize \(([^)]*)\): (\d+) ops? quantized, (\d+) kept float/.exec(line))) {
      s.quantized = Number(m[2]);
      s.kept_float = Number(m[3]);
    } else if ((m = /^\s*float: (?:subgraph (\d+) )?op (\d+) (\S+): (.*)$/.exec(line))) {
      s.float_ops.push({ subgraph: m[1] ? Number(m[1]) : 0, index: Number(m[2]), op: m[3], reason: m[4] });
    } else if ((m = /^\s*size: (\d+) -> (\d+) bytes/.exec(line))) {
      s.size_before = Number(m[1]);
      s.size_after = Number(m[2]);
    } else if (line.trim()) {
      s.other.push(line.trim());
    }
  }
  return s;
}

/** qforge quantize. Returns { ok, ms, summary, message, code, stderr }. */
export async function quantize(qforge, model, stats, out, { scheme, method, timeoutMs, extra = [] }) {
  const args = ['quantize', model, '-o', out, '--scheme', scheme];
  if (stats) args.push('--stats', stats);
  if (method) args.push('--method', method);
  args.push(...extra);
  const t0 = performance.now();
  const r = await runProgram(qforge, args, timeoutMs);
  const ms = Math.round(performance.now() - t0);
  if (r.code !== 0) return { ok: false, ms, code: r.code, message: r.timedOut ? 'timeout' : firstError(r.stderr), stderr: r.stderr };
  return { ok: true, ms, summary: parseSummary(r.stderr), stderr: r.stderr };
}

/** qforge inspect --json (null on failure). */
export async function inspect(qforge, model, { timeoutMs }) {
  const r = await runProgram(qforge, ['inspect', model, '--json'], timeoutMs);
  if (r.code !== 0) return null;
  try {
    return JSON.parse(r.stdout);
  } catch {
    return null;
  }
}

/** "CONV_2D×5 (weights not a large float constant); SOFTMAX×1 (no hybrid kernel)" */
export function floatOpsText(floatOps) {
  const groups = new Map();
  for (const f of floatOps) {
    const key = f.reason.replace(/'[^']*'/g, "'…'"); // group by the rule, not the tensor name
    if (!groups.has(key)) groups.set(key, new Map());
    const g = groups.get(key);
    g.set(f.op, (g.get(f.op) ?? 0) + 1);
  }
  return [...groups].map(([reason, ops]) => `${[...ops].map(([op, n]) => `${op}×${n}`).join(', ')}: ${reason}`).join('; ');
}

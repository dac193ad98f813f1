// `qforge run` for float_vs_litert.mjs: the same input tensors as LiteRT gets,
// written as .npy and bound by name, outputs read back per sample.
import fs from 'node:fs';
import path from 'node:path';
import { readNpy, writeNpy } from './npy.mjs';
import { runProgram } from './float_inputs.mjs';
import { BUILTIN_OP_NAMES, opName } from './op_names.mjs';

/**
 * The NAME each input can be bound by in `--data NAME=FILE`: its tensor name,
 * else its signature name, whichever no other input also answers to.
 * Returns names (in input order), or null when some input has no usable name.
 */
export function bindingNames(inputs) {
  const answers = (x, n) => x.name === n || x.signature_name === n;
  const names = inputs.map((x) => [x.name, x.signature_name].find((n) => n && !n.includes('=') && inputs.every((y) => y === x || !answers(y, n))));
  return names.every(Boolean) ? names : null;
}

// Several samples go in one run when every input has a batch dim of 1 (or -1
// pinned to 1): FILE.npy = [N, ...shape[1:]] is N samples to qforge.
const batchable = (inputs) => inputs.every((x) => x.shape.length >= 2 && x.shape[0] === 1 && (x.shape_signature[0] === 1 || x.shape_signature[0] === -1));

/** The op named by qforge's "no kernel" error, as lib/tflite.mjs names ops (custom ops as CUSTOM:X). */
export function noKernelOp(stderr) {
  const m = /subgraph (\d+) op (\d+) \(([^)]*)\): qforge has no kernel/.exec(stderr);
  if (!m) return null;
  const code = /^BUILTIN_(\d+)$/.exec(m[3]);
  const name = code ? opName(Number(code[1])) : BUILTIN_OP_NAMES.includes(m[3]) ? m[3] : `CUSTOM:${m[3]}`;
  return { op: name, subgraph: Number(m[1]), index: Number(m[2]) };
}

async function runOnce(qforge, model, files, names, outDir, { threads, timeoutMs, flags = [] }) {
  const data = files.flatMap((f, k) => ['--data', names.length > 1 ? `${names[k]}=${f}` : f]);
  const t0 = performance.now();
  const r = await runProgram(qforge, [...flags, 'run', model, ...data, '--output-dir', outDir, '--threads', String(threads), '-q'], timeoutMs);
  r.ms = performance.now() - t0;
  return r;
}

/**
 * Runs `qforge [flags...] run` on `inputs` (lib/float_inputs.mjs); `flags` are
 * global flags such as ['--arithmetic', 'xnnpack']. Returns
 *   { ok: true, outputs: [[{ dtype, shape, bytes } per sample] per subgraph 0 output], batched, ms }
 *   { ok: false, code, signal, timedOut, stderr, message, no_kernel }
 */
export async function runQforge(qforge, model, fb, inputs, { workDir, threads = 1, timeoutMs = 120000, flags = [] }) {
  const names = inputs.length > 1 ? bindingNames(inputs) : [''];
  if (!names) return { ok: false, unbindable: true, message: 'the inputs have no unique tensor or signature names to bind with --data NAME=FILE' };
  const nOut = fb.subgraphs[0].outputs.length;
  const nSamples = inputs[0].samples.length;
  const runs = batchable(inputs) ? [{ samples: [...Array(nSamples).keys()], batched: true }] : inputs[0].samples.map((_, s) => ({ samples: [s], batched: false }));
  const outputs = Array.from({ length: nOut }, () => []);
  let ms = 0;
  for (const [r, run] of runs.entries()) {
    const dir = path.join(workDir, `qforge_${r}`);
    fs.mkdirSync(dir, { recursive: true });
    const files = inputs.map((x, k) => {
      const file = path.join(dir, `input_${k}.npy`);
      const parts = run.samples.map((s) => x.samples[s]);
      const bytes = Buffer.concat(parts);
      writeNpy(file, x.dtype, run.batched ? [parts.length, ...x.shape.slice(1)] : x.shape, bytes);
      return file;
    });
    const res = await runOnce(qforge, model, files, names, path.join(dir, 'out'), { threads, timeoutMs, flags });
    ms += res.ms;
    if (res.code !== 0) {
      const line = res.stderr.trim().split('\n').find((l) => l.startsWith('qforge: error:')) ?? res.stderr.trim().split('\n').pop() ?? '';
      return { ok: false, code: res.code, signal: res.signal, timedOut: res.timedOut, stderr: res.stderr, message: line.replace(/^qforge: error: /, ''), no_kernel: res.code === 3 ? noKernelOp(res.stderr) : null };
    }
    for (let k = 0; k < nOut; k++) {
      const file = path.join(dir, 'out', `output_${k}.npy`);
      let a;
      try {
        a = readNpy(file);
      } catch (e) {
        return { ok: false, code: 0, message: `output_${k}.npy: ${e.message}` };
      }
      const n = a.bytes.byteLength / run.samples.length;
      run.samples.forEach((s, j) => {
        outputs[k][s] = { dtype: a.dtype, shape: a.shape, bytes: a.bytes.subarray(j * n, (j + 1) * n), stacked: run.samples.length };
      });
    }
  }
  return { ok: true, outputs, batched: runs.length === 1 && runs[0].batched, ms };
}

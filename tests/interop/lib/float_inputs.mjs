// Input tensors for float_vs_litert.mjs, one set per model, fed identically
// to LiteRT and to `qforge run`. Inputs are keyed by subgraph 0's input
// tensors (what `qforge run` binds); each has the shape LiteRT is fed
// (dynamic dims pinned to the flatbuffer's static shape, as lib/run.mjs does)
// and one byte array per sample.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { generateTensor, mulberry32 } from './inputs.mjs';
import { indexBounds } from './tflite.mjs';
import { readNpy, itemSize } from './npy.mjs';

export class InputError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

const prod = (s) => s.reduce((a, b) => a * b, 1);

// Input bytes per model (all samples) above which fewer samples are used.
const MAX_INPUT_BYTES = 32 << 20;

/**
 * Subgraph 0's inputs: [{ tensor_index, name, signature_name, dtype, shape,
 * shape_signature }] with `shape` pinned as LiteRT is fed.
 */
export function modelInputs(fb) {
  const sg = fb.subgraphs[0];
  const sig = fb.signatures.find((s) => s.subgraph === 0);
  return sg.inputs.map((ti) => {
    const t = sg.tensors[ti];
    const signature = t.shape_signature?.length ? t.shape_signature : t.shape;
    return {
      tensor_index: ti,
      name: t.name ?? '',
      signature_name: sig?.inputs.find((m) => m.tensor === ti)?.name ?? null,
      dtype: t.dtype,
      shape_signature: signature,
      shape: signature.map((d, k) => (d >= 0 ? d : Math.max(1, t.shape[k] ?? 1))),
    };
  });
}

// `values` as the bytes of a tensor of dtype (every sample the same).
function fixedTensor(x, values) {
  const C = { float32: Float32Array, float64: Float64Array, int32: Int32Array, int64: BigInt64Array, int16: Int16Array, int8: Int8Array, uint8: Uint8Array, bool: Uint8Array }[x.dtype];
  if (!C || values.length !== prod(x.shape)) throw new InputError('data-mismatch', `fixed values ${JSON.stringify(values)} do not fit input '${x.name}' ${x.dtype}${JSON.stringify(x.shape)}`);
  return new Uint8Array(C.from(values, (v) => (C === BigInt64Array ? BigInt(v) : v)).buffer);
}

function randomInputs(fb, inputs, { seed, samples, range, fixed = [] }) {
  const rand = mulberry32(seed);
  const bounds = indexBounds(fb, 0);
  const [lo, hi] = range ?? [-1, 1];
  return inputs.map((x) => {
    const list = [];
    const pinned = fixed.find((f) => f.input === x.name);
    for (let k = 0; k < samples; k++) {
      if (pinned) {
        list.push(fixedTensor(x, pinned.values));
        continue;
      }
      if (x.dtype === 'float32' || x.dtype === 'float64') {
        const C = x.dtype === 'float32' ? Float32Array : Float64Array;
        const a = C.from({ length: prod(x.shape) }, () => lo + rand() * (hi - lo));
        list.push(new Uint8Array(a.buffer));
      } else {
        try {
          list.push(generateTensor(rand, x.dtype, x.shape, Math.min(10, bounds.get(x.tensor_index) ?? 10)));
        } catch (e) {
          throw new InputError(x.dtype === 'string' ? 'string-input' : 'input-dtype', `input '${x.name}' is ${x.dtype}: ${e.message}`);
        }
      }
    }
    return { ...x, samples: list };
  });
}

// Glow golden inputs: NAME.inpK = one pad byte, then the raw tensor of input K.
function glowInputs(inputs, files) {
  return inputs.map((x, k) => {
    const bytes = fs.readFileSync(files[k]);
    const need = prod(x.shape) * itemSize(x.dtype);
    if (bytes.byteLength !== need + 1) {
      throw new InputError('data-mismatch', `${files[k]}: ${bytes.byteLength - 1} bytes after the pad byte, input '${x.name}' ${x.dtype}${JSON.stringify(x.shape)} takes ${need}`);
    }
    return { ...x, samples: [new Uint8Array(bytes.subarray(1))] };
  });
}

function rawInputs(inputs, entries, corpus) {
  if (entries.length !== inputs.length) throw new InputError('data-mismatch', `the recipe has ${entries.length} inputs, the model ${inputs.length}`);
  return inputs.map((x, k) => {
    const e = entries[k];
    const n = prod(x.shape) * itemSize(x.dtype);
    const out = new Uint8Array(n);
    if (e.raw) {
      const bytes = fs.readFileSync(path.join(corpus, e.raw));
      out.set(bytes.subarray(0, Math.min(n, bytes.byteLength - (bytes.byteLength % itemSize(x.dtype)))));
    } else {
      const size = itemSize(x.dtype);
      const one = x.dtype === 'float32' ? new Uint8Array(new Float32Array([1]).buffer) : Uint8Array.from({ length: size }, (_, i) => (i === 0 ? 1 : 0));
      for (let i = 0; i < Math.min(e.mask, n / size); i++) out.set(one, i * size);
    }
    return { ...x, samples: [out] };
  });
}

/** Runs a program; resolves { code, signal, stdout, stderr, timedOut }. Kills it (by pid) after timeoutMs. */
export function runProgram(program, args, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '', timedOut = false;
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); resolve({ code: null, signal: null, stdout, stderr: String(e.message), timedOut }); });
    child.on('close', (code, signal) => { clearTimeout(timer); resolve({ code, signal, stdout, stderr, timedOut }); });
  });
}

// Image folders, .bin vectors...: the tensors qforge itself makes from the data
// (qforge_make_inputs: same code as `qforge run --data`).
async function qforgeDataInputs(inputs, recipe, { corpus, model, makeInputs, samples, workDir, timeoutMs }) {
  if (!makeInputs) throw new InputError('no-make-inputs', 'the recipe needs qforge_make_inputs (--make-inputs)');
  const dir = path.join(workDir, 'data');
  const f = recipe.flags ?? {};
  const args = [model, '--output-dir', dir, '--limit', String(samples)];
  for (const s of recipe.specs) args.push('--data', path.join(corpus, s));
  if (f.scale !== undefined) args.push('--scale', String(f.scale));
  if (f.mean) args.push('--mean', f.mean.join(','));
  if (f.std) args.push('--std', f.std.join(','));
  if (f.color) args.push('--color', f.color);
  if (f.resize) args.push('--resize', f.resize);
  if (f.layout) args.push('--layout', f.layout);
  const r = await runProgram(makeInputs, args, timeoutMs);
  if (r.code !== 0) throw new InputError('data-error', `qforge_make_inputs failed (${r.timedOut ? 'timeout' : `exit ${r.code ?? r.signal}`}): ${r.stderr.trim().split('\n')[0]}`);
  const made = JSON.parse(r.stdout.trim().split('\n').pop());
  if (made.inputs.length !== inputs.length) throw new InputError('data-mismatch', `qforge_make_inputs wrote ${made.inputs.length} inputs, the model has ${inputs.length}`);
  return inputs.map((x, k) => {
    const a = readNpy(made.inputs[k].file);
    const n = prod(x.shape) * itemSize(x.dtype);
    if (a.dtype !== x.dtype || prod(a.shape.slice(1)) * itemSize(a.dtype) !== n) {
      throw new InputError('data-mismatch', `data for input '${x.name}' is ${a.dtype}${JSON.stringify(a.shape.slice(1))}, LiteRT is fed ${x.dtype}${JSON.stringify(x.shape)}`);
    }
    const list = [];
    for (let s = 0; s < a.shape[0]; s++) list.push(a.bytes.slice(s * n, (s + 1) * n));
    return { ...x, samples: list };
  });
}

/** The glow golden input files of a models/glow/NAME.tflite model, or null. */
export function glowFiles(corpus, rel, count) {
  const m = /^models\/glow\/(.+)\.tflite$/.exec(rel);
  if (!m) return null;
  const files = Array.from({ length: count }, (_, k) => path.join(corpus, 'data/glow/tests/models/tfliteModels', `${m[1]}.inp${k}`));
  return files.every((f) => fs.existsSync(f)) ? files : null;
}

/**
 * Inputs for one model. Returns { source, inputs: [{ ...modelInputs(), samples: [Uint8Array] }] }.
 * Throws InputError (kind: string-input, input-dtype, data-error, data-mismatch...).
 */
export async function buildInputs(fb, { rel, recipe, corpus, model, makeInputs, samples, seed, workDir, timeoutMs }) {
  const inputs = modelInputs(fb);
  let bytesPerSample = 0;
  for (const x of inputs) {
    if (x.dtype === 'string') throw new InputError('string-input', `input '${x.name}' is a string tensor`);
    try {
      bytesPerSample += prod(x.shape) * itemSize(x.dtype);
    } catch {
      throw new InputError('input-dtype', `input '${x.name}' is ${x.dtype}, which the harness cannot feed`);
    }
  }
  // Models with huge inputs get fewer samples (time and memory).
  samples = Math.max(1, Math.min(samples, Math.floor(MAX_INPUT_BYTES / Math.max(1, bytesPerSample))));
  if (recipe?.kind === 'qforge-data') {
    return { source: recipe.note ?? 'qforge data', inputs: await qforgeDataInputs(inputs, recipe, { corpus, model, makeInputs, samples, workDir, timeoutMs }) };
  }
  if (recipe?.kind === 'raw-inputs') return { source: recipe.note ?? 'raw inputs', inputs: rawInputs(inputs, recipe.inputs, corpus) };
  if (!recipe) {
    const glow = glowFiles(corpus, rel, inputs.length);
    if (glow) return { source: 'glow golden inputs', inputs: glowInputs(inputs, glow) };
  }
  const range = recipe?.range ?? [-1, 1];
  return { source: recipe?.note ?? `random, floats in [${range.join(',')})`, inputs: randomInputs(fb, inputs, { seed, samples, range, fixed: recipe?.fixed }) };
}

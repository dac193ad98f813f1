// Runs one .tflite model in one of the runtimes, with the safety checks that
// make LiteRT.js usable as an oracle. LiteRT.js 2.5.3 can hand back garbage
// without throwing, so:
//  - any ERROR line the runtime logs while loading, compiling or running fails
//    the run (e.g. an unresolved custom op logs "Encountered unresolved custom
//    op" and run() still returns, with unwritten outputs);
//  - a model output whose shape is only known at run time is refused under
//    LiteRT (LiteRT.js sizes output buffers at compile time and leaves such
//    outputs unwritten);
//  - dynamic (-1) input dims are pinned to the flatbuffer's static shape
//    (LiteRT.js would resize the input but not the output buffers).
// The same ERROR-line check applies to tfjs-tflite.
//
// runtime 'auto': tfjs-tflite if the model has variable (state) tensors, which
// LiteRT.js refuses; otherwise LiteRT, and tfjs-tflite if LiteRT cannot run
// the model (load/compile error, ERROR log line, run-time-shaped output, run
// failure). The result says which runtime ran and why LiteRT was not used.
import { SESSIONS, runtimeLabel } from './engines.mjs';
import { parseModel, variableTensors, hasState, customOps, runtimeShapedOutputs, indexBounds, activationBytes } from './tflite.mjs';
import { itemSize } from './npy.mjs';

export class RunError extends Error {
  constructor(kind, message, log = []) {
    super(message);
    this.kind = kind; // short, groupable cause
    this.log = log;
  }
}

// Failures that are the caller's doing: no point in trying another runtime.
const CALLER_ERRORS = new Set(['usage', 'input-mismatch', 'input-file', 'not-tflite']);

const isErrorLine = (l) => /^\s*ERROR\b/.test(l);
const firstLine = (s) => String(s).split('\n')[0];

// A groupable kind for a failure, from the runtime's log and the model's ops.
function failureKind(fb, log, fallbackKind) {
  const text = log.join('\n');
  const custom = customOps(fb);
  if (/Select TensorFlow op|Flex delegate/.test(text) || custom.some((c) => c.startsWith('Flex'))) return 'flex-ops';
  if (/unresolved custom op|Didn't find custom op/i.test(text) || (custom.length && fallbackKind === 'load-error')) return 'custom-ops';
  if (/Variable tensors not yet supported/.test(text)) return 'variable-tensors';
  if (/index out of bounds|index \d+ is out of range|out of range/.test(text)) return 'index-out-of-range';
  if (/Custom allocation is too small/.test(text)) return 'dynamic-shape';
  return fallbackKind;
}

// Where the flatbuffer tensors behind a session's inputs/outputs are.
function tensorMeta(fb, session, kind) {
  const list = session[kind];
  let sgIndex = 0, indices;
  if (session.runtime === 'tfjs-tflite') {
    indices = list.map((t) => t.tensorIndex); // interpreter tensor ids = subgraph 0 indices
  } else {
    const sig = fb.signatures.find((s) => s.key === session.signatureKey) ?? fb.signatures[0];
    if (sig) {
      sgIndex = sig.subgraph;
      indices = list.map((t, i) => (sig[kind].find((m) => m.name === t.name) ?? sig[kind][i])?.tensor);
    } else {
      const sg = fb.subgraphs[0];
      indices = list.map((t, i) => sg[kind].find((ti) => sg.tensors[ti]?.name === t.name) ?? sg[kind][i]);
    }
  }
  const sg = fb.subgraphs[sgIndex];
  return list.map((_, i) => {
    const t = indices[i] !== undefined ? sg?.tensors[indices[i]] : undefined;
    return t ? { subgraph: sgIndex, tensor_index: t.index, static_shape: t.shape, shape_signature: t.shape_signature, quantization: t.quantization }
      : { subgraph: sgIndex, tensor_index: null, quantization: null };
  });
}

const sameShape = (a, b) => a.length === b.length && a.every((d, i) => d === b[i]);

/** One attempt in one runtime: load, check, feed, run, check. Throws RunError. */
async function attempt(fb, bytes, runtime, opts) {
  const log = [];
  const sink = (line) => { log.push(line); opts.onLog?.(runtime, line); };
  if (runtime === 'litert') {
    const dyn = runtimeShapedOutputs(fb, fb.signatures[0]?.subgraph ?? 0);
    if (dyn.length) {
      throw new RunError('dynamic-output', `output ${dyn.map((d) => `'${d.name}'`).join(', ')} has a run-time shape (${dyn[0].reason}); LiteRT.js leaves such outputs unwritten`);
    }
  }
  // A fresh, checked session (a new WebAssembly instance).
  const open = async () => {
    const mark = log.length;
    let s;
    try {
      s = await SESSIONS[runtime].open(bytes, { log: sink, poison: opts.poison, poisonBytes: opts.poisonBytes });
      await s.compile();
    } catch (e) {
      s?.close();
      const errLine = log.slice(mark).find(isErrorLine);
      throw new RunError(failureKind(fb, log, 'load-error'), `cannot load the model: ${firstLine(e.message ?? e)}${errLine ? ` [${errLine.trim()}]` : ''}`, log);
    }
    const errs = log.slice(mark).filter(isErrorLine);
    if (errs.length) {
      s.close();
      throw new RunError(failureKind(fb, log, 'load-error'), `ERROR logged while loading: ${errs[0].trim()}`, log);
    }
    return s;
  };
  // Models with state (variable tensors, resource variables, hash tables) keep
  // it from one run to the next: each sample then gets a fresh session.
  const stateful = hasState(fb);
  let session = await open();
  try {
    const inMeta = tensorMeta(fb, session, 'inputs');
    const outMeta = tensorMeta(fb, session, 'outputs');
    const bounds = indexBounds(fb, inMeta[0]?.subgraph ?? 0);
    // Dynamic (-1) dims are pinned to the flatbuffer's static shape (or 1).
    const specs = session.inputs.map((t, i) => ({
      name: t.name,
      dtype: t.dtype,
      shape: t.shape.map((d, k) => (d >= 0 ? d : Math.max(1, inMeta[i].static_shape?.[k] ?? 1))),
      high: bounds.get(inMeta[i].tensor_index),
    }));
    for (const [i, s] of specs.entries()) {
      if (s.dtype === 'string') throw new RunError('string-input', `input ${i} '${s.name}' is a string tensor`);
      try { itemSize(s.dtype); } catch { throw new RunError('input-dtype', `input ${i} '${s.name}' has dtype ${s.dtype}, which the harness cannot feed`); }
    }
    const given = opts.inputs ?? opts.makeInputs(specs);
    if (given.length !== specs.length) {
      throw new RunError('input-mismatch', `the model has ${specs.length} input(s) ${JSON.stringify(specs.map((s) => s.name))}, got ${given.length}`);
    }
    let nSamples = 1;
    given.forEach((x, i) => {
      const s = specs[i];
      if (x.dtype !== s.dtype) throw new RunError('input-mismatch', `input ${i} '${s.name}': got ${x.dtype}, the model takes ${s.dtype}`);
      if (opts.samples && x.shape.length < 1) throw new RunError('input-mismatch', `input ${i} '${s.name}': --samples needs a leading samples axis`);
      const per = opts.samples ? x.shape.slice(1) : x.shape;
      if (!sameShape(per, s.shape)) {
        throw new RunError('input-mismatch', `input ${i} '${s.name}': got shape ${JSON.stringify(x.shape)}, the model takes ${opts.samples ? `[N, ...${JSON.stringify(s.shape)}]` : JSON.stringify(s.shape)}` +
          (session.inputs[i].shape.some((d) => d < 0) ? ` (signature ${JSON.stringify(session.inputs[i].shape)}: dynamic dims are pinned to the static shape)` : ''));
      }
      if (opts.samples) {
        if (i === 0) nSamples = x.shape[0];
        else if (x.shape[0] !== nSamples) throw new RunError('input-mismatch', `--samples: input ${i} has ${x.shape[0]} samples, input 0 has ${nSamples}`);
      }
    });
    const perSample = [];
    const tRun = performance.now();
    for (let k = 0; k < nSamples; k++) {
      const feeds = given.map((x, i) => {
        const n = specs[i].shape.reduce((a, b) => a * b, 1) * itemSize(x.dtype);
        return { shape: specs[i].shape, bytes: opts.samples ? x.bytes.subarray(k * n, (k + 1) * n) : x.bytes };
      });
      if (k > 0 && stateful) {
        session.close();
        session = null;
        session = await open();
      }
      const mark = log.length;
      const where = opts.samples ? ` (sample ${k})` : '';
      let outs;
      try {
        outs = await session.run(feeds);
      } catch (e) {
        const errLine = log.slice(mark).find(isErrorLine);
        throw new RunError(failureKind(fb, log, 'run-error'), `run failed${where}: ${firstLine(e.message ?? e)}${errLine ? ` [${errLine.trim()}]` : ''}`, log);
      }
      const errs = log.slice(mark).filter(isErrorLine);
      if (errs.length) throw new RunError(failureKind(fb, log, 'run-error'), `ERROR logged while running${where}: ${errs[0].trim()}`, log);
      if (outs.length !== session.outputs.length) throw new RunError('run-error', `returned ${outs.length} outputs, the model has ${session.outputs.length}`, log);
      perSample.push(outs);
    }
    const runMs = performance.now() - tRun;
    // An output that is also a model input (a pass-through): LiteRT.js hands
    // back a buffer it never writes (it holds a heap address), so its values
    // are not the model's; callers compare such outputs by dtype and shape only.
    const aliased = (j) => {
      const k = inMeta.findIndex((m) => m.tensor_index !== null && m.tensor_index === outMeta[j].tensor_index && m.subgraph === outMeta[j].subgraph);
      return k >= 0 ? { aliases_input: k } : {};
    };
    const describe = (o, j, extra) => ({ name: session.outputs[j].name, dtype: o.dtype, shape: o.shape, bytes: o.bytes, tensor_index: outMeta[j].tensor_index, quantization: outMeta[j].quantization, ...aliased(j), ...extra });
    // stack: false keeps the samples apart (their output shapes may differ):
    // outputs = sample 0's outputs, then sample 1's, ...
    const outputs = opts.samples && opts.stack === false ? perSample.flatMap((outs, k) => outs.map((o, j) => describe(o, j, { sample: k }))) : perSample[0].map((o, j) => {
      let shape = o.shape, data = o.bytes;
      if (opts.samples) {
        if (perSample.some((so) => !sameShape(so[j].shape, o.shape))) throw new RunError('run-error', `output ${j} changes shape between samples`);
        shape = [nSamples, ...o.shape];
        data = new Uint8Array(o.bytes.byteLength * nSamples);
        perSample.forEach((so, k) => data.set(so[j].bytes, k * o.bytes.byteLength));
      }
      return describe({ dtype: o.dtype, shape, bytes: data }, j);
    });
    const inputs = given.map((x, i) => ({ name: specs[i].name, dtype: x.dtype, shape: x.shape, bytes: x.bytes, tensor_index: inMeta[i].tensor_index, quantization: inMeta[i].quantization }));
    return { runtime, signature: session.signatureKey, samples: opts.samples ? nSamples : undefined, inputs, outputs, runMs };
  } finally {
    session?.close();
  }
}

/**
 * Runs a model.
 *   bytes      the .tflite file contents (Uint8Array)
 *   runtime    'auto' | 'litert' | 'tfjs-tflite'
 *   inputs     [{ dtype, shape, bytes }] in the model's input order (signature 0
 *              under LiteRT, subgraph 0 under tfjs-tflite), or
 *   makeInputs (specs: [{ name, dtype, shape, high? }]) => inputs, called once the
 *              model is open (again if auto falls back to tfjs-tflite)
 *   samples    inputs carry a leading axis of N samples; each is run alone and
 *              the outputs are stacked along a new leading axis (stack: false:
 *              listed sample by sample instead, each with `sample: k`)
 *   poison     a byte written over free heap before loading (see engines.mjs)
 * Returns { runtime, runtime_label, fallback, signature, samples, inputs, outputs, ms }
 * with inputs/outputs = [{ name, dtype, shape, bytes, tensor_index, quantization }].
 * Throws RunError.
 */
export async function runModel(bytes, { runtime = 'auto', inputs, makeInputs, samples = false, stack = true, poison, onLog } = {}) {
  const t0 = performance.now();
  if (!['auto', ...Object.keys(SESSIONS)].includes(runtime)) throw new RunError('usage', `unknown runtime ${runtime} (auto, litert or tfjs-tflite)`);
  let fb;
  try {
    fb = parseModel(bytes);
  } catch (e) {
    throw new RunError('not-tflite', firstLine(e.message));
  }
  // Enough poisoned heap to cover the model copy, its arena, packed weights and
  // the I/O buffers (touching pages costs time, so no more than that), capped
  // at 64 MiB: more would change what fits in the runtimes' 32-bit heaps.
  const poisonBytes = Math.min(64 << 20, 3 * bytes.byteLength + 2 * activationBytes(fb) + (1 << 20));
  const opts = { inputs, makeInputs, samples, stack, poison, poisonBytes, onLog };
  let candidates = [runtime];
  let fallback = null;
  if (runtime === 'auto') {
    const vars = variableTensors(fb);
    if (vars.length) {
      candidates = ['tfjs-tflite'];
      fallback = `the model has ${vars.length} variable tensor(s), which LiteRT.js refuses`;
    } else {
      candidates = ['litert', 'tfjs-tflite'];
    }
  }
  for (const rt of candidates) {
    try {
      await runtimeLabel(rt); // loads (once) and compiles the runtime's WebAssembly
    } catch (e) {
      throw new RunError('setup', firstLine(e.message ?? e));
    }
  }
  const failures = [];
  for (const rt of candidates) {
    try {
      const res = await attempt(fb, bytes, rt, opts);
      if (failures.length) fallback = `LiteRT cannot run the model: ${failures[0].error.kind}: ${failures[0].error.message}`;
      return { ...res, runtime_label: await runtimeLabel(rt), fallback, ms: { total: +(performance.now() - t0).toFixed(2), run: +res.runMs.toFixed(2) }, runMs: undefined };
    } catch (e) {
      if (!(e instanceof RunError)) throw e;
      if (CALLER_ERRORS.has(e.kind)) throw e;
      failures.push({ runtime: rt, error: e });
    }
  }
  // Report the first runtime's failure kind (LiteRT's in auto mode) and every message.
  const msg = failures.map((f) => `${f.runtime}: ${f.error.message}`).join('; ');
  throw new RunError(failures[0].error.kind, msg, failures.flatMap((f) => f.error.log));
}

// The two runtimes, loaded from their npm packages' Emscripten builds in plain
// Node.js (their JS front ends are browser-only and are not used):
//   litert       npm @litertjs/core: LiteRT (CompiledModel API + XNNPACK), the oracle.
//   tfjs-tflite  npm @tensorflow/tfjs-tflite: the classic tflite::Interpreter
//                (runs models with variable tensors, which LiteRT.js refuses).
// Each model run gets a FRESH WebAssembly instance (the compiled module is
// cached per process, instantiation costs ~5-15 ms): no state, leaked memory or
// aborted runtime carries over from one model to the next.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const NODE_MODULES = path.join(here, '..', 'node_modules');

const BUILDS = {
  // 'compat' builds: no relaxed SIMD, no threads, so they run on stock Node 20.
  litert: { dir: path.join(NODE_MODULES, '@litertjs', 'core', 'wasm'), base: 'litert_wasm_compat_internal', pkg: '@litertjs/core' },
  // The SIMD build users' browsers run (relaxed SIMD): for timing only; on
  // Node 20 it needs `node --experimental-wasm-relaxed-simd`.
  'litert-simd': { dir: path.join(NODE_MODULES, '@litertjs', 'core', 'wasm'), base: 'litert_wasm_internal', pkg: '@litertjs/core' },
  'tfjs-tflite': { dir: path.join(NODE_MODULES, '@tensorflow', 'tfjs-tflite', 'wasm'), base: 'tflite_web_api_cc', pkg: '@tensorflow/tfjs-tflite' },
};
export const RUNTIMES = ['litert', 'tfjs-tflite'];

const loaded = new Map(); // runtime -> Promise<{ factory, module, version }>

function loadBuild(runtime) {
  const b = BUILDS[runtime];
  if (!b) throw new Error(`unknown runtime ${runtime}`);
  if (!loaded.has(runtime)) {
    loaded.set(runtime, (async () => {
      const js = path.join(b.dir, `${b.base}.js`);
      if (!fs.existsSync(js)) throw new Error(`${js} is missing: run tests/interop/setup.sh`);
      // The Emscripten factory is a UMD script; the package is "type": "module",
      // so evaluate it as CommonJS by hand.
      const m = { exports: {} };
      new Function('require', 'module', 'exports', '__filename', '__dirname', fs.readFileSync(js, 'utf8'))(
        createRequire(js), m, m.exports, js, b.dir);
      const module = await WebAssembly.compile(fs.readFileSync(path.join(b.dir, `${b.base}.wasm`)));
      const version = JSON.parse(fs.readFileSync(path.join(b.dir, '..', 'package.json'), 'utf8')).version;
      return { factory: m.exports, module, version };
    })());
  }
  return loaded.get(runtime);
}

export async function runtimeLabel(runtime) {
  const { version } = await loadBuild(runtime);
  return `${BUILDS[runtime].pkg}@${version}`;
}

/** A fresh instance of `runtime`; its log lines (stdout and stderr) go to `log`. */
async function instantiate(runtime, log) {
  const { factory, module } = await loadBuild(runtime);
  const w = await factory({
    print: log,
    printErr: log,
    instantiateWasm: (imports, done) => {
      WebAssembly.instantiate(module, imports).then((inst) => done(inst, module));
      return {};
    },
  });
  return w;
}

/**
 * Fills `nbytes` of free heap with `byte`: allocations made after this (model
 * arena, output buffers) start out holding that byte instead of zeros, so an
 * output the runtime never writes shows up as a difference between two runs
 * poisoned with different bytes.
 */
function poisonHeap(w, byte, nbytes) {
  if (byte === undefined || byte === null) return;
  const p = w._malloc(nbytes);
  if (!p) return;
  w.HEAPU8.fill(byte, p, p + nbytes);
  w._free(p);
}

const LITERT_TYPES = {
  1: 'float32', 2: 'int32', 3: 'uint8', 4: 'int64', 5: 'string', 6: 'bool', 7: 'int16', 8: 'complex64',
  9: 'int8', 10: 'float16', 11: 'float64', 12: 'complex128', 13: 'uint64', 14: 'resource', 15: 'variant',
  16: 'uint32', 17: 'uint16', 18: 'int4', 19: 'bfloat16',
};

function fromVector(v) {
  const out = [];
  for (let i = 0; i < v.size(); i++) out.push(v.get(i));
  v.delete?.();
  return out;
}

function litertTensorType(tt) {
  const elementType = tt.elementType();
  const layout = tt.layout();
  const shape = fromVector(layout.dimensions());
  layout.delete();
  tt.delete?.();
  return { elementType, dtype: LITERT_TYPES[elementType.value] ?? `element_type_${elementType.value}`, shape };
}

/**
 * LiteRT (LiteRT.js embind API: loadModel / compileModel / CompiledModel.run
 * with host-memory LiteRtTensorBuffers, which take any element type).
 * Runs signature 0.
 */
export class LiteRtSession {
  static async open(bytes, { log, poison, poisonBytes, build = 'litert' } = {}) {
    const s = new LiteRtSession();
    s.runtime = 'litert';
    const w = (s.w = await instantiate(build, log));
    w.setupLogging();
    poisonHeap(w, poison, poisonBytes);
    s.env = w.LiteRtEnvironment.create(null); // null: no WebGPU device
    s.ptr = w._malloc(bytes.byteLength);
    w.HEAPU8.set(bytes, s.ptr);
    s.model = w.loadModel(s.env, s.ptr, bytes.byteLength);
    s.signatureIndex = 0;
    const nsig = s.model.getNumSignatures();
    if (nsig < 1) throw new Error('LiteRT found no signature in the model');
    const sig = s.model.getSignature(0);
    s.signatureKey = sig.key();
    const inNames = fromVector(sig.inputNames());
    const outNames = fromVector(sig.outputNames());
    sig.delete();
    s.inputs = inNames.map((name, i) => ({ name, ...litertTensorType(s.model.getInputTensorType(0, i)) }));
    s.outputs = outNames.map((name, i) => ({ name, ...litertTensorType(s.model.getOutputTensorType(0, i)) }));
    return s;
  }

  async compile() {
    const opts = { accelerator: 'wasm', cpuOptions: { numThreads: 1 }, gpuOptions: {}, webNNOptions: {} };
    this.compiled = await this.w.compileModel(this.env, this.model, opts);
  }

  buffer(elementType, shape, bytes) {
    const w = this.w;
    const dims = new w.VectorInt32();
    for (const d of shape) dims.push_back(d);
    const layout = w.LiteRtLayout.create(dims);
    dims.delete();
    const type = w.LiteRtRankedTensorType.create(elementType, layout);
    layout.delete();
    const n = type.bytes();
    if (n !== bytes.byteLength) {
      type.delete();
      throw new Error(`an input of shape ${JSON.stringify(shape)} takes ${n} bytes, got ${bytes.byteLength}`);
    }
    const buf = w.LiteRtTensorBuffer.createManaged(this.env, w.LiteRtTensorBufferType.HOST_MEMORY, type, n);
    type.delete();
    const p = buf.lock(w.LiteRtTensorBufferLockMode.WRITE);
    try { w.HEAPU8.set(bytes, p); } finally { buf.unlock(); }
    return buf;
  }

  /** feeds: [{ shape, bytes }] in signature order -> [{ dtype, shape, bytes }]. */
  async run(feeds) {
    const w = this.w;
    const bufs = feeds.map((f, i) => this.buffer(this.inputs[i].elementType, f.shape, f.bytes));
    let res;
    try {
      res = await this.compiled.run(this.signatureIndex, bufs);
    } finally {
      for (const b of bufs) b.delete();
    }
    const list = Array.isArray(res) ? res : fromVector(res);
    return list.map((ob) => {
      const info = litertTensorType(ob.tensorType());
      if (ob.offset() !== 0 || ob.size() < ob.packedSize()) throw new Error('LiteRT returned a strided or offset output buffer');
      const p = ob.lock(w.LiteRtTensorBufferLockMode.READ);
      const bytes = w.HEAPU8.slice(p, p + ob.packedSize());
      ob.unlock();
      ob.delete();
      return { dtype: info.dtype, shape: info.shape, bytes };
    });
  }

  close() {
    try {
      this.compiled?.delete();
      this.model?.delete();
      if (this.ptr) this.w._free(this.ptr);
      this.env?.delete();
    } catch { /* the instance is dropped anyway */ }
    this.compiled = this.model = this.env = this.w = null;
  }
}

const parseShape = (s) => (s === '' ? [] : String(s).split(',').map(Number));

/**
 * The TFLite web runtime of @tensorflow/tfjs-tflite (TFLiteWebModelRunner:
 * tflite::Interpreter + XNNPACK delegate). Runs subgraph 0's inputs/outputs.
 */
export class TfliteWebSession {
  static async open(bytes, { log, poison, poisonBytes, profile = false } = {}) {
    const s = new TfliteWebSession();
    s.runtime = 'tfjs-tflite';
    const w = (s.w = await instantiate('tfjs-tflite', log));
    poisonHeap(w, poison, poisonBytes);
    s.ptr = w._malloc(bytes.byteLength);
    w.HEAPU8.set(bytes, s.ptr);
    const st = w.TFLiteWebModelRunner.CreateFromBufferAndOptions(s.ptr, bytes.byteLength, { numThreads: 1, enableProfiling: profile, maxProfilingBufferEntries: profile ? 4096 : 0 });
    if (!st.ok()) throw new Error(`tfjs-tflite could not create an interpreter: ${st.errorMessage()}`);
    s.runner = st.value();
    const describe = (t) => ({ name: t.name, dtype: t.dataType, shape: parseShape(t.shape), tensorIndex: t.id });
    s.inputs = fromVector(s.runner.GetInputs()).map(describe);
    s.outputs = fromVector(s.runner.GetOutputs()).map(describe);
    s.signatureKey = null;
    return s;
  }

  async compile() { /* AllocateTensors ran in open() */ }

  async run(feeds) {
    const ins = fromVector(this.runner.GetInputs());
    feeds.forEach((f, i) => {
      const d = ins[i].data(); // typed view into the wasm heap
      const dst = new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
      if (dst.byteLength !== f.bytes.byteLength) throw new Error(`input ${i} takes ${dst.byteLength} bytes, got ${f.bytes.byteLength}`);
      dst.set(f.bytes);
    });
    if (!this.runner.Infer()) throw new Error('tfjs-tflite: Infer() failed');
    return fromVector(this.runner.GetOutputs()).map((t) => {
      const d = t.data();
      return { dtype: t.dataType, shape: parseShape(t.shape), bytes: new Uint8Array(d.buffer, d.byteOffset, d.byteLength).slice() };
    });
  }

  /**
   * With `profile`, after a run: the node type of every node the interpreter
   * ran ("CONV_2D", or "TfLiteXNNPackDelegate" for a delegated partition).
   */
  nodeTypes() {
    const res = this.runner.GetProfilingResults();
    return fromVector(res).map((item) => item.nodeType);
  }

  close() {
    try {
      this.runner?.delete();
      if (this.ptr) this.w._free(this.ptr);
    } catch { /* the instance is dropped anyway */ }
    this.runner = this.w = null;
  }
}

export const SESSIONS = { litert: LiteRtSession, 'tfjs-tflite': TfliteWebSession };

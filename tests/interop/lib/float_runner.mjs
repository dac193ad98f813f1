// LiteRT runs for float_vs_litert.mjs: lib/pool.mjs's ModelRunner (worker
// thread, per-model time limit) driving lib/float_worker.mjs, which binds
// inputs by tensor rather than by the runtime's input order.
import { Worker } from 'node:worker_threads';
import { ModelRunner } from './pool.mjs';

const WORKER = new URL('./float_worker.mjs', import.meta.url);

export class FloatRunner extends ModelRunner {
  spawn() {
    const w = new Worker(WORKER);
    this.workersStarted++;
    w.pending = new Map(); // this worker's jobs: id -> { resolve, timer }
    w.on('message', (msg) => {
      const p = w.pending.get(msg.id);
      if (p) { w.pending.delete(msg.id); clearTimeout(p.timer); p.resolve(msg); }
    });
    const failAll = (why) => {
      if (this.worker === w) this.worker = null;
      for (const [id, p] of w.pending) {
        clearTimeout(p.timer);
        p.resolve({ id, ok: false, kind: 'worker-died', error: why });
      }
      w.pending.clear();
    };
    w.on('error', (e) => failAll(`the worker died: ${e.message ?? e}`));
    w.on('exit', (code) => failAll(`the worker exited (code ${code})`));
    return w;
  }

  /**
   * Runs `model` on `inputs` (lib/float_inputs.mjs: subgraph 0's inputs with
   * one byte array per sample), each sample alone. Resolves with the worker's
   * reply: outputs listed sample by sample, each with tensor_index and sample.
   */
  runInputs(model, runtime, inputs) {
    const feeds = inputs.map((x) => {
      const n = x.samples[0].byteLength;
      const bytes = new Uint8Array(n * x.samples.length);
      x.samples.forEach((s, k) => bytes.set(s, k * n));
      return { name: x.name, signature_name: x.signature_name, dtype: x.dtype, shape: [x.samples.length, ...x.shape], bytes };
    });
    return this.run({ model, runtime, feeds });
  }
}

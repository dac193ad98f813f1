// Runs models in a worker_thread with a per-model time limit. A model that
// does not finish in time gets its worker terminated (the WebAssembly runtime
// cannot be interrupted otherwise); the next job starts a new worker.
import { Worker } from 'node:worker_threads';

const WORKER = new URL('./worker.mjs', import.meta.url);

export class ModelRunner {
  constructor({ timeoutMs = 60000 } = {}) {
    this.timeoutMs = timeoutMs;
    this.worker = null;
    this.nextId = 1;
    this.workersStarted = 0;
  }

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

  /** Runs one job (see worker.mjs); resolves with the worker's reply, or a timeout reply. */
  run(job) {
    if (!this.worker) this.worker = this.spawn();
    const w = this.worker;
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        w.pending.delete(id);
        if (this.worker === w) this.worker = null;
        w.terminate();
        resolve({ id, ok: false, kind: 'timeout', error: `did not finish within ${this.timeoutMs / 1000} s` });
      }, this.timeoutMs);
      w.pending.set(id, { resolve, timer });
      // The caller keeps the input bytes, so transfer copies.
      const inputs = job.inputs?.map((t) => ({ ...t, bytes: t.bytes.slice() }));
      w.postMessage({ ...job, id, inputs }, inputs ? inputs.map((t) => t.bytes.buffer) : []);
    });
  }

  async close() {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}

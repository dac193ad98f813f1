// worker_thread side of lib/float_runner.mjs: runs one model in LiteRT (or
// tfjs-tflite) on inputs given per model input tensor, whatever order the
// runtime lists its inputs in.
//   in:  { id, model, runtime, feeds: [{ name, signature_name, dtype, shape, bytes }] }
//        (subgraph 0's inputs; bytes = [N, ...shape], N samples, each run alone)
//   out: { id, ok: true, runtime, runtime_label, fallback, outputs: [{ name, dtype, shape, bytes, tensor_index, sample }] }
//      | { id, ok: false, kind, error }
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { runModel, RunError } from './run.mjs';

// The runtime's input list -> feeds: LiteRT names inputs by signature name,
// tfjs-tflite by tensor name. Names are matched as a whole list (by signature
// names, else tensor names), else inputs go in subgraph order.
function matchFeeds(specs, feeds) {
  for (const key of ['signature_name', 'name']) {
    const picked = specs.map((s) => feeds.filter((f) => f[key] === s.name));
    if (picked.every((p) => p.length === 1) && new Set(picked.map((p) => p[0])).size === specs.length) return picked.map((p) => p[0]);
  }
  if (specs.length !== feeds.length) throw new RunError('input-mismatch', `the runtime lists ${specs.length} inputs, subgraph 0 has ${feeds.length}`);
  return feeds;
}

parentPort.on('message', async (job) => {
  let reply;
  try {
    let bytes;
    try {
      bytes = new Uint8Array(fs.readFileSync(job.model));
    } catch (e) {
      throw new RunError('model-file', `cannot read ${job.model}: ${e.code ?? e.message}`);
    }
    const res = await runModel(bytes, {
      runtime: job.runtime,
      makeInputs: (specs) => matchFeeds(specs, job.feeds).map((f) => ({ dtype: f.dtype, shape: f.shape, bytes: f.bytes })),
      samples: true,
      stack: false,
    });
    const strip = (t) => ({ name: t.name, dtype: t.dtype, shape: t.shape, bytes: t.bytes, tensor_index: t.tensor_index, sample: t.sample });
    reply = { id: job.id, ok: true, runtime: res.runtime, runtime_label: res.runtime_label, fallback: res.fallback, outputs: res.outputs.map(strip), ms: res.ms };
  } catch (e) {
    reply = { id: job.id, ok: false, kind: e instanceof RunError ? e.kind : 'internal', error: String(e.message ?? e) };
  }
  const transfer = reply.ok ? reply.outputs.map((t) => t.bytes.buffer).filter((b, i, a) => a.indexOf(b) === i) : [];
  parentPort.postMessage(reply, transfer);
});

// worker_thread side of lib/pool.mjs: runs one model per message.
//   in:  { id, model, runtime, seed | inputs, draws, poison }
//   out: { id, ok: true, runtime, fallback, inputs, outputs } | { id, ok: false, kind, error }
// inputs/outputs carry their bytes (transferred, not copied).
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { runModel, RunError } from './run.mjs';
import { generateInputs } from './inputs.mjs';

parentPort.on('message', async (job) => {
  let reply;
  try {
    let bytes;
    try {
      bytes = new Uint8Array(fs.readFileSync(job.model));
    } catch (e) {
      throw new RunError('model-file', `cannot read ${job.model}: ${e.code ?? e.message}`);
    }
    // draws > 1: that many independent input sets, run as samples [draws, ...shape].
    const draws = job.draws ?? 1;
    const makeInputs = (specs) => generateInputs(job.seed, draws > 1 ? specs.map((x) => ({ ...x, shape: [draws, ...x.shape] })) : specs);
    const res = await runModel(bytes, {
      runtime: job.runtime,
      inputs: job.inputs,
      makeInputs: job.inputs ? undefined : makeInputs,
      samples: draws > 1,
      stack: false, // a draw's output shapes may differ from another's
      poison: job.poison,
    });
    const strip = (t) => ({ name: t.name, dtype: t.dtype, shape: t.shape, bytes: t.bytes, quantization: t.quantization, sample: t.sample, aliases_input: t.aliases_input });
    reply = { id: job.id, ok: true, draws, runtime: res.runtime, runtime_label: res.runtime_label, fallback: res.fallback, inputs: res.inputs.map(strip), outputs: res.outputs.map(strip), ms: res.ms };
  } catch (e) {
    reply = { id: job.id, ok: false, kind: e instanceof RunError ? e.kind : 'internal', error: String(e.message ?? e) };
  }
  const transfer = reply.ok ? [...reply.inputs, ...reply.outputs].map((t) => t.bytes.buffer).filter((b, i, a) => a.indexOf(b) === i) : [];
  parentPort.postMessage(reply, transfer);
});

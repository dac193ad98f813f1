// Which kernels tfjs-tflite (tflite::Interpreter + XNNPACK delegate) runs a
// model with: its profiler names every node it executes, and a partition taken
// by XNNPACK shows up as one "TfLiteXNNPackDelegate" node. A model without
// such a node runs entirely in TFLite's builtin (reference/optimized integer)
// kernels, whose fixed-point arithmetic qforge must reproduce exactly.
import { TfliteWebSession } from './engines.mjs';

export const XNNPACK_NODE = 'TfLiteXNNPackDelegate';

/**
 * Runs `bytes` once with profiling, on `feeds` ([{ bytes }] in subgraph 0's
 * input order) or on whatever the input buffers hold.
 * Returns { ok: true, nodeTypes: [...] } or { ok: false, error }.
 */
export async function kernelReport(bytes, feeds = null) {
  let s;
  try {
    s = await TfliteWebSession.open(bytes, { log: () => {}, profile: true });
    if (feeds) await s.run(feeds);
    else if (!s.runner.Infer()) return { ok: false, error: 'Infer() failed' };
    return { ok: true, nodeTypes: s.nodeTypes() };
  } catch (e) {
    return { ok: false, error: String(e.message ?? e).split('\n')[0] };
  } finally {
    s?.close();
  }
}

// LiteRT's latency of several models, measured interleaved: LiteRT.js's SIMD
// build (the one browsers run), one thread, batch 1. Every round runs each
// model once, in a rotated order, so the machine's drift over minutes touches all of
// them alike; each model's figure is the median over rounds. The process's
// CPU time per run (cpu_ms) is reported beside wall time (ms): on a loaded
// machine the wall time also counts the time the run waited for a core.
// One JSON line per model: { model, ms, cpu_ms (medians), min, max, rounds },
// or { model, error }.
// Usage: node --experimental-wasm-relaxed-simd litert_latency.mjs
//          [--rounds 20] MODEL...
import fs from 'node:fs';
import { LiteRtSession } from '../../tests/interop/lib/engines.mjs';
import { mulberry32, generateTensor } from '../../tests/interop/lib/inputs.mjs';

const args = process.argv.slice(2);
let rounds = 20;
const models = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--rounds') rounds = Number(args[++i]);
  else models.push(args[i]);
}
const sessions = [];
for (const model of models) {
  try {
    const s = await LiteRtSession.open(new Uint8Array(fs.readFileSync(model)), { build: 'litert-simd', log: () => {} });
    await s.compile();
    const rand = mulberry32(1);
    const feeds = s.inputs.map((t) => {
      const shape = t.shape.map((d) => (d < 0 ? 1 : d));
      return { shape, bytes: generateTensor(rand, t.dtype, shape) };
    });
    for (let i = 0; i < 3; i++) await s.run(feeds);  // warm up
    sessions.push({ model, s, feeds, times: [], cpu: [] });
  } catch (e) {
    console.log(JSON.stringify({ model, error: String(e.message ?? e).slice(0, 300) }));
  }
}
// Each round starts one model further on: the process's CPU time counts
// Node's own background threads too (garbage collection after a slow
// model's run spills into the next run's figure), so every model follows
// every other equally often rather than always the same one.
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < sessions.length; k++) {
    const m = sessions[(r + k) % sessions.length];
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await m.s.run(m.feeds);
    m.times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const c = process.cpuUsage(c0);
    m.cpu.push((c.user + c.system) / 1e3);
  }
}
const median = (v) => { const s = [...v].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
for (const m of sessions) {
  console.log(JSON.stringify({ model: m.model, ms: median(m.times), cpu_ms: median(m.cpu), min: Math.min(...m.times), max: Math.max(...m.times), rounds }));
  m.s.close();
}

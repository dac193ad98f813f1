// LiteRT's time for one model (batch 1, one thread, the pinned LiteRT.js
// build of tests/interop): best of N runs, one JSON line.
// Usage: node bench/litert_time.mjs MODEL [N]
import fs from 'fs';
import { LiteRtSession } from '../tests/interop/lib/engines.mjs';
import { mulberry32, generateTensor } from '../tests/interop/lib/inputs.mjs';

const [model, repeatArg] = process.argv.slice(2);
const repeat = Number(repeatArg ?? 50);
const s = await LiteRtSession.open(new Uint8Array(fs.readFileSync(model)));
await s.compile();
const rand = mulberry32(1);
const feeds = s.inputs.map((t) => {
  const shape = t.shape.map((d) => (d < 0 ? 1 : d));
  return { shape, bytes: generateTensor(rand, t.dtype, shape) };
});
for (let i = 0; i < 3; i++) await s.run(feeds);
let best = Infinity;
for (let i = 0; i < repeat; i++) {
  const t0 = process.hrtime.bigint();
  await s.run(feeds);
  best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
}
console.log(JSON.stringify({ model, runtime: 'litert-wasm', threads: 1, ms_per_sample: best }));
s.close();

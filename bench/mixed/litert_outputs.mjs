// Runs a float-I/O model in LiteRT (LiteRT.js SIMD build, one thread) on
// every sample of a float32 .npy ([N, ...input shape]) and writes each
// output, samples concatenated, as OUT_DIR/output_K.npy (K: the
// signature's output order), as `qforge run` does.
//   node --experimental-wasm-relaxed-simd litert_outputs.mjs MODEL INPUT.npy OUT_DIR
import fs from 'node:fs';
import path from 'node:path';
import { LiteRtSession } from '../../tests/interop/lib/engines.mjs';

const [model, input, outDir] = process.argv.slice(2);
const b = fs.readFileSync(input);
const headerLen = b.readUInt16LE(8);
const header = b.toString('latin1', 10, 10 + headerLen);
if (!header.includes("'<f4'")) throw new Error(`${input}: not float32`);
const data = b.subarray(10 + headerLen);
const s = await LiteRtSession.open(new Uint8Array(fs.readFileSync(model)), { build: 'litert-simd', log: () => {} });
await s.compile();
const shape = s.inputs[0].shape.map((d) => (d < 0 ? 1 : d));
const sampleBytes = shape.reduce((x, y) => x * y, 1) * 4;
const n = data.length / sampleBytes;
if (!Number.isInteger(n)) throw new Error(`${input}: not a whole number of ${JSON.stringify(shape)} samples`);
const outs = [];
for (let i = 0; i < n; i++) {
  const reply = await s.run([{ shape, bytes: data.subarray(i * sampleBytes, (i + 1) * sampleBytes) }]);
  reply.forEach((o, k) => {
    if (o.dtype !== 'float32') throw new Error(`output ${k} is ${o.dtype}`);
    (outs[k] ??= []).push(Buffer.from(o.bytes));
  });
}
s.close();
fs.mkdirSync(outDir, { recursive: true });
outs.forEach((parts, k) => {
  const body = Buffer.concat(parts);
  let h = `{'descr': '<f4', 'fortran_order': False, 'shape': (${body.length / 4},), }`;
  h += ' '.repeat(63 - ((h.length + 10) % 64)) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(h.length, 8);
  fs.writeFileSync(path.join(outDir, `output_${k}.npy`), Buffer.concat([head, Buffer.from(h, 'latin1'), body]));
});

// Compares two output .npy files (reference, candidate): prints one JSON
// line with the SQNR in dB, max |error|, and top-1 agreement over the rows of
// a [N, classes] output. Usage: node metrics.mjs REF.npy CAND.npy
import { readNpy } from './lib/npy.mjs';

const asFloat = (x) => {
  if (x.dtype !== 'float32') throw new Error(`expected float32, got ${x.dtype}`);
  return new Float32Array(x.bytes.buffer, x.bytes.byteOffset, x.bytes.byteLength / 4);
};
const [refPath, candPath] = process.argv.slice(2);
const ref = readNpy(refPath);
const cand = readNpy(candPath);
const a = asFloat(ref), b = asFloat(cand);
if (a.length !== b.length) throw new Error(`sizes differ: ${a.length} vs ${b.length}`);
let signal = 0, noise = 0, maxErr = 0;
for (let i = 0; i < a.length; i++) {
  signal += a[i] * a[i];
  const e = a[i] - b[i];
  noise += e * e;
  maxErr = Math.max(maxErr, Math.abs(e));
}
const sqnr = noise === 0 ? Infinity : 10 * Math.log10(signal / noise);
const cols = ref.shape[ref.shape.length - 1];
const rows = a.length / cols;
let agree = 0;
const argmax = (x, r) => {
  let best = r * cols;
  for (let j = r * cols; j < (r + 1) * cols; j++) if (x[j] > x[best]) best = j;
  return best;
};
for (let r = 0; r < rows; r++) agree += argmax(a, r) === argmax(b, r) ? 1 : 0;
console.log(JSON.stringify({ sqnr_db: sqnr, max_abs_error: maxErr, rows, top1_agreement: agree / rows }));

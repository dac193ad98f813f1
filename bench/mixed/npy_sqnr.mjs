// Worst output SQNR (dB) of each candidate's `qforge run` outputs against
// the reference's: node npy_sqnr.mjs REF_DIR DIR... -> {"DIR": dB, ...}
// (output_K.npy, float32).
import fs from 'node:fs';
import path from 'node:path';

function readNpy(file) {
  const b = fs.readFileSync(file);
  const headerLen = b.readUInt16LE(8);
  const header = b.toString('latin1', 10, 10 + headerLen);
  if (!header.includes("'<f4'")) throw new Error(`${file}: not float32`);
  const d = b.subarray(10 + headerLen);
  return new Float32Array(d.buffer.slice(d.byteOffset, d.byteOffset + d.length));
}
const [ref, ...dirs] = process.argv.slice(2);
const outputs = fs.readdirSync(ref).filter((f) => /^output_\d+\.npy$/.test(f));
const result = {};
for (const dir of dirs) {
  let worst = Infinity;
  for (const o of outputs) {
    const a = readNpy(path.join(ref, o));
    const q = readNpy(path.join(dir, o));
    let sig = 0, err = 0;
    for (let i = 0; i < a.length; i++) { sig += a[i] * a[i]; err += (a[i] - q[i]) ** 2; }
    worst = Math.min(worst, err === 0 ? Infinity : 10 * Math.log10(sig / err));
  }
  result[path.basename(dir)] = Number.isFinite(worst) ? worst : null;
}
process.stdout.write(JSON.stringify(result) + '\n');

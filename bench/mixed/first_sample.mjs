// The first sample of a stacked --data .npy ([N, ...]) as a batch-1 .npy
// ([1, ...]), the input tflm_run takes.
//   node first_sample.mjs IN.npy OUT.npy
import fs from 'node:fs';
import { decodeNpy, encodeNpy } from '../../tests/interop/lib/npy.mjs';

const [inPath, outPath] = process.argv.slice(2);
const a = decodeNpy(fs.readFileSync(inPath));
const shape = [1, ...a.shape.slice(1)];
const n = a.bytes.byteLength / a.shape[0];
fs.writeFileSync(outPath, encodeNpy(a.dtype, shape, a.bytes.subarray(0, n)));

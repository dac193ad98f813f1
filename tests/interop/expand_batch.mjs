// Rewrites a [N, d1, ...] .npy as [N, 1, d1, ...]: qforge's batch files
// concatenate batch-1 samples, run_model.mjs --samples wants each sample
// with its own batch dim. Usage: node expand_batch.mjs IN.npy OUT.npy
import { readNpy, writeNpy } from './lib/npy.mjs';

const [input, output] = process.argv.slice(2);
const x = readNpy(input);
writeNpy(output, x.dtype, [x.shape[0], 1, ...x.shape.slice(1)], x.bytes);

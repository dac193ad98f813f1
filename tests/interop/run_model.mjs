#!/usr/bin/env node
// Runs one .tflite model with LiteRT (or the tfjs-tflite interpreter) on .npy inputs.
//
//   node run_model.mjs MODEL.tflite --input a.npy [--input b.npy ...] --out-dir DIR
//        [--runtime auto|litert|tfjs-tflite] [--samples] [--verbose]
//   node run_model.mjs MODEL.tflite --seed N --out-dir DIR [...]
//
// Inputs are matched to the model inputs in order (signature 0 under LiteRT,
// subgraph 0 under tfjs-tflite); each .npy must have the input's dtype and its
// shape, where dynamic (-1) dims are pinned to the flatbuffer's static shape.
// --samples: every .npy is a batch [N, ...shape]; sample k of all inputs is
// run on its own and output j is written stacked as [N, ...].
// --seed N (instead of --input): inputs are generated as compare_pairs.mjs
// does (lib/inputs.mjs) and also written, as DIR/input_K.npy.
// Writes DIR/output_K.npy and prints ONE JSON line on stdout:
//   {"ok":true,"runtime":"litert","runtime_label":...,"fallback":null|reason,
//    "inputs":[{name,dtype,shape,tensor_index,quantization,file}],
//    "outputs":[{name,dtype,shape,tensor_index,quantization,file}],"ms":{...}}
// On failure: {"ok":false,"kind":...,"error":...} and exit code 1 (2 for usage errors).
import fs from 'node:fs';
import path from 'node:path';
import { readNpy, writeNpy } from './lib/npy.mjs';
import { runModel, RunError } from './lib/run.mjs';
import { generateInputs } from './lib/inputs.mjs';

const USAGE = 'usage: node run_model.mjs MODEL.tflite (--input FILE.npy [--input FILE.npy ...] | --seed N) --out-dir DIR [--runtime auto|litert|tfjs-tflite] [--samples] [--verbose]';

function parseArgs(argv) {
  const a = { inputs: [], runtime: 'auto', samples: false, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new RunError('usage', `${k} needs a value\n${USAGE}`);
      return argv[++i];
    };
    if (k === '--input' || k === '-i') a.inputs.push(value());
    else if (k === '--out-dir' || k === '-o') a.outDir = value();
    else if (k === '--runtime') a.runtime = value();
    else if (k === '--samples') a.samples = true;
    else if (k === '--seed') a.seed = Number(value());
    else if (k === '--verbose' || k === '-v') a.verbose = true;
    else if (k === '--help' || k === '-h') { process.stdout.write(USAGE + '\n'); process.exit(0); }
    else if (k.startsWith('-') || a.model) throw new RunError('usage', `unexpected argument ${k}\n${USAGE}`);
    else a.model = k;
  }
  if (!a.model || !a.outDir) throw new RunError('usage', USAGE);
  if (a.seed !== undefined && (a.inputs.length || a.samples || !Number.isInteger(a.seed) || a.seed < 0 || a.seed > 0xffffffff)) {
    throw new RunError('usage', `--seed takes an integer in [0, 2^32) and goes without --input/--samples\n${USAGE}`);
  }
  if (!['auto', 'litert', 'tfjs-tflite'].includes(a.runtime)) throw new RunError('usage', `--runtime must be auto, litert or tfjs-tflite\n${USAGE}`);
  return a;
}

const describe = (t, file) => ({ name: t.name, dtype: t.dtype, shape: t.shape, tensor_index: t.tensor_index, quantization: t.quantization, file });

// A closed stdout (| head) ends the run quietly.
process.stdout.on('error', (e) => { if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0); throw e; });

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const inputs = a.inputs.map((f) => {
    try {
      return readNpy(f);
    } catch (e) {
      throw new RunError('input-file', `${f}: ${e.message}`);
    }
  });
  const onLog = a.verbose ? (rt, line) => process.stderr.write(`[${rt}] ${line}\n`) : undefined;
  const makeInputs = a.seed !== undefined ? (specs) => generateInputs(a.seed, specs) : undefined;
  const res = await runModel(new Uint8Array(fs.readFileSync(a.model)), { runtime: a.runtime, inputs: makeInputs ? undefined : inputs, makeInputs, samples: a.samples, onLog });
  fs.mkdirSync(a.outDir, { recursive: true });
  if (makeInputs) {
    res.inputs.forEach((t, k) => {
      a.inputs[k] = path.join(a.outDir, `input_${k}.npy`);
      writeNpy(a.inputs[k], t.dtype, t.shape, t.bytes);
    });
  }
  const outputs = res.outputs.map((o, k) => {
    const file = path.join(a.outDir, `output_${k}.npy`);
    writeNpy(file, o.dtype, o.shape, o.bytes);
    return describe(o, file);
  });
  const report = {
    ok: true,
    model: a.model,
    runtime: res.runtime,
    runtime_label: res.runtime_label,
    fallback: res.fallback,
    signature: res.signature,
    samples: res.samples,
    inputs: res.inputs.map((t, i) => describe(t, a.inputs[i])),
    outputs,
    ms: res.ms,
  };
  process.stdout.write(JSON.stringify(report) + '\n');
}

main().catch((e) => {
  const kind = e instanceof RunError ? e.kind : 'internal';
  if (kind === 'internal' || process.argv.includes('--verbose')) process.stderr.write(`${e.stack ?? e}\n`);
  if (e.log?.length && process.argv.includes('--verbose')) process.stderr.write(`runtime log:\n${e.log.join('\n')}\n`);
  process.stdout.write(JSON.stringify({ ok: false, kind, error: String(e.message ?? e) }) + '\n');
  process.exitCode = kind === 'usage' ? 2 : 1;
});

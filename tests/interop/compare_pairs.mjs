#!/usr/bin/env node
// Checks that model copies compute exactly what their originals compute.
//
//   node compare_pairs.mjs --pairs LIST [--seed 1] [--timeout 60] [--runtime auto|litert|tfjs-tflite]
//        [--draws 1] [--jobs 1] [--no-poison]
//
// LIST: one pair a line, ORIGINAL<TAB>COPY (paths relative to the current
// directory); empty lines and lines starting with '#' are ignored.
// For each pair: inputs are generated from --seed for the ORIGINAL's inputs
// (lib/inputs.mjs: float uniform in [-1,1), integers in [0,10), bool 0/1),
// the original runs (runtime auto: LiteRT, else tfjs-tflite), the copy runs on
// the same inputs in the same runtime, and every output is compared byte for
// byte (count, dtype, shape, bytes). Each model runs in a worker thread with a
// fresh WebAssembly instance and a time limit (--timeout seconds).
// The two runs start from differently poisoned heaps; when their outputs
// differ the original is run again like the copy, and if the original's own
// outputs change the pair is skipped as nondeterministic (e.g. an output the
// runtime never writes). --no-poison skips the poisoning (a little faster).
// --jobs N runs N pairs at a time (one worker thread each).
// --draws N runs each model on N independent input sets (drawn in one stream
// as [N, ...shape] and run one by one), which makes the check more sensitive.
// Prints one JSON line per pair, then
//   compare_pairs: N identical, N different, N skipped
//   N passed, N failed, N skipped
// Exit code: 1 if any pair is different, 2 on usage errors or when the
// runtimes do not load (run setup.sh), else 0.
// status: identical | different (the copy fails to run, or any output differs)
//       | skipped (the ORIGINAL cannot run in either runtime, or is nondeterministic).
import fs from 'node:fs';
import os from 'node:os';
import { ModelRunner } from './lib/pool.mjs';
import { runtimeLabel } from './lib/engines.mjs';

const USAGE = 'usage: node compare_pairs.mjs --pairs LIST [--seed 1] [--timeout 60] [--runtime auto|litert|tfjs-tflite] [--draws 1] [--jobs 1] [--no-poison]';
const POISON_ORIGINAL = 0xa5;
const POISON_COPY = 0x5a;

function parseArgs(argv) {
  const a = { seed: 1, timeout: 60, runtime: 'auto', jobs: 1, poison: true, draws: 1 };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${k} needs a value`);
      return argv[++i];
    };
    if (k === '--pairs') a.pairs = value();
    else if (k === '--seed') a.seed = Number(value());
    else if (k === '--timeout') a.timeout = Number(value());
    else if (k === '--runtime') a.runtime = value();
    else if (k === '--jobs') a.jobs = Number(value());
    else if (k === '--no-poison') a.poison = false;
    else if (k === '--draws') a.draws = Number(value());
    else if (k === '--help' || k === '-h') { process.stdout.write(USAGE + '\n'); process.exit(0); }
    else usage(`unexpected argument ${k}`);
  }
  if (!a.pairs) usage('--pairs is required');
  if (!Number.isInteger(a.seed) || a.seed < 0 || a.seed > 0xffffffff) usage('--seed must be an integer in [0, 2^32)');
  if (!(a.timeout > 0)) usage('--timeout must be > 0 seconds');
  if (!Number.isInteger(a.draws) || a.draws < 1) usage('--draws must be an integer >= 1');
  if (!Number.isInteger(a.jobs) || a.jobs < 1 || a.jobs > Math.max(1, os.cpus().length)) usage(`--jobs must be 1..${os.cpus().length}`);
  if (!['auto', 'litert', 'tfjs-tflite'].includes(a.runtime)) usage('--runtime must be auto, litert or tfjs-tflite');
  return a;
}

function usage(msg) {
  process.stderr.write(`compare_pairs: ${msg}\n${USAGE}\n`);
  process.exit(2);
}

function readPairs(file) {
  let text;
  try { text = fs.readFileSync(file, 'utf8'); } catch (e) { usage(`cannot read ${file}: ${e.code ?? e.message}`); }
  const pairs = [];
  text.split('\n').forEach((raw, n) => {
    const line = raw.replace(/\r$/, '');
    if (!line.trim() || line.startsWith('#')) return;
    const parts = line.split('\t');
    if (parts.length !== 2 || !parts[0] || !parts[1]) usage(`${file}:${n + 1}: expected ORIGINAL<TAB>COPY, got ${JSON.stringify(line)}`);
    pairs.push({ original: parts[0], copy: parts[1] });
  });
  return pairs;
}

const VIEWS = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
  float16: Uint16Array, int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array, bool: Uint8Array,
};

function elementAt(dtype, bytes, i) {
  const C = VIEWS[dtype];
  if (!C) return null;
  const b = bytes.slice(i * C.BYTES_PER_ELEMENT, (i + 1) * C.BYTES_PER_ELEMENT);
  const v = new C(b.buffer)[0];
  if (typeof v === 'bigint') return v.toString();
  if (dtype === 'float16') return `0x${v.toString(16).padStart(4, '0')}`;
  return Number.isFinite(v) ? v : String(v);
}

/**
 * null if the two output lists are byte-identical, else a description of the
 * first difference. With draws > 1 the lists hold draw 0's outputs, then draw 1's...
 */
function firstDifference(a, b, draws = 1) {
  const perDraw = a.length / draws;
  if (a.length !== b.length) return { what: 'output count', original: a.length, copy: b.length };
  let first = null, outputsDiffering = 0;
  for (let k = 0; k < a.length; k++) {
    const x = a[k], y = b[k];
    let d = null;
    const where = (o) => (draws > 1 ? { draw: Math.floor(k / perDraw), ...o, output: k % perDraw } : o);
    if (x.dtype !== y.dtype) d = { output: k, name: x.name, what: 'dtype', original: x.dtype, copy: y.dtype };
    else if (x.shape.length !== y.shape.length || x.shape.some((s, i) => s !== y.shape[i])) d = { output: k, name: x.name, what: 'shape', original: x.shape, copy: y.shape };
    else if (x.bytes.byteLength !== y.bytes.byteLength) d = { output: k, name: x.name, what: 'size', original: x.bytes.byteLength, copy: y.bytes.byteLength };
    else if (x.aliases_input !== undefined) { /* values are the runtime's garbage (lib/run.mjs) */ }
    else if (!Buffer.from(x.bytes.buffer, x.bytes.byteOffset, x.bytes.byteLength).equals(Buffer.from(y.bytes.buffer, y.bytes.byteOffset, y.bytes.byteLength))) {
      const size = VIEWS[x.dtype]?.BYTES_PER_ELEMENT ?? 1;
      let firstEl = -1, n = 0;
      for (let i = 0; i < x.bytes.byteLength; i += size) {
        let same = true;
        for (let j = 0; j < size; j++) if (x.bytes[i + j] !== y.bytes[i + j]) { same = false; break; }
        if (!same) { n++; if (firstEl < 0) firstEl = i / size; }
      }
      d = { output: k, name: x.name, what: 'values', element: firstEl, original: elementAt(x.dtype, x.bytes, firstEl), copy: elementAt(x.dtype, y.bytes, firstEl), elements_differing: n, elements: x.bytes.byteLength / size };
    }
    if (d) { outputsDiffering++; first ??= where(d); }
  }
  return first ? { ...first, outputs_differing: outputsDiffering } : null;
}

async function comparePair(runner, pair, args) {
  const out = { original: pair.original, copy: pair.copy, status: null, reason: null, runtime: null, outputs: null, first_difference: null };
  const t0 = performance.now();
  const orig = await runner.run({ model: pair.original, runtime: args.runtime, seed: args.seed, draws: args.draws, poison: args.poison ? POISON_ORIGINAL : undefined });
  if (!orig.ok && orig.kind === 'internal') {
    // A bug of the harness, not a property of the model: never a silent skip.
    return { ...out, status: 'different', reason: `harness error on the original: ${orig.error}`, kind: orig.kind, ms: Math.round(performance.now() - t0) };
  }
  if (!orig.ok) {
    return { ...out, status: 'skipped', reason: `original: ${orig.kind}: ${orig.error}`, kind: orig.kind, ms: Math.round(performance.now() - t0) };
  }
  out.runtime = orig.runtime;
  if (orig.fallback) out.runtime_note = orig.fallback;
  out.outputs = orig.outputs.length / args.draws; // outputs are listed draw by draw
  const copy = await runner.run({ model: pair.copy, runtime: orig.runtime, inputs: orig.inputs, draws: args.draws, poison: args.poison ? POISON_COPY : undefined });
  if (!copy.ok) {
    return { ...out, status: 'different', reason: `copy: ${copy.kind}: ${copy.error}`, kind: copy.kind, ms: Math.round(performance.now() - t0) };
  }
  const diff = firstDifference(orig.outputs, copy.outputs, args.draws);
  if (!diff) return { ...out, status: 'identical', ms: Math.round(performance.now() - t0) };
  // Is the original itself stable? Run it again the way the copy ran.
  const again = await runner.run({ model: pair.original, runtime: orig.runtime, inputs: orig.inputs, draws: args.draws, poison: args.poison ? POISON_COPY : undefined });
  const selfDiff = again.ok ? firstDifference(orig.outputs, again.outputs, args.draws) : { what: `second run failed: ${again.kind}: ${again.error}` };
  if (selfDiff) {
    return { ...out, status: 'skipped', reason: `original: nondeterministic: its outputs change between two runs on the same inputs (${selfDiff.what}${selfDiff.output !== undefined ? ` of output ${selfDiff.output} '${selfDiff.name}'` : ''})`,
      kind: 'nondeterministic', first_difference: selfDiff, ms: Math.round(performance.now() - t0) };
  }
  return { ...out, status: 'different', reason: `output ${diff.output ?? ''} ${diff.what} differ`.replace('  ', ' '), kind: 'outputs-differ', first_difference: diff, ms: Math.round(performance.now() - t0) };
}

// A closed stdout (| head) ends the run quietly.
process.stdout.on('error', (e) => { if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0); throw e; });

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const pairs = readPairs(args.pairs);
  // Both runtimes must load, or every pair would end up skipped.
  try {
    await Promise.all(['litert', 'tfjs-tflite'].map(runtimeLabel));
  } catch (e) {
    process.stderr.write(`compare_pairs: the runtimes do not load: ${e.message}\n`);
    process.exit(2);
  }
  const runners = Array.from({ length: args.jobs }, () => new ModelRunner({ timeoutMs: args.timeout * 1000 }));
  const results = new Array(pairs.length);
  let printed = 0, next = 0;
  const flush = () => {
    while (printed < pairs.length && results[printed]) {
      const r = results[printed++];
      process.stdout.write(JSON.stringify(r) + '\n');
    }
  };
  await Promise.all(runners.map(async (runner) => {
    while (next < pairs.length) {
      const i = next++;
      try {
        results[i] = await comparePair(runner, pairs[i], args);
      } catch (e) {
        results[i] = { original: pairs[i].original, copy: pairs[i].copy, status: 'different', reason: `harness error: ${e.stack ?? e}` };
      }
      flush();
    }
  }));
  await Promise.all(runners.map((r) => r.close()));
  const count = (s) => results.filter((r) => r.status === s).length;
  const [ni, nd, ns] = [count('identical'), count('different'), count('skipped')];
  process.stdout.write(`compare_pairs: ${ni} identical, ${nd} different, ${ns} skipped\n`);
  process.stdout.write(`${ni} passed, ${nd} failed, ${ns} skipped\n`);
  process.exitCode = nd > 0 ? 1 : 0;
}

main().catch((e) => {
  process.stderr.write(`compare_pairs: ${e.stack ?? e}\n`);
  process.exitCode = 2;
});

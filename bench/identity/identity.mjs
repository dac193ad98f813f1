// Byte identity of qforge's outputs across a change (refactors must keep them): every
// model the corpus quantize sweep wrote (float_vs_litert.mjs --quantize
// --keep DIR --json FILE) is quantized again by another qforge binary on the
// same inputs and its SHA-256 compared with the kept file's; with
// --hashes OUT the list "sha256  model scheme" of this binary's outputs is
// written (a baseline for the next change).
//   node identity.mjs --qforge BIN --keep DIR --json FILE [--corpus DIR]
//        [--hashes OUT] [--jobs N]
// Exit 1 when any output differs or is no longer written.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const interop = path.join(here, '../../tests/interop');
const { parseModel } = await import(path.join(interop, 'lib/tflite.mjs'));
const { modelInputs } = await import(path.join(interop, 'lib/float_inputs.mjs'));
const { bindingNames } = await import(path.join(interop, 'lib/qforge_run.mjs'));

const a = { jobs: Math.max(1, os.cpus().length) };
for (let i = 2; i < process.argv.length; i += 2) {
  a[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
}
if (!a.qforge || !a.keep || !a.json) {
  console.error('usage: node identity.mjs --qforge BIN --keep DIR --json FILE [--corpus DIR] [--hashes OUT] [--jobs N]');
  process.exit(2);
}
a.corpus ??= path.join(here, '../../../shared/corpus');
const sha = (f) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
const run = (argv) => new Promise((resolve) => {
  const p = spawn(a.qforge, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  p.stderr.on('data', (d) => { err += d; });
  p.on('close', (code) => resolve({ code, err }));
});

const report = JSON.parse(fs.readFileSync(a.json, 'utf8'));
const results = Array.isArray(report) ? report : report.results ?? report.models;
const jobs = [];
for (const r of results) {
  for (const q of r.quantized ?? []) {
    if (q.result !== 'runs in LiteRT') continue;
    const dir = path.join(a.keep, r.model.replace(/[^A-Za-z0-9._-]+/g, '_'));
    jobs.push({ model: r.model, scheme: q.scheme, dir, kept: path.join(dir, `q_${q.scheme}.tflite`) });
  }
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'identity-'));
let differ = 0;
const lines = [];
async function one(j, k) {
  const modelPath = path.join(a.corpus, j.model);
  const inputs = modelInputs(parseModel(new Uint8Array(fs.readFileSync(modelPath))));
  const names = inputs.length > 1 ? bindingNames(inputs) : [''];
  const inDir = path.join(j.dir, 'qforge_0');
  const data = inputs.flatMap((_, i) => ['--data', names.length > 1 ? `${names[i]}=${path.join(inDir, `input_${i}.npy`)}` : path.join(inDir, `input_${i}.npy`)]);
  const out = path.join(tmp, `${k}.tflite`);
  const r = await run(['quantize', modelPath, ...data, '--scheme', j.scheme, '-o', out, '-q']);
  const want = sha(j.kept);
  if (r.code !== 0) {
    differ++;
    console.log(`GONE   ${j.model} ${j.scheme}: exit ${r.code}: ${r.err.trim().split('\n').pop()}`);
    return;
  }
  const got = sha(out);
  fs.rmSync(out);
  lines[k] = `${got}  ${j.model} ${j.scheme}`;
  if (got !== want) {
    differ++;
    console.log(`DIFFER ${j.model} ${j.scheme}`);
  }
}
let next = 0;
await Promise.all(Array.from({ length: Number(a.jobs) }, async () => {
  while (next < jobs.length) { const k = next++; await one(jobs[k], k); }
}));
fs.rmSync(tmp, { recursive: true, force: true });
if (a.hashes) fs.writeFileSync(a.hashes, lines.filter(Boolean).join('\n') + '\n');
console.log(`${jobs.length - differ} of ${jobs.length} quantized models byte-identical`);
process.exit(differ ? 1 : 0);

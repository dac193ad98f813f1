// Tests of the 2-fold pooling (merge_folds.mjs) and of the paired bootstrap
// (metrics.mjs), on hand-made results whose pooled figures are derived in
// the comments. Run by ctest (bench_folds_node).
//   node --test bench/quant_eval/folds_test.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';
import { pairedDbInterval } from './metrics.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

const fold = (swap, sig, err, agree, twinErr) => ({
  meta: { swap_halves: swap, seconds: 1 },
  failures: [],
  models: [{
    id: 'm', calib_samples: 3, eval_samples: sig.length, calibrate: { ok: true, ms: 10 },
    schemes: { int8: { ok: true, sqnr_db: 0, quantize: { ok: true, ms: 5 }, sample_sig: sig, sample_err: err, top1: { agree, of: sig.length } } },
    twins: [{ path: 't.tflite', gate: 'int8', ok: true, sample_sig: sig, sample_err: twinErr }],
  }],
});

function merge(a, b) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folds-'));
  fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify(a));
  fs.writeFileSync(path.join(dir, 'b.json'), JSON.stringify(b));
  const out = execFileSync('node', [path.join(here, 'merge_folds.mjs'), path.join(dir, 'a.json'), path.join(dir, 'b.json')]);
  fs.rmSync(dir, { recursive: true });
  return JSON.parse(out);
}

test('pools SQNR over the samples of both folds', () => {
  // Fold 1: signal 1 + 1, error 0.01 + 0.01; fold 2: signal 2, error 0.2.
  // Pooled: 10 log10(4 / 0.22) = 12.596 dB, not the mean of the folds'
  // 20 dB and 10 dB.
  const p = merge(fold(false, [1, 1], [0.01, 0.01], 2, [0.1, 0.1]), fold(true, [2], [0.2], 0, [0.2]));
  const s = p.models[0].schemes.int8;
  assert.ok(Math.abs(s.sqnr_db - 10 * Math.log10(4 / 0.22)) < 1e-9);
  assert.deepEqual(s.top1, { agree: 2, of: 3 });
  assert.equal(s.quantize.ms, 10);
  assert.equal(p.models[0].eval_samples, 3);
  assert.equal(p.models[0].calib_samples, 6);
  // The twin: 10 log10(4 / 0.4) = 10 dB.
  assert.ok(Math.abs(p.models[0].twins[0].sqnr_db - 10) < 1e-9);
});

test('a result missing from one fold is failed in the pool', () => {
  const b = fold(true, [2], [0.2], 0, [0.2]);
  delete b.models[0].schemes.int8.sample_err;
  const s = merge(fold(false, [1], [0.01], 1, [0.1]), b).models[0].schemes.int8;
  assert.equal(s.ok, false);
  assert.equal(s.sqnr_db, undefined);
});

test('paired bootstrap interval', () => {
  // Equal errors: every draw gives 0 dB.
  assert.deepEqual(pairedDbInterval([1, 2, 3], [1, 2, 3]), [0, 0]);
  // A with a tenth of B's error on every sample: +10 dB in every draw.
  const [lo, hi] = pairedDbInterval([0.1, 0.2, 0.3], [1, 2, 3]);
  assert.ok(Math.abs(lo - 10) < 1e-9 && Math.abs(hi - 10) < 1e-9);
  // One sample carries A's whole error: some draws leave it out (A
  // infinitely better), some take it twice; the interval is wide and
  // contains the full-set difference 10 log10(3 / 1) = 4.8 dB.
  const [l2, h2] = pairedDbInterval([1, 0, 0], [1, 1, 1]);
  assert.ok(l2 < 4.8 && h2 > 4.8);
  assert.equal(pairedDbInterval([1], [1, 2]), null);
});

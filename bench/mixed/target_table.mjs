// The --target-sqnr tables of bench/mixed/target_sqnr.sh, from its quant_eval
// results.json, the LiteRT timings (litert_latency.mjs: every form of a
// model interleaved round by round, medians) and the work folder (each
// form's `qforge inspect --runtime litert/tflm --json`, tflm_run's reply).
// Table 1, per model: size (KiB), held-out SQNR in LiteRT (dB), measured and
// estimated LiteRT latency (ms) of float, float16, int8, int16x8, the old
// search (before issue 28) and the new one (--runtime litert), with the
// acceptance check of the new search. Table 2: --runtime tflm --target-sqnr.
//   node target_table.mjs --results R.json --times T.jsonl --work DIR
//        --corpus CORPUS --args "SEARCH ARGS" --rounds N --load "L1 L5 L15"
//        --json OUT.json > target_sqnr.md
import fs from 'node:fs';
import path from 'node:path';
import { sqnrCell } from '../quant_eval/sqnr_cell.mjs';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const results = JSON.parse(fs.readFileSync(args.results, 'utf8'));
// Busy: a 1-minute load average above 3 when the timing ended (2 cores;
// the timing process alone, with Node's compiler and GC threads, keeps it
// near 2).
const busy = args.load ? Number(String(args.load).split(' ')[0]) > 3 : true;
const times = new Map();
const wall = new Map();
for (const line of fs.readFileSync(args.times, 'utf8').split('\n').filter(Boolean)) {
  const t = JSON.parse(line);
  // Busy: CPU time per run, as the wall time also counts the time a run
  // waited for a core. Quiet: wall time, as the process's CPU time also
  // counts Node's background threads (garbage collection after one form
  // spilling into the next form's run).
  times.set(path.resolve(t.model), t.error ? null : busy ? t.cpu_ms : t.ms);
  wall.set(path.resolve(t.model), t.error ? null : t.ms);
}
const readJson = (f) => (fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : null);
const kib = (b) => (typeof b === 'number' ? (b / 1024).toFixed(0) : '—');
const f1 = (x) => (typeof x === 'number' ? x.toFixed(1) : '—');
// [column, results.json scheme key, file suffix, JSON key (bench/results.mjs reads 'target 30')]
const FORMS = [
  ['float16', 'float16', 'float16', 'float16'],
  ['int8', 'int8', 'int8', 'int8'],
  ['int16x8', 'int16x8', 'int16x8', 'int16x8'],
  ['old search', 'int8+old', 'old', 'old search'],
  ['new search', 'int8+new', 'new', 'target 30'],
];
// quant_eval's JSON writes an exact (infinite) SQNR as null.
const checkDb = (target) => target.check_db ?? Infinity;
const searchCheck = (t) => {
  if (!t) return '—';
  if (t.target) {
    const db = checkDb(t.target);
    return `${Number.isFinite(db) ? db.toFixed(1) : 'exact'} (${t.target.check_samples})`;
  }
  const miss = /reaches (-?[\d.]+) dB on the (\d+) check samples after raising (\d+) ops/.exec(t.quantize?.error ?? '');
  return miss ? `not met: ${miss[1]} (${miss[2]}) after ${miss[3]} ops` : t.quantize?.ok === false ? `fails: ${t.quantize.error}` : '—';
};
const mix = (p) => (p ? `${p.int8 ?? 0}/${p.int16 ?? 0}/${p.float16 ?? 0}/${(p.float ?? 0) + (p.float32 ?? 0)}` : '—');

const t1 = [
  '| model | float: KiB · ms (est.) | ' + FORMS.map(([n]) => `${n}: KiB · dB · ms (est.)`).join(' | ') +
    ' | old / new search: check dB (samples) | old / new: ops int8/int16/f16/f32 (the saved recipe) | new search: >= 30 check, >= 27 held out, ms <= float |',
  `| --- |${' --- |'.repeat(FORMS.length + 4)}`,
];
const t2 = [
  '| model | --runtime tflm --target-sqnr 30 | ops int8/int16/f16/f32 | held-out dB (LiteRT) | tflm_run | TFLM cannot run (int8 model / int16x8 model) |',
  '| --- | --- | --- | --- | --- | --- |',
];
const rows = [];
for (const m of results.models) {
  const s = m.schemes ?? {};
  const dir = path.join(args.work, m.id);
  const floatFile = path.resolve(args.corpus, m.model);
  const est = (form) => readJson(path.join(dir, `${form}.litert.json`))?.runtime?.estimated_ms ?? null;
  const floatMs = times.get(floatFile) ?? null;
  const row = { id: m.id, model: m.model, eval_samples: m.eval_samples ?? null, float_bytes: m.float_bytes, float_ms: floatMs, float_wall_ms: wall.get(floatFile) ?? null, float_estimated_ms: est('float'), schemes: {} };
  const cells = FORMS.map(([, key, suffix, jsonKey]) => {
    const r = s[key];
    if (!r) return '—';
    const file = path.resolve(dir, `${m.id}.${suffix}.tflite`);
    const ms = r.quantize?.ok ? times.get(file) ?? null : null;
    const e = r.quantize?.ok ? est(suffix) : null;
    row.schemes[jsonKey] = { bytes: r.bytes ?? null, sqnr_db: r.sqnr_db ?? null, top1: r.top1 ?? null, ms, wall_ms: r.quantize?.ok ? wall.get(file) ?? null : null, estimated_ms: e, quantize_seconds: r.quantize?.ms != null ? r.quantize.ms / 1000 : null };
    if (!r.quantize?.ok) return key.startsWith('int8+') ? 'not met' : 'fails';
    return `${kib(r.bytes)} · ${sqnrCell(r)} · ${f1(ms)} (${f1(e)})`;
  });
  const old = s['int8+old'];
  const neu = s['int8+new'];
  row.target = neu?.target ?? null;
  row.old_target = old?.target ?? null;
  row.precisions = neu?.precisions ?? null;
  row.old_precisions = old?.precisions ?? null;
  const newMs = row.schemes['target 30']?.ms;
  const ok = {
    check: !!(neu?.target && checkDb(neu.target) >= 30),
    // quant_eval writes an exact output (no error at all) as "inf".
    held_out: neu?.sqnr_db === 'inf' || (typeof neu?.sqnr_db === 'number' && neu.sqnr_db >= 27),
    latency: typeof newMs === 'number' && typeof floatMs === 'number' && newMs <= floatMs,
  };
  row.acceptance = ok;
  // Within 10% of the float model's time is a tie on this busy machine.
  const ratio = typeof newMs === 'number' && floatMs ? newMs / floatMs : null;
  const speed = ok.latency ? 'yes' : ratio !== null && ratio <= 1.1 ? 'tie' : 'NO';
  const verdict = neu?.quantize?.ok
    ? `${ok.check ? 'yes' : 'NO'} / ${ok.held_out ? 'yes' : 'NO'} / ${speed} (${ratio !== null ? `${ratio.toFixed(2)}x float` : '—'})`
    : 'not met';
  t1.push(`| ${m.id} | ${kib(m.float_bytes)} · ${f1(floatMs)} (${f1(row.float_estimated_ms)}) | ${cells.join(' | ')} | ${searchCheck(old)} / ${searchCheck(neu)} | ${mix(old?.precisions)} / ${mix(neu?.precisions)} | ${verdict} |`);

  // TFLM.
  const tf = s['int8+tflm'];
  const run = readJson(path.join(dir, 'tflm_run.json'));
  const lacks = (form) => readJson(path.join(dir, `${form}.tflm.json`))?.runtime?.unsupported ?? null;
  const l8 = lacks('int8');
  const l16 = lacks('int16x8');
  const lackCell = (l) => (l === null ? '—' : l.length ? l.join('; ') : 'none');
  let result;
  if (!tf) result = '—';
  else if (tf.quantize?.ok) result = `written: ${searchCheck(tf)} check dB`;
  // The error without the model path, the tensor names and the last words.
  else result = `exit ${tf.quantize?.code}: ${(tf.quantize?.error ?? '').replace(/^[^:]*: /, '').replace(/ '[^']*'/g, '').replace(/; nothing written$/, '')}`;
  const runCell = run === null ? (tf?.quantize?.ok ? 'not run' : '—') : run.ok ? `runs (invoke ${f1(run.invoke_ms)} ms, arena ${kib(run.arena_used_bytes)} KiB)` : `fails at ${run.stage}: ${String(run.error).slice(0, 160)}`;
  t2.push(`| ${m.id} | ${result} | ${mix(tf?.precisions)} | ${tf?.quantize?.ok ? sqnrCell(tf) : '—'} | ${runCell} | ${lackCell(l8)} / ${lackCell(l16)} |`);
  row.tflm = { ok: !!tf?.quantize?.ok, code: tf?.quantize?.code ?? null, error: tf?.quantize?.error ?? null, target: tf?.target ?? null, precisions: tf?.precisions ?? null, sqnr_db: tf?.sqnr_db ?? null, bytes: tf?.bytes ?? null, tflm_run: run, tflm_lacks_int8: l8, tflm_lacks_int16x8: l16 };
  rows.push(row);
}

const meta = results.meta ?? {};
const out = [
  '# --target-sqnr 30: the old search against the runtime-aware one', '',
  `Generated by \`bench/mixed/target_sqnr.sh\` (${(meta.date ?? '').slice(0, 10)}, ${meta.qforge ?? ''}, ${meta.runtimes?.litert ?? 'LiteRT.js'}). ` +
  `Both searches: \`quantize --scheme int8 ${args.args}\` calibrating on bench/quant_eval's calibration samples (the search checks on every 4th of them); ` +
  `old search: the qforge binary from before issue 28 (int8 -> int16x8 -> float32); new search: this build, default \`--runtime litert\` (int8 -> float16 weights -> float32, from the fast-path plan). ` +
  `dB: output SQNR against the float model on the held-out evaluation samples, in LiteRT (top-1 agreement for classifiers). ` +
  `ms: LiteRT.js SIMD build, one thread, batch 1, all forms of a model interleaved round by round in one process, median of ${args.rounds} rounds (rotated: each form follows every other equally often) of the time per run (below: wall or CPU); (est.): qforge's LiteRT latency model (\`qforge inspect --runtime litert\`). ` +
  (busy
    ? `**The machine was busy** (other builds on its 2 cores; load average ${args.load} when the timing ended): wall-clock medians (in the JSON) count the time a run waited for a core and were up to several times the CPU time, so the table gives CPU time; even that moves by 10-30% between runs (shared caches), and the forms of one model, timed in the same rounds, compare better than the absolute figures do.`
    : `The machine was quiet (load average ${args.load ?? 'not recorded'} when the timing ended, the timing process included); the table gives wall time per run (the process's CPU time, in the JSON, also counts Node's background threads), which still moves by several percent between runs of the same graph (the float16 column and a search model that is the float graph with float16 weights differ by a few percent in the same rounds), so within 10% of the float model is a tie.`), '',
  'Acceptance (last column): the new search meets 30 dB on its check samples, reaches 27 dB on the held-out samples in LiteRT, and its model runs in LiteRT no slower than the float model (measured ratio in brackets; "tie": slower by at most 10%, within this machine\'s noise).', '',
  ...t1, '',
  '## --runtime tflm --target-sqnr 30', '',
  `The same search for TensorFlow Lite Micro (\`--runtime tflm\`: int8 -> int16x8, never float; exit 4 when the target is not met with integer ops). A model written is run by tflm_run (TFLite Micro's reference kernels, ../shared/tools/tflm) on the first calibration sample. The last column is \`qforge inspect --runtime tflm\` on the plain int8 and int16x8 models: the ops TFLite Micro has no kernel for in that form.`, '',
  ...t2,
];
fs.writeFileSync(args.json, JSON.stringify({ date: meta.date, qforge: meta.qforge, litert: meta.runtimes?.litert, args: args.args, rounds: Number(args.rounds), load: args.load ?? null, models: rows }, null, 1) + '\n');
console.log(out.join('\n'));

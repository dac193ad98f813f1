// The table of bench/latency/convnets.sh: per conv net, LiteRT latency of the
// float model and of qforge's default int8 (medians of interleaved rounds,
// two passes), the speed-up, qforge's estimate of both, the int8 SQNR on the
// held-out samples, and what `qforge inspect --runtime litert` says about the
// int8 model: XNNPACK partitions, ops in TFLite's builtin kernels (and why),
// QUANTIZE/DEQUANTIZE ops, ops left float. Then, for every model int8 does
// not speed up, the causes.
//   node convnets_table.mjs --results R.json --times T1.jsonl,T2.jsonl
//        --work QE_WORK --corpus CORPUS --rounds N --load "L1 L5 L15"
//        --json OUT.json > OUT.md
import fs from 'node:fs';
import path from 'node:path';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
// Busy: the timing process alone (Node's compiler and GC threads beside
// the one running the model) keeps the load average near 2 on this machine.
const busy = args.load ? Number(args.load.split(' ')[0]) > 3 : true;
// Busy: CPU time per run (the wall time also counts waiting for a core).
// Quiet: wall time (the process's CPU time also counts Node's GC threads).
const KEY = busy ? 'cpu_ms' : 'ms';
const results = JSON.parse(fs.readFileSync(args.results, 'utf8'));
const passes = args.times.split(',').map((file) => {
  const m = new Map();
  for (const line of fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const t = JSON.parse(line);
    m.set(path.resolve(t.model), t.error ? null : t);
  }
  return m;
});
const readJson = (f) => (fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : null);
const f2 = (x) => (typeof x === 'number' ? x.toFixed(2) : '—');
const f1 = (x) => (typeof x === 'number' ? x.toFixed(1) : '—');

// What the int8 model's runtime summary says: ops off XNNPACK grouped by op,
// type and reason; QUANTIZE/DEQUANTIZE ops that run (not folded); ops left
// in float32 on XNNPACK.
function analyse(rt, floatRt) {
  const live = rt.ops.filter((o) => !o.folded);
  const off = new Map();
  for (const o of live.filter((x) => x.path === 'builtin')) {
    const k = `${o.op} (${o.type}): ${o.why_builtin}`;
    const g = off.get(k) ?? { op: o.op, type: o.type, why: o.why_builtin, n: 0, ms: 0 };
    g.n++;
    g.ms += o.estimated_ms;
    off.set(k, g);
  }
  const isQdq = (o) => o.op === 'QUANTIZE' || o.op === 'DEQUANTIZE';
  const qdq = live.filter(isQdq);
  const floatLive = floatRt.ops.filter((o) => !o.folded && isQdq(o)).length;
  const kept = new Map();
  for (const o of live.filter((x) => !isQdq(x) && x.type === 'float32' && x.path === 'xnnpack')) kept.set(o.op, (kept.get(o.op) ?? 0) + 1);
  return {
    estimated_ms: rt.estimated_ms, partitions: rt.xnnpack_partitions,
    off_xnnpack: [...off.values()].sort((a, b) => b.ms - a.ms),
    off_ms: [...off.values()].reduce((s, g) => s + g.ms, 0),
    qdq: qdq.length, qdq_float_model: floatLive, qdq_ms: qdq.reduce((s, o) => s + o.estimated_ms, 0),
    float_on_xnnpack: Object.fromEntries(kept),
  };
}

// The causes the data shows for a model int8 does not speed up.
function causesOf(r) {
  const a = r.int8;
  if (!a) return [];
  const out = [];
  if (r.float_densify > 0 && (r.float_partitions ?? 1) > a.partitions) {
    out.push(`sparse float model: ${r.float_densify} DENSIFY ops give XNNPACK sparse weights, which it runs with its sparse float kernels (the builtin DENSIFY splits the partitions, yet the float model is faster); int8 has no sparse kernels, so the int8 model computes the dense convolutions (est. int8 MACs ${(r.int8_macs / 1e6).toFixed(0)} M)`);
  }
  if (a.qdq === 0 && r.int8_integer_ops === 0) {
    out.push(`the int8 plan kept the whole model float: ${r.float_densify ? `its ${r.float_densify} DENSIFY ops give XNNPACK sparse weights, which it runs with sparse kernels in an all-float graph only; dense int8 was estimated slower` : 'int8 was estimated slower'} (\`--keep-integer\` writes int8)`);
  }
  if (a.off_xnnpack.length) out.push(`${a.off_xnnpack.reduce((x, g) => x + g.n, 0)} ops off XNNPACK (above)`);
  const kept = Object.entries(a.float_on_xnnpack).filter(([op]) => op !== 'SOFTMAX');
  if (a.qdq > 4 || (kept.length && (r.float_estimated_ms ?? 1) < 0.5)) {
    out.push(`${a.qdq} QUANTIZE/DEQUANTIZE ops run, est. ${f2(a.qdq_ms)} of the int8 model's ${f2(a.estimated_ms)} ms: the converters around the ops kept float (${kept.map(([op, n]) => `${op}×${n}`).join(', ')}), which XNNPACK runs in float only; the int8 form of those ops would run in the builtin kernels and split the partition (the fast-path plan chose the cheaper of the two)`);
  }
  if ((r.float_estimated_ms ?? 1) < 0.5) out.push('tiny model: per-op and per-conversion costs weigh as much as the arithmetic int8 saves');
  if (!out.length || (r.speedup_passes.some((x) => x >= 1.1) && r.speedup_passes.every((x) => x >= 0.9))) {
    out.push(`a tie within the noise: qforge estimates int8 at ${f2((r.float_estimated_ms ?? NaN) / (a.estimated_ms ?? NaN))}x the float model's speed`);
  }
  return out;
}

const PROPOSALS = [
  '- **Done: standalone RELU after a CONV / DEPTHWISE / ADD** (selfie_segmentation, the face detectors, hand_landmark_3d / 2020_05, pose_detection): XNNPACK runs int8 RELU nowhere, so each RELU used to stay float between a DEQUANTIZE and a QUANTIZE. The producer now takes the RELU\'s output range and the RELU folds into its fused activation, exactly (quantizer/fold_activations.h): the QUANTIZE/DEQUANTIZE column above counts what is left (the detector heads kept float add two or three).',
  '- **Done: sparse float models** (hand_landmark_sparse, face_detection_full_range_sparse): XNNPACK\'s sparse float kernels beat dense int8 and run only in an all-float graph, so the fast-path plan keeps such a model float as a whole when that is estimated faster (pipeline/fast_path_plan.h); `--keep-integer` writes int8.',
  '- **Open: HARD_SWISH and PRELU** (selfie_segmentation, hand_recrop, palm_detection, face_landmark): no int8 form on XNNPACK; kept float they cost a DEQUANTIZE/QUANTIZE pair each. Where PRELU\'s slopes are all equal it is LEAKY_RELU, which XNNPACK runs in int8; otherwise only a float region wide enough to swallow the converters helps, which the per-op plan cannot see (hand_recrop: both int8 plans, the fast-path one and `--keep-integer`, are estimated and measured slower than the float model; `quantize` says so in its summary, and `--target-sqnr` ends at the float model there). Proposed: the fast-path plan could try growing float regions (whole PRELU blocks) when the estimate says so.',
  '- **Tiny models** (conv_fc_mnist, 0.08 ms): nothing to fix in the quantizer; int8 pays four converters on a model whose arithmetic takes microseconds.',
];

const rows = [];
for (const m of results.models) {
  const s = m.schemes?.int8;
  if (!s?.ok) continue;
  const floatFile = path.resolve(args.corpus, m.model);
  const int8File = path.resolve(args.work, m.id, `${m.id}.int8.tflite`);
  const t = passes.map((p) => ({ float: p.get(floatFile), int8: p.get(int8File) }));
  const ratio = (k) => t.map((x) => (x.float && x.int8 ? x.float[k] / x.int8[k] : null));
  const mean = (form, k) => (t.every((x) => x[form]) ? t.reduce((acc, x) => acc + x[form][k], 0) / t.length : null);
  const floatMs = mean('float', KEY);
  const int8Ms = mean('int8', KEY);
  const floatRt = readJson(path.join(args.work, m.id, 'float.litert.json'))?.runtime;
  const int8Rt = readJson(path.join(args.work, m.id, 'int8.litert.json'))?.runtime;
  const a = floatRt && int8Rt ? analyse(int8Rt, floatRt) : null;
  rows.push({
    id: m.id, model: m.model, float_bytes: m.float_bytes, int8_bytes: s.bytes, int8_sqnr_db: s.sqnr_db ?? null,
    float_ms: floatMs, int8_ms: int8Ms, speedup: floatMs && int8Ms ? floatMs / int8Ms : null,
    float_wall_ms: mean('float', 'ms'), int8_wall_ms: mean('int8', 'ms'),
    speedup_passes: ratio(KEY), cpu_speedup_passes: ratio('cpu_ms'), wall_speedup_passes: ratio('ms'),
    float_estimated_ms: floatRt?.estimated_ms ?? null, float_partitions: floatRt?.xnnpack_partitions ?? null,
    float_densify: floatRt ? floatRt.ops.filter((o) => o.op === 'DENSIFY').length : null,
    int8_macs: int8Rt ? int8Rt.ops.reduce((x, o) => x + (o.macs ?? 0), 0) : null,
    int8_integer_ops: int8Rt ? int8Rt.ops.filter((o) => !o.folded && o.type !== 'float32' && o.op !== 'DENSIFY').length : null,
    int8_ops_kept_float: s.ops_float ?? null, int8: a,
  });
}

const lines = [];
const load = args.load ? ` load average ${args.load} when the timing ended;` : '';
lines.push('# Conv nets: float against qforge\'s default int8 in LiteRT', '',
  `Generated by \`bench/latency/convnets.sh\` (${results.meta?.date?.slice(0, 10) ?? ''}, ${results.meta?.qforge ?? ''}, ${results.meta?.runtimes?.litert ?? 'LiteRT.js'}): every corpus conv net quant_eval has real data for, quantized with \`qforge quantize --scheme int8\` (default \`--runtime litert\`, fast-path plan included) on its calibration samples. Latency: LiteRT.js SIMD build, one thread, batch 1, float and int8 interleaved round by round in one process, median of ${args.rounds} rounds of the time per run (wall on a quiet machine, CPU on a busy one, below); two passes over all models minutes apart: the ms columns are the mean of the two medians, the speed-up is float/int8 per pass. ${busy ? `**The machine was busy** (other builds on its 2 cores):${load} wall-clock medians (in the JSON) count the time a run waited for a core and were up to several times the CPU time, so the table gives CPU time, which still moves` : `The machine was quiet (nothing else running on its 2 cores):${load} the table gives wall time (the process's CPU time, in the JSON, also counts Node's GC threads), which moves`} by 10-30% between runs (shared caches): a speed-up within about ±10% of 1 is a tie. Estimated: qforge's LiteRT latency model (\`qforge inspect --runtime litert\`). SQNR: int8 output against float on the held-out evaluation samples, in LiteRT.`, '',
  `| model | float ${busy ? 'CPU' : 'wall'} ms (est.) | int8 ${busy ? 'CPU' : 'wall'} ms (est.) | speed-up pass 1 / 2 | int8 SQNR dB | partitions float / int8 | int8: ops off XNNPACK (est. ms) | int8: running QUANTIZE+DEQUANTIZE (float model) | int8: ops left float32 on XNNPACK |`,
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  const a = r.int8;
  const off = a ? (a.off_xnnpack.length ? `${a.off_xnnpack.reduce((s, g) => s + g.n, 0)} (${f2(a.off_ms)})` : '0') : '—';
  const kept = a ? Object.entries(a.float_on_xnnpack).map(([op, n]) => `${op}×${n}`).join(', ') || '—' : '—';
  lines.push(`| ${r.id} | ${f2(r.float_ms)} (${f2(r.float_estimated_ms)}) | ${f2(r.int8_ms)} (${f2(a?.estimated_ms)}) | ${r.speedup_passes.map(f2).join(' / ')} | ${f1(r.int8_sqnr_db)} | ${r.float_partitions ?? '—'} / ${a?.partitions ?? '—'} | ${off} | ${a ? `${a.qdq} (${a.qdq_float_model})` : '—'} | ${kept} |`);
}
const slow = rows.filter((r) => r.speedup_passes.some((x) => typeof x === 'number' && x < 1.1));
const slower = slow.filter((r) => r.speedup_passes.every((x) => typeof x === 'number' && x < 0.9)).map((r) => r.id);
const ties = slow.filter((r) => !slower.includes(r.id)).map((r) => r.id);
lines.push('', '## Where int8 is not faster', '',
  `Slower in both passes (speed-up below 0.9): ${slower.join(', ') || 'none'}. A tie in at least one pass: ${ties.join(', ') || 'none'}.`, '',
  `Models whose int8 speed-up is below 1.1 in either pass (a tie or slower), with what \`qforge inspect --runtime litert\` lists for the int8 model: ops in TFLite's builtin kernels grouped by op, type and the delegate's reason, with qforge's estimate of their time.`, '');
for (const r of slow) {
  const a = r.int8;
  const causes = causesOf(r);
  lines.push(`- **${r.id}** (speed-up ${r.speedup_passes.map(f2).join(' / ')}; estimated ${f2(r.float_estimated_ms)} -> ${f2(a?.estimated_ms)} ms; ${a?.partitions ?? '?'} XNNPACK partitions, float ${r.float_partitions ?? '?'}; ${a?.qdq ?? '?'} QUANTIZE/DEQUANTIZE run, est. ${f2(a?.qdq_ms)} ms):`);
  if (!a) continue;
  if (!a.off_xnnpack.length) lines.push('  - every op on XNNPACK');
  for (const g of a.off_xnnpack) lines.push(`  - ${g.n}× ${g.op} (${g.type}), est. ${f2(g.ms)} ms: ${g.why}`);
  const kept = Object.entries(a.float_on_xnnpack);
  if (kept.length) lines.push(`  - left float32 on XNNPACK: ${kept.map(([op, n]) => `${op}×${n}`).join(', ')}`);
  for (const c of causes) lines.push(`  - cause: ${c}`);
}
lines.push('', '## Proposed fixes', '', ...PROPOSALS);
fs.writeFileSync(args.json, JSON.stringify({ date: results.meta?.date, qforge: results.meta?.qforge, litert: results.meta?.runtimes?.litert, rounds: Number(args.rounds), load: args.load ?? null, models: rows }, null, 1) + '\n');
console.log(lines.join('\n'));

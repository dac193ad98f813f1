#!/usr/bin/env node
// Writes bench/RESULTS.md (every measured table, from the files the bench
// scripts write) and the figures the README quotes, so that neither is typed
// by hand. README.md marks each generated figure:
//   <!-- figure:NAME -->generated text<!-- /figure -->
// and this script rewrites the text between the marks.
//
//   node bench/results.mjs           rewrite bench/RESULTS.md and README.md
//   node bench/results.mjs --check   exit 1 if either is out of date
//
// Sources (each names the script that regenerates it):
//   bench/quant_eval/results.json   bench/quant_eval/run.sh
//   bench/recovery/ablation.{md,json}, time_optimize.txt, fast.{md,json}
//                                   bench/recovery/ablation.sh, time_optimize.sh,
//                                   fast.sh
//   bench/int4/int4.{md,json}       bench/int4/int4.sh
//   bench/mixed/target_sqnr.md      bench/mixed/target_sqnr.sh
//   bench/int_bench_results.txt     bench/run_int_bench.sh
//   bench/interop/summary.json      bench/interop/summary.sh
//   bench/defaults/cv.{md,json}     bench/defaults/cv.sh
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crossValidate, CANDIDATES } from './defaults/cv_table.mjs';

const bench = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(bench);
const read = (p) => fs.readFileSync(path.join(bench, p), 'utf8');
const json = (p) => JSON.parse(read(p));
const check = process.argv.includes('--check');

// results.json files store an infinite SQNR as a string.
const num = (v) => (typeof v === 'string' ? Number(v.replace('inf', 'Infinity')) : v);
const db = (v) => num(v).toFixed(1);
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const kib = (bytes) => Math.round(bytes / 1024);

function model(results, id) {
  const m = results.models.find((x) => x.id === id);
  if (!m) throw new Error(`no model '${id}' in the results`);
  return m;
}

// ---- the figures the README quotes ----

const quantEval = json('quant_eval/results.json');
const ablation = json('recovery/ablation.json');
const int4 = json('int4/int4.json');
const interop = json('interop/summary.json');
const target = json('mixed/target_sqnr.json');
const cv = crossValidate(json('defaults/cv.json'));

function twinGates() {
  const deltas = [];
  for (const m of quantEval.models) {
    for (const t of m.twins ?? []) {
      if (t.gate === 'int8' && t.delta_db !== undefined && t.delta_db !== null) {
        deltas.push(t.delta_db);
      }
    }
  }
  return deltas;
}

const figures = {
  // The status paragraph: agreement with LiteRT, and int8 against twins.
  status() {
    const f = interop.float;
    const i = interop.integer;
    const done = quantEval.models.filter((m) => m.status === 'done').length;
    const worst = Math.min(...twinGates());
    return `The float interpreter is within 1e-4 of LiteRT on ${f.within} of ` +
      `${f.checked} corpus models (the other ${f.checked - f.within} within the ` +
      `spread between LiteRT's own runtimes); the integer interpreter follows ` +
      `TFLite's kernels bit for bit (equal to LiteRT's outputs on ` +
      `${i.identical} of ${i.models} integer models with ` +
      `\`--arithmetic xnnpack\`). The quantizer checks every integer form ` +
      `against LiteRT's rules, so what it writes runs in LiteRT. Over ${done} ` +
      `real corpus models, qforge's int8 is at worst ${db(-worst)} dB below an ` +
      `official same-weights int8 twin.`;
  },
  // "If int8 loses too much": --optimize accuracy on mobilenet 224.
  recovery() {
    const m = model(ablation, 'mobilenet_v1_0.25_224');
    const twin = (m.twins ?? []).find((t) => t.ok || t.alt?.ok);
    const twinDb = twin ? db(twin.ok ? twin.sqnr_db : twin.alt.sqnr_db) : '—';
    const vs = /Against the official int8 twins[^:]*: plain int8 ([-0-9.]+) dB on average over (\d+) pairs, worst ([-0-9.]+) \(([^)]+)\); below the twin: [^;]*?(\[[-0-9.]+, [-0-9.]+\])?; below it beyond the 95% interval: ([^;]+);.*--optimize accuracy ([-0-9.]+) dB on average over \d+ pairs, worst ([-0-9.]+)/
      .exec(read('recovery/ablation.md'));
    if (!vs) throw new Error('recovery/ablation.md lacks the line against the twins');
    const interval = vs[5] ? `, 95% bootstrap interval over the evaluation samples ${vs[5].slice(1, -1).replace(', ', ' to ')} dB` : '';
    const gain = /Mean gain over plain int8 \(dB\):.*--optimize accuracy ([-0-9.]+) \((\d+) models/.exec(read('recovery/ablation.md'));
    if (!gain) throw new Error('recovery/ablation.md lacks the mean gains');
    const twinCmp = Number(db(m.schemes['int8+opt'].sqnr_db)) >= Number(twinDb) ? 'above' : 'short of';
    return `Over ${gain[2]} corpus models, evaluated on samples it did not calibrate on (2-fold), it gains ` +
      `${gain[1]} dB on average over plain int8. Against the ${vs[2]} official int8 twins ` +
      `of the same weights, \`--optimize accuracy\` is ${vs[7]} dB better on average (worst pair ${vs[8]}), ` +
      `plain int8 ${vs[1]} (worst ${vs[3]}, ${vs[4]}${interval}; pairs below a twin beyond that interval: ${vs[6]}). ` +
      `On mobilenet_v1_0.25_224 it raises output SQNR from ${db(m.schemes.int8.sqnr_db)} to ` +
      `${db(m.schemes['int8+opt'].sqnr_db)} dB, ${twinCmp} TFLite's quantization-aware twin (${twinDb})`;
  },
  // "If int8 loses too much": --optimize fast over the corpus.
  fast() {
    const line = /^Over (\d+) models: mean gain ([-0-9.]+) dB; (\d+) gain, (\d+) unchanged, (\d+) lose(?: \(([^)]*)\))?\. Time against calibrate \+ quantize: median ([0-9.]+)x, most ([0-9.]+)x\.$/m
      .exec(read('recovery/fast.md'));
    if (!line) throw new Error('recovery/fast.md lacks its summary line');
    const worst = line[6] ? `, at worst ${line[6].split(', ')[0]} dB` : '';
    return `Over ${line[1]} corpus models with real data it gains ${line[2]} dB on average ` +
      `(${line[3]} gain, ${line[4]} unchanged, ${line[5]} lose${worst}), taking ${line[7]}x the time of ` +
      `calibrate + quantize (median; at most ${line[8]}x)`;
  },
  // docs/recovery.md: --optimize fast per model.
  fasttable() {
    return `\n${read('recovery/fast.md').trim()}\n`;
  },
  // docs/recovery.md: weight rounding (GPTQ, clipping search, AWQ) on int4.
  rounding() {
    return `\n${read('weights/rounding.md').trim()}\n`;
  },
  // docs/quantization.md: the defaults, cross-validated across families.
  cvdefaults() {
    const label = (k) => `\`${CANDIDATES.find((c) => c.key === k).label.replace(' +fast', ' --optimize fast')}\``;
    const sg = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
    const chosen = (rows) => {
      const keys = [...new Set(rows.map((r) => r.chosen))];
      return keys.length === 1 ? `${label(keys[0])} for every held-out family`
        : rows.map((r) => `${label(r.chosen)} for ${r.family}`).join(', ');
    };
    const models = new Set(cv.pairs.map((p) => p.model)).size;
    const f = cv.fine.summary, c = cv.coarse.summary;
    const [method, fast] = cv.apart;
    return `Over ${cv.pairs.length} pairs of ${models} models, held out by family, the protocol chooses ` +
      `${chosen(cv.fine.rows)}: held-out Δ ${sg(f.held_mean)} dB on average, worst ${sg(f.held_worst)}, where ` +
      `today's default (\`mse\`, no \`--optimize\`) has ${sg(f.current_mean)} and ${sg(f.current_worst)} on the same pairs. ` +
      `By repository alone it chooses ${chosen(cv.coarse.rows)}: held out ${sg(c.held_mean)} on average, worst ${sg(c.held_worst)}. ` +
      `Chosen on all families: ${label(f.chosen_all)}. ` +
      `Apart: choosing the method alone (no \`--optimize\`) per held-out family gives ${sg(method.fine.held_mean)} on average ` +
      `(worst ${sg(method.fine.held_worst)}; by repository ${sg(method.coarse.held_mean)}, worst ${sg(method.coarse.held_worst)}), ` +
      `and ${label(method.fine.chosen_all)} is chosen on all families; \`--optimize fast\` with \`mse\` is chosen for ` +
      `every held-out family in both groupings (${sg(fast.fine.held_mean)} on average, worst ${sg(fast.fine.held_worst)}). ` +
      `Decision by the rule: ${cv.change ? `the default changes to ${label(f.chosen_all)}` : 'the default stays'}`;
  },
  // docs/recovery.md: time and memory of the recovery options.
  timeoptimize() {
    return `\n\`\`\`\n${read('recovery/time_optimize.txt').trim()}\n\`\`\`\n`;
  },
  // docs/recovery.md: the whole ablation table.
  ablation() {
    return `\n${read('recovery/ablation.md').trim()}\n`;
  },
  // "If int8 loses too much": --target-sqnr 30 on the hardest models and a few more.
  target() {
    // quant_eval writes an exact output (no error) as "inf", JSON an
    // infinite check SQNR as null.
    const exact = (v) => v === 'inf';
    const rows = target.models.filter((m) => m.schemes['target 30']?.sqnr_db != null);
    const met = rows.filter((m) => m.target && (m.target.check_db === null || m.target.check_db >= 30));
    const smaller = met.filter((m) => m.schemes['target 30'].bytes < m.schemes.float16.bytes);
    const finite = met.filter((m) => !exact(m.schemes['target 30'].sqnr_db));
    const evalDb = finite.map((m) => num(m.schemes['target 30'].sqnr_db));
    const exactCount = met.length - finite.length;
    const wholeFloat = met.filter((m) => m.precisions && !m.precisions.int8 && !m.precisions.int16);
    return `On ${target.models.length} corpus models of bench/mixed/target_sqnr.md ` +
      `(int8 ${Math.min(...target.models.map((m) => num(m.schemes.int8.sqnr_db))).toFixed(1)}` +
      ` to ${Math.max(...target.models.map((m) => num(m.schemes.int8.sqnr_db))).toFixed(1)} dB), ` +
      `\`${target.args ?? '--target-sqnr 30'}\` meets the target on ${met.length}, ` +
      `${db(Math.min(...evalDb))} to ${db(Math.max(...evalDb))} dB on held-out samples` +
      (exactCount ? ` (${exactCount} more exact)` : '') +
      `, ${smaller.length} of them smaller than the float16 model; ` +
      `${wholeFloat.length} end with no integer op (float16 weights: half the size at float speed; ` +
      'a mixed plan that met the target was estimated slower than the float model in LiteRT)';
  },
  // docs/numerics.md: integer agreement with LiteRT and the builtin kernels.
  interop() {
    const i = interop.integer;
    const b = /exact vs TFLite's builtin kernels: (\d+)\/(\d+)/.exec(i.detail);
    return `${i.identical} of ${i.models} integer models equal LiteRT's outputs ` +
      `exactly with \`--arithmetic xnnpack\`` +
      (b ? `, ${b[1]} of ${b[2]} equal the builtin kernels exactly` : '');
  },
  // Performance: bench/speed/twins.sh and cli.sh.
  speed() {
    const twins = read('speed/twins.md');
    const rows = twins.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| twin') && !l.startsWith('| ---'))
      .map((l) => l.split('|').map((x) => x.trim()));
    const conv = rows.filter((c) => parseFloat(c[2]) >= 10 && c[5] !== '—').map((c) => parseFloat(c[5]));
    const both = rows.filter((c) => c[5] !== '—');
    const faster = both.filter((c) => parseFloat(c[5]) >= 1).length;
    const cli = read('speed/cli.md').split('\n').filter((l) => /^\| [a-z]/.test(l) && !l.startsWith('| model'))
      .map((l) => l.split('|').map((x) => x.trim()));
    // Columns: model, N, threads, command, ms/sample, paired ms, paired
    // ratio, one sample best / median, ratio to best / median, fixed ms.
    const paired = (t) => cli.filter((c) => c[3] === t).map((c) => parseFloat(c[7]));
    const single = (t, k) => cli.filter((c) => c[3] === t).map((c) => parseFloat(c[9].split('/')[k]));
    const range = (v) => `${Math.min(...v).toFixed(2)}-${Math.max(...v).toFixed(2)}x`;
    const fixed = cli.map((c) => parseFloat(c[10]));
    return `One thread, batch 1: qforge's integer interpreter is faster than LiteRT on ` +
      `${faster} of ${both.length} official int8 twins both run, ` +
      `${Math.min(...conv).toFixed(1)}-${Math.max(...conv).toFixed(1)}x on the ${conv.length} convolutional ones. ` +
      `\`run\` and \`calibrate\`, reading every sample from a file, take ${range(paired('1'))} the time per ` +
      `sample of the interpreter fed one sample again and again (both timed in alternation) on 1 thread, and ` +
      `${range(paired('2'))} on 2, where they run samples side by side; against the interpreter's best single ` +
      `repeat, ${range(single('1', 0))} on 1 thread (${range(single('1', 1))} its median). Whole processes over ` +
      `N and N/10 samples, differenced (N = ${[...new Set(cli.map((c) => c[2]))].join(' or ')}), plus ` +
      `${Math.min(...fixed).toFixed(0)}-${Math.max(...fixed).toFixed(0)} ms once for start-up, model load and prepare`;
  },
  // Large models: bench/big_model/run.sh's table.
  bigmodel() {
    const text = read('big_model/results.md');
    const size = /model ([0-9.]+) GB/.exec(text)[1];
    const row = (name) => {
      const cells = text.split('\n').find((l) => l.startsWith(`| \`${name}\``));
      if (!cells) throw new Error(`big_model/results.md lacks ${name}`);
      const c = cells.split('|').map((x) => x.trim());
      return { s: c[2], gb: c[3], out: c[4] };
    };
    const i = row('inspect'), r = row('run'), q = row('quantize (int8, 4 samples)');
    return `On a ${size} GB float model, \`inspect\` takes ${i.s} s and ` +
      `${Math.round(parseFloat(i.gb) * 1000)} MB, \`run\` peaks at ${r.gb} GB and int8 ` +
      `\`quantize\` at ${q.gb} GB (the model plus its ${q.out} GB output).`;
  },
  // "Smaller still": int4 weights.
  int4() {
    const v = model(int4, 'vww_96');
    const gains = int4.models
      .filter((m) => m.schemes['int8+w4']?.ok && m.schemes['int8+w4opt']?.ok)
      .map((m) => num(m.schemes['int8+w4opt'].sqnr_db) - num(m.schemes['int8+w4'].sqnr_db));
    return `vww_96 ${kib(v.float_bytes)} → ${kib(v.schemes['int8+w4'].bytes)} KiB ` +
      `(int8: ${kib(v.schemes.int8.bytes)}). int4 costs accuracy (vww_96 ` +
      `${db(v.schemes['int8+w4'].sqnr_db)} dB, int8 ${db(v.schemes.int8.sqnr_db)}); add ` +
      `\`--optimize accuracy\` (on int4 layers GPTQ and bias correction: ` +
      `+${mean(gains).toFixed(1)} dB on average over ${gains.length} models, vww_96 ` +
      `${db(v.schemes['int8+w4opt'].sqnr_db)} dB)`;
  },
};

// ---- bench/RESULTS.md ----

function section(title, source, body) {
  return `## ${title}\n\n${body.trim()}\n\n_Regenerate: \`${source}\`._\n`;
}

function resultsMd() {
  const quantTable = execFileSync(
    process.execPath, [path.join(bench, 'quant_eval/readme_table.mjs')],
    { encoding: 'utf8' });
  const f = interop.float;
  const i = interop.integer;
  const parts = [
    '# Measured results\n\nGenerated by `node bench/results.mjs` from the files ' +
      'the bench scripts write; do not edit by hand. Accuracy is output SQNR in ' +
      'dB (top-1 agreement for classifiers), measured in LiteRT on samples ' +
      'disjoint from the calibration samples.\n',
    section('Agreement with LiteRT', 'bash bench/interop/summary.sh',
      `| interpreter | models checked | agree | detail |\n| --- | --- | --- | --- |\n` +
      `| float | ${f.checked} | ${f.within} within 1e-4 | ${f.spread} within the runtimes' own spread, ${f.mismatch} mismatches, ${f.skipped} skipped |\n` +
      `| integer (\`--arithmetic xnnpack\`) | ${i.models} | ${i.identical} identical | ${i.detail} |\n\n` +
      `Measured ${interop.date} at ${interop.commit}.`),
    section('Accuracy over the corpus (four schemes, official twins)',
      'bash bench/quant_eval/run.sh', quantTable),
    section('Accuracy recovery (ablation)', 'bash bench/recovery/ablation.sh',
      `${read('recovery/ablation.md')}\nTime and memory (\`bench/recovery/time_optimize.sh\`):\n\n` +
      `\`\`\`\n${read('recovery/time_optimize.txt').trim()}\n\`\`\``),
    section('One-pass bias correction (--optimize fast) over the corpus',
      'bash bench/recovery/fast.sh', read('recovery/fast.md')),
    section('Default range rules, cross-validated across model families', 'bash bench/defaults/cv.sh',
      read('defaults/cv.md')),
    section('int4 weights', 'bash bench/int4/int4.sh', read('int4/int4.md')),
    section('Mixed precision to a target (--target-sqnr 30)',
      'bash bench/mixed/target_sqnr.sh', read('mixed/target_sqnr.md')),
    section('Mixed int8/int16x8 models: LiteRT and qforge run',
      'bash bench/mixed/agreement.sh', read('mixed/agreement.md')),
    section('Memory at model scale', 'bash bench/big_model/run.sh',
      read('big_model/results.md').replace(/^# .*\n\n/, '')),
    section('Integer inference: every official twin against LiteRT', 'bash bench/speed/twins.sh',
      read('speed/twins.md')),
    section('Command-line throughput against the interpreter', 'bash bench/speed/cli.sh',
      read('speed/cli.md')),
    section('Report time', 'bash bench/report/run.sh', read('report/results.md')),
    section('Integer inference speed', 'bash bench/run_int_bench.sh',
      `\`\`\`\n${read('int_bench_results.txt').trim()}\n\`\`\``),
  ];
  return parts.join('\n');
}

// ---- write or check ----

function withFigures(text, file) {
  return text.replace(
    /<!-- figure:([a-z0-9]+) -->([\s\S]*?)<!-- \/figure -->/g,
    (_, name) => {
      if (!figures[name]) throw new Error(`${file} names an unknown figure '${name}'`);
      return `<!-- figure:${name} -->${figures[name]()}<!-- /figure -->`;
    });
}

const outputs = [[path.join(bench, 'RESULTS.md'), resultsMd()]];
for (const doc of ['README.md', 'docs/numerics.md', 'docs/recovery.md', 'docs/quantization.md']) {
  const file = path.join(root, doc);
  outputs.push([file, withFigures(fs.readFileSync(file, 'utf8'), doc)]);
}
let stale = 0;
for (const [file, text] of outputs) {
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (old === text) continue;
  if (check) {
    console.log(`${path.relative(root, file)} is out of date: run node bench/results.mjs`);
    stale++;
  } else {
    fs.writeFileSync(file, text);
    console.log(`wrote ${path.relative(root, file)}`);
  }
}
process.exit(stale ? 1 : 0);

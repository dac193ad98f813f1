// The summary float_vs_litert.mjs prints after its per-model lines.

const fmt = (v) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toPrecision(7)) : String(v));

/**
 * Ops without a float kernel, over the models LiteRT runs but qforge does
 * not (group 'no kernel'). qforge names only the first op it lacks, so the
 * others are estimated: an op counts as covered once a run got past it (an
 * op of a model qforge ran, or one before the op qforge named); every other
 * op of a blocked model is taken as missing.
 * Returns [{ op, first, blocks, alone }], most blocking first.
 */
export function blockingOps(results) {
  const covered = new Set();
  for (const r of results) {
    if (['ok', 'tie', 'spread', 'mismatch'].includes(r.status)) r.ops.forEach((o) => covered.add(o));
    (r.covered_ops ?? []).forEach((o) => covered.add(o));
  }
  const rows = new Map();
  const row = (op) => rows.get(op) ?? rows.set(op, { op, first: 0, blocks: 0, alone: 0 }).get(op);
  for (const r of results) {
    if (r.group !== 'no kernel' || !r.no_kernel) continue;
    row(r.no_kernel.op).first++;
    const missing = new Set([r.no_kernel.op, ...r.ops.filter((o) => !covered.has(o))]);
    for (const op of missing) {
      row(op).blocks++;
      if (missing.size === 1) row(op).alone++;
    }
  }
  return [...rows.values()].sort((x, y) => y.blocks - x.blocks || y.alone - x.alone || y.first - x.first || x.op.localeCompare(y.op));
}

/**
 * Summary text and counts: passed = ok (with or without tie-breaks) and
 * spread (unless strict), failed = mismatch + error (+ spread if strict).
 */
export function summarize(results, { tol, strict = false, seconds }) {
  const by = (s) => results.filter((r) => r.status === s);
  const ok = by('ok'), tie = by('tie'), spread = by('spread'), mismatch = by('mismatch'), error = by('error'), skipped = by('skipped');
  const checked = ok.length + tie.length + spread.length + mismatch.length;
  const L = [];
  L.push('');
  L.push(`float_vs_litert: ${results.length} models in ${seconds.toFixed(0)} s: ${checked} checked (${ok.length + tie.length} within tolerance${tie.length ? `, ${tie.length} of them with tie-breaks` : ''}${spread.length ? `, ${spread.length} within the runtimes' own spread` : ''}, ${mismatch.length} mismatch), ${error.length} failed to run, ${skipped.length} skipped`);
  L.push(`tolerance: |qforge - LiteRT| <= ${tol} * max(1, |LiteRT|); integer and bool outputs equal`);
  let worst = null;
  for (const r of [...ok, ...tie, ...spread, ...mismatch]) if (r.worst && (!worst || r.worst.err > worst.worst.err)) worst = r;
  if (worst) {
    const w = worst.worst;
    L.push(`worst float error: ${fmt(w.err)} (|a-b|/max(1,|b|)) in ${worst.model} output ${w.output} '${w.name}' sample ${w.sample} [${w.index}]: qforge ${fmt(w.a)}, LiteRT ${fmt(w.b)}`);
  }
  if (tie.length) {
    L.push('tie-breaks (index outputs that differ only where the values are equal; not failures):');
    for (const r of tie) for (const t of r.ties) L.push(`  ${r.model}: output ${t.output} '${t.name}' sample ${t.sample}: ${t.ties} of ${t.elements} (${t.how})`);
  }
  if (spread.length) {
    L.push(`beyond the tolerance but within the runtimes' own spread (qforge's worst error <= 4 x tfjs-tflite's against LiteRT)${strict ? '; failures under --strict' : '; not failures'}:`);
    for (const r of spread) for (const p of r.spreads) L.push(`  ${r.model}: output ${p.output} '${p.name}' sample ${p.sample}: qforge ${fmt(p.err)}, tfjs-tflite ${fmt(p.reference_err)}`);
  }
  if (mismatch.length || error.length) {
    L.push('failures:');
    for (const r of mismatch) L.push(`  mismatch ${r.model}: output ${r.problems[0].output} '${r.problems[0].name}' sample ${r.problems[0].sample}: ${r.problems[0].what}`);
    for (const r of error) L.push(`  failed   ${r.model}: ${r.reason.split('\n')[0]}`);
  }
  if (skipped.length) {
    L.push(`skipped (${skipped.length}), by reason:`);
    const groups = new Map();
    for (const r of skipped) groups.set(r.group, [...(groups.get(r.group) ?? []), r]);
    for (const [g, rs] of [...groups].sort((x, y) => y[1].length - x[1].length)) {
      let detail = '';
      if (g === 'no kernel') {
        const ops = new Map();
        for (const r of rs) ops.set(r.no_kernel.op, (ops.get(r.no_kernel.op) ?? 0) + 1);
        detail = `: first op without a kernel: ${[...ops].sort((x, y) => y[1] - x[1]).map(([o, n]) => `${o} ${n}`).join(', ')}`;
      } else if (rs.length <= 6) {
        detail = `: ${rs.map((r) => r.model.replace(/^models\//, '')).join(', ')}`;
      }
      L.push(`  ${g} (${rs.length})${detail}`);
    }
  }
  const ops = blockingOps(results);
  if (ops.length) {
    // any: models qforge names the op for, LiteRT running them or not.
    const any = new Map();
    for (const r of results) if (r.no_kernel) any.set(r.no_kernel.op, (any.get(r.no_kernel.op) ?? 0) + 1);
    const w = Math.max(2, ...ops.map((o) => o.op.length));
    L.push('ops blocking the most models LiteRT runs (blocks: no kernel seen for the op in any run; alone: the only such op of the model;');
    L.push('  first: the op qforge names; any: the op qforge names, LiteRT running the model or not):');
    L.push(`  ${'op'.padEnd(w)} ${'blocks'.padStart(6)} ${'alone'.padStart(6)} ${'first'.padStart(6)} ${'any'.padStart(6)}`);
    for (const o of ops.slice(0, 30)) L.push(`  ${o.op.padEnd(w)} ${String(o.blocks).padStart(6)} ${String(o.alone).padStart(6)} ${String(o.first).padStart(6)} ${String(any.get(o.op) ?? 0).padStart(6)}`);
  }
  const spreadFails = strict ? spread.length : 0;
  return { text: L.join('\n') + '\n', passed: ok.length + tie.length + spread.length - spreadFails, failed: mismatch.length + error.length + spreadFails, skipped: skipped.length };
}

// results.json as quant_eval and merge_folds.mjs write it: infinities as
// "inf" / "-inf" (JSON has none), and the per-sample sums (sample_sig,
// sample_err) to 7 significant digits, one array per line, so that the
// file stays small enough to diff.
export function resultsJson(value) {
  const replacer = (k, v) => {
    if (v === Infinity) return 'inf';
    if (v === -Infinity) return '-inf';
    if ((k === 'sample_sig' || k === 'sample_err') && Array.isArray(v)) {
      return `@array${JSON.stringify(v.map((x) => Number(x.toPrecision(7))))}`;
    }
    return v;
  };
  return `${JSON.stringify(value, replacer, 2).replace(/"@array(\[[^"]*\])"/g, '$1')}\n`;
}

// One table cell of a quant_eval result: output SQNR in dB with top-1
// agreement for classifiers, "fails" when quantization failed, "—" when
// LiteRT gave no number. Shared by the bench tables built from results.json.
export const sqnrCell = (s) => {
  if (!s) return '';
  // quant_eval writes an output without any error as "inf".
  if (s.ok && s.sqnr_db === 'inf') return 'exact';
  if (!s.ok || typeof s.sqnr_db !== 'number') return s.quantize?.ok === false ? 'fails' : '—';
  const top1 = s.top1 ? ` (${s.top1.agree}/${s.top1.of})` : '';
  return `${s.sqnr_db.toFixed(1)}${top1}`;
};

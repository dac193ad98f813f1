// Detection recall of raw per-anchor detectors (boxes [1, N, K >= 4] and
// scores [1, N, 1] logits, as report/task_metrics.cc judges them): the
// float model's anchors with score > 0.5 whose anchor is also > 0.5 in the
// candidate with box IoU >= 0.5; their mean IoU; the candidate's anchors
// above 0.5; and the scores' and boxes' SQNR.
//   node detector_recall.mjs FLOAT_DIR CAND_DIR [BOXES SCORES] -> JSON
// (qforge run or litert_outputs.mjs folders; BOXES/SCORES: output indices;
// by default the larger of outputs 0 and 1 is the boxes.)
import fs from 'node:fs';

function readNpy(file) {
  const b = fs.readFileSync(file);
  const headerLen = b.readUInt16LE(8);
  const d = b.subarray(10 + headerLen);
  return new Float32Array(d.buffer.slice(d.byteOffset, d.byteOffset + d.length));
}
const [fd, cd, b0, s0] = process.argv.slice(2);
// Without indices: of outputs 0 and 1, the larger is the boxes.
const size = (k) => fs.statSync(`${fd}/output_${k}.npy`).size;
const [bi, si] = b0 !== undefined ? [b0, s0] : size(0) >= size(1) ? ['0', '1'] : ['1', '0'];
const [fb, cb, fs_, cs] = [[fd, bi], [cd, bi], [fd, si], [cd, si]].map(([d, k]) => readNpy(`${d}/output_${k}.npy`));
const n = fs_.length;
const k = fb.length / n;
function iou(a, b) {
  const edges = (v) => [v[1] - Math.abs(v[3]) / 2, v[0] - Math.abs(v[2]) / 2, v[1] + Math.abs(v[3]) / 2, v[0] + Math.abs(v[2]) / 2];
  const x = edges(a), y = edges(b);
  const ih = Math.max(0, Math.min(x[2], y[2]) - Math.max(x[0], y[0]));
  const iw = Math.max(0, Math.min(x[3], y[3]) - Math.max(x[1], y[1]));
  const inter = ih * iw, uni = (x[2] - x[0]) * (x[3] - x[1]) + (y[2] - y[0]) * (y[3] - y[1]) - inter;
  return uni > 0 ? inter / uni : 0;
}
const sqnr = (a, b) => { let s = 0, e = 0; for (let i = 0; i < a.length; i++) { s += a[i] * a[i]; e += (a[i] - b[i]) ** 2; } return e === 0 ? null : 10 * Math.log10(s / e); };
let reference = 0, matched = 0, iouSum = 0, candidate = 0, scoreMin = Infinity, scoreMax = -Infinity;
for (let i = 0; i < n; i++) {
  scoreMin = Math.min(scoreMin, fs_[i]);
  scoreMax = Math.max(scoreMax, fs_[i]);
  if (cs[i] > 0) candidate++;
  if (!(fs_[i] > 0)) continue;
  reference++;
  if (!(cs[i] > 0)) continue;
  const v = iou(fb.subarray(i * k, i * k + 4), cb.subarray(i * k, i * k + 4));
  if (v >= 0.5) { matched++; iouSum += v; }
}
process.stdout.write(JSON.stringify({ reference, matched, recall: reference ? matched / reference : null, mean_iou: matched ? iouSum / matched : null, candidate_positive: candidate, float_score_range: [scoreMin, scoreMax], boxes_db: sqnr(fb, cb), scores_db: sqnr(fs_, cs) }) + '\n');

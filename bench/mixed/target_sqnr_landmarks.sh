#!/usr/bin/env bash
# --target-sqnr 30 (default profile, --runtime litert) on the corpus'
# landmark and detection models that bench/mixed/target_sqnr.sh does not
# cover (issue 29: "met, or exit 4 with a true culprit, on every corpus
# landmark / detection model"). Through bench/quant_eval (real photos:
# calibration on its calibration half, the search checking on every 4th
# calibration sample; SQNR in LiteRT on the held-out half): plain int8 and
# the search. For every search model, qforge's estimated LiteRT latency
# against the float model's (`qforge inspect --runtime litert`). For an
# exit 4, the culprit check: the first op the error names as the noisiest
# left is kept float in the plain int8 model, and the worst output SQNR on
# the held-out samples (qforge run) is compared with plain int8's. Writes
# OUT.md and OUT.json.
#   bench/mixed/target_sqnr_landmarks.sh [FILTER]
# Environment: QFORGE (default build/cmd/qforge), MAKE_INPUTS (default
# build/tests/qforge_make_inputs), TARGET_STEPS (128), OUT (bench/mixed/target_sqnr_landmarks),
# WORK=DIR (a kept work folder: tables again without quantizing again),
# KEEP=1 (keep the work folder), TITLE (the table's).
set -euo pipefail
cd "$(dirname "$0")/../.."
filter=${1:-'^(face_detection_front|face_detection_back|face_detection_full_range|face_detection_full_range_sparse|face_landmark_2020|face_landmark_2021|palm_detection_full|pose_detection|pose_landmark_lite_2021_08|hand_landmark_3d|hand_landmark_2020_05|hand_landmark_sparse_2021_02|hand_landmark_sparse_2021_10)$'}
qforge=$(realpath "${QFORGE:-build/cmd/qforge}")
steps=${TARGET_STEPS:-128}
out=${OUT:-bench/mixed/target_sqnr_landmarks}
corpus=$(cd ../shared/corpus && pwd)
search="--target-sqnr 30 --target-steps $steps"
if [ -n "${WORK:-}" ]; then
  work=$WORK
else
  work=$(mktemp -d)
  if [ -n "${KEEP:-}" ]; then echo "target_sqnr_landmarks: work folder $work" >&2
  else trap 'rm -rf "$work"' EXIT; fi
  # quant_eval looks for qforge_make_inputs next to QFORGE's build; a
  # QFORGE copied elsewhere takes this build's.
  mi=()
  make_inputs=${MAKE_INPUTS:-build/tests/qforge_make_inputs}
  [ -x "$make_inputs" ] && mi=(--make-inputs "$(realpath "$make_inputs")")
  bash tests/interop/with_node.sh node bench/quant_eval/quant_eval.mjs \
    --qforge "$qforge" "${mi[@]}" --schemes int8 --filter "$filter" \
    --variant new="$search" --jobs 1 --variant-threads 2 --timeout 3600 \
    --work "$work/qe" --keep --out "$work/out" > "$work/log" 2>&1 || true
fi
[ -f "$work/out/results.json" ] || { tail -20 "$work/log"; exit 1; }
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
for (const m of r.models) if (m.status === "done") {
  const e = m.schemes["int8+new"]?.quantize?.error ?? "";
  const c = /noisiest layers left: op (\d+) /.exec(e);
  console.log(m.id, m.model, c ? c[1] : "-");
}' "$work/out/results.json" > "$work/models"
while read -r id model culprit; do
  d=$work/qe/$id
  "$qforge" inspect --runtime litert --json "$corpus/$model" > "$d/float.litert.json"
  for f in int8 new; do
    [ -f "$d/$id.$f.tflite" ] &&
      "$qforge" inspect --runtime litert --json "$d/$id.$f.tflite" > "$d/$f.litert.json"
  done
  [ "$culprit" = - ] && continue
  # The culprit check, in qforge's interpreter on the held-out samples.
  ev=(--data "$d/eval/data/input_0.npy" --threads 2)
  "$qforge" -q quantize "$corpus/$model" --data "$d/calib_npy/input_0.npy" \
    --threads 2 --float-op "$culprit" -o "$d/culprit.tflite" 2> "$d/culprit.log" || continue
  for f in "$corpus/$model:float" "$d/$id.int8.tflite:int8" "$d/culprit.tflite:culprit"; do
    "$qforge" -q run "${f%:*}" "${ev[@]}" --output-dir "$d/run_${f##*:}" > /dev/null
  done
  node bench/mixed/npy_sqnr.mjs "$d/run_float" "$d/run_int8" "$d/run_culprit" \
    > "$d/culprit.json"
done < "$work/models"
node bench/mixed/landmark_table.mjs --results "$work/out/results.json" \
  --work "$work/qe" --args "$search" --json "$out.json" \
  ${TITLE:+--title "$TITLE"} > "$out.md"
cat "$out.md"

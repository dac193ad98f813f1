#!/usr/bin/env bash
# --target-sqnr 30 before and after issue 28 (runtime-aware search), on the
# corpus models int8 serves worst and a few more with real data. Through
# bench/quant_eval (calibration on its calibration samples, the search
# checking on every 4th; SQNR in LiteRT on the disjoint evaluation samples):
# float16, int8, int16x8, the old search (OLD_QFORGE, the binary from before
# issue 28), the new search (this build, --runtime litert) and the new
# search for TFLite Micro (--runtime tflm). Then times every LiteRT form of
# a model interleaved (bench/latency/litert_latency.mjs: SIMD, one thread,
# medians), asks `qforge inspect --runtime litert` for each form's
# estimated latency and `--runtime tflm` for the ops TFLM lacks, and runs
# the tflm model in tflm_run. Writes bench/mixed/target_sqnr.md and .json.
#   bench/mixed/target_sqnr.sh [FILTER]
# Environment: OLD_QFORGE (default /work/base/qforge), TARGET_STEPS (128),
# ROUNDS (15), TFLM_RUN (../shared/tools/tflm/bin/tflm_run), KEEP=1 (keep
# the work folder), RETIME=DIR (time a kept folder's models again).
set -euo pipefail
cd "$(dirname "$0")/../.."
filter=${1:-'^(mobilenet_v1_0\.25_224|palm_detection|hand_landmark_2020|pose_landmark_lite_2021_06|selfie_segmentation_landscape|vww_96|face_detection_short_range|hand_recrop)$'}
old=${OLD_QFORGE:-/work/base/qforge}
steps=${TARGET_STEPS:-128}
rounds=${ROUNDS:-15}
tflm=${TFLM_RUN:-../shared/tools/tflm/bin/tflm_run}
qforge=$PWD/build/cmd/qforge
corpus=$(cd ../shared/corpus && pwd)
search="--target-sqnr 30 --target-steps $steps"
# RETIME=DIR (a folder KEEP=1 kept) times its models again without
# quantizing them again: for a quiet machine after a busy one.
if [ -n "${RETIME:-}" ]; then
  work=$RETIME
else
  work=$(mktemp -d)
  # KEEP=1 keeps the work folder (quantized models, timings) and says where.
  if [ -n "${KEEP:-}" ]; then echo "target_sqnr: work folder $work" >&2
  else trap 'rm -rf "$work"' EXIT; fi
  bash bench/quant_eval/run.sh --schemes float16,int8,int16x8 --filter "$filter" \
    --variant old="$search" --variant-qforge old="$old" \
    --variant new="$search" --variant tflm="--runtime tflm $search" \
    --jobs 1 --variant-threads 2 --timeout 3600 --work "$work/qe" --keep \
    --out "$work/out" > "$work/log" 2>&1 || true
fi
# A target not met is a result (exit 1 from quant_eval); no results at all
# is not.
[ -f "$work/out/results.json" ] || { tail -20 "$work/log"; exit 1; }
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
for (const m of r.models) if (m.status === "done") console.log(m.id, m.model);
' "$work/out/results.json" > "$work/models"
: > "$work/times.jsonl"
while read -r id model; do
  d=$work/qe/$id
  forms=("$corpus/$model")
  "$qforge" inspect --runtime litert --json "$corpus/$model" > "$d/float.litert.json"
  for f in float16 int8 int16x8 old new; do
    [ -f "$d/$id.$f.tflite" ] || continue
    forms+=("$d/$id.$f.tflite")
    "$qforge" inspect --runtime litert --json "$d/$id.$f.tflite" > "$d/$f.litert.json"
  done
  for f in int8 int16x8; do
    [ -f "$d/$id.$f.tflite" ] &&
      "$qforge" inspect --runtime tflm --json "$d/$id.$f.tflite" > "$d/$f.tflm.json"
  done
  if [ -f "$d/$id.tflm.tflite" ] && [ -x "$tflm" ]; then
    args=()
    for npy in "$d"/calib_npy/input_*.npy; do
      node bench/mixed/first_sample.mjs "$npy" "$d/tflm_$(basename "$npy")"
      args+=(--input "$d/tflm_$(basename "$npy")")
    done
    "$tflm" "$d/$id.tflm.tflite" "${args[@]}" --out-dir "$d/tflm_out" \
      > "$d/tflm_run.json" 2>/dev/null || true
  fi
  bash tests/interop/with_node.sh node --experimental-wasm-relaxed-simd \
    bench/latency/litert_latency.mjs --rounds "$rounds" "${forms[@]}" \
    >> "$work/times.jsonl" 2>/dev/null ||
    echo "{\"model\":\"$corpus/$model\",\"error\":\"timing process failed\"}" \
      >> "$work/times.jsonl"
done < "$work/models"
node bench/mixed/target_table.mjs --results "$work/out/results.json" \
  --times "$work/times.jsonl" --work "$work/qe" --corpus "$corpus" \
  --args "$search" --rounds "$rounds" \
  --load "$(cut -d' ' -f1-3 /proc/loadavg)" \
  --json bench/mixed/target_sqnr.json > bench/mixed/target_sqnr.md
cat bench/mixed/target_sqnr.md

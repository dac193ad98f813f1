#!/usr/bin/env bash
# `quantize --target-metric mask-agreement --target 0.99` on the corpus
# segmentation models (issue 29), judged held out in LiteRT. The people
# photos of bench/quant_eval (models.mjs PEOPLE: faces, portraits, poses;
# 17 real photos) split alternately: the 9 at even positions calibrate
# (qforge takes its check samples, every 4th, out of them), the 8 at odd
# positions are never seen and are run in LiteRT (@litertjs/core, each
# sample alone) by the float model and by each quantized form: plain int8,
# the target search (default: --runtime litert, which may end at the whole
# model in float with float16 weights) and the search with --keep-integer
# (a mixed plan only). The mask agreement with the float model's LiteRT
# masks is computed as the report defines it (bench/mixed/mask_agreement.mjs).
# Writes bench/mixed/mask_target.md and .json.
#   bench/mixed/mask_target.sh [FILTER]
# KEEP=1 keeps the work folder.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
filter=${1:-.}
qforge=$root/build/cmd/qforge
corpus=$(cd ../shared/corpus && pwd)
work=$(mktemp -d)
if [ -n "${KEEP:-}" ]; then echo "mask_target: work folder $work" >&2
else trap 'rm -rf "$work"' EXIT; fi
node=(bash tests/interop/with_node.sh node)
# The photos, relative to the corpus: calibration (even) and held out (odd).
"${node[@]}" -e '
import("./bench/quant_eval/models.mjs").then(({ PEOPLE }) => {
  PEOPLE.forEach((p, i) => console.log(i % 2 === 0 ? "calib" : "eval", p));
});' > "$work/photos"
calib=() evals=()
while read -r side p; do
  if [ "$side" = calib ]; then calib+=(--data "$corpus/$p"); else evals+=(--data "$corpus/$p"); fi
done < "$work/photos"
# id, model, preprocessing: the selfie segmenter takes RGB in [0, 1]; the
# hair segmenter RGB in [0, 1] and the previous frame's mask as a 4th
# channel, here 0 (a first frame): the image's alpha (255) * 1/255 - 1.
models=(
  "selfie_segmentation_landscape|models/mediapipe/selfie_segmentation_landscape.tflite|--scale 0.00392156862745098"
  "hair_segmentation|models/mediapipe/hair_segmentation.tflite|--scale 0.00392156862745098 --mean 0,0,0,1"
)
: > "$work/rows.jsonl"
for entry in "${models[@]}"; do
  IFS='|' read -r id model pre <<< "$entry"
  [[ $id =~ $filter ]] || continue
  d=$work/$id
  mkdir -p "$d"
  m=$corpus/$model
  read -ra pre_flags <<< "$pre"
  # Held-out inputs, with qforge's own preprocessing.
  nice "$qforge" run "$m" "${evals[@]}" "${pre_flags[@]}" --output-dir "$d/qf_out" \
    --save-inputs "$d/in" -q
  declare -A status=()
  t0=$(date +%s)
  nice "$qforge" quantize "$m" "${calib[@]}" "${pre_flags[@]}" -o "$d/int8.tflite" -q \
    --json "$d/int8.json" 2> "$d/int8.log" && status[int8]=0 || status[int8]=$?
  t1=$(date +%s)
  nice "$qforge" quantize "$m" "${calib[@]}" "${pre_flags[@]}" -o "$d/target.tflite" -q \
    --target-metric mask-agreement --target 0.99 --json "$d/target.json" \
    2> "$d/target.log" && status[target]=0 || status[target]=$?
  t2=$(date +%s)
  nice "$qforge" quantize "$m" "${calib[@]}" "${pre_flags[@]}" -o "$d/keep.tflite" -q \
    --target-metric mask-agreement --target 0.99 --keep-integer --json "$d/keep.json" \
    2> "$d/keep.log" && status[keep]=0 || status[keep]=$?
  t3=$(date +%s)
  forms=(float int8 target keep)
  for f in "${forms[@]}"; do
    file=$d/$f.tflite
    [ "$f" = float ] && file=$m
    [ -f "$file" ] || continue
    nice "${node[@]}" tests/interop/run_model.mjs "$file" --runtime litert --samples \
      --input "$d/in/input_0.npy" --out-dir "$d/lr_$f" > "$d/lr_$f.log" 2>&1 || true
  done
  for f in int8 target keep; do
    if [ -f "$d/lr_$f/output_0.npy" ] && [ -f "$d/lr_float/output_0.npy" ]; then
      "${node[@]}" bench/mixed/mask_agreement.mjs "$d/lr_float/output_0.npy" \
        "$d/lr_$f/output_0.npy" > "$d/agree_$f.json"
    fi
  done
  CORPUS=$corpus "${node[@]}" -e '
const fs = require("fs");
const [d, id, model, pre, sInt8, sTarget, sKeep, tInt8, tTarget, tKeep, nCalib, nEval] = process.argv.slice(1);
const read = (p) => { try { return JSON.parse(fs.readFileSync(p, "utf8")); } catch { return null; } };
const size = (p) => { try { return fs.statSync(p).size; } catch { return null; } };
const lastLine = (p) => { try { return fs.readFileSync(p, "utf8").trim().split("\n").pop(); } catch { return ""; } };
const form = (f, status, seconds) => {
  const j = read(`${d}/${f}.json`);
  return {
    exit_code: Number(status),
    seconds: Number(seconds),
    error: Number(status) === 0 ? null : lastLine(`${d}/${f}.log`),
    bytes: size(`${d}/${f}.tflite`),
    ops_quantized: j?.ops_quantized ?? null,
    float_ops: Array.isArray(j?.kept_float) ? j.kept_float.length : null,
    check_samples: j?.target?.check_samples ?? null,
    check_reached: j?.target?.reached ?? null,
    steps: Array.isArray(j?.target?.steps) ? j.target.steps.length : null,
    litert: read(`${d}/agree_${f}.json`),
    litert_error: fs.existsSync(`${d}/lr_${f}/output_0.npy`) ? null : lastLine(`${d}/lr_${f}.log`),
  };
};
console.log(JSON.stringify({ id, model, preprocessing: pre, calibration_photos: Number(nCalib), held_out_photos: Number(nEval),
  float_bytes: size(`${process.env.CORPUS}/${model}`),
  int8: form("int8", sInt8, tInt8), target: form("target", sTarget, tTarget), keep_integer: form("keep", sKeep, tKeep) }));
' "$d" "$id" "$model" "$pre" "${status[int8]}" "${status[target]}" "${status[keep]}" \
    $((t1 - t0)) $((t2 - t1)) $((t3 - t2)) $((${#calib[@]} / 2)) $((${#evals[@]} / 2)) \
    >> "$work/rows.jsonl"
  unset status
done
CORPUS=$corpus "${node[@]}" bench/mixed/mask_table.mjs "$work/rows.jsonl" \
  --commit "$(git rev-parse --short HEAD)" --load "$(cut -d' ' -f1-3 /proc/loadavg)" \
  --json bench/mixed/mask_target.json > bench/mixed/mask_target.md
cat bench/mixed/mask_target.md

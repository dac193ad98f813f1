#!/usr/bin/env bash
# LiteRT latency of corpus models and their quantized forms, for fitting
# and checking qforge's latency model (bench/latency/README.md).
#   bash bench/latency/time_forms.sh WORK OUT.jsonl [ROUNDS]
# WORK: a quant_eval work folder (bench/quant_eval/run.sh --work WORK
# --keep): each model's folder holds MODEL.SCHEME.tflite. Every model is
# timed with all its forms in one process, interleaved
# (litert_latency.mjs), so drift touches the forms of a model alike.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$1
out=$2
rounds=${3:-20}
corpus=$(cd "$here/../../../shared/corpus" && pwd)
: > "$out"
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
for (const m of r.models) if (!m.skipped) console.log(m.id, m.model);
' "$work/../$(basename "$work")_out/results.json" 2>/dev/null |
while read -r id model; do
  forms=("$corpus/$model")
  for f in "$work/$id/$id".{int8,int16x8,float16}.tflite "$work/$id"/*.t*.tflite; do
    [ -f "$f" ] && forms+=("$f")
  done
  node --experimental-wasm-relaxed-simd "$here/litert_latency.mjs" \
    --rounds "$rounds" "${forms[@]}" >> "$out" 2>/dev/null ||
    echo "{\"model\":\"$model\",\"error\":\"timing process failed\"}" >> "$out"
done

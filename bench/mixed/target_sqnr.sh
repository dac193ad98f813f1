#!/usr/bin/env bash
# Mixed precision to an accuracy target (issue 12): quantize --target-sqnr 30
# on the corpus models int8 serves worst, next to float16, int8 and int16x8.
# bench/quant_eval calibrates on the calibration samples (the search checks
# on every 4th of them) and measures output SQNR in LiteRT on the disjoint
# evaluation samples; bench/litert_time.mjs times every model in LiteRT
# (batch 1, 1 thread, best of 20). Writes bench/mixed/target_sqnr.md and
# target_sqnr.json.
#   bench/mixed/target_sqnr.sh [FILTER]
set -euo pipefail
cd "$(dirname "$0")/../.."
filter=${1:-'^(mobilenet_v1_0.25_224|palm_detection|pose_landmark_lite_2021_06|hand_landmark_2020)$'}
work=$(mktemp -d)
bash bench/quant_eval/run.sh --schemes int8,int16x8,float16 --filter "$filter" \
  --variant t30='--target-sqnr 30 --target-steps 256 --optimize accuracy' \
  --jobs 1 --variant-threads 2 --timeout 3600 --work "$work" --keep \
  --out "$work/out" > "$work/log" 2>&1 || true
# A target not met is a result (exit 1 from quant_eval); no results at all
# is not.
[ -f "$work/out/results.json" ] || { tail -20 "$work/log"; exit 1; }
# LiteRT latency of every model written (and the float model).
times=$work/times.jsonl
: > "$times"
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
for (const m of r.models) console.log(m.id, m.model);
' "$work/out/results.json" | while read -r id model; do
  for f in "../shared/corpus/$model" "$work/$id/$id".*.tflite; do
    [ -f "$f" ] || continue
    bash tests/interop/with_node.sh node bench/litert_time.mjs "$f" 20 \
      >> "$times" 2>/dev/null || echo "{\"model\":\"$f\",\"error\":true}" >> "$times"
  done
done
node bench/mixed/target_table.mjs "$work/out/results.json" "$times" "$work" \
  bench/mixed/target_sqnr.json > bench/mixed/target_sqnr.md
cat bench/mixed/target_sqnr.md

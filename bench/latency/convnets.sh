#!/usr/bin/env bash
# Is qforge's default int8 faster than float in LiteRT, on every corpus conv
# net with real data (convnets_list.mjs)? Quantizes each with this build's
# default (--runtime litert: the fast-path plan included) through
# bench/quant_eval (real calibration data, SQNR on held-out samples), times
# float and int8 in LiteRT.js (SIMD build, one thread, batch 1;
# litert_latency.mjs: the two forms interleaved round by round, medians),
# twice (two passes over all models, minutes apart), and lists for the int8
# model what `qforge inspect --runtime litert` says runs outside XNNPACK and
# why. Writes bench/latency/convnets.md and convnets.json.
#   bash bench/latency/convnets.sh [ROUNDS] [FILTER]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-21}
corpus=$(cd ../shared/corpus && pwd)
filter=${2:-$(node bench/latency/convnets_list.mjs "$corpus")}
qforge=$PWD/build/cmd/qforge
work=$(mktemp -d)
# KEEP=1 keeps the work folder (quantized models, timings) and says where.
if [ -n "${KEEP:-}" ]; then echo "convnets: work folder $work" >&2
else trap 'rm -rf "$work"' EXIT; fi
bash bench/quant_eval/run.sh --schemes int8 --filter "$filter" \
  --work "$work/qe" --keep --out "$work/qe_out" --jobs 1 \
  > "$work/quant_eval.log" 2>&1 || true
[ -f "$work/qe_out/results.json" ] || { tail -20 "$work/quant_eval.log"; exit 1; }
models=$(node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
for (const m of r.models) if (m.schemes?.int8?.ok) console.log(m.id, m.model);
' "$work/qe_out/results.json")
# The estimate and the ops off XNNPACK, float and int8.
while read -r id model; do
  "$qforge" inspect --runtime litert --json "$corpus/$model" \
    > "$work/qe/$id/float.litert.json"
  "$qforge" inspect --runtime litert --json "$work/qe/$id/$id.int8.tflite" \
    > "$work/qe/$id/int8.litert.json"
done <<< "$models"
for pass in 1 2; do
  while read -r id model; do
    bash tests/interop/with_node.sh node --experimental-wasm-relaxed-simd \
      bench/latency/litert_latency.mjs --rounds "$rounds" "$corpus/$model" \
      "$work/qe/$id/$id.int8.tflite" >> "$work/times$pass.jsonl" 2>/dev/null ||
      echo "{\"model\":\"$corpus/$model\",\"error\":\"timing process failed\"}" \
        >> "$work/times$pass.jsonl"
  done <<< "$models"
done
node bench/latency/convnets_table.mjs --results "$work/qe_out/results.json" \
  --times "$work/times1.jsonl,$work/times2.jsonl" --work "$work/qe" \
  --corpus "$corpus" --rounds "$rounds" --load "$(cut -d' ' -f1-3 /proc/loadavg)" \
  --json bench/latency/convnets.json > bench/latency/convnets.md
cat bench/latency/convnets.md

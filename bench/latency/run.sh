#!/usr/bin/env bash
# The LiteRT latency model's fit (docs/runtimes.md): quantizes the corpus
# models with real data in int8, int16x8 and float16 (bench/quant_eval, the
# quantized files kept), times every model with its forms in LiteRT.js
# (SIMD build, one thread, interleaved rounds: time_forms.sh), and fits the
# coefficients (fit.mjs --write: runtime/latency_fit.inc, fit.md, fit.json).
# Rebuild qforge afterwards. Time the forms on a quiet machine: a second
# busy core slows LiteRT.js runs by up to 2x, unevenly.
#   bash bench/latency/run.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-15}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash bench/quant_eval/run.sh --schemes int8,int16x8,float16 --work "$work/qe" \
  --keep --out "$work/qe_out" --jobs 1 > "$work/quant_eval.log" 2>&1 || {
  tail -20 "$work/quant_eval.log"; exit 1; }
bash bench/latency/time_forms.sh "$work/qe" "$work/times.jsonl" "$rounds"
node bench/latency/fit.mjs --qforge build/cmd/qforge \
  --models "$work/qe_out/results.json" "$work/times.jsonl" --write
# The timings, with the work folder's and the corpus' paths left out.
corpus=$(cd ../shared && pwd)
sed "s|$work/||g; s|$corpus/||g" "$work/times.jsonl" > bench/latency/times.jsonl

#!/usr/bin/env bash
# int4 weights (quantize --weight-bits 4: per-channel int4 CONV_2D,
# DEPTHWISE_CONV_2D and FULLY_CONNECTED weights, int8 activations) on the
# corpus' convolutional and FC models with real data: size and output SQNR
# in LiteRT on held-out samples (bench/quant_eval), for nearest rounding,
# bias correction, AdaRound and --optimize accuracy, next to int8 and
# float16. Writes bench/int4/int4.md (the table) and int4.json.
#   bench/int4/int4.sh [FILTER]
set -euo pipefail
cd "$(dirname "$0")/../.."
filter=${1:-'^(vww_96|pretrainedResnet|model_ToyCar|mobilenet_v1_0.25_128|mobilenet_v1_0.25_224|conv_fc_mnist)$'}
out=$(mktemp -d)
bash bench/quant_eval/run.sh --schemes int8,float16 --filter "$filter" \
  --variant w4='--weight-bits 4' \
  --variant w4bc='--weight-bits 4 --bias-correction' \
  --variant w4ada='--weight-bits 4 --adaround --adaround-iterations 2000' \
  --variant w4opt='--weight-bits 4 --optimize accuracy' \
  --jobs 1 --variant-threads 2 --out "$out" > "$out/log" 2>&1 || {
  tail -20 "$out/log"; exit 1; }
cp "$out/results.json" bench/int4/int4.json
node bench/int4/int4_table.mjs bench/int4/int4.json > bench/int4/int4.md
cat bench/int4/int4.md

#!/usr/bin/env bash
# Weight-recovery ablation (docs/recovery.md): bench/quant_eval over the
# models matching FILTER (default: the official twin pairs and the
# mobilenets), int8 plain / +CLE / +bias correction / +AdaRound /
# --optimize accuracy, the twins and float16, in LiteRT on held-out samples.
# Writes bench/recovery/ablation.md (the table) and ablation.json.
#   bench/recovery/ablation.sh [FILTER]
set -euo pipefail
cd "$(dirname "$0")/../.."
filter=${1:-'^(vww_96|pretrainedResnet|model_ToyCar|mobilenet_v1_0.25_128|mobilenet_v1_0.25_224|conv_fc_mnist)$'}
out=$(mktemp -d)
bash bench/quant_eval/run.sh --schemes int8,float16 --filter "$filter" \
  --variant cle=--equalize --variant bc=--bias-correction \
  --variant ada='--adaround --adaround-iterations 2000' \
  --variant opt='--optimize accuracy' \
  --jobs 1 --variant-threads 2 --out "$out" > "$out/log" 2>&1 || {
  tail -20 "$out/log"; exit 1; }
cp "$out/results.json" bench/recovery/ablation.json
node bench/recovery/ablation_table.mjs bench/recovery/ablation.json \
  > bench/recovery/ablation.md
cat bench/recovery/ablation.md

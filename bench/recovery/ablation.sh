#!/usr/bin/env bash
# Weight-recovery ablation (docs/recovery.md): bench/quant_eval over the
# models matching FILTER (default: the official twin pairs and the
# mobilenets), int8 plain / +CLE / +bias correction / --optimize fast /
# +AdaRound / --method auto / --optimize accuracy, every twin and float16,
# in LiteRT on held-out samples, 2-fold (each half of the samples calibrates
# once and is evaluated once). Writes bench/recovery/ablation.md (the table) and
# ablation.json. QFORGE=path/to/cmd/qforge runs another build's binary (its
# build tree must hold tests/qforge_make_inputs too).
#   bench/recovery/ablation.sh [FILTER]
set -euo pipefail
cd "$(dirname "$0")/../.."
filter=${1:-'^(hello_world_no_quant|conv_fc_mnist|trained_lstm|vww_96|pretrainedResnet|model_ToyCar|mobilenet_v1_0.25_128|vww_96_14blk|trainedResnet_6blk|mobilenet_v1_0.25_224)$'}
qforge=${QFORGE:-build/cmd/qforge}
# Two folds (bench/quant_eval/two_fold.sh): calibrate on one half of each
# model's samples and evaluate on the other, then the other way round;
# every cell pools both (all samples evaluated once, never by a model
# calibrated on them).
bash bench/quant_eval/two_fold.sh bench/recovery/ablation.json \
  --qforge "$qforge" --schemes int8,float16 --filter "$filter" \
  --variant cle=--equalize --variant bc=--bias-correction \
  --variant fast='--optimize fast' \
  --variant ada='--adaround --adaround-iterations 2000' \
  --variant auto='--method auto' --variant opt='--optimize accuracy' \
  --jobs 1 --variant-threads 2 --timeout 900
node bench/recovery/ablation_table.mjs bench/recovery/ablation.json \
  > bench/recovery/ablation.md
cat bench/recovery/ablation.md

#!/usr/bin/env bash
# --optimize fast (one-pass bias correction) against plain int8 on every
# corpus model bench/quant_eval quantizes with real data, in LiteRT on
# held-out samples (2-fold), with its cost: quantize --data --optimize fast (which
# calibrates itself) against calibrate + quantize --stats. Writes
# bench/recovery/fast.md and fast.json. QFORGE=path/to/cmd/qforge runs
# another build's binary.
#   bench/recovery/fast.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
qforge=${QFORGE:-build/cmd/qforge}
# Two folds, as ablation.sh (bench/quant_eval/two_fold.sh): each half of
# the samples calibrates once and is evaluated once; the table pools both.
bash bench/quant_eval/two_fold.sh bench/recovery/fast.json \
  --qforge "$qforge" --schemes int8 --variant fast='--optimize fast' \
  --jobs 1 --variant-threads 2 --timeout 900
node bench/recovery/fast_table.mjs bench/recovery/fast.json \
  > bench/recovery/fast.md
cat bench/recovery/fast.md

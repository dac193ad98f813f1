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
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Two folds, as ablation.sh: each half of the samples calibrates once and
# is evaluated once; the table pools both.
for fold in 1 2; do
  swap=()
  [ "$fold" = 2 ] && swap=(--swap-halves)
  bash bench/quant_eval/run.sh --qforge "$qforge" --schemes int8 "${swap[@]}" \
    --variant fast='--optimize fast' \
    --jobs 1 --variant-threads 2 --timeout 900 --out "$out/$fold" \
    > "$out/log$fold" 2>&1 || { tail -20 "$out/log$fold"; exit 1; }
done
node bench/quant_eval/merge_folds.mjs "$out/1/results.json" "$out/2/results.json" \
  > bench/recovery/fast.json
node bench/recovery/fast_table.mjs bench/recovery/fast.json \
  > bench/recovery/fast.md
cat bench/recovery/fast.md

#!/usr/bin/env bash
# --optimize fast (one-pass bias correction) against plain int8 on every
# corpus model bench/quant_eval quantizes with real data, in LiteRT on
# held-out samples, with its cost: quantize --data --optimize fast (which
# calibrates itself) against calibrate + quantize --stats. Writes
# bench/recovery/fast.md and fast.json. QFORGE=path/to/cmd/qforge runs
# another build's binary.
#   bench/recovery/fast.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
qforge=${QFORGE:-build/cmd/qforge}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bash bench/quant_eval/run.sh --qforge "$qforge" --schemes int8 \
  --variant fast='--optimize fast' \
  --jobs 1 --variant-threads 2 --timeout 900 --out "$out" > "$out/log" 2>&1 || {
  tail -20 "$out/log"; exit 1; }
cp "$out/results.json" bench/recovery/fast.json
node bench/recovery/fast_table.mjs bench/recovery/fast.json \
  > bench/recovery/fast.md
cat bench/recovery/fast.md

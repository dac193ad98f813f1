#!/usr/bin/env bash
# The GNU parallel recipe of docs/commands.md, run for real: 4 shards in
# parallel, merged, must equal one unsharded run byte for byte.
# Usage: parallel_recipe.sh QFORGE TESTDATA_DIR
set -euo pipefail
qforge=$1
testdata=$2
if ! command -v parallel >/dev/null 2>&1; then
  echo "SKIP: GNU parallel is not installed (apt-get install parallel)"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
model=$testdata/models/conv_fc_mnist.tflite
data="$testdata/mnist/*.png"
# --- the recipe (docs/commands.md, "Calibrating at scale") ---
parallel --will-cite -j 2 "$qforge" calibrate "$model" --data "'$data'" \
  --scale 0.003921569 --shard {}/4 -o "$work/stats.{}.json" -q ::: 0 1 2 3
"$qforge" merge-stats "$work"/stats.*.json -o "$work/stats.json"
# ---
"$qforge" calibrate "$model" --data "$data" --scale 0.003921569 \
  -o "$work/whole.json" -q
cmp "$work/stats.json" "$work/whole.json"
echo "parallel recipe: 4 shards merged == unsharded run"

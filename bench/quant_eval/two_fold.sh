#!/usr/bin/env bash
# bench/quant_eval/run.sh twice, 2-fold: as given, then with --swap-halves
# (each model calibrates on the samples the first run evaluated on), and
# the two results pooled by merge_folds.mjs into OUT_JSON (results.json's
# shape, every SQNR over all samples). Exit 1 with the failing run's log
# tail when a run fails.
#   bench/quant_eval/two_fold.sh OUT_JSON [run.sh options...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out_json=${1:?usage: two_fold.sh OUT_JSON [run.sh options...]}
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for fold in 1 2; do
  swap=()
  [ "$fold" = 2 ] && swap=(--swap-halves)
  bash "$here/run.sh" "$@" "${swap[@]}" --out "$tmp/$fold" > "$tmp/log$fold" 2>&1 ||
    { tail -20 "$tmp/log$fold"; exit 1; }
done
node "$here/merge_folds.mjs" "$tmp/1/results.json" "$tmp/2/results.json" > "$out_json"

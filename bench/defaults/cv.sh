#!/usr/bin/env bash
# Issue 29: qforge's default range rules chosen by leave-one-family-out
# cross-validation. Runs bench/quant_eval (int8, LiteRT, held-out samples,
# 2-fold as bench/recovery/fast.sh) on every corpus model with an official
# int8 twin of the same weights (a twin with gate 'int8' in
# bench/quant_eval/models.mjs) and a grid of candidate defaults as
# --variants; cv_table.mjs scores each candidate on each pair as ours minus
# the twin (dB) and does the selection. Writes bench/defaults/cv.json (the
# pooled quant_eval results plus the machine load) and cv.md.
#   bench/defaults/cv.sh                  # QFORGE=BIN MAKE_INPUTS=BIN to use other binaries
#   bench/defaults/cv.sh --table-only     # cv.md again from cv.json
set -euo pipefail
cd "$(dirname "$0")/../.."
out=bench/defaults
if [ "${1:-}" != --table-only ]; then
  qforge=${QFORGE:-build/cmd/qforge}
  [ -x "$qforge" ] || { echo "cv.sh: $qforge missing (build it, or set QFORGE)" >&2; exit 1; }
  mi=()
  [ -n "${MAKE_INPUTS:-}" ] && mi=(--make-inputs "$MAKE_INPUTS")
  bash tests/interop/setup.sh >&2
  # The models: every one with a same-weights int8 twin (models.mjs).
  filter=$(node --input-type=module -e "
    import { MODELS } from './bench/quant_eval/models.mjs';
    const ids = MODELS.filter((m) => !m.skip && (m.twins ?? []).some((t) => t.gate === 'int8')).map((m) => m.id);
    console.log('^(' + ids.map((s) => s.replace(/[.]/g, '\\\\.')).join('|') + ')\$');")
  # The candidates. --method auto with --optimize fast is left out: auto
  # alone is two to three orders of magnitude slower than a default
  # quantization (a trial per tensor and candidate), too slow for a default.
  variants=()
  for m in minmax mse percentile:99.99 kl; do
    name=${m%%:*}
    variants+=(--variant "$name=--method $m" --variant "$name+fast=--method $m --optimize fast")
  done
  variants+=(--variant "auto=--method auto")
  # CV_TMP=DIR keeps each fold's results and log there.
  if [ -n "${CV_TMP:-}" ]; then tmp=$CV_TMP; mkdir -p "$tmp"
  else tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT; fi
  load_start=$(cut -d' ' -f1-3 /proc/loadavg)
  for fold in 1 2; do
    swap=()
    [ "$fold" = 2 ] && swap=(--swap-halves)
    nice bash tests/interop/with_node.sh node bench/quant_eval/quant_eval.mjs \
      --qforge "$qforge" "${mi[@]}" --schemes int8 --filter "$filter" \
      "${variants[@]}" --jobs 1 --variant-threads 2 --timeout 1800 \
      "${swap[@]}" --out "$tmp/$fold" > "$tmp/log$fold" 2>&1 ||
      { tail -20 "$tmp/log$fold"; exit 1; }
    echo "cv.sh: fold $fold done" >&2
  done
  load_end=$(cut -d' ' -f1-3 /proc/loadavg)
  node bench/quant_eval/merge_folds.mjs "$tmp/1/results.json" "$tmp/2/results.json" > "$tmp/pooled.json"
  # The machine load (1, 5, 15 min averages of /proc/loadavg, 2 cores) at
  # the start and the end of the run, for the table's header.
  node --input-type=module -e "
    import fs from 'node:fs';
    import { resultsJson } from './bench/quant_eval/results_json.mjs';
    const r = JSON.parse(fs.readFileSync('$tmp/pooled.json', 'utf8'));
    r.meta = { ...r.meta, load_start: '$load_start', load_end: '$load_end' };
    fs.writeFileSync('$out/cv.json', resultsJson(r));"
fi
node bench/defaults/cv_table.mjs "$out/cv.json" > "$out/cv.md"
cat "$out/cv.md"

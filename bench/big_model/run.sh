#!/usr/bin/env bash
# Memory at model scale: generates a 2.6 GB float model (one
# FULLY_CONNECTED 4096 -> 160000, weights stored after the flatbuffer, as
# TFLite's converter stores models over 2 GiB) and measures wall time and
# peak RSS (/usr/bin/time) of inspect, run, copy and quantize (dynamic,
# int8, and blockwise int4: issue 33) on it, against the issue's bounds:
#   inspect < 0.5 s and < 100 MB; run <= 1.2x the model;
#   quantize <= model + output + 10%.
# Usage: bench/big_model/run.sh [BUILD_DIR] [WORK_DIR]
#   (defaults: build, a temporary folder; needs ~5 GB of disk there).
# Writes bench/big_model/results.md (read by bench/results.mjs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
work=${2:-}
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
qforge="$work/qforge"
cp "$build/cmd/qforge" "$qforge"  # a rebuild during the run cannot swap it
model="$work/big.tflite"
"$build/bench/make_big_model" "$model" 4096 160000 "$work/x.npy"
model_bytes=$(stat -c %s "$model")

results="$here/results.md"
rows=()
# measure NAME OUTPUT BOUND_KIND -- command...
measure() {
  local name=$1 output=$2
  shift 2
  sync
  # Dropping the page cache makes each command read the model from disk, as
  # a first run would (needs root; otherwise the cache stays warm).
  echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true
  /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@" > "$work/log.txt" 2>&1 ||
    { cat "$work/log.txt"; echo "FAIL: $name"; exit 1; }
  read -r seconds kb < "$work/time.txt"
  local rss=$((kb * 1024)) out_bytes=0
  [ -n "$output" ] && out_bytes=$(stat -c %s "$output")
  rows+=("$name|$seconds|$rss|$out_bytes")
  rm -f "$output"
}
measure inspect "" "$qforge" inspect "$model"
measure run "" "$qforge" run "$model" --data "$work/x.npy" \
  --output-dir "$work/out" --threads 2
measure copy "$work/copy.tflite" "$qforge" copy "$model" -o "$work/copy.tflite"
measure "quantize --scheme dynamic" "$work/dyn.tflite" \
  "$qforge" quantize "$model" --scheme dynamic -o "$work/dyn.tflite" -q
measure "quantize (int8, 4 samples)" "$work/int8.tflite" \
  "$qforge" quantize "$model" --data "$work/x.npy" -o "$work/int8.tflite" -q
measure "quantize --scheme dynamic --weight-bits 4 --block-size 32" \
  "$work/int4b32.tflite" "$qforge" quantize "$model" --scheme dynamic \
  --weight-bits 4 --block-size 32 -o "$work/int4b32.tflite" -q

gb() { awk -v b="$1" 'BEGIN { printf "%.2f", b / 1e9 }'; }
{
  echo "# Memory at model scale"
  echo
  echo "\`bench/big_model/run.sh\`, $(date -u +%Y-%m-%dT%H:%MZ)," \
    "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown);" \
    "model $(gb "$model_bytes") GB (one FULLY_CONNECTED 4096 -> 160000," \
    "float32, buffers after the flatbuffer); $(nproc) cores," \
    "load $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  echo "| command | time s | peak RSS GB | output GB | bound | met |"
  echo "| --- | --- | --- | --- | --- | --- |"
  for row in "${rows[@]}"; do
    IFS='|' read -r name seconds rss out <<< "$row"
    case $name in
      inspect)
        bound="< 0.5 s, < 100 MB"
        met=$(awk -v s="$seconds" -v r="$rss" \
          'BEGIN { print (s < 0.5 && r < 100e6) ? "yes" : "NO" }') ;;
      run)
        bound="<= 1.2 x model = $(gb $((model_bytes * 12 / 10))) GB"
        met=$(awk -v r="$rss" -v m="$model_bytes" \
          'BEGIN { print (r <= 1.2 * m) ? "yes" : "NO" }') ;;
      *)
        limit=$(( (model_bytes + out) * 11 / 10 ))
        bound="<= (model + output) x 1.1 = $(gb $limit) GB"
        met=$(awk -v r="$rss" -v l="$limit" \
          'BEGIN { print (r <= l) ? "yes" : "NO" }') ;;
    esac
    echo "| \`$name\` | $seconds | $(gb "$rss") | $(gb "$out") | $bound | $met |"
  done
} > "$results"
cat "$results"

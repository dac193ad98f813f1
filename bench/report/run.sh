#!/usr/bin/env bash
# Times `qforge report` on vww_96 (MLPerf Tiny VWW, MobileNetV1 0.25, 96x96)
# over 200 samples: the corpus' PERSON96 images and the other photos of the
# corpus (136 files, the list repeats them up to 200), scaled to [0, 1] as
# the model expects. The model is first quantized to int8, calibrated on
# the same 136 images. Target: under a minute on the project's 2-core machine.
# Usage: bench/report/run.sh [QFORGE] [CORPUS]   (defaults: build/cmd/qforge,
# ../shared/corpus next to the checkout). Prints the wall time and exits 1
# over 60 s. Extra arguments after CORPUS go to `qforge report`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
qforge=${1:-$root/build/cmd/qforge}
corpus=${2:-$root/../shared/corpus}
shift $(( $# > 2 ? 2 : $# ))
model=$corpus/models/mlperf-tiny/vww_96_float.tflite
[ -f "$model" ] || { echo "SKIP: $model absent"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
find "$corpus/data" \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' \
  -o -iname '*.bmp' \) | LC_ALL=C sort > "$work/images.txt"
n=$(wc -l < "$work/images.txt")
for ((i = 0; i < 200; i++)); do
  sed -n "$((i % n + 1))p" "$work/images.txt"
done > "$work/list.txt"
"$qforge" quantize "$model" --data "$work/images.txt" --scale 0.003921569 \
  -o "$work/vww_96_int8.tflite" -q
start=$(date +%s.%N)
"$qforge" report "$model" "$work/vww_96_int8.tflite" --data "$work/list.txt" \
  --scale 0.003921569 -o "$work/report.txt" -q "$@"
end=$(date +%s.%N)
seconds=$(echo "$end - $start" | bc)
head -6 "$work/report.txt"
echo "qforge report vww_96, 200 samples: ${seconds} s (nproc $(nproc))"
awk -v s="$seconds" 'BEGIN { exit !(s < 60) }' || { echo "FAIL: over 60 s"; exit 1; }

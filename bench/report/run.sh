#!/usr/bin/env bash
# Times `qforge report` on vww_96 (MLPerf Tiny VWW, MobileNetV1 0.25, 96x96)
# over 1000 samples on 2 threads: the corpus' PERSON96 images and the other
# photos of the corpus (the list repeats them up to 1000), scaled to [0, 1]
# as the model expects. The model is first quantized to int8, calibrated on
# the photos once each. Target: under 2 s on the project's 2-core machine.
# Usage: bench/report/run.sh [QFORGE] [CORPUS]   (defaults: build/cmd/qforge,
# ../shared/corpus next to the checkout). Prints the wall time, writes
# bench/report/results.md and exits 1 over 2 s. SAMPLES=N in the
# environment changes the count. Extra arguments after CORPUS go to
# `qforge report`.
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
samples=${SAMPLES:-1000}
for ((i = 0; i < samples; i++)); do
  sed -n "$((i % n + 1))p" "$work/images.txt"
done > "$work/list.txt"
"$qforge" quantize "$model" --data "$work/images.txt" --scale 0.003921569 \
  -o "$work/vww_96_int8.tflite" -q
start=$(date +%s.%N)
"$qforge" report "$model" "$work/vww_96_int8.tflite" --data "$work/list.txt" \
  --scale 0.003921569 -o "$work/report.txt" -q --threads 2 "$@"
end=$(date +%s.%N)
seconds=$(echo "$end - $start" | bc)
head -6 "$work/report.txt"
line="qforge report vww_96 (int8 against float), $samples samples, 2 threads: ${seconds} s"
echo "$line (nproc $(nproc))"
if [ "$samples" = 1000 ]; then
  printf '%s\n\n%s\n' \
    "\`bench/report/run.sh\`, $(date -u +%Y-%m-%dT%H:%MZ), $(git -C "$here" rev-parse --short HEAD); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)." \
    "$line (target: under 2 s)." > "$here/results.md"
fi
awk -v s="$seconds" 'BEGIN { exit !(s < 2) }' || { echo "FAIL: over 2 s"; exit 1; }

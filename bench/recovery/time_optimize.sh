#!/usr/bin/env bash
# Time and peak memory of `quantize --optimize accuracy` on
# mobilenet_v1_0.25_224 with 256 calibration images (the corpus photos,
# repeated to 256 under distinct names), 2 threads; plain int8,
# --optimize fast and --bias-correction alongside.
#   bench/recovery/time_optimize.sh [QFORGE] [THREADS]
# Prints one line per run: wall seconds, peak RSS MiB. A benchmark, not a
# test: the issue's bound (<= 60 s, <= 2 GB) is read from its output.
set -euo pipefail
cd "$(dirname "$0")/../.."
qforge=${1:-build/cmd/qforge}
threads=${2:-2}
corpus=../shared/corpus
model=$corpus/models/tflite-support/mobilenet_v1_0.25_224_1_metadata_1.tflite
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mapfile -t photos < <(find "$corpus/data" -type f \( -iname '*.jpg' -o \
  -iname '*.jpeg' -o -iname '*.png' \) | sort)
mkdir -p "$work/img"
for i in $(seq 0 255); do
  src=${photos[$((i % ${#photos[@]}))]}
  ln -s "$(realpath "$src")" "$work/img/$(printf '%03d' "$i").${src##*.}"
done
run() {
  local label=$1; shift
  /usr/bin/time -f '%e %M' -o "$work/time" "$qforge" quantize "$model" \
    --data "$work/img/*" --threads "$threads" -o "$work/out.tflite" -q "$@"
  read -r secs kib < "$work/time"
  printf '%-28s %7.1f s %7.0f MiB\n' "$label" "$secs" "$((kib / 1024))"
}
echo "mobilenet_v1_0.25_224, 256 images, $threads threads"
run "int8 (plain)"
run "--optimize fast" --optimize fast
run "--bias-correction" --bias-correction
run "--optimize accuracy" --optimize accuracy

#!/usr/bin/env bash
# Quick start: install what is missing, build, and run qforge on a bundled
# model and bundled data.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
bash scripts/build.sh release
out=$(mktemp -d)
set -x
build/cmd/qforge inspect testdata/models/conv_fc_mnist.tflite
build/cmd/qforge calibrate testdata/models/conv_fc_mnist.tflite \
  --data 'testdata/mnist/*.png' --scale 0.003921569 -o "$out/stats.json"
build/cmd/qforge quantize testdata/models/conv_fc_mnist.tflite \
  --stats "$out/stats.json" -o "$out/conv_fc_mnist_int8.tflite"
build/cmd/qforge inspect "$out/conv_fc_mnist_int8.tflite"
{ set +x; } 2>/dev/null
echo "quickstart: ok (outputs in $out)"

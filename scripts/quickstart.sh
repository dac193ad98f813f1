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
build/cmd/qforge copy testdata/models/conv_fc_mnist.tflite -o "$out/conv_fc_mnist_copy.tflite"
{ set +x; } 2>/dev/null
echo "quickstart: ok (outputs in $out)"

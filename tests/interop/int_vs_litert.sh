#!/usr/bin/env bash
# ctest wrapper of int_vs_litert.mjs: qforge's integer interpreter against
# LiteRT on whole quantized models: the corpus twins and int_refs, plus
# models qforge quantizes here (int8 and int16x8) from bundled and corpus
# float models with fitting real data.
# Usage: int_vs_litert.sh QFORGE CORPUS_DIR TESTDATA_DIR [MAKE_INPUTS] [ARGS...]
# Exit status: int_vs_litert.mjs's; 77 (ctest skip) without Node.js >= 20 or
# the corpus.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 3 ]; then
  echo "usage: $0 QFORGE CORPUS_DIR TESTDATA_DIR [MAKE_INPUTS] [ARGS...]" >&2
  exit 2
fi
qforge=$1 corpus=$2 testdata=$3
shift 3
make_inputs=()
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  make_inputs=(--make-inputs "$1")
  shift
fi
if [ ! -d "$corpus/twins" ]; then
  echo "int_vs_litert: SKIP: corpus $corpus absent (no twins/ folder)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ours=()
# quantize NAME FLOAT SCHEME DATA FLAGS...: one model of qforge's own.
quantize() {
  local name=$1 float=$2 scheme=$3 data=$4
  shift 4
  if "$qforge" quantize "$float" --data "$data" "$@" --scheme "$scheme" \
       -o "$work/$name.tflite" --quiet; then
    ours+=(--model "$work/$name.tflite=$float")
  else
    echo "int_vs_litert: FAILED: qforge could not quantize $float ($scheme)"
    exit 1
  fi
}
person=$corpus/data/tflite-micro/tensorflow/lite/micro/examples/person_detection/testdata
quantize mnist_int8 "$testdata/models/conv_fc_mnist.tflite" int8 \
  "$testdata/mnist" --scale 0.003921569
quantize mnist_int16x8 "$testdata/models/conv_fc_mnist.tflite" int16x8 \
  "$testdata/mnist" --scale 0.003921569
quantize vww_96_int8 "$corpus/models/mlperf-tiny/vww_96_float.tflite" int8 \
  "$person" --resize 96x96 --scale 0.003921569
quantize resnet_int8 "$corpus/models/mlperf-tiny/pretrainedResnet.tflite" \
  int8 "$corpus/data/coral/*.bmp" --resize 32x32
exec bash "$here/with_node.sh" node "$here/int_vs_litert.mjs" \
  --qforge "$qforge" --corpus "$corpus" "${make_inputs[@]}" "${ours[@]}" "$@"

#!/usr/bin/env bash
# ctest wrapper of int_ops_litert.mjs: every op kind qforge's quantizer
# emits, quantized by qforge (int8 and int16x8) from a corpus single-op
# model, run by `qforge run` and by LiteRT on the same integer inputs; fails
# when any output value differs by more than 1 LSB.
# Usage: int_ops_litert.sh QFORGE CORPUS_DIR [ARGS...] (ARGS go to the .mjs).
# Exit status: the .mjs's; 77 (ctest skip) when Node.js >= 20 or the corpus
# is absent.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 2 ]; then
  echo "usage: $0 QFORGE CORPUS_DIR [ARGS...]" >&2
  exit 2
fi
qforge=$1
corpus=$2
shift 2
if [ ! -d "$corpus/models" ]; then
  echo "int_ops_litert: SKIP: corpus $corpus absent (no models/ folder)"
  exit 77
fi
exec bash "$here/with_node.sh" node "$here/int_ops_litert.mjs" \
  --qforge "$qforge" --corpus "$corpus" "$@"

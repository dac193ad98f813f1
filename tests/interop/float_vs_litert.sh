#!/usr/bin/env bash
# ctest wrapper of float_vs_litert.mjs: `qforge run` outputs against LiteRT's
# on every corpus model whose ops qforge's float interpreter covers.
# Usage: float_vs_litert.sh QFORGE CORPUS_DIR [MAKE_INPUTS] [ARGS...]
#   MAKE_INPUTS: the qforge_make_inputs binary (real image/.bin data as the
#   tensors qforge makes of it); ARGS go to float_vs_litert.mjs.
# Exit status: float_vs_litert.mjs's (1 on any mismatch or qforge failure);
# 77 (ctest skip) when Node.js >= 20 or the corpus is absent.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 2 ]; then
  echo "usage: $0 QFORGE CORPUS_DIR [MAKE_INPUTS] [ARGS...]" >&2
  exit 2
fi
qforge=$1
corpus=$2
shift 2
make_inputs=()
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  make_inputs=(--make-inputs "$1")
  shift
fi
if [ ! -d "$corpus/models" ]; then
  echo "float_vs_litert: SKIP: corpus $corpus absent (no models/ folder)"
  exit 77
fi
exec bash "$here/with_node.sh" node "$here/float_vs_litert.mjs" \
  --qforge "$qforge" --corpus "$corpus" "${make_inputs[@]}" "$@"

#!/usr/bin/env bash
# Every corpus float model both runtimes run, quantized by qforge in each
# scheme on the same inputs and run in LiteRT (docs/legality.md). Prints
# the counts; the per-model lines go to bench/legality_sweep_results.txt.
# Usage: bench/legality_sweep.sh [BUILD_DIR] [CORPUS_DIR]   (~5-10 min)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
corpus=${2:-$here/../../shared/corpus}
out=$here/legality_sweep_results.txt
node "$here/../tests/interop/float_vs_litert.mjs" --qforge "$build/cmd/qforge" \
  --corpus "$corpus" --make-inputs "$build/tests/qforge_make_inputs" \
  --samples 1 --quantize int8,int16x8,dynamic,float16 > "$out" 2>&1
status=$?
ran=$(grep -c ': runs in LiteRT' "$out")
fails=$(grep -c 'model qforge wrote fails in LiteRT' "$out")
unwritten=$(grep -c ': not written' "$out")
echo "legality sweep: $ran quantized models ran in LiteRT, $fails failed," \
  "$unwritten not written (qforge refused, reason in $out)"
grep '^float_vs_litert:' "$out"
exit "$status"

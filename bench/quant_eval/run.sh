#!/usr/bin/env bash
# Quantization that LiteRT runs: quantizes the corpus' real float models with
# qforge and checks them in LiteRT (README.md in this folder).
#
#   bash bench/quant_eval/run.sh [--quick] [quant_eval.mjs options...]
#
# Sets up the pinned LiteRT harness (tests/interop/setup.sh), builds qforge
# when build/cmd/qforge is missing, then runs quant_eval.mjs. Exit codes:
# 0 all good, 1 a failure (quantize error, LiteRT refusing a qforge model, a
# twin gate), 2 usage, 77 Node.js >= 20 absent (skip, as tests/interop does).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ ! -x "$root/build/cmd/qforge" ]; then
  make -C "$root/build" -j2 qforge >&2
fi
exec bash "$root/tests/interop/with_node.sh" node "$here/quant_eval.mjs" "$@"

#!/usr/bin/env bash
# ctest wrapper of the legality property test: op_property_cases writes N
# random single-op models per scheme (random shapes, weights and calibration
# ranges over 40 orders of magnitude, sentinels, epsilons), quantized by
# qforge and run by qforge; op_property_litert.mjs runs each in LiteRT.
# Fails when any model qforge wrote fails in LiteRT or differs by more than
# 1 LSB from `qforge run`.
# Usage: op_property_litert.sh CASES_TOOL CASES SEED
# Exit status: the .mjs's; 77 (ctest skip) without Node.js >= 20.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 3 ]; then
  echo "usage: $0 CASES_TOOL CASES SEED" >&2
  exit 2
fi
tool=$1
cases=$2
seed=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for scheme in int8 int16x8; do
  "$tool" "$work/$scheme" --scheme "$scheme" --cases "$cases" --seed "$seed" \
    || exit 1
  bash "$here/with_node.sh" node "$here/op_property_litert.mjs" \
    "$work/$scheme"
  rc=$?
  [ "$rc" = 77 ] && exit 77
  [ "$rc" != 0 ] && status=1
done
exit "$status"

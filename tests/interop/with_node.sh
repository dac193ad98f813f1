#!/usr/bin/env bash
# Runs a command of the interop harness after setup.sh, for ctest:
#   bash tests/interop/with_node.sh node tests/interop/compare_pairs.mjs --pairs LIST
# Exit status: the command's; 77 (ctest SKIP_RETURN_CODE) when Node.js >= 20 is
# absent; 1 when setup.sh fails.
set -uo pipefail
src="${BASH_SOURCE[0]}"
case "$src" in */*) here="${src%/*}" ;; *) here=. ;; esac
out="$("${BASH:-bash}" "$here/setup.sh")" || { echo "$out"; exit 1; }
case "$out" in
  *"node absent"*) echo "$out"; exit 77 ;;
esac
exec "$@"

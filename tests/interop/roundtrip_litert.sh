#!/usr/bin/env bash
# `qforge copy` of every model under the given folders runs in LiteRT with
# outputs bit-identical to the original's (same seeded inputs).
# Usage: roundtrip_litert.sh QFORGE DIR...   (missing DIRs are skipped)
# Exit 77 (skipped) when Node.js >= 20 is absent.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qforge=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pairs=$work/pairs.txt
: > "$pairs"
rejected=0
for dir in "$@"; do
  [ -d "$dir" ] || { echo "roundtrip_litert: $dir absent, skipped"; continue; }
  while IFS= read -r model; do
    copy=$work/copies/${model#/}
    mkdir -p "$(dirname "$copy")"
    if "$qforge" copy "$model" -o "$copy" -q 2>"$work/err"; then
      printf '%s\t%s\n' "$model" "$copy" >> "$pairs"
    else
      # Only files the reader rejects as invalid (exit 2) may fail.
      echo "rejected (as invalid): $(cat "$work/err")"
      rejected=$((rejected + 1))
    fi
  done < <(find "$dir" -name '*.tflite' | sort)
done
echo "roundtrip_litert: $(wc -l < "$pairs") copies to compare, $rejected rejected"
bash "$here/with_node.sh" node "$here/compare_pairs.mjs" --pairs "$pairs" \
  > "$work/out.txt"
status=$?
grep -E '"status":"different"' "$work/out.txt" | head -20
grep -E '"status":"skipped"' "$work/out.txt" | sed -E 's/.*"original":"([^"]*)".*"reason":"([^"]*)".*/skipped: \1: \2/' | head -50
tail -n 2 "$work/out.txt"
exit $status

#!/usr/bin/env bash
# Agreement of qforge's interpreters with LiteRT over the shared corpus, for
# bench/RESULTS.md and the README's status figures (bench/results.mjs): runs
# the float and integer interop sweeps of the test suite and writes
# bench/interop/summary.json.
# Usage: bench/interop/summary.sh [BUILD_DIR] [CORPUS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
corpus=${2:-$root/../shared/corpus}
qforge=$build/cmd/qforge
make_inputs=$build/tests/qforge_make_inputs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$root/tests/interop/float_vs_litert.sh" "$qforge" "$corpus" \
  "$make_inputs" > "$work/float.txt"
bash "$root/tests/interop/int_vs_litert.sh" "$qforge" "$corpus" \
  "$root/testdata" "$make_inputs" --json "$work/int.json" > "$work/int.txt"
float_line=$(grep '^float_vs_litert: .* checked' "$work/float.txt" | tail -n 1)
int_line=$(grep '^int_vs_litert: .* models compared' "$work/int.txt" | tail -n 1)
commit=$(git -C "$root" describe --always --dirty)
FLOAT_LINE=$float_line INT_LINE=$int_line COMMIT=$commit node - \
  "$work/int.json" > "$root/bench/interop/summary.json" <<'JS'
const fs = require('fs');
const f = process.env.FLOAT_LINE.match(
  /(\d+) checked \((\d+) within tolerance, (\d+) within the runtimes' own spread, (\d+) mismatch\), (\d+) failed to run, (\d+) skipped/);
if (!f) throw new Error(`float_vs_litert summary not understood: ${process.env.FLOAT_LINE}`);
const results = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
// A model counts as identical when every output equals LiteRT's exactly.
const compared = results.filter((r) => r.outputs && r.outputs.length);
const identical = compared.filter((r) => r.outputs.every((o) => o.sqnr === null || o.sqnr === 'inf' || o.sqnr === Infinity));
const detail = process.env.INT_LINE.replace(/^int_vs_litert: /, '').replace(/; \d+ s$/, '');
process.stdout.write(JSON.stringify({
  date: new Date().toISOString().slice(0, 10),
  commit: process.env.COMMIT,
  float: { checked: +f[1], within: +f[2], spread: +f[3], mismatch: +f[4], failed: +f[5], skipped: +f[6], line: process.env.FLOAT_LINE },
  integer: { models: compared.length, identical: identical.length, detail },
}, null, 1) + '\n');
JS
echo "wrote bench/interop/summary.json"

#!/usr/bin/env bash
# Long fuzzing: every libFuzzer target (tests/fuzz/targets.sh) for HOURS in
# all, shared by weight (the model -> run target gets the most), one target
# at a time at the lowest priority (the machine is shared).
#   scripts/fuzz.sh HOURS
# Corpora persist in build-fuzz/corpus/TARGET (seeded from testdata/ and,
# when present, the small models of ../shared/corpus) and grow from run to
# run. Crashes, timeouts and out-of-memory inputs do not stop a run (fork
# mode); they are kept in build-fuzz/findings/TARGET/. Fix each, then keep
# the input as a regression in testdata/fuzz/TARGET/. A table of runs,
# coverage and findings per target ends the output (and
# build-fuzz/fuzz-summary.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
hours=${1:?usage: scripts/fuzz.sh HOURS}
# shellcheck source=../tests/fuzz/targets.sh
source tests/fuzz/targets.sh
# shellcheck disable=SC2086
bash scripts/build.sh fuzz $FUZZ_TARGETS
total=$(awk -v h="$hours" 'BEGIN { printf "%d", h * 3600 }')
weights=0
for t in $FUZZ_TARGETS; do weights=$((weights + $(fuzz_weight "$t"))); done
mkdir -p build-fuzz/corpus build-fuzz/findings build-fuzz/logs
summary=build-fuzz/fuzz-summary.txt
printf '%-22s %8s %12s %8s %8s %9s\n' target seconds runs cov ft findings \
  > "$summary"
for t in $FUZZ_TARGETS; do
  seconds=$((total * $(fuzz_weight "$t") / weights))
  [ "$seconds" -gt 0 ] || continue
  corpus=build-fuzz/corpus/$t findings=build-fuzz/findings/$t
  mkdir -p "$corpus" "$findings"
  FUZZ_CORPUS_MODELS=1 fuzz_seed "$t" "$corpus"
  log=build-fuzz/logs/$t.log
  echo "fuzz: $t for ${seconds}s (log: $log)"
  # shellcheck disable=SC2046
  nice -n 19 build-fuzz/tests/"$t" -fork=1 -ignore_crashes=1 \
    -ignore_timeouts=1 -ignore_ooms=1 -max_total_time="$seconds" \
    -timeout=25 -rss_limit_mb=2048 -artifact_prefix="$findings/" \
    $(fuzz_flags "$t") "$corpus" > "$log" 2>&1 || true
  # Fork mode prints "#N: cov: C ft: F corp: ... exec/s: E ..." lines.
  last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -n 1)
  runs=$(echo "$last" | sed -E 's/^#([0-9]+):.*/\1/')
  cov=$(echo "$last" | sed -E 's/.*cov: ([0-9]+).*/\1/')
  ft=$(echo "$last" | sed -E 's/.*ft: ([0-9]+).*/\1/')
  found=$(find "$findings" -type f | wc -l)
  printf '%-22s %8d %12s %8s %8s %9d\n' "$t" "$seconds" "${runs:-?}" \
    "${cov:-?}" "${ft:-?}" "$found" >> "$summary"
done
cat "$summary"

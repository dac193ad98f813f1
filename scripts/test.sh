#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run every test.
#   scripts/test.sh           release build: unit, corpus and interop tests
#   scripts/test.sh --asan    ASan+UBSan build: unit tests
#   scripts/test.sh --fuzz S  libFuzzer targets (same tree): S seconds each
#   scripts/test.sh --long    also the long sweeps (label "long")
set -euo pipefail
cd "$(dirname "$0")/.."
mode=release; fuzz_seconds=60; long=0
while [ $# -gt 0 ]; do
  case "$1" in
    --asan) mode=asan ;;
    --fuzz) mode=fuzz; fuzz_seconds=${2:-60}; shift ;;
    --long) long=1 ;;
    *) echo "usage: scripts/test.sh [--asan | --fuzz SECONDS] [--long]" >&2; exit 1 ;;
  esac
  shift
done
bash scripts/install_deps.sh --with-armnn --with-slurm
case "$mode" in
  release)
    bash scripts/build.sh release
    exclude=(-LE long); [ "$long" = 1 ] && exclude=()
    rm -f build/slurm_recipes.log
    ctest --test-dir build -j"$(nproc)" --output-on-failure "${exclude[@]}"
    # The Slurm recipe test's log (array job IDs, byte comparisons, or why
    # it skipped), so that CI shows what ran.
    if [ -f build/slurm_recipes.log ]; then
      echo "--- slurm_recipes (tests/slurm/slurm_recipes.sh)"
      cat build/slurm_recipes.log
    fi
    ;;
  asan)
    bash scripts/build.sh asan
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --test-dir build-asan -j"$(nproc)" --output-on-failure -L unit
    ;;
  fuzz)
    # Every libFuzzer target (tests/fuzz/targets.sh) for S seconds each,
    # seeded from testdata/, nproc at a time; a crash fails the run and keeps
    # its input. The targets live in the sanitizer tree (clang), which
    # --asan has usually built already.
    # shellcheck source=../tests/fuzz/targets.sh
    source tests/fuzz/targets.sh
    # shellcheck disable=SC2086
    bash scripts/build.sh asan $FUZZ_TARGETS
    work=$(mktemp -d)
    fuzz_one() {
      local target=$1
      fuzz_seed "$target" "$work/$target.corpus"
      mkdir -p "$work/$target.found"
      local rc=0
      # shellcheck disable=SC2046
      build-asan/tests/"$target" -max_total_time="$fuzz_seconds" \
          -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
          -artifact_prefix="$work/$target.found/" $(fuzz_flags "$target") \
          "$work/$target.corpus" > "$work/$target.log" 2>&1 || rc=$?
      echo "$rc" > "$work/$target.rc"
    }
    running=0
    for target in $FUZZ_TARGETS; do
      fuzz_one "$target" &
      running=$((running + 1))
      if [ "$running" -ge "$(nproc)" ]; then wait -n || true; running=$((running - 1)); fi
    done
    wait || true
    passed=0; failed=0
    for target in $FUZZ_TARGETS; do
      if [ "$(cat "$work/$target.rc")" = 0 ]; then
        passed=$((passed + 1))
      else
        failed=$((failed + 1))
        tail -n 40 "$work/$target.log"
        echo "$target: FAILED; input kept in $work/$target.found/"
      fi
      runs=$(sed -n 's/^stat::number_of_executed_units: //p' "$work/$target.log")
      cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$work/$target.log" | tail -n 1)
      echo "$target: ${runs:-0} runs in ${fuzz_seconds}s, $cov"
    done
    echo "$passed passed, $failed failed"
    test "$failed" -eq 0
    ;;
esac

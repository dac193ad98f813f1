#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run every test.
#   scripts/test.sh           release build: unit, corpus and interop tests
#   scripts/test.sh --asan    ASan+UBSan build: unit tests
#   scripts/test.sh --fuzz S  libFuzzer build: S seconds on the reader
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
bash scripts/install_deps.sh
case "$mode" in
  release)
    bash scripts/build.sh release
    exclude=(-LE long); [ "$long" = 1 ] && exclude=()
    ctest --test-dir build -j"$(nproc)" --output-on-failure "${exclude[@]}"
    ;;
  asan)
    bash scripts/build.sh asan
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --test-dir build-asan -j"$(nproc)" --output-on-failure -L unit
    ;;
  fuzz)
    bash scripts/build.sh fuzz tflite_reader_fuzzer
    corpus=$(mktemp -d)
    cp testdata/models/*.tflite "$corpus/"
    build-fuzz/tests/tflite_reader_fuzzer -max_total_time="$fuzz_seconds" \
      -max_len=65536 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
      "$corpus" 2>&1 | tail -n 15
    test "${PIPESTATUS[0]}" -eq 0
    echo "1 passed, 0 failed"
    ;;
esac

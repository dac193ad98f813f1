#!/usr/bin/env bash
# Configures and builds qforge.
# Usage: scripts/build.sh [release|asan|fuzz] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-release}
shift || true
targets=()
for t in "$@"; do targets+=(--target "$t"); done
jobs=$(nproc)
case "$kind" in
  release) dir=build; flags=(-DCMAKE_BUILD_TYPE=Release) ;;
  # ASan+UBSan for the unit tests, -O1 -g0: quick to build, fast enough to
  # run. Reports name functions; line tables (-g1) cost a third more build
  # time, so ask for them when debugging: QFORGE_ASAN_CXXFLAGS="-O1 -g1".
  # With clang the same tree also holds the libFuzzer targets (test.sh
  # --fuzz), so CI compiles the sanitized code once; clang also builds it in
  # 0.6x GCC's time.
  asan) dir=build-asan
        flags=(-DCMAKE_BUILD_TYPE=None
               "-DCMAKE_CXX_FLAGS=${QFORGE_ASAN_CXXFLAGS:--O1 -g0}"
               -DQFORGE_SANITIZE=ON -DQFORGE_BUILD_BENCH=OFF)
        if command -v clang++ >/dev/null; then
          flags+=(-DCMAKE_CXX_COMPILER=clang++ -DQFORGE_FUZZ=ON)
        fi ;;
  # Long fuzzing runs (scripts/fuzz.sh): optimized, with line tables.
  fuzz) dir=build-fuzz
        flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DQFORGE_FUZZ=ON
               -DQFORGE_BUILD_BENCH=OFF -DCMAKE_CXX_COMPILER=clang++) ;;
  *) echo "usage: scripts/build.sh [release|asan|fuzz]" >&2; exit 1 ;;
esac
# Ninja schedules the 2-core build better than make; a tree already
# configured with another generator keeps it.
if [ ! -f "$dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then
  flags+=(-G Ninja)
fi
# Unity builds: each library and test executable compiles its sources in
# batches of 8 per translation unit, so the shared headers are parsed once
# per batch; the cold release build takes 0.7x the time. Names local to a
# .cc file must therefore be unique within its library or test executable.
flags+=(-DCMAKE_UNITY_BUILD=ON)
cmake -S . -B "$dir" "${flags[@]}" >/dev/null
# The build's own status (grep's and pipefail's would hide a failed build).
set +e
cmake --build "$dir" -j"$jobs" "${targets[@]}" 2>&1 | grep -vE '^\[|^(make|gmake|ninja: (Entering|no work))|Built target|Scanning|Consolidate'
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
  echo "build ($kind): FAILED (cmake --build exit $status)" >&2
  exit "$status"
fi
echo "build ($kind): ok -> $dir"

#!/usr/bin/env bash
# The integer kernels' vector paths against the scalar ones on whole models:
# `qforge run` with QFORGE_ISA=scalar, avx2 and the CPU's best level on the
# same random inputs, in every --rounding and --arithmetic; the output
# files must be identical byte for byte. (The kernels' randomized check is
# tests/runtime/kernels/integer_fast_test.cc; this covers real layers.)
# Usage: bench/isa_exactness.sh [BUILD_DIR] [MODEL...]
# (default models: the corpus's integer twins and int_refs).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
qf=$build/cmd/qforge
corpus=../shared/corpus
models=("$@")
if [ ${#models[@]} -eq 0 ]; then
  while IFS= read -r m; do models+=("$m"); done < <(
    find "$corpus/twins" "$corpus/int_refs" -name '*.tflite' | sort)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Random .npy inputs (4 samples, fixed seed) for each input of the model.
make_inputs() {
  "$qf" inspect --json "$1" | python3 -c '
import json, random, struct, sys
info = json.load(sys.stdin)
codes = {"int8": ("|i1", 1, -128, 127), "uint8": ("|u1", 1, 0, 255),
         "int16": ("<i2", 2, -32768, 32767), "int32": ("<i4", 4, -100, 100),
         "float32": ("<f4", 4, None, None)}
random.seed(1)
out = sys.argv[1]
specs = []
for k, t in enumerate(info["inputs"]):
    if t["dtype"] not in codes: sys.exit(3)
    code, size, lo, hi = codes[t["dtype"]]
    shape = [4] + [max(1, d) for d in t["shape"][1:]]
    n = 1
    for d in shape: n *= d
    if lo is None:
        data = struct.pack("<%df" % n, *[random.uniform(-1, 1) for _ in range(n)])
    else:
        fmt = {1: "b" if lo < 0 else "B", 2: "h", 4: "i"}[size]
        data = struct.pack("<%d%s" % (n, fmt), *[random.randint(lo, hi) for _ in range(n)])
    header = "{'"'"'descr'"'"': '"'"'%s'"'"', '"'"'fortran_order'"'"': False, '"'"'shape'"'"': (%s), }" % (
        code, "".join("%d, " % d for d in shape))
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    f = "%s/in_%d.npy" % (out, k)
    with open(f, "wb") as o:
        o.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data)
    specs.append("%s=%s" % (t["name"], f))
print("\n".join(specs))
' "$2"
}
checked=0 differ=0 skipped=0 refused=0
for m in "${models[@]}"; do
  name=${m#"$corpus"/}
  d=$tmp/$(echo "$name" | tr '/' '_')
  mkdir -p "$d"
  if ! specs=$(make_inputs "$m" "$d" 2>/dev/null); then
    skipped=$((skipped + 1)); continue
  fi
  data=()
  if [ "$(echo "$specs" | wc -l)" -eq 1 ]; then
    data=(--data "${specs#*=}")
  else
    while IFS= read -r s; do data+=(--data "$s"); done <<< "$specs"
  fi
  for mode in "--rounding single" "--rounding double" "--rounding legacy" \
              "--arithmetic xnnpack"; do
    ok=1
    for isa in scalar avx2 avx512-vnni; do
      rm -rf "$d/$isa"
      # shellcheck disable=SC2086
      if ! QFORGE_ISA=$isa "$qf" --quiet $mode run "$m" "${data[@]}" \
          --output-dir "$d/$isa" --threads 2 >"$d/$isa.log" 2>&1; then
        ok=0
        [ "$isa" = scalar ] && refused=$((refused + 1))
        [ "$isa" = scalar ] || { echo "FAIL $name $mode $isa: $(tail -1 "$d/$isa.log")"; differ=$((differ + 1)); }
        break
      fi
      if [ "$isa" != scalar ] && ! diff -rq "$d/scalar" "$d/$isa" >/dev/null; then
        echo "DIFFER $name $mode $isa"
        differ=$((differ + 1)); ok=0
      fi
    done
    [ $ok = 1 ] && checked=$((checked + 1))
  done
done
echo "isa_exactness: $checked model/mode runs identical across scalar, avx2, avx512-vnni; $differ differ; $refused runs the scalar kernels refuse (unsupported models); $skipped models skipped (input types)"
[ "$differ" -eq 0 ]

#!/usr/bin/env bash
# Integer inference benchmark: qforge's integer kernels vs LiteRT
# (WebAssembly, XNNPACK, 1 thread) on official quantized twins, batch 1.
# qforge runs twice: with the scalar reference kernels (QFORGE_ISA=scalar)
# and with the vector paths this CPU has (runtime/cpu_isa.h); both give the
# same bytes (bench/isa_exactness.sh, integer_fast_test). Times are the best
# of --repeat runs (model_bench). Needs the corpus and Node.js. Runs under
# SCHED_FIFO when allowed, as run_model_bench.sh.
# Usage: bench/run_int_bench.sh [BUILD_DIR] [RESULTS_FILE]
# (RESULTS_FILE: also write the table there, e.g. bench/int_bench_results.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
results=${2:-/dev/null}
corpus=../shared/corpus
bash tests/interop/setup.sh >/dev/null
rt=()
if chrt -f 10 true 2>/dev/null; then rt=(chrt -f 10); fi
isa=$(grep -q avx512_vnni /proc/cpuinfo && echo avx512-vnni ||
      (grep -q avx2 /proc/cpuinfo && echo avx2 || echo scalar))
ms() {  # ms per sample of qforge on $1 with $2 threads, QFORGE_ISA=$3
  QFORGE_ISA=$3 "${rt[@]}" "$build/bench/model_bench" "$1" --repeat 30 \
    --batch 1 --threads "$2" | head -1 |
    node -e 'console.log(JSON.parse(require("fs").readFileSync(0, "utf8")).ms_per_sample)'
}
{
  echo "# bench/run_int_bench.sh, $(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD)"
  echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores, vector ISA $isa"
  echo "# load average $(cut -d' ' -f1-3 /proc/loadavg)${rt:+, runs under SCHED_FIFO}"
  echo "model                                   threads  scalar ms  $(printf '%9s' "$isa") ms  speed-up  LiteRT ms  qforge/LiteRT"
} | tee "$results"
for m in twins/mlperf-tiny/vww_96_int8.tflite \
         twins/mlperf-tiny/pretrainedResnet_quant.tflite \
         twins/mlperf-tiny/ad01_int8.tflite \
         twins/tflite-support/mobilenet_v1_0.25_224_quant.tflite; do
  lr=$("${rt[@]}" node bench/litert_time.mjs "$corpus/$m" 30 2>/dev/null |
       node -e 'console.log(JSON.parse(require("fs").readFileSync(0, "utf8")).ms_per_sample)')
  for t in 1 2; do
    s=$(ms "$corpus/$m" "$t" scalar)
    f=$(ms "$corpus/$m" "$t" "$isa")
    node -e '
      const [name, t, s, f, lr] = process.argv.slice(1);
      console.log(`${name.padEnd(40)} ${t.padStart(7)} ${(+s).toFixed(3).padStart(10)} ${(+f).toFixed(3).padStart(12)} ${(s / f).toFixed(2).padStart(9)} ${(+lr).toFixed(3).padStart(10)} ${(f / lr).toFixed(2).padStart(14)}`);
    ' "$(basename "$m")" "$t" "$s" "$f" "$lr"
  done
done | tee -a "$results"
# Whole `qforge run` processes (start-up, model load and prepacking, .npy
# reading included) over 200 random int8 samples, 1 thread, vector vs
# QFORGE_ISA=scalar, timed from outside by farm-bench when it is on PATH
# (median CPU seconds of 7 paired runs); the two output files must be equal.
command -v farm-bench >/dev/null 2>&1 || exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
qf=$(cd "$build" && pwd)/cmd/qforge
echo "qforge run, 200 samples, 1 thread     scalar ms/sample  $isa ms/sample  ratio  outputs" | tee -a "$results"
for m in twins/mlperf-tiny/vww_96_int8.tflite \
         twins/mlperf-tiny/pretrainedResnet_quant.tflite; do
  shape=$("$qf" inspect --json "$corpus/$m" |
          node -e 'const t = JSON.parse(require("fs").readFileSync(0, "utf8")).inputs[0]; console.log(t.shape.slice(1).join(","))')
  python3 - "$tmp/in.npy" "$shape" <<'PY'
import random, struct, sys
random.seed(1)
shape = [200] + [int(d) for d in sys.argv[2].split(",")]
n = 1
for d in shape: n *= d
header = "{'descr': '|i1', 'fortran_order': False, 'shape': (%s), }" % "".join("%d, " % d for d in shape)
header += " " * (63 - (len(header) + 10) % 64) + "\n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + random.randbytes(n))
PY
  run=("$qf" -q run "$corpus/$m" --data "$tmp/in.npy" --threads 1)
  farm-bench -n 7 --timeout 300 \
    --vs "env QFORGE_ISA=scalar ${run[*]} --output-dir $tmp/scalar" \
    -- "${run[@]}" --output-dir "$tmp/fast" > "$tmp/fb.txt" 2>&1
  a=$(awk '/^A cpu s/ {print $5}' "$tmp/fb.txt")
  b=$(awk '/^B cpu s/ {print $5}' "$tmp/fb.txt")
  same=$(cmp -s "$tmp/scalar/output_0.npy" "$tmp/fast/output_0.npy" && echo identical || echo DIFFER)
  node -e '
    const [name, a, b, same] = process.argv.slice(1);
    console.log(`${name.padEnd(38)} ${(b * 5).toFixed(3).padStart(17)} ${(a * 5).toFixed(3).padStart(16)} ${(a / b).toFixed(2).padStart(6)}  ${same}`);
  ' "$(basename "$m")" "$a" "$b" "$same" | tee -a "$results"
done

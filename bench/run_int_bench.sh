#!/usr/bin/env bash
# Integer inference benchmark: qforge's integer kernels vs LiteRT
# (WebAssembly, XNNPACK, 1 thread) on official quantized twins, batch 1.
# qforge's integer path is written for exactness first (TFLite's fixed-point
# arithmetic, bit for bit); this shows what that costs. Needs the corpus and
# Node.js. Runs under SCHED_FIFO when allowed, as run_model_bench.sh.
# Usage: bench/run_int_bench.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
corpus=../shared/corpus
bash tests/interop/setup.sh >/dev/null
rt=()
if chrt -f 10 true 2>/dev/null; then rt=(chrt -f 10); fi
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)${rt:+, runs under SCHED_FIFO}"
echo "model                                   threads  qforge ms  LiteRT ms  qforge/LiteRT"
for m in twins/mlperf-tiny/vww_96_int8.tflite \
         twins/mlperf-tiny/pretrainedResnet_quant.tflite \
         twins/mlperf-tiny/ad01_int8.tflite \
         twins/tflite-support/mobilenet_v1_0.25_224_quant.tflite; do
  lr=$("${rt[@]}" node bench/litert_time.mjs "$corpus/$m" 30 2>/dev/null)
  for t in 1 2; do
    "${rt[@]}" "$build/bench/model_bench" "$corpus/$m" --repeat 30 --batch 1 \
      --threads "$t" | head -1 | node -e '
      const lr = JSON.parse(process.argv[1]);
      const r = JSON.parse(require("fs").readFileSync(0, "utf8"));
      const name = lr.model.split("/").pop();
      console.log(`${name.padEnd(40)} ${String(r.threads).padStart(7)} ${r.ms_per_sample.toFixed(3).padStart(10)} ${lr.ms_per_sample.toFixed(3).padStart(10)} ${(r.ms_per_sample / lr.ms_per_sample).toFixed(2).padStart(14)}`);
    ' "$lr"
  done
done

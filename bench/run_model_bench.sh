#!/usr/bin/env bash
# Float inference benchmark: qforge vs LiteRT (WebAssembly, 1 thread) on
# mobilenet_v1_0.25_224 and vww_96, batch 1 and 8, 1 and 2 threads, plus the
# cost of collecting calibration statistics. Needs the corpus and Node.js.
# On a shared machine other processes preempt the benchmark; when allowed
# (root), both runtimes run under SCHED_FIFO (chrt -f 10), so the numbers
# show their own speed. The load average is printed alongside.
# Usage: bench/run_model_bench.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
corpus=../shared/corpus
bash tests/interop/setup.sh >/dev/null
rt=()
if chrt -f 10 true 2>/dev/null; then rt=(chrt -f 10); fi
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)${rt:+, runs under SCHED_FIFO}"
for m in models/tflite-support/mobilenet_v1_0.25_224_1_metadata_1.tflite \
         models/mlperf-tiny/vww_96_float.tflite; do
  lr=$("${rt[@]}" node bench/litert_time.mjs "$corpus/$m" 50)
  "${rt[@]}" "$build/bench/model_bench" "$corpus/$m" --repeat 50 | node -e '
    const lr = JSON.parse(process.argv[1]);
    const rows = require("fs").readFileSync(0, "utf8").trim().split("\n").map(JSON.parse);
    const plain = (r) => rows.find((x) => x.batch === r.batch && x.threads === r.threads && !x.stats);
    console.log(`${lr.model.split("/").pop()}: LiteRT (wasm, 1 thread, batch 1) ${lr.ms_per_sample.toFixed(3)} ms`);
    console.log("batch threads  ms/sample  GFLOP/s  LiteRT/qforge  stats overhead");
    for (const r of rows.filter((x) => !x.stats)) {
      const s = rows.find((x) => x.batch === r.batch && x.threads === r.threads && x.stats);
      console.log(`${String(r.batch).padStart(5)} ${String(r.threads).padStart(7)} ${r.ms_per_sample.toFixed(3).padStart(10)} ${r.gflops.toFixed(1).padStart(8)} ${(lr.ms_per_sample / r.ms_per_sample).toFixed(2).padStart(14)} ${((s.ms_per_sample / r.ms_per_sample - 1) * 100).toFixed(1).padStart(13)}%`);
    }' "$lr"
done

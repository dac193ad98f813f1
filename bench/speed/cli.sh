#!/usr/bin/env bash
# End-to-end command-line throughput against the interpreter's own, as the
# issue measured it: the wall time of whole `qforge run` and `qforge
# calibrate` processes over N and over N/10 random float samples (one .npy
# each); per sample = (T_N - T_N/10) / (0.9 N), so start-up, model load and
# prepare (the fixed cost, reported beside it) cancel out. N is 800 for
# mobilenet (0.8 ms a sample) and 2000 for vww_96 (0.13 ms): the difference
# must span a few hundred ms, or the 10-20 ms of jitter of a whole process
# on this VM moves a figure by 10-30% (200 vs 20 samples gave 1.13-1.38x
# on vww_96 over one day; 400 vs 40 once put mobilenet's paired ratio at
# 0.89x, and at 1.08x the next run). Each time is the fastest
# of 9 runs (farm-bench when it is on PATH, else one timed run).
# Against model_bench on the same model (plain for run, with statistics for
# calibrate), at 1 and 2 threads, two ways: paired, whole model_bench
# processes feeding one sample N and N/10 times, alternated with the
# command's runs and differenced the same way (the machine's speed drifts by
# 10-20% over minutes, so only alternation compares like with like); and
# model_bench's own best and median of 50 repeats of one sample.
# Usage: bench/speed/cli.sh [BUILD_DIR]   writes bench/speed/cli.md
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
corpus=$root/../shared/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$build/cmd/qforge" "$build/bench/model_bench" "$tmp/"
npy() {  # npy OUT d0 d1 ...: float32 uniform in [-1, 1), fixed seed
  node -e '
    const fs = require("fs");
    const [out, ...dims] = process.argv.slice(1);
    const n = dims.reduce((a, b) => a * b, 1);
    let h = `{"descr": "<f4", "fortran_order": False, "shape": (${dims.join(", ")}), }`.replace(/"/g, "\x27");
    while ((10 + h.length + 1) % 64) h += " ";
    h += "\n";
    const pre = Buffer.alloc(10);
    pre.write("\x93NUMPY", 0, "latin1"); pre[6] = 1; pre.writeUInt16LE(h.length, 8);
    const d = new Float32Array(n);
    let s = 12345;
    for (let i = 0; i < n; ++i) { s = (s * 1103515245 + 12345) >>> 0; d[i] = (s / 4294967296) * 2 - 1; }
    fs.writeFileSync(out, Buffer.concat([pre, Buffer.from(h, "latin1"), Buffer.from(d.buffer)]));
  ' "$@"
}
wall() {  # "fastest median" wall seconds of a command (farm-bench, 9 runs)
  if command -v farm-bench >/dev/null 2>&1; then
    farm-bench -n 9 --timeout 300 -- "$@" 2>&1 | awk '/^A wall s/ {print $4, $5}'
  else
    local s e
    s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
    echo "$(echo "$e - $s" | bc -l) $(echo "$e - $s" | bc -l)"
  fi
}
paired() {  # "cmd_median mb_median": a command and model_bench, alternated
  local mbcmd=$1; shift
  if command -v farm-bench >/dev/null 2>&1; then
    farm-bench -n 11 --timeout 600 --vs "$mbcmd" -- "$@" 2>&1 |
      awk '/^A wall s/ {a = $5} /^B wall s/ {b = $5} END {print a, b}'
  else
    echo "- -"
  fi
}
mb() {  # model_bench "best median" ms of one sample: model, threads, stats 0|1
  "$tmp/model_bench" "$1" --batch 1 --threads "$2" --repeat 50 --stats "$3" |
    node -e 'const j = JSON.parse(require("fs").readFileSync(0, "utf8"));
      console.log(j.ms_per_sample, j.ms_per_sample_median)'
}
rows=()
for entry in "tflite-support/mobilenet_v1_0.25_224_1_metadata_1.tflite 800 224 224 3" \
             "mlperf-tiny/vww_96_float.tflite 2000 96 96 3"; do
  set -- $entry
  model=$corpus/models/$1
  big=$2
  small=$((big / 10))
  npy "$tmp/x$big.npy" "$big" "$3" "$4" "$5"
  npy "$tmp/x$small.npy" "$small" "$3" "$4" "$5"
  for t in 1 2; do
    for cmd in run calibrate; do
      stats=0; [ "$cmd" = calibrate ] && stats=1
      times=(); pairs=()
      for n in $big $small; do
        if [ "$cmd" = run ]; then
          args=(run "$model" --data "$tmp/x$n.npy" --output-dir "$tmp/out")
        else
          args=(calibrate "$model" --data "$tmp/x$n.npy" -o "$tmp/stats.json")
        fi
        times+=("$(wall "$tmp/qforge" -q "${args[@]}" --threads "$t")")
        pairs+=("$(paired "$tmp/model_bench $model --batch 1 --threads $t --repeat $n --stats $stats" \
                   "$tmp/qforge" -q "${args[@]}" --threads "$t")")
      done
      read -r best med <<< "$(mb "$model" "$t" "$stats")"
      rows+=("$(basename "$1" .tflite)|$big|$t|$cmd|${times[0]}|${times[1]}|${pairs[0]}|${pairs[1]}|$best|$med")
    done
  done
done
{
  echo "\`bench/speed/cli.sh\`, $(date -u +%Y-%m-%dT%H:%MZ)," \
    "$(git -C "$root" rev-parse --short HEAD); $(nproc) cores," \
    "load $(cut -d' ' -f1-3 /proc/loadavg). Float32 samples, one .npy of N."
  echo
  echo "- **per sample** = (T_N - T_N/10) / (0.9 N) of whole processes, so start-up,"
  echo "  model load and prepare (**fixed** = T_N/10 - N/10 x per sample) cancel out;"
  echo "  T is the fastest of 9 runs."
  echo "- **paired**: the command and \`model_bench --repeat N\` (the same model,"
  echo "  threads and statistics, one sample fed N times) alternate, 11 pairs of each"
  echo "  size, and both per-sample times come from the medians the same way: the same"
  echo "  minutes of this shared machine, and the same kind of figure (a mean over"
  echo "  samples). What differs is reading N samples instead of one."
  echo "- **one sample**: model_bench's best and median of 50 repeats of one sample,"
  echo "  measured after the command (the machine's speed drifts by 10-20% over minutes)."
  echo
  echo "| model | N | threads | command | ms/sample | paired: command / model_bench ms | paired ratio | one sample: best / median ms | ratio to best / median | fixed ms |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  for row in "${rows[@]}"; do
    IFS='|' read -r name big t cmd tbig tsmall pbig psmall best med <<< "$row"
    read -r tb _ <<< "$tbig"; read -r ts _ <<< "$tsmall"
    read -r pcb pmb <<< "$pbig"; read -r pcs pms <<< "$psmall"
    awk -v n="$name" -v N="$big" -v t="$t" -v cmd="$cmd" -v tb="$tb" -v ts="$ts" \
        -v pcb="$pcb" -v pmb="$pmb" -v pcs="$pcs" -v pms="$pms" -v best="$best" \
        -v med="$med" 'BEGIN {
      per = (tb - ts) * 1000 / (0.9 * N)
      if (pcb == "-") { paired = "—"; pr = "—" } else {
        pc = (pcb - pcs) * 1000 / (0.9 * N); pm = (pmb - pms) * 1000 / (0.9 * N)
        paired = sprintf("%.3f / %.3f", pc, pm); pr = sprintf("%.2f", pc / pm) }
      printf "| %s | %d | %s | %s | %.3f | %s | %s | %.3f / %.3f | %.2f / %.2f | %.1f |\n",
        n, N, t, cmd, per, paired, pr, best, med, per / best, per / med,
        ts * 1000 - N / 10 * per }'
  done
} > "$here/cli.md"
cat "$here/cli.md"

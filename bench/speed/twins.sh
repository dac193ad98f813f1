#!/usr/bin/env bash
# Integer inference, qforge vs LiteRT, on every official quantized twin of
# the corpus (../shared/corpus/twins), side by side in one run: batch 1,
# best of 30 runs each (qforge through model_bench, at 1 thread the best of 3
# such runs; LiteRT through bench/litert_time.mjs, the pinned WebAssembly
# build of tests/interop, which runs on one thread: it has no thread
# support, so its time stands for both thread counts).
# Columns: conv-like GOP per sample (CONV_2D, DEPTHWISE_CONV_2D,
# FULLY_CONNECTED), ms per sample, speed-up over LiteRT (LiteRT ms / qforge
# ms: above 1 is faster), qforge's GOP/s, and `--arithmetic xnnpack`'s time
# against the default. Runs under SCHED_FIFO when allowed.
# Usage: bench/speed/twins.sh [BUILD_DIR]   writes bench/speed/twins.md
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
corpus=$root/../shared/corpus
cd "$root"
bash tests/interop/setup.sh >/dev/null
rt=()
if chrt -f 10 true 2>/dev/null; then rt=(chrt -f 10); fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$build/bench/model_bench" "$tmp/model_bench"  # immune to rebuilds
field() { node -e "const l = require('fs').readFileSync(0, 'utf8').split('\n')[0]; \
  try { console.log(JSON.parse(l)['$1']); } catch { console.log('') }"; }
qf() {  # qforge ms (or gflops with $4 = gflops) on $1, $2 threads, arithmetic $3
  "${rt[@]}" "$tmp/model_bench" "$1" --repeat 30 --batch 1 --threads "$2" \
    --arithmetic "$3" 2>/dev/null | field "${4:-ms_per_sample}" || true
}
least() {  # the smaller of two times, either of which may be empty
  if [ -z "$1" ]; then echo "$2"; elif [ -z "$2" ]; then echo "$1"; else
    awk -v a="$1" -v b="$2" 'BEGIN { print (a + 0 < b + 0) ? a : b }'; fi
}
rows="$tmp/rows.txt"
: > "$rows"
while read -r m; do
  name=${m#"$corpus/twins/"}
  lr=$("${rt[@]}" node bench/litert_time.mjs "$m" 30 2>/dev/null |
       field ms_per_sample || true)
  # The default and xnnpack modes alternate over 3 rounds and each keeps its
  # fastest: one pass each put a 0.12 ms model at 1.55x on a noisy moment.
  q1=; qx=
  for _ in 1 2 3; do
    q1=$(least "$q1" "$(qf "$m" 1 tflite)")
    qx=$(least "$qx" "$(qf "$m" 1 xnnpack)")
  done
  gop=$(qf "$m" 1 tflite gop)
  q2=$(qf "$m" 2 tflite)
  echo "$name|$lr|$q1|$q2|$qx|$gop" >> "$rows"
  echo "$name: LiteRT ${lr:-—} ms, qforge ${q1:-—} / ${q2:-—} ms (1/2 threads), xnnpack ${qx:-—} ms" >&2
done < <(find "$corpus/twins" -name '*.tflite' | LC_ALL=C sort)
node - "$rows" "$here/twins.md" \
  "$(date -u +%Y-%m-%dT%H:%MZ)" "$(git rev-parse --short HEAD)" \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')" \
  "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" "${rt:+ (SCHED_FIFO)}" <<'JS'
const fs = require('fs');
const [rowsFile, out, date, commit, cpu, cores, load, fifo] = process.argv.slice(2);
const num = (s) => (s === '' || s === undefined || isNaN(+s) ? null : +s);
const f = (v, d = 3) => (v === null ? '—' : v.toFixed(d));
const lines = [];
const r1 = [], r2 = [], c1 = [], c2 = [], rx = [];
for (const line of fs.readFileSync(rowsFile, 'utf8').trim().split('\n')) {
  const [name, ...cells] = line.split('|');
  const [lr, q1, q2, qx, gop] = cells.map(num);
  const s1 = lr && q1 ? lr / q1 : null;
  const s2 = lr && q2 ? lr / q2 : null;
  const x = q1 && qx ? qx / q1 : null;
  const conv = gop !== null && gop >= 0.01;  // 10 MOP or more
  if (s1 !== null) (conv ? c1 : r1).push(s1);
  if (s2 !== null) (conv ? c2 : r2).push(s2);
  // Below 0.1 ms the ratio of two timings is the timer's noise.
  if (x !== null && q1 >= 0.1) rx.push([name, x]);
  const mop = gop ? (gop * 1000).toFixed(1) : '—';
  const gops = gop && q1 ? ((gop * 1000) / q1).toFixed(1) : '—';
  lines.push(`| ${name} | ${mop} | ${f(lr)} | ${f(q1)} | ${f(s1, 2)} | ${f(q2)} | ${f(s2, 2)} | ${gops} | ${f(x, 2)} |`);
}
const geo = (a) => Math.exp(a.reduce((s, v) => s + Math.log(v), 0) / a.length);
const range = (a) => `${Math.min(...a).toFixed(2)}-${Math.max(...a).toFixed(2)}x (geometric mean ${geo(a).toFixed(2)}x)`;
const all1 = [...c1, ...r1], all2 = [...c2, ...r2];
const worstX = rx.reduce((w, v) => (v[1] > w[1] ? v : w), ['', 0]);
const text = [
  `\`bench/speed/twins.sh\`, ${date}, ${commit}; ${cpu}, ${cores} cores, load ${load}${fifo}.`,
  '',
  '| twin | conv-like MOP | LiteRT ms | qforge ms, 1 thread | speed-up | qforge ms, 2 threads | speed-up | GOP/s, 1 thread | xnnpack / default |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...lines,
  '',
  `qforge is at least as fast as LiteRT on ${all1.filter((v) => v >= 1).length} of ${all1.length} twins both run at 1 thread, ` +
    `and on ${all2.filter((v) => v >= 1).length} of ${all2.length} at 2 threads. On the ${c1.length} convolutional twins ` +
    `(10 MOP or more) the speed-up is ${range(c1)} at 1 thread and ${range(c2)} at 2 threads; ` +
    `on the small ones, where LiteRT's per-call cost dominates, ${range(r1)}. ` +
    `\`--arithmetic xnnpack\` on the ${rx.length} twins that take 0.1 ms or more: ` +
    `${range(rx.map((v) => v[1]))} the default mode's time, the most on ${worstX[0]}. ` +
    '— : the runtime cannot run the model (LiteRT\'s WebAssembly build refuses variable tensors; ' +
    'svdf_quantized\'s state has the wrong shape; single_rsqrt a16w8: the random int16 input of model_bench is negative, which the RSQRT of qforge refuses as the reference kernel of TFLite would).',
  '',
].join('\n');
fs.writeFileSync(out, text);
process.stdout.write(text);
JS

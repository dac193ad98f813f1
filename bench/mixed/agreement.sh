#!/usr/bin/env bash
# Mixed int8/int16x8 models in LiteRT (issue 12): for one model of each corpus
# family with real data, qforge quantizes the first half of the ops (by
# index) in int16x8 and the rest in int8, calibrating on bench/quant_eval's
# calibration samples. On the disjoint evaluation samples, LiteRT and
# `qforge --arithmetic xnnpack run` (qforge's emulation of LiteRT's int8
# arithmetic) run the float and the mixed model (LiteRT: tfjs-tflite for
# stateful models); the table gives each
# one's output SQNR against its own float run, the difference (the interop
# bound of tests/interop/pattern_litert.sh: at most 1 dB, as int8 runs in
# XNNPACK, whose rounding differs by up to 1 LSB), and the SQNR of qforge's
# mixed outputs against LiteRT's (the agreement itself). Writes
# bench/mixed/agreement.md. Exit 1 if a model fails or breaks the bound.
#   bench/mixed/agreement.sh [FILTER]
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
filter=${1:-'^(conv_fc_mnist|trained_lstm|vww_96|mobilenet_v1_0.25_128|mobilenet_v1_0.25_224|palm_detection)$'}
qforge=$root/build/cmd/qforge
[ -x "$qforge" ] || bash scripts/build.sh release qforge >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# quant_eval writes each model's calibration and evaluation inputs (npy).
bash bench/quant_eval/run.sh --schemes int8 --filter "$filter" --jobs 2 \
  --work "$work" --keep --out "$work/out" > "$work/quant_eval.log" 2>&1 || true
[ -f "$work/out/results.json" ] || { tail -20 "$work/quant_eval.log"; exit 1; }
metric() {  # ref.npy cand.npy -> SQNR dB
  node tests/interop/metrics.mjs "$1" "$2" |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s).sqnr_db;console.log(v===null?"inf":v.toFixed(2))})'
}
out=bench/mixed/agreement.md
{
  echo "| model | family | ops int16 / int8 / float | LiteRT dB | qforge run dB | |diff| | qforge vs LiteRT dB |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
} > "$work/table"
failed=0
while read -r id model; do
  d=$work/$id
  calib=$d/calib_npy/input_0.npy
  eval=$d/eval/data/input_0.npy
  if [ ! -f "$calib" ] || [ ! -f "$eval" ] || [ -f "$d/calib_npy/input_1.npy" ]; then
    echo "| $id | — | not run: needs one input with npy data | | | | |" >> "$work/table"
    continue
  fi
  m=../shared/corpus/$model
  family=$(echo "$model" | cut -d/ -f2)
  n=$("$qforge" inspect "$m" --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).subgraphs[0].ops))')
  flags=()
  for ((i = 0; i < n / 2; i++)); do flags+=(--int16-op "$i"); done
  if ! "$qforge" quantize "$m" --data "$calib" "${flags[@]}" -o "$d/mixed.tflite" \
       --save-recipe "$d/mixed.json" -q 2> "$d/quantize.log"; then
    echo "| $id | $family | quantize failed: $(head -c 200 "$d/quantize.log") | | | | |" >> "$work/table"
    failed=1; continue
  fi
  counts=$(node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).rules;
const c = (p) => r.filter((x) => p.includes(x.precision)).length;
console.log(`${c(["int16"])} / ${c(["int8", "int4"])} / ${c(["float", "float16", "float32"])}`);' "$d/mixed.json")
  ok=1
  for which in float mixed; do
    f=$m; [ "$which" = mixed ] && f=$d/mixed.tflite
    "$qforge" --arithmetic xnnpack run "$f" --data "$eval" \
      --output-dir "$d/qf_$which" --save-inputs "$d/in" -q || ok=0
    node tests/interop/run_model.mjs "$f" --runtime auto --samples \
      --input "$d/in/input_0.npy" --out-dir "$d/lr_$which" > "$d/lr_$which.log" || ok=0
  done
  if [ "$ok" = 0 ]; then
    echo "| $id | $family | $counts | run failed: $(head -c 200 "$d/lr_mixed.log") | | | |" >> "$work/table"
    failed=1; continue
  fi
  lr=$(metric "$d/lr_float/output_0.npy" "$d/lr_mixed/output_0.npy")
  qf=$(metric "$d/qf_float/output_0.npy" "$d/qf_mixed/output_0.npy")
  agree=$(metric "$d/lr_mixed/output_0.npy" "$d/qf_mixed/output_0.npy")
  diff=$(node -e 'const [a,b]=process.argv.slice(1).map(Number);console.log(Math.abs(a-b).toFixed(2))' "$lr" "$qf")
  node -e 'process.exit(Number(process.argv[1]) <= 1 ? 0 : 1)' "$diff" || failed=1
  echo "| $id | $family | $counts | $lr | $qf | $diff | $agree |" >> "$work/table"
done < <(node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
for (const m of r.models) console.log(m.id, m.model);' "$work/out/results.json")
{
  echo "Mixed int8/int16x8 models in LiteRT and \`qforge run\` (\`bench/mixed/agreement.sh\`, $(date -u +%Y-%m-%d), $(git rev-parse --short HEAD)):"
  echo "output 0's SQNR against the float model on the evaluation samples, each runtime against its own float run."
  echo
  cat "$work/table"
} > "$out"
cat "$out"
exit "$failed"

#!/usr/bin/env bash
# Weight rounding (docs/recovery.md, "Weight rounding") on int4 per-channel
# weights (quantize --weight-bits 4: CONV_2D, DEPTHWISE_CONV_2D and
# FULLY_CONNECTED, int8 activations): nearest rounding, the clipping search
# (--weight-clip mse), GPTQ (--gptq), both, activation-aware scaling
# (--awq), GPTQ with bias correction (--optimize accuracy on int4 layers)
# and bias correction with AdaRound (what it was before), on corpus models with trained weights and real data; output
# SQNR in LiteRT on held-out samples (bench/quant_eval, one split:
# calibration and evaluation samples disjoint). Then the same variants on a
# SYNTHETIC decoder block (make_decoder_block: random weights, outlier
# input channels), measured in qforge's interpreter (qforge report) on 32
# held-out random inputs. trained_lstm is left out: LiteRT.js 2.5.3 has no
# int4 FULLY_CONNECTED (version 10) kernel and refuses its int4 models. Writes bench/weights/rounding.md and
# rounding.json.
#   bench/weights/rounding.sh [FILTER]
set -euo pipefail
cd "$(dirname "$0")/../.."
filter=${1:-'^(hello_world_no_quant|conv_fc_mnist|model_ToyCar|vww_96|pretrainedResnet|mobilenet_v1_0.25_128)$'}
qforge=${QFORGE:-build/cmd/qforge}
# --keep-integer: the int4 forms even where the planner would keep an op
# float because XNNPACK runs the float op faster.
w4='--weight-bits 4 --keep-integer'
variants=(
  w4="$w4"
  w4clip="$w4 --weight-clip mse"
  w4gptq="$w4 --gptq"
  w4gptqclip="$w4 --gptq --weight-clip mse"
  w4awq="$w4 --awq"
  w4gptqbc="$w4 --gptq --bias-correction"
  w4bcada="$w4 --bias-correction --adaround --adaround-iterations 2000"
)
out=$(mktemp -d)
args=()
for v in "${variants[@]}"; do args+=(--variant "$v"); done
bash bench/quant_eval/run.sh --qforge "$qforge" --schemes int8 \
  --filter "$filter" "${args[@]}" --jobs 1 --variant-threads 2 \
  --timeout 900 --out "$out" > "$out/log" 2>&1 || {
  echo "quant_eval reported failures (the table shows them):"; tail -5 "$out/log"; }
# The synthetic decoder block.
gen=$(dirname "$qforge")/../bench/make_decoder_block
dec="$out/decoder"
mkdir -p "$dec"
"$gen" "$dec/block.tflite" "$dec/calib.npy" "$dec/eval.npy"
decoder_json="$dec/results.json"
echo '{' > "$decoder_json"
first=1
for v in "${variants[@]}"; do
  name=${v%%=*}
  flags=${v#*=}
  # shellcheck disable=SC2086
  "$qforge" quantize "$dec/block.tflite" -o "$dec/$name.tflite" \
    --data "$dec/calib.npy" $flags --threads 2 > "$dec/$name.log" 2>&1
  "$qforge" report "$dec/block.tflite" "$dec/$name.tflite" \
    --data "$dec/eval.npy" --format json -o "$dec/$name.report.json"
  [ $first = 1 ] || echo ',' >> "$decoder_json"
  first=0
  printf '"%s": {"flags": "%s", "report": %s, "log": %s}' "$name" "$flags" \
    "$(cat "$dec/$name.report.json")" \
    "$(node -e 'console.log(JSON.stringify(require("fs").readFileSync(process.argv[1], "utf8")))' "$dec/$name.log")" \
    >> "$decoder_json"
done
echo '}' >> "$decoder_json"
node -e '
const fs = require("fs");
const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
r.decoder_block = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
fs.writeFileSync(process.argv[3], JSON.stringify(r, null, 1) + "\n");
' "$out/results.json" "$decoder_json" bench/weights/rounding.json
node bench/weights/rounding_table.mjs bench/weights/rounding.json \
  > bench/weights/rounding.md
cat bench/weights/rounding.md

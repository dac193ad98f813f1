#!/usr/bin/env bash
# Weight rounding on the weight-only and dynamic forms (docs/recovery.md,
# docs/weight-forms.md): form (weight-only int8 as the reference,
# weight-only int4, dynamic int4) x block size (per channel, 32, 128) x
# rounding (nearest, --weight-clip mse, --gptq, --awq, --awq-mul, and --optimize
# accuracy, which measures those and their pairs and keeps the best). Writes
# bench/weights/forms_rounding.json and forms_rounding.md (the table and the
# headline numbers, computed by forms_rounding_table.mjs).
#
#   bench/weights/forms_rounding.sh [--filter REGEX] [--qforge BIN]
#
# Part 1, corpus models with trained weights and real data (bench/quant_eval:
# the rounding methods fit on the calibration samples, SQNR against the float
# model on the held-out samples, both run in LiteRT). Weight-only blocks
# apply to EMBEDDING_LOOKUP tables only (LiteRT's DEQUANTIZE has no
# blockwise form), which none of these models has, so weight-only int4 is
# per channel only. Part 2, the SYNTHETIC decoder block of
# make_decoder_block (random weights, a few outlier input channels): the
# methods fit on its 32 calibration inputs, SQNR in LiteRT on its 32
# evaluation inputs.
set -euo pipefail
cd "$(dirname "$0")/../.."
filter='^(model_ToyCar|conv_fc_mnist|trained_lstm|hello_world_no_quant|mobilenet_v1_0.25_128|hand_landmark_2020)$'
qforge=build/cmd/qforge
while [ $# -gt 0 ]; do
  case $1 in
    --qforge) qforge=$2; shift 2 ;;
    --filter) filter=$2; shift 2 ;;
    *) echo "usage: $0 [--filter REGEX] [--qforge BIN]" >&2; exit 2 ;;
  esac
done
forms=(
  "wo8|--scheme weight-only --weight-bits 8"
  "wo4|--scheme weight-only --weight-bits 4"
  "dyn4|--scheme dynamic --weight-bits 4"
  "dyn4_b32|--scheme dynamic --weight-bits 4 --block-size 32"
  "dyn4_b128|--scheme dynamic --weight-bits 4 --block-size 128"
)
roundings=("nearest|" "clip|--weight-clip mse" "gptq|--gptq" "awq|--awq"
           "awqmul|--awq-mul" "opt|--optimize accuracy")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
variants=()
for r in "${roundings[@]}"; do
  for f in "${forms[@]}"; do
    variants+=(--variant "${f%%|*}.${r%%|*}=${f#*|} ${r#*|}")
  done
done
bash bench/quant_eval/run.sh --qforge "$qforge" --schemes float16 \
  --filter "$filter" "${variants[@]}" --jobs 1 --variant-threads 2 \
  --timeout 900 --out "$work/real" > "$work/real.log" 2>&1 ||
  # Exit code 1: a form LiteRT could not run, which the table shows.
  [ $? = 1 ] || { tail -20 "$work/real.log"; exit 1; }
# Part 2: the synthetic decoder block.
gen=$(dirname "$qforge")/../bench/make_decoder_block
dec=$work/decoder
mkdir -p "$dec"
"$gen" "$dec/block.tflite" "$dec/calib.npy" "$dec/eval.npy"
run=tests/interop/run_model.mjs
node "$run" "$dec/block.tflite" --runtime litert --input "$dec/eval.npy" \
  --samples --out-dir "$dec/float" > /dev/null
echo '[' > "$dec/rows.json"
first=1
for r in "${roundings[@]}"; do
  for f in "${forms[@]}"; do
    name=${f%%|*}.${r%%|*}
    flags="${f#*|} ${r#*|}"
    row="{\"variant\": \"$name\", \"flags\": \"$flags\""
    # shellcheck disable=SC2086
    if "$qforge" quantize "$dec/block.tflite" -o "$dec/$name.tflite" \
        --data "$dec/calib.npy" $flags --threads 2 > "$dec/$name.log" 2>&1; then
      row+=", \"bytes\": $(stat -c %s "$dec/$name.tflite")"
      if node "$run" "$dec/$name.tflite" --runtime litert --input "$dec/eval.npy" \
          --samples --out-dir "$dec/$name" > "$dec/$name.lr" 2>&1; then
        row+=", \"ok\": true, \"sqnr_db\": $(node --input-type=module -e "
import { readNpy } from './tests/interop/lib/npy.mjs';
const f = (p) => { const x = readNpy(p); return new Float32Array(x.bytes.buffer, x.bytes.byteOffset, x.bytes.byteLength / 4); };
const a = f('$dec/float/output_0.npy'), b = f('$dec/$name/output_0.npy');
let s = 0, e = 0; for (let i = 0; i < a.length; i++) { s += a[i] * a[i]; e += (a[i] - b[i]) ** 2; }
console.log(e === 0 ? '\"inf\"' : 10 * Math.log10(s / e));")"
      else
        row+=", \"ok\": false, \"error\": $(node -e 'console.log(JSON.stringify(require("fs").readFileSync(process.argv[1], "utf8").slice(0, 300)))' "$dec/$name.lr")"
      fi
    else
      row+=", \"quantize_error\": $(node -e 'console.log(JSON.stringify(require("fs").readFileSync(process.argv[1], "utf8").slice(-300)))' "$dec/$name.log")"
    fi
    row+=", \"notes\": $(node -e 'console.log(JSON.stringify(require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter((l) => /^(gptq|awq|weight-clip|optimize)/.test(l))))' "$dec/$name.log")}"
    [ $first = 1 ] || echo ',' >> "$dec/rows.json"
    first=0
    echo "$row" >> "$dec/rows.json"
  done
done
echo ']' >> "$dec/rows.json"
node -e '
const fs = require("fs");
const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
r.decoder_block = { float_bytes: fs.statSync(process.argv[3]).size,
                    rows: JSON.parse(fs.readFileSync(process.argv[2], "utf8")) };
fs.writeFileSync(process.argv[4], JSON.stringify(r, null, 1) + "\n");
' "$work/real/results.json" "$dec/rows.json" "$dec/block.tflite" \
  bench/weights/forms_rounding.json
node bench/weights/forms_rounding_table.mjs bench/weights/forms_rounding.json \
  > bench/weights/forms_rounding.md
cat bench/weights/forms_rounding.md

#!/usr/bin/env bash
# Models qforge writes in the forms that used to break LiteRT: the legality
# issue's two patterns (testdata/patterns) in int8 and int16x8, and mixed
# int8/int16x8 models (--int16-op, --int8-op, --recipe). qforge quantizes
# each with exit 0, the written model runs in LiteRT on the same inputs,
# its output SQNR against the float model (both in LiteRT) is at least
# 20 dB, and qforge's report agrees with LiteRT's within 1 dB (int8 runs in
# XNNPACK, whose rounding differs by up to 1 LSB).
# Usage: pattern_litert.sh QFORGE TESTDATA_DIR. Exit 77 without Node.js.
set -uo pipefail
source "$(dirname "$0")/prelude.sh"
p=$testdata/patterns
passed=0 failed=0
check() {  # name model scheme "quantize flags" data...
  local name=$1 model=$2 scheme=$3
  local qflags=()
  read -r -a qflags <<< "$4"
  shift 4
  local w=$work/$name-$scheme
  mkdir -p "$w"
  if ! "$qforge" quantize "$model" "$@" --scheme "$scheme" "${qflags[@]}" \
       -o "$w/q.tflite" \
       --report "$w/report.json" -q 2> "$w/quantize.log"; then
    echo "FAIL $name $scheme: quantize: $(head -c 300 "$w/quantize.log")"
    failed=$((failed + 1)); return
  fi
  "$qforge" run "$model" "$@" --output-dir "$w/float_qf" --save-inputs \
    "$w/in" -q || { failed=$((failed + 1)); return; }
  local inputs=()
  for f in "$w"/in/input_*.npy; do inputs+=(--input "$f"); done
  local m
  for m in float q; do
    local path=$model
    [ "$m" = q ] && path=$w/q.tflite
    if ! node "$here/run_model.mjs" "$path" --runtime litert --samples \
         "${inputs[@]}" --out-dir "$w/$m" > "$w/$m.log"; then
      echo "FAIL $name $scheme: LiteRT cannot run $m: $(head -c 300 "$w/$m.log")"
      failed=$((failed + 1)); return
    fi
  done
  local litert
  litert=$(node "$here/metrics.mjs" "$w/float/output_0.npy" \
           "$w/q/output_0.npy") || { failed=$((failed + 1)); return; }
  if node --input-type=module -e "
import { readFileSync } from 'node:fs';
const r = JSON.parse(readFileSync('$w/report.json', 'utf8')).outputs[0];
const l = $litert;
const diff = Math.abs(r.sqnr_db - l.sqnr_db);
const ok = diff <= 1 && l.sqnr_db >= 20;
console.log((ok ? 'ok  ' : 'FAIL') + ' $name $scheme: LiteRT ' +
  l.sqnr_db.toFixed(2) + ' dB (>= 20), report ' + r.sqnr_db.toFixed(2) +
  ' dB (|diff| ' + diff.toFixed(2) + ' <= 1)');
process.exit(ok ? 0 : 1);"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
}
for scheme in int8 int16x8; do
  check masked_attention "$p/masked_attention.tflite" "$scheme" "" \
    --data "x=$p/masked_attention_x.npy" --data "mask=$p/masked_attention_mask.npy"
  check log_eps "$p/log_eps.tflite" "$scheme" "" --data "$p/log_eps_x.npy"
done
mnist=("--data" "$testdata/mnist/*.png" "--scale" "0.003921569")
mnist_model=$testdata/models/conv_fc_mnist.tflite
check mixed_int16_conv "$mnist_model" int8 "--int16-op CONV_2D" "${mnist[@]}"
check mixed_int8_fc "$mnist_model" int16x8 "--int8-op FULLY_CONNECTED" "${mnist[@]}"
check mixed_recipe "$mnist_model" int8 "--recipe $testdata/recipes/mnist_mixed.json" \
  "${mnist[@]}"
check target_sqnr "$mnist_model" int8 "--target-sqnr 55" "${mnist[@]}"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

#!/usr/bin/env bash
# Standalone RELUs folded into the op before them (quantizer/
# fold_activations.h) on a real model: the bundled face_detection_short_range
# (17 standalone RELUs after ADD), calibrated on the bundled photos. The
# default int8 model has no RELU left and no DEQUANTIZE of an activation
# but the two where the int8 body meets the float detector head
# (pipeline/detector_head.h) (before the fold: 17 RELUs kept float between
# 41 QUANTIZE/DEQUANTIZE);
# it runs in LiteRT and qforge's interpreter (--arithmetic xnnpack) agrees
# with LiteRT.
# Usage: fold_litert.sh QFORGE TESTDATA_DIR. Exit 77 without Node.js.
set -uo pipefail
source "$(dirname "$0")/prelude.sh"
model=$testdata/models/face_detection_short_range.tflite
data=(--data "$testdata/data/person.bmp" --data "$testdata/data/shoe_224_224_3.jpeg"
      --mean 127.5 --std 127.5)
"$qforge" quantize "$model" "${data[@]}" -o "$work/int8.tflite" -q || exit 1
fail=0
# Op counts of the written model.
counts=$(cd "$here" && node --input-type=module -e '
import fs from "node:fs";
import {parseModel} from "./lib/tflite.mjs";
const fb = parseModel(new Uint8Array(fs.readFileSync(process.argv[1])));
const ops = fb.subgraphs[0].operators;
const n = (k) => ops.filter((o) => o.name === k).length;
// DEQUANTIZE of a constant is a float16 weight of the float head.
const acts = ops.filter((o) => o.name === "DEQUANTIZE" &&
                               !fb.isConstant(0, o.inputs[0])).length;
console.log(n("RELU"), acts, n("ADD"), n("QUANTIZE"));
' "$work/int8.tflite") || exit 1
read -r relus dequantizes adds quantizes <<< "$counts"
# One DEQUANTIZE per int8 feature map the float head reads (2); the
# QUANTIZE ops are the input's and requantizations between int8 ops.
if [ "$relus" = 0 ] && [ "$dequantizes" = 2 ] && [ "$adds" = 16 ]; then
  echo "ok   ops: RELU $relus, DEQUANTIZE $dequantizes, QUANTIZE $quantizes, ADD $adds"
else
  echo "FAIL ops: RELU $relus (want 0), DEQUANTIZE $dequantizes (want 2), ADD $adds (want 16)"
  fail=$((fail + 1))
fi
"$qforge" run "$work/int8.tflite" "${data[@]}" --arithmetic xnnpack \
  --output-dir "$work/qf" --save-inputs "$work/in" -q || exit 1
if ! node "$here/run_model.mjs" "$work/int8.tflite" --runtime litert --samples \
     --input "$work/in/input_0.npy" --out-dir "$work/litert" > "$work/litert.log"; then
  echo "FAIL LiteRT cannot run it: $(head -c 400 "$work/litert.log")"
  exit 1
fi
for k in 0 1; do
  m=$(node "$here/metrics.mjs" "$work/litert/output_$k.npy" "$work/qf/output_$k.npy")
  # qforge emulates XNNPACK's arithmetic: exact when written (sqnr_db null);
  # within 1 LSB per rounding step otherwise.
  ok=$(node -e "const m=$m; console.log(m.sqnr_db === null || m.sqnr_db >= 40 ? 1 : 0)")
  if [ "$ok" = 1 ]; then echo "ok   output $k qforge vs LiteRT $m"; else echo "FAIL output $k qforge vs LiteRT $m (want >= 40 dB)"; fail=$((fail + 1)); fi
done
echo "$((3 - fail)) passed, $fail failed"
[ "$fail" = 0 ]

#!/usr/bin/env bash
# The report's output SQNR agrees with LiteRT's: the bundled MNIST CNN is
# quantized to int8 on the ten bundled digits; `qforge report` measures the
# output SQNR with qforge's interpreter; LiteRT runs the float and the
# quantized model on the very same input tensors (qforge run
# --save-inputs) and the SQNR of its two outputs must be within 0.5 dB of
# the report's, with the same top-1 agreement.
# Usage: report_litert.sh QFORGE TESTDATA_DIR. Exit 77 without Node.js.
set -uo pipefail
source "$(dirname "$0")/prelude.sh"
model=$testdata/models/conv_fc_mnist.tflite
data=("--data" "$testdata/mnist/*.png" "--scale" "0.003921569")
"$qforge" quantize "$model" "${data[@]}" -o "$work/q.tflite" -q || exit 1
"$qforge" report "$model" "$work/q.tflite" "${data[@]}" -o "$work/report.json" -q || exit 1
"$qforge" run "$model" "${data[@]}" --output-dir "$work/float_qf" \
  --save-inputs "$work/in" -q || exit 1
for m in float q; do
  path=$model
  [ "$m" = q ] && path=$work/q.tflite
  node "$here/run_model.mjs" "$path" --runtime litert --samples \
    --input "$work/in/input_0.npy" --out-dir "$work/$m" > "$work/$m.log" ||
    { echo "FAIL: LiteRT cannot run $path: $(head -c 400 "$work/$m.log")"; exit 1; }
done
litert=$(node "$here/metrics.mjs" "$work/float/output_0.npy" "$work/q/output_0.npy") || exit 1
node --input-type=module -e "
import { readFileSync } from 'node:fs';
const r = JSON.parse(readFileSync('$work/report.json', 'utf8')).outputs[0];
const l = $litert;
const diff = Math.abs(r.sqnr_db - l.sqnr_db);
const top1 = r.top1_agree / r.agreement_samples;
const ok = diff <= 0.5 && top1 === l.top1_agreement;
console.log((ok ? 'ok  ' : 'FAIL') + ' report SQNR ' + r.sqnr_db.toFixed(2) +
  ' dB, LiteRT ' + l.sqnr_db.toFixed(2) + ' dB (|diff| ' + diff.toFixed(3) +
  ' <= 0.5); top-1 ' + top1 + ' vs ' + l.top1_agreement);
console.log(ok ? '1 passed, 0 failed' : '0 passed, 1 failed');
process.exit(ok ? 0 : 1);
"

#!/usr/bin/env bash
# qforge quantize output runs in LiteRT, close to the float model: the
# bundled MNIST CNN, calibrated on the bundled digits, in all four schemes
# and with int4 weights; float and quantized models run in LiteRT on the same
# inputs. The int4 model also runs in qforge, which must agree with LiteRT.
# Usage: quantize_litert.sh QFORGE TESTDATA_DIR. Exit 77 without Node.js.
set -uo pipefail
source "$(dirname "$0")/prelude.sh"
model=$testdata/models/conv_fc_mnist.tflite
data=("--data" "$testdata/mnist/*.png" "--scale" "0.003921569")
"$qforge" run "$model" "${data[@]}" --output-dir "$work/float_qf" \
  --save-inputs "$work/in" -q || exit 1
node "$here/run_model.mjs" "$model" --runtime litert --samples \
  --input "$work/in/input_0.npy" --out-dir "$work/float" > /dev/null || exit 1
"$qforge" calibrate "$model" "${data[@]}" -o "$work/stats.json" -q || exit 1
fail=0
# name, minimum SQNR (dB), minimum top-1 agreement, quantize flags. Measured
# when written: int8 50.9, int16x8 59.6, dynamic 63.6, float16 86.0,
# int4 weights 29.6 dB, int8 with float FULLY_CONNECTED on float16 weights
# 50.6 dB; all top-1 equal.
while read -r scheme min_sqnr min_top1 flags; do
  q=$work/$scheme.tflite
  # shellcheck disable=SC2086
  if ! "$qforge" quantize "$model" --stats "$work/stats.json" $flags \
       -o "$q" -q; then
    echo "FAIL $scheme: quantize failed"; fail=$((fail + 1)); continue
  fi
  if ! node "$here/run_model.mjs" "$q" --runtime litert --samples \
       --input "$work/in/input_0.npy" --out-dir "$work/$scheme" > "$work/$scheme.log"; then
    echo "FAIL $scheme: LiteRT cannot run it: $(head -c 400 "$work/$scheme.log")"
    fail=$((fail + 1)); continue
  fi
  m=$(node "$here/metrics.mjs" "$work/float/output_0.npy" "$work/$scheme/output_0.npy")
  ok=$(node -e "const m=$m; console.log(m.sqnr_db >= $min_sqnr && m.top1_agreement >= $min_top1 ? 1 : 0)")
  if [ "$ok" = 1 ]; then echo "ok   $scheme $m"; else echo "FAIL $scheme $m (want sqnr >= $min_sqnr, top1 >= $min_top1)"; fail=$((fail + 1)); fi
done <<'TABLE'
int8 35 1.0 --scheme int8
int16x8 45 1.0 --scheme int16x8
dynamic 40 1.0 --scheme dynamic
float16 70 1.0 --scheme float16
int4 25 1.0 --scheme int8 --weight-bits 4
f16float 35 1.0 --scheme int8 --float-op FULLY_CONNECTED --float-weights float16
TABLE
# qforge widens int4 weights to int8 when it loads them, as TFLite's
# kernels do in Prepare; its outputs must match LiteRT's.
if [ -f "$work/int4.tflite" ]; then
  "$qforge" run "$work/int4.tflite" --data "$work/in/input_0.npy" \
    --output-dir "$work/int4_qf" -q || exit 1
  m=$(node "$here/metrics.mjs" "$work/int4/output_0.npy" "$work/int4_qf/output_0.npy")
  # Within 2 steps of the softmax output (1/256): XNNPACK runs the other ops
  # (up to 1 LSB per rounding step); measured when written: identical.
  ok=$(node -e "const m=$m; console.log(m.max_abs_error <= 2 / 256 ? 1 : 0)")
  if [ "$ok" = 1 ]; then echo "ok   int4 qforge vs LiteRT $m"; else echo "FAIL int4 qforge vs LiteRT $m"; fail=$((fail + 1)); fi
fi
echo "$((7 - fail)) passed, $fail failed"
[ "$fail" = 0 ]

#!/usr/bin/env bash
# quantize --runtime armnn writes models Arm NN runs (docs/runtimes.md): the
# float models of the corpus' MLPerf Tiny image classifiers with int8 twins
# (and the bundled CNN), quantized
# for Arm NN, run in Debian 12's Arm NN 20.08 (TfLite parser, CpuRef
# backend; ../shared/tools/armnn/run.py) and in LiteRT on held-out samples.
# Arm NN's top-1 class must be LiteRT's on every sample (CpuRef's
# requantization is not TFLite's, so outputs are compared by class).
# Usage: armnn_profile.sh QFORGE TESTDATA CORPUS ARMNN_RUN_PY
# Exit 77 without Arm NN (scripts/install_deps.sh installs it) or Node.js.
set -uo pipefail
if ! /usr/bin/python3 -c 'import pyarmnn' > /dev/null 2>&1; then
  echo "armnn_profile: SKIP: python3-pyarmnn absent"
  exit 77
fi
source "$(dirname "$0")/prelude.sh"
corpus=$3
armnn=$4
fail=0
pass=0
check() {  # NAME MODEL SCALE CALIB_GLOB EVAL_FILE...
  local name=$1 model=$2 scale=$3 calib=$4
  shift 4
  local q=$work/$name.tflite scale_flag=()
  [ -n "$scale" ] && scale_flag=(--scale "$scale")
  if ! "$qforge" -q quantize "$model" --data "$calib" "${scale_flag[@]}" \
       --runtime armnn -o "$q" 2> "$work/err"; then
    echo "FAIL $name: quantize: $(tail -1 "$work/err")"
    fail=$((fail + 1)); return
  fi
  local k=0 agree=0
  for f in "$@"; do
    local d=$work/$name.$k
    k=$((k + 1))
    "$qforge" -q run "$model" --data "$f" "${scale_flag[@]}" \
      --output-dir "$d/float" --save-inputs "$d" > /dev/null || {
      echo "FAIL $name: input $f"; fail=$((fail + 1)); return; }
    if ! /usr/bin/python3 "$armnn" "$q" --input "$d/input_0.npy" \
         --out-dir "$d/armnn" > "$d/armnn.json" 2> /dev/null ||
       ! grep -q '"ok": true' "$d/armnn.json"; then
      echo "FAIL $name: Arm NN: $(head -c 400 "$d/armnn.json")"
      fail=$((fail + 1)); return
    fi
    if ! node "$here/run_model.mjs" "$q" --runtime litert \
         --input "$d/input_0.npy" --out-dir "$d/litert" > "$d/litert.json"; then
      echo "FAIL $name: LiteRT: $(head -c 400 "$d/litert.json")"
      fail=$((fail + 1)); return
    fi
    local m
    m=$(node "$here/metrics.mjs" "$d/litert/output_0.npy" "$d/armnn/output_0.npy") || {
      echo "FAIL $name: compare"; fail=$((fail + 1)); return; }
    agree=$((agree + $(node -e "console.log(($m).top1_agreement === 1 ? 1 : 0)")))
  done
  if [ "$agree" != "$#" ]; then
    echo "FAIL $name: Arm NN's top-1 equals LiteRT's on $agree of $# samples"
    fail=$((fail + 1)); return
  fi
  echo "ok   $name: runs in Arm NN, top-1 as LiteRT's on $# samples"
  pass=$((pass + 1))
}
mnist=$testdata/mnist
check mnist "$testdata/models/conv_fc_mnist.tflite" 0.003921569 \
  "$mnist/sample[0-4].png" "$mnist"/sample[5-9].png
if [ -d "$corpus/models" ]; then
  person=$corpus/data/tflite-micro/tensorflow/lite/micro/examples/person_detection/testdata
  hands=$corpus/data/mediapipe/mediapipe/model_maker/python/vision/gesture_recognizer/testdata/raw_data
  photos=("$hands"/rock/*.jpg)
  for m in vww_96_float vww_96_14blk_836k_float; do
    check "$m" "$corpus/models/mlperf-tiny/$m.tflite" 0.003921569 \
      "$corpus/data/coral/*.bmp" "$person/person.bmp" "$person/no_person.bmp" \
      "${photos[@]:0:2}"
  done
  for m in pretrainedResnet trainedResnet_6blk_750k_float; do
    check "$m" "$corpus/models/mlperf-tiny/$m.tflite" "" \
      "$corpus/data/coral/*.bmp" "${photos[@]:0:4}"
  done
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

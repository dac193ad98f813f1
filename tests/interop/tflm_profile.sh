#!/usr/bin/env bash
# quantize --runtime tflm writes models TensorFlow Lite Micro runs
# (docs/runtimes.md): the bundled CNN and corpus models, int8 and int16x8,
# quantized for TFLM, run in TFLM's reference kernels
# (../shared/tools/tflm/bin/tflm_run, tflite-micro @90b983c2) on held-out
# samples; their outputs must equal qforge's with --rounding double (TFLM
# requantizes with double rounding) bit for bit. A model with an op TFLM
# cannot run in integer is refused with exit 3.
# Usage: tflm_profile.sh QFORGE TESTDATA CORPUS TFLM_RUN
# Exit 77 when tflm_run is absent (it is prebuilt for Debian 12 x86-64).
set -uo pipefail
qforge=$1
testdata=$2
corpus=$3
tflm=$4
if [ ! -x "$tflm" ]; then
  echo "tflm_profile: SKIP: $tflm absent"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
pass=0
# One sample's float input as qforge feeds it, in DIR/input_0.npy.
sample() {  # MODEL FILE SCALE DIR
  local scale=()
  [ -n "$3" ] && scale=(--scale "$3")
  "$qforge" -q run "$1" --data "$2" "${scale[@]}" --output-dir "$4/out" \
    --save-inputs "$4" > /dev/null
}
check() {  # NAME MODEL SCHEME SCALE CALIB_GLOB EVAL_FILE...
  local name=$1 model=$2 scheme=$3 scale=$4 calib=$5
  shift 5
  local q=$work/$name.$scheme.tflite scale_flag=()
  [ -n "$scale" ] && scale_flag=(--scale "$scale")
  if ! "$qforge" -q quantize "$model" --data "$calib" "${scale_flag[@]}" \
       --runtime tflm --scheme "$scheme" -o "$q" 2> "$work/err"; then
    echo "FAIL $name $scheme: quantize: $(tail -1 "$work/err")"
    fail=$((fail + 1)); return
  fi
  local k=0
  for f in "$@"; do
    local d=$work/$name.$k
    k=$((k + 1))
    sample "$model" "$f" "$scale" "$d" || { echo "FAIL $name: input"; fail=$((fail + 1)); return; }
    if ! "$tflm" "$q" --input "$d/input_0.npy" --out-dir "$d/tflm" > "$d/tflm.json"; then
      echo "FAIL $name $scheme: TFLM: $(head -c 400 "$d/tflm.json")"
      fail=$((fail + 1)); return
    fi
    "$qforge" -q --rounding double run "$q" --data "$d/input_0.npy" \
      --output-dir "$d/qf" > /dev/null || { echo "FAIL $name: qforge run"; fail=$((fail + 1)); return; }
    for o in "$d"/tflm/output_*.npy; do
      if ! cmp -s "$o" "$d/qf/$(basename "$o")"; then
        echo "FAIL $name $scheme: $(basename "$f") $(basename "$o") differs from qforge --rounding double"
        fail=$((fail + 1)); return
      fi
    done
  done
  echo "ok   $name $scheme: runs in TFLM, $# samples bit-exact with qforge"
  pass=$((pass + 1))
}
mnist=$testdata/mnist
check mnist "$testdata/models/conv_fc_mnist.tflite" int8 0.003921569 \
  "$mnist/sample[0-4].png" "$mnist/sample5.png" "$mnist/sample9.png"
check mnist "$testdata/models/conv_fc_mnist.tflite" int16x8 0.003921569 \
  "$mnist/sample[0-4].png" "$mnist/sample5.png" "$mnist/sample9.png"
if [ -d "$corpus/models" ]; then
  person=$corpus/data/tflite-micro/tensorflow/lite/micro/examples/person_detection/testdata
  hands=$corpus/data/mediapipe/mediapipe/model_maker/python/vision/gesture_recognizer/testdata/raw_data
  for scheme in int8 int16x8; do
    check vww_96 "$corpus/models/mlperf-tiny/vww_96_float.tflite" "$scheme" \
      0.003921569 "$corpus/data/coral/*.bmp" "$person/person.bmp" "$person/no_person.bmp"
  done
  # pets.jpg: one of the samples where TFLM's int16 FULLY_CONNECTED
  # (fixed-point multiplier) and the float scale differ by 1 LSB.
  for scheme in int8 int16x8; do
    check resnet8 "$corpus/models/mlperf-tiny/pretrainedResnet.tflite" \
      "$scheme" "" "$corpus/data/coral/*.bmp" \
      "$hands/rock/$(ls "$hands/rock" | head -1)" "$corpus/data/coral/pets.jpg"
  done
  check palm_detection "$corpus/models/mediapipe/palm_detection.tflite" int8 \
    0.003921569 "$hands/four/*.jpg" "$hands/rock/$(ls "$hands/rock" | head -1)"
  # PRELU has no int16 kernel in TFLM (and no int16x8 form in qforge): the
  # int16x8 palm detector cannot be integer-only there.
  if "$qforge" -q quantize "$corpus/models/mediapipe/palm_detection.tflite" \
       --data "$hands/four/*.jpg" --scale 0.003921569 --runtime tflm \
       --scheme int16x8 -o "$work/palm16.tflite" 2> "$work/err"; then
    echo "FAIL palm_detection int16x8: written, but TFLM has no int16 PRELU"
    fail=$((fail + 1))
  elif [ "$(grep -c 'runtime tflm' "$work/err")" = 0 ]; then
    echo "FAIL palm_detection int16x8: $(tail -1 "$work/err")"
    fail=$((fail + 1))
  else
    echo "ok   palm_detection int16x8 refused: $(tail -c 160 "$work/err")"
    pass=$((pass + 1))
  fi
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

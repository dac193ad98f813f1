#!/usr/bin/env bash
# FoldActivationsTest.RealModelsBitIdentical on the corpus models
# with standalone RELUs (docs/quantization.md, quantizer/fold_activations.h):
# each is calibrated on the corpus photos, quantized to int8 with its RELUs
# folded, and must compute bit for bit what the same model with them
# unfolded again computes.
#   fold_real_models.sh QFORGE QUANTIZER_TESTS CORPUS
set -euo pipefail
qforge=$1 tests=$2 corpus=$3
[ -d "$corpus/models/mediapipe" ] || { echo "no corpus at $corpus"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# name, model, pixel scaling (the model's input range: [-1, 1] or [0, 1]).
signed=(--mean 127.5 --std 127.5)
unit=(--std 255)
check=
add() {
  local name=$1 model=$2
  shift 2
  "$qforge" -q calibrate "$corpus/models/mediapipe/$model" \
    --data "$corpus/data/coral/*.bmp" "$@" --threads 2 -o "$work/$name.json"
  check+="$corpus/models/mediapipe/$model|$work/$name.json;"
}
add fd_short face_detection_short_range.tflite "${signed[@]}"
add fd_front face_detection_front.tflite "${signed[@]}"
add fd_back face_detection_back.tflite "${signed[@]}"
add fd_full face_detection_full_range.tflite "${signed[@]}"
add hand_3d hand_landmark_3d.tflite "${unit[@]}"
add hand_2020_05 hand_landmark__20200521.tflite "${unit[@]}"
add pose pose_detection__20201209.tflite "${signed[@]}"
add selfie selfie_segmentation_landscape.tflite "${unit[@]}"
QFORGE_FOLD_CHECK=$check "$tests" \
  --gtest_filter=FoldActivationsTest.RealModelsBitIdentical 2>&1 | tee "$work/log"
# A skip is a failure here: the check must have run.
! grep -q '\[  SKIPPED \]' "$work/log"

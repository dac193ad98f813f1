#!/usr/bin/env bash
# Byte identity of qforge's outputs across a change (refactors must keep them): runs
# a fixed list of commands (quantize with each search and recovery option,
# --save-recipe, calibrate / merge-stats, report JSON on five corpus models
# with real data) and prints "sha256  output" for every file they write.
# Usage: commands.sh QFORGE [CORPUS] > hashes.txt
# Two binaries give the same list when the change kept every output.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
qf=$(readlink -f "$1")
corpus=$(readlink -f "${2:-../shared/corpus}")
# Reports name the models by path: outputs go to relative paths in a
# folder of their own, so two runs name them alike.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
d=$corpus/data
m=$corpus/models
mnist=(--data "$root/testdata/mnist/*.png" --scale 0.003921569)
imagenet=(--data "$d/coral/*.bmp" --mean 127.5 --std 127.5)
person=(--data "$d/tflite-micro/tensorflow/lite/micro/examples/person_detection/testdata/*.bmp"
        --data "$d/coral/squat.bmp" --scale 0.003921569)
hands=(--data "$d/mediapipe/mediapipe/model_maker/python/vision/gesture_recognizer/testdata/raw_data/rock/*.jpg"
       --scale 0.003921569)
portrait=(--data "$d/mediapipe/mediapipe/framework/debug/testdata/sergey.png"
          --data "$d/mediapipe/mediapipe/calculators/video/testdata/lenna.png"
          --data "$d/coral/face.jpg" --data "$d/coral/grace_hopper.bmp"
          --scale 0.003921569)
cnn=$root/testdata/models/conv_fc_mnist.tflite
vww=$m/mlperf-tiny/vww_96_float.tflite
mobilenet=$m/tflite-support/mobilenet_v1_0.25_224_1_metadata_1.tflite
hand=$m/mediapipe/hand_landmark__20201104.tflite
selfie=$m/mediapipe/selfie_segmentation_landscape.tflite
lstm=$m/tflite-micro/trained_lstm.tflite
q() { "$qf" -q quantize "$@"; }
cd "$work"
o=.
# quantize: schemes, recovery, searches, recipes, reports
q $cnn "${mnist[@]}" -o $o/cnn_int8.tflite --save-recipe $o/cnn_int8.recipe.json --report $o/cnn_int8.report.json
q $cnn "${mnist[@]}" --scheme int16x8 -o $o/cnn_int16.tflite
q $cnn "${mnist[@]}" --weight-bits 4 --adaround --adaround-iterations 200 -o $o/cnn_int4_ada.tflite
q $cnn "${mnist[@]}" --optimize accuracy --adaround-iterations 200 -o $o/cnn_acc.tflite
q $cnn "${mnist[@]}" --method auto -o $o/cnn_auto.tflite
q $cnn "${mnist[@]}" --equalize -o $o/cnn_cle.tflite
q $cnn "${mnist[@]}" --target-sqnr 60 -o $o/cnn_t60.tflite --save-recipe $o/cnn_t60.recipe.json || echo "cnn_t60 exit $?" > $o/cnn_t60.exit
q $cnn "${mnist[@]}" --recipe $o/cnn_t60.recipe.json -o $o/cnn_recipe.tflite || true
q $cnn "${mnist[@]}" --float-op FULLY_CONNECTED --float-weights float16 --int16-op 0 -o $o/cnn_mixed.tflite
q $cnn --scheme dynamic -o $o/cnn_dynamic.tflite
q $cnn --scheme float16 -o $o/cnn_float16.tflite
q $vww "${person[@]}" --optimize fast -o $o/vww_fast.tflite --report $o/vww_fast.report.json
q $mobilenet "${imagenet[@]}" -o $o/mobilenet_int8.tflite
q $mobilenet "${imagenet[@]}" --target-sqnr 20 --target-steps 4 -o $o/mobilenet_t20.tflite || echo "exit $?" > $o/mobilenet_t20.exit
q $hand "${hands[@]}" -o $o/hand_int8.tflite
q $selfie "${portrait[@]}" --target-sqnr 25 --target-steps 4 -o $o/selfie_t25.tflite || echo "exit $?" > $o/selfie_t25.exit
q $lstm "${mnist[@]}" -o $o/lstm_int8.tflite || echo "exit $?" > $o/lstm_int8.exit
# calibrate in shards, merge
"$qf" -q calibrate $vww "${person[@]}" --shard 0/2 -o $o/vww_s1.json
"$qf" -q calibrate $vww "${person[@]}" --shard 1/2 -o $o/vww_s2.json
"$qf" -q merge-stats $o/vww_s1.json $o/vww_s2.json -o $o/vww_stats.json
q $vww --stats $o/vww_stats.json -o $o/vww_stats_int8.tflite
# reports (JSON) of five models
"$qf" -q report $cnn $o/cnn_int8.tflite "${mnist[@]}" --format json -o $o/r_cnn.json
"$qf" -q report $vww $o/vww_stats_int8.tflite "${person[@]}" --format json -o $o/r_vww.json
"$qf" -q report $mobilenet $o/mobilenet_int8.tflite "${imagenet[@]}" --format json -o $o/r_mobilenet.json
"$qf" -q report $hand $o/hand_int8.tflite "${hands[@]}" --format json -o $o/r_hand.json
if [ -f $o/lstm_int8.tflite ]; then
  "$qf" -q report $lstm $o/lstm_int8.tflite "${mnist[@]}" --format json -o $o/r_lstm.json || true
fi
"$qf" -q report $cnn $o/cnn_int8.tflite "${mnist[@]}" --format md -o $o/r_cnn.md
"$qf" -q report $cnn $o/cnn_int8.tflite "${mnist[@]}" --format html -o $o/r_cnn.html
sha256sum -- * | sort -k2

#!/usr/bin/env bash
# Weight forms with float activations (--scheme weight-only, --scheme
# dynamic --weight-bits 4, --block-size): every form qforge writes runs in
# LiteRT, and qforge's interpreter agrees with LiteRT on it. Single-op
# models from the AI Edge Quantizer's test set (FULLY_CONNECTED,
# EMBEDDING_LOOKUP, BATCH_MATMUL with a constant operand) plus the bundled
# MNIST CNN; inputs from run_model.mjs --seed (uniform [-1, 1), indices in
# range). LiteRT computes the DEQUANTIZE forms and the lookups in float
# (measured when written: lookups identical, the rest >= 138 dB); the hybrid
# FULLY_CONNECTED quantizes its input at run time (XNNPACK qd8; bfloat16
# block scales): >= 141 dB on the generated blocks model, 70 dB on the AI
# Edge Quantizer's [1, 16, 128] inputs, whose rows XNNPACK quantizes a
# little differently. The rows with --gptq, --weight-clip mse or --awq
# (fitted on the bundled MNIST digits or ToyCar's real log-mel vectors) show
# that weight rounding keeps every form runnable and agreeing.
# Usage: weight_forms_litert.sh QFORGE TESTDATA_DIR CORPUS_DIR. Exit 77
# without Node.js.
set -uo pipefail
source "$(dirname "$0")/prelude.sh"
corpus=${3:-$here/../../../shared/corpus}
[ -d "$corpus/models/ai-edge-quantizer" ] || { echo "no corpus at $corpus"; exit 77; }
aeq=$corpus/models/ai-edge-quantizer
fail=0 pass=0
# name, model, minimum SQNR of qforge vs LiteRT (dB), flags.
# The AI Edge Quantizer's embedding_lookup.tflite names no outputs in its
# signature, which LiteRT refuses even for the float file: a copy without
# signatures stands in for it.
node --input-type=module -e "
import fs from 'node:fs';
import { patchSubgraph0 } from '$here/lib/fb_patch.mjs';
fs.writeFileSync('$work/embedding_lookup.tflite',
  patchSubgraph0(new Uint8Array(fs.readFileSync('$aeq/embedding_lookup.tflite'))));
" || exit 1
while read -r name model min flags; do
  [ -z "$name" ] && continue
  case "$model" in
    testdata/*) m=$testdata/${model#testdata/} ;;
    work/*) m=$work/${model#work/} ;;
    corpus/*) m=$corpus/${model#corpus/} ;;
    *) m=$aeq/$model ;;
  esac
  d=$work/$name
  mkdir -p "$d"
  # Rows with weight rounding fit on --data: @testdata@ and @corpus@ stand
  # for those folders; qforge expands the data globs itself.
  flags=${flags//@testdata@/$testdata}
  flags=${flags//@corpus@/$corpus}
  set -f
  # shellcheck disable=SC2086
  "$qforge" quantize "$m" $flags -o "$d/q.tflite" -q 2> "$d/err"
  rc=$?
  set +f
  if [ "$rc" != 0 ]; then
    echo "FAIL $name: quantize failed: $(head -c 300 "$d/err")"; fail=$((fail + 1)); continue
  fi
  if ! node "$here/run_model.mjs" "$d/q.tflite" --runtime litert --seed 1 \
       --out-dir "$d/lr" > "$d/lr.log" 2>&1; then
    echo "FAIL $name: LiteRT cannot run it: $(head -c 400 "$d/lr.log")"
    fail=$((fail + 1)); continue
  fi
  ins=()
  for f in "$d"/lr/input_*.npy; do ins+=(--data "$f"); done
  if ! "$qforge" run "$d/q.tflite" "${ins[@]}" --output-dir "$d/qf" -q 2> "$d/err"; then
    echo "FAIL $name: qforge cannot run it: $(head -c 300 "$d/err")"; fail=$((fail + 1)); continue
  fi
  qf=$(ls "$d"/qf/*.npy | head -1)
  r=$(node "$here/metrics.mjs" "$d/lr/output_0.npy" "$qf")
  # metrics.mjs prints a null SQNR for identical outputs.
  ok=$(node -e "const m=$r; console.log(m.max_abs_error === 0 || m.sqnr_db >= $min ? 1 : 0)")
  if [ "$ok" = 1 ]; then echo "ok   $name $r"; pass=$((pass + 1));
  else echo "FAIL $name $r (want qforge vs LiteRT >= $min dB)"; fail=$((fail + 1)); fi
done <<'TABLE'
fc_wo8 single_fc_bias.tflite 100 --scheme weight-only --weight-bits 8
fc_wo4 single_fc_bias.tflite 100 --scheme weight-only --weight-bits 4
fc_dyn4 channel_i4rangedvalues_fc.tflite 60 --scheme dynamic --weight-bits 4
fc_dyn4_b32 testdata/ops/fc_blocks.tflite 100 --scheme dynamic --weight-bits 4 --block-size 32
fc_dyn4_b64 testdata/ops/fc_blocks.tflite 100 --scheme dynamic --weight-bits 4 --block-size 64
fc_dyn4_b128 blockwise_i4rangedvalues_fc.tflite 60 --scheme dynamic --weight-bits 4 --block-size 128
fc_dyn4_b256 testdata/ops/fc_blocks.tflite 100 --scheme dynamic --weight-bits 4 --block-size 256
emb_wo8 work/embedding_lookup.tflite 100 --scheme weight-only --weight-bits 8
emb_wo4 work/embedding_lookup.tflite 100 --scheme weight-only --weight-bits 4
emb_wo4_b32 testdata/ops/embedding_lookup_blocks.tflite 100 --scheme weight-only --weight-bits 4 --block-size 32
emb_wo4_b128 testdata/ops/embedding_lookup_blocks.tflite 100 --scheme weight-only --weight-bits 4 --block-size 128
bmm_wo8 bmm_constant_input.tflite 100 --scheme weight-only --weight-bits 8
bmm_wo4 bmm_constant_input.tflite 100 --scheme weight-only --weight-bits 4
conv_wo4 testdata/models/conv_fc_mnist.tflite 100 --scheme weight-only --weight-bits 4
conv_dyn4 testdata/models/conv_fc_mnist.tflite 100 --scheme dynamic --weight-bits 4
conv_wo4_gptq testdata/models/conv_fc_mnist.tflite 100 --scheme weight-only --weight-bits 4 --gptq --data @testdata@/mnist/*.png --scale 0.003921569
conv_dyn4_b32_clip testdata/models/conv_fc_mnist.tflite 100 --scheme dynamic --weight-bits 4 --block-size 32 --weight-clip mse --data @testdata@/mnist/*.png --scale 0.003921569
toycar_wo4_awq corpus/models/mlperf-tiny/model_ToyCar.tflite 100 --scheme weight-only --weight-bits 4 --awq --data @corpus@/data/mlperf-tiny/benchmark/reference_submissions/anomaly_detection/datasets/dcase01/normal_id_01_00000000_hist_librosa.bin
toycar_dyn4_gptq corpus/models/mlperf-tiny/model_ToyCar.tflite 100 --scheme dynamic --weight-bits 4 --gptq --data @corpus@/data/mlperf-tiny/benchmark/reference_submissions/anomaly_detection/datasets/dcase01/normal_id_01_00000000_hist_librosa.bin
toycar_dyn4_b32_gptq corpus/models/mlperf-tiny/model_ToyCar.tflite 100 --scheme dynamic --weight-bits 4 --block-size 32 --gptq --data @corpus@/data/mlperf-tiny/benchmark/reference_submissions/anomaly_detection/datasets/dcase01/normal_id_01_00000000_hist_librosa.bin
toycar_dyn4_b128_gptq corpus/models/mlperf-tiny/model_ToyCar.tflite 100 --scheme dynamic --weight-bits 4 --block-size 128 --gptq --weight-clip mse --data @corpus@/data/mlperf-tiny/benchmark/reference_submissions/anomaly_detection/datasets/dcase01/normal_id_01_00000000_hist_librosa.bin
TABLE
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/usr/bin/env bash
# Weight forms (docs/weight-forms.md) x block size x rounding, on corpus
# models with FULLY_CONNECTED / BATCH_MATMUL / EMBEDDING_LOOKUP / GATHER
# weights. Writes bench/weights/weights.md (the table) and weights.json.
#
#   bench/weights/weights.sh [--rounding nearest[,clip,gptq,awq]] [--filter REGEX]
#                            [--synthetic-only] [--qforge BIN] [--make-inputs BIN]
#
# Part 1, real data (bench/quant_eval: held-out samples, SQNR against the
# float model, both run in LiteRT): the models of quant_eval's table that
# have weights of these ops. Part 2, models of the corpus without data in
# quant_eval (embedding classifiers, a feed-forward block with constant
# BATCH_MATMUL operands, the AI Edge Quantizer test models) and the two
# generated block models of testdata/ops: inputs are run_model.mjs --seed
# draws (uniform [-1, 1), token ids in range), so their SQNR says how far
# the weights moved, not how a task fares. Every model of both parts also
# runs in qforge's interpreter, whose SQNR against LiteRT's output is given.
#
# --rounding: the weight rounding methods, each mapped to qforge flags
# (nearest: none; clip: --weight-clip mse; gptq: --gptq; awq: --awq), so
# that methods added later slot in.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounding=nearest
filter='^(model_ToyCar|conv_fc_mnist|trained_lstm|hello_world_no_quant|mobilenet_v1_0.25_128)$'
synthetic_only=0
qforge=build/cmd/qforge
make_inputs=()
while [ $# -gt 0 ]; do
  case $1 in
    --make-inputs) make_inputs=(--make-inputs "$2"); shift 2 ;;
    --qforge) qforge=$2; shift 2 ;;
    --rounding) rounding=$2; shift 2 ;;
    --filter) filter=$2; shift 2 ;;
    --synthetic-only) synthetic_only=1; shift ;;
    *) echo "usage: $0 [--rounding LIST] [--filter REGEX] [--synthetic-only]" >&2; exit 2 ;;
  esac
done
flags_for() {
  case $1 in
    nearest) echo "" ;;
    clip) echo "--weight-clip mse" ;;
    gptq) echo "--gptq" ;;
    awq) echo "--awq" ;;
    *) echo "unknown rounding $1 (nearest, clip, gptq, awq)" >&2; exit 2 ;;
  esac
}
# form name, flags. Blocks apply where LiteRT has a blockwise kernel (int4
# FULLY_CONNECTED in the dynamic form, int4 EMBEDDING_LOOKUP tables); other
# ops take the same form per channel.
forms=(
  "wo8|--scheme weight-only --weight-bits 8"
  "wo4|--scheme weight-only --weight-bits 4"
  "wo4_b32|--scheme weight-only --weight-bits 4 --block-size 32"
  "wo4_b128|--scheme weight-only --weight-bits 4 --block-size 128"
  "dyn8|--scheme dynamic"
  "dyn4|--scheme dynamic --weight-bits 4"
  "dyn4_b32|--scheme dynamic --weight-bits 4 --block-size 32"
  "dyn4_b128|--scheme dynamic --weight-bits 4 --block-size 128"
)
out=bench/weights
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
variants=()
for r in ${rounding//,/ }; do
  extra=$(flags_for "$r")
  for f in "${forms[@]}"; do
    variants+=(--variant "${f%%|*}.$r=${f#*|} $extra")
  done
done
if [ "$synthetic_only" = 0 ]; then
  bash bench/quant_eval/run.sh --qforge "$qforge" "${make_inputs[@]}" \
    --schemes float16 --filter "$filter" \
    "${variants[@]}" --jobs 1 --out "$work/real" > "$work/real.log" 2>&1 ||
    # Exit code 1: a form a runtime could not run, which the table shows.
    [ $? = 1 ] || { tail -20 "$work/real.log"; exit 1; }
  cp "$work/real/results.json" "$out/weights_real.json"
fi
node bench/weights/synthetic.mjs --qforge "$qforge" --work "$work/syn" \
  --rounding "$rounding" > "$out/weights_synthetic.json"
node bench/weights/table.mjs "$out/weights_real.json" \
  "$out/weights_synthetic.json" > "$out/weights.md"
cat "$out/weights.md"

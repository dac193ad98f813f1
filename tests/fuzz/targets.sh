# The libFuzzer targets and their seeds, for scripts/test.sh --fuzz and
# scripts/fuzz.sh (sourced from the repository root).
#   FUZZ_TARGETS          every target, in run order
#   fuzz_seed TARGET DIR  copies the target's seed inputs into DIR
#   fuzz_flags TARGET     the target's extra libFuzzer flags
#   fuzz_weight TARGET    its share of a long run (scripts/fuzz.sh)

FUZZ_TARGETS="model_run_fuzzer stats_fuzzer tflite_reader_fuzzer npy_fuzzer wav_fuzzer image_fuzzer partial_report_fuzzer recipe_fuzzer"

# Models small enough to mutate and run quickly.
_small_models() {
  find testdata/models testdata/lstm testdata/regressions testdata/bad_models \
    testdata/fuzz/model_run_fuzzer testdata/fuzz/tflite_reader_fuzzer \
    -name '*.tflite' -size -64k 2>/dev/null
  # The shared corpus, when next to the checkout (not in CI's clean clone).
  if [ -n "${FUZZ_CORPUS_MODELS:-}" ] && [ -d ../shared/corpus/models ]; then
    find ../shared/corpus/models ../shared/corpus/twins -name '*.tflite' \
      -size -64k 2>/dev/null
  fi
}

fuzz_seed() {
  local target=$1 dir=$2
  mkdir -p "$dir"
  case "$target" in
    model_run_fuzzer|tflite_reader_fuzzer)
      _small_models | while read -r f; do
        cp "$f" "$dir/$(echo "$f" | tr / _)"
      done ;;
    stats_fuzzer) cp testdata/stats/*.json testdata/bad_stats/*.json "$dir/" ;;
    recipe_fuzzer) cp testdata/recipes/*.json "$dir/" ;;
    npy_fuzzer) cp testdata/data/npy/*.npy testdata/data/npz/*.npz "$dir/" ;;
    wav_fuzzer) cp testdata/data/*.wav "$dir/" ;;
    image_fuzzer)
      cp testdata/data/*.png testdata/data/*.bmp testdata/data/*.jpeg \
        testdata/data/jpeg/*.jpg testdata/data/fuzz/* \
        testdata/mnist/sample0.png "$dir/" ;;
  esac
  # Inputs earlier runs found (crashes fixed since), kept as regressions.
  if [ -d "testdata/fuzz/$target" ]; then cp testdata/fuzz/"$target"/* "$dir/"; fi
}

fuzz_flags() {
  case "$1" in
    model_run_fuzzer) echo "-max_len=65536 -dict=tests/fuzz/tflite.dict" ;;
    tflite_reader_fuzzer) echo "-max_len=65536 -dict=tests/fuzz/tflite.dict" ;;
    stats_fuzzer) echo "-max_len=16384 -dict=tests/fuzz/stats.dict" ;;
    npy_fuzzer) echo "-max_len=8192" ;;
    wav_fuzzer) echo "-max_len=40000" ;;
    image_fuzzer) echo "-max_len=65536" ;;
    partial_report_fuzzer) echo "-max_len=16384 -dict=tests/fuzz/partial.dict" ;;
    recipe_fuzzer) echo "-max_len=8192 -dict=tests/fuzz/recipe.dict" ;;
  esac
}

fuzz_weight() {
  case "$1" in
    model_run_fuzzer) echo 40 ;;
    stats_fuzzer) echo 15 ;;
    tflite_reader_fuzzer) echo 15 ;;
    *) echo 10 ;;
  esac
}

#!/usr/bin/env bash
# The native speed anchor (issue 30): ONNX Runtime 1.30 (CPU, MLAS kernels),
# pinned by package-lock.json like tests/interop's LiteRT, on ONNX
# conversions of .tflite models. A copy of ../shared/tools/ort's harness
# (convert.py, ort_bench.c, run.mjs); the ONNX Runtime C API headers are read
# from there (the npm package ships the library without them).
# Sets up, once: node_modules (npm ci --ignore-scripts: the postinstall would
# fetch CUDA binaries), bin/ort_bench, gen/tflite (Python bindings of
# formats/schema/tflite.fbs for convert.py), and checks Python's onnx.
#   bash bench/ort/setup.sh      prints "ort: ok" or why not; exit 1 if not
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
headers=${ORT_INCLUDE:-$root/../shared/tools/ort/include}
cd "$here"
[ -f "$headers/onnxruntime_c_api.h" ] || {
  echo "ort: no ONNX Runtime C API headers in $headers (set ORT_INCLUDE)"; exit 1; }
/usr/bin/python3 -c 'import onnx, numpy, flatbuffers' 2>/dev/null || {
  echo "ort: needs apt-get install -y python3-onnx python3-numpy python3-flatbuffers"
  exit 1; }
[ -d node_modules/onnxruntime-node ] || npm ci --ignore-scripts --silent
lib=$here/node_modules/onnxruntime-node/bin/napi-v6/linux/x64
mkdir -p bin gen
if [ ! -x bin/ort_bench ] || [ ort_bench.c -nt bin/ort_bench ]; then
  gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$headers" ort_bench.c \
    -o bin/ort_bench -L"$lib" -l:libonnxruntime.so.1 -Wl,-rpath,"$lib" -lm
fi
schema=$root/formats/schema/tflite.fbs
if [ ! -f gen/tflite/Model.py ] || [ "$schema" -nt gen/tflite/Model.py ]; then
  (cd gen && flatc --python --gen-object-api "$schema")
fi
echo "ort: ok ($(node -p 'require("./node_modules/onnxruntime-node/package.json").version'))"

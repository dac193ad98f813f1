// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Writes a float model with one FULLY_CONNECTED of any size, its weights
// stored after the flatbuffer (Buffer.offset/size) as TFLite's converter
// stores models over 2 GiB. The weights are generated and written in
// chunks, so making a 2.6 GB model takes a few MB of memory. Used by
// bench/big_model/run.sh to measure qforge's memory at model scale.
//
//   make_big_model OUT.tflite IN_FEATURES OUT_FEATURES [SAMPLES.npy]
//
// SAMPLES.npy: 4 input rows [4, IN_FEATURES] (float32, uniform in [-1, 1)).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "flatbuffers/flatbuffers.h"
#include "formats/schema/tflite_generated.h"

namespace {

constexpr uint64_t kAlign = 16;
uint64_t AlignUp(uint64_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

std::unique_ptr<tflite::TensorT> MakeTensor(const char* name,
                                            std::vector<int32_t> shape,
                                            uint32_t buffer) {
  auto t = std::make_unique<tflite::TensorT>();
  t->name = name;
  t->shape = std::move(shape);
  t->type = tflite::TensorType_FLOAT32;
  t->buffer = buffer;
  return t;
}

std::vector<uint8_t> Finish(const tflite::ModelT& m) {
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(tflite::Model::Pack(fbb, &m), tflite::ModelIdentifier());
  return std::vector<uint8_t>(fbb.GetBufferPointer(),
                              fbb.GetBufferPointer() + fbb.GetSize());
}

// A fixed xorshift stream: the same file on every run and machine.
struct Rng {
  uint64_t s = 0x9E3779B97F4A7C15ull;
  float Next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    // Uniform in [-1, 1), scaled like a layer initialised for unit output.
    return (static_cast<float>(s >> 40) / 8388608.0f - 1.0f);
  }
};

// A version 1.0 .npy of 4 x `in` float32 values.
bool WriteSamples(const char* path, int64_t in, Rng& rng) {
  constexpr int kRows = 4;
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                       std::to_string(kRows) + ", " + std::to_string(in) +
                       "), }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::FILE* f = std::fopen(path, "wb");
  if (f == nullptr) return false;
  const uint8_t magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  const uint16_t len = static_cast<uint16_t>(header.size());
  bool ok = std::fwrite(magic, 1, 8, f) == 8 &&
            std::fwrite(&len, 2, 1, f) == 1 &&
            std::fwrite(header.data(), 1, header.size(), f) == header.size();
  std::vector<float> row(in);
  for (int r = 0; ok && r < kRows; ++r) {
    for (float& v : row) v = rng.Next();
    ok = std::fwrite(row.data(), 4, in, f) == size_t(in);
  }
  return (std::fclose(f) == 0) && ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr,
                 "usage: make_big_model OUT.tflite IN_FEATURES OUT_FEATURES "
                 "[SAMPLES.npy]\n");
    return 2;
  }
  const int64_t in = std::atoll(argv[2]), out = std::atoll(argv[3]);
  if (in <= 0 || out <= 0 || in > (1 << 30) || out > (1 << 30)) {
    std::fprintf(stderr,
                 "make_big_model: feature counts must be in [1, 2^30]\n");
    return 2;
  }
  const uint64_t weight_bytes = uint64_t(in) * uint64_t(out) * 4;
  const uint64_t bias_bytes = uint64_t(out) * 4;

  tflite::ModelT m;
  m.version = 3;
  m.description = "qforge bench/big_model: one FULLY_CONNECTED";
  auto code = std::make_unique<tflite::OperatorCodeT>();
  code->builtin_code = tflite::BuiltinOperator_FULLY_CONNECTED;
  code->deprecated_builtin_code = tflite::BuiltinOperator_FULLY_CONNECTED;
  code->version = 1;
  m.operator_codes.push_back(std::move(code));
  for (int i = 0; i < 5; ++i) {
    m.buffers.push_back(std::make_unique<tflite::BufferT>());
  }
  auto sg = std::make_unique<tflite::SubGraphT>();
  sg->name = "main";
  sg->tensors.push_back(MakeTensor("input", {1, int32_t(in)}, 1));
  sg->tensors.push_back(MakeTensor("weights", {int32_t(out), int32_t(in)}, 2));
  sg->tensors.push_back(MakeTensor("bias", {int32_t(out)}, 3));
  sg->tensors.push_back(MakeTensor("output", {1, int32_t(out)}, 4));
  sg->inputs = {0};
  sg->outputs = {3};
  auto op = std::make_unique<tflite::OperatorT>();
  op->opcode_index = 0;
  op->inputs = {0, 1, 2};
  op->outputs = {3};
  tflite::FullyConnectedOptionsT fc;
  op->builtin_options.Set(fc);
  sg->operators.push_back(std::move(op));
  m.subgraphs.push_back(std::move(sg));

  // Offsets depend on the flatbuffer's size: lay out with placeholders of
  // the same width first (as qforge's writer does).
  m.buffers[2]->offset = 1;
  m.buffers[2]->size = weight_bytes;
  m.buffers[3]->offset = 1;
  m.buffers[3]->size = bias_bytes;
  const uint64_t head_size = Finish(m).size();
  m.buffers[2]->offset = AlignUp(head_size);
  m.buffers[3]->offset = AlignUp(m.buffers[2]->offset + weight_bytes);
  const std::vector<uint8_t> head = Finish(m);
  if (head.size() != head_size) {
    std::fprintf(stderr, "make_big_model: layout changed between passes\n");
    return 1;
  }

  std::FILE* f = std::fopen(argv[1], "wb");
  if (f == nullptr) {
    std::perror(argv[1]);
    return 1;
  }
  bool ok = std::fwrite(head.data(), 1, head.size(), f) == head.size();
  std::vector<uint8_t> zeros(kAlign, 0);
  ok = ok && std::fwrite(zeros.data(), 1, m.buffers[2]->offset - head.size(),
                         f) == m.buffers[2]->offset - head.size();
  Rng rng;
  const float scale = 1.0f / std::sqrt(static_cast<float>(in));
  std::vector<float> row(in);
  for (int64_t o = 0; ok && o < out; ++o) {
    for (float& v : row) v = rng.Next() * scale;
    ok = std::fwrite(row.data(), 4, in, f) == size_t(in);
  }
  const uint64_t pad =
      m.buffers[3]->offset - (m.buffers[2]->offset + weight_bytes);
  ok = ok && std::fwrite(zeros.data(), 1, pad, f) == pad;
  std::vector<float> bias(out);
  for (float& v : bias) v = rng.Next() * 0.1f;
  ok = ok && std::fwrite(bias.data(), 4, out, f) == size_t(out);
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) {
    std::fprintf(stderr, "make_big_model: writing %s failed\n", argv[1]);
    return 1;
  }
  if (argc == 5 && !WriteSamples(argv[4], in, rng)) {
    std::fprintf(stderr, "make_big_model: writing %s failed\n", argv[4]);
    return 1;
  }
  std::printf("%s: %.3f GB (%lld x %lld FULLY_CONNECTED)\n", argv[1],
              (m.buffers[3]->offset + bias_bytes) / 1e9, (long long)in,
              (long long)out);
  return 0;
}

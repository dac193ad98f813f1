// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target for what runs on a model that reads fine: read and
// validate it, run one sample through the interpreter (integer kernels on
// quantized models) with the calibration observer, then a batch of two;
// for a float model, quantize it with the statistics of that run and run
// the quantized model on the same sample. Sizes are bounded
// (fuzz_inputs.h). A model may be refused at any step with a status; a
// crash, sanitizer report, leak or hang is a bug. A model qforge wrote
// that qforge cannot read back is a bug too (abort).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "calibration/collector.h"
#include "calibration/stats_file.h"
#include "formats/tflite_reader.h"
#include "formats/tflite_writer.h"
#include "quantizer/quantize.h"
#include "runtime/interpreter.h"
#include "tests/fuzz/fuzz_inputs.h"

namespace {

using namespace qforge;  // NOLINT: a fuzzer entry point

runtime::InterpreterOptions Bounded() {
  runtime::InterpreterOptions options;
  options.threads = 1;
  options.max_tensor_bytes = fuzz::kMaxTensorBytes;
  options.max_loop_iterations = fuzz::kMaxLoopIterations;
  return options;
}

// Runs `model` on `inputs`; the statistics of the run when it succeeds.
std::optional<std::vector<calibration::TensorStats>> RunOnce(
    const ir::Model& model, const std::vector<ir::HostTensor>& inputs) {
  absl::StatusOr<std::unique_ptr<runtime::Interpreter>> interpreter =
      runtime::Interpreter::Create(model, Bounded());
  if (!interpreter.ok()) return std::nullopt;
  calibration::StatsCollector collector(model, 1);
  if (!(*interpreter)->Run(inputs, &collector).ok()) return std::nullopt;
  for (int i = 0; i < (*interpreter)->num_outputs(); ++i) {
    (void)(*interpreter)->OutputHost(i);
  }
  return collector.Finish();
}

void QuantizeAndRun(const ir::Model& model,
                    std::vector<calibration::TensorStats> tensors,
                    const std::vector<ir::HostTensor>& inputs,
                    uint8_t selector) {
  if (!quantizer::CheckFloatModel(model).ok()) return;
  calibration::StatsFile stats;
  stats.fingerprint.total_samples = 1;
  stats.samples = 1;
  stats.tensors = std::move(tensors);
  quantizer::QuantizeOptions options;
  constexpr quantizer::Scheme kSchemes[] = {
      quantizer::Scheme::kInt8, quantizer::Scheme::kInt16x8,
      quantizer::Scheme::kDynamic, quantizer::Scheme::kFloat16};
  options.scheme = kSchemes[selector % 4];
  if (options.scheme == quantizer::Scheme::kInt16x8) {
    options.range.num_bits = 16;
  }
  options.range.method = (selector & 4) ? calibration::RangeMethod::kMse
                                        : calibration::RangeMethod::kMinMax;
  absl::StatusOr<quantizer::QuantizeResult> result =
      quantizer::Quantize(model, &stats, options);
  if (!result.ok()) return;
  formats::WriteOptions write;
  write.drop_unused = true;
  absl::StatusOr<std::vector<uint8_t>> bytes =
      formats::SerializeTflite(result->model, write);
  if (!bytes.ok()) return;
  absl::StatusOr<ir::Model> quantized =
      formats::ParseTflite(*bytes, "quantized");
  if (!quantized.ok()) std::abort();  // qforge wrote what it cannot read
  (void)RunOnce(*quantized, inputs);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::StatusOr<ir::Model> model =
      formats::ParseTflite(absl::MakeConstSpan(data, size), "fuzz");
  if (!model.ok() || !fuzz::ModelWithinBounds(*model)) return 0;
  const std::optional<std::vector<ir::HostTensor>> one =
      fuzz::SampleInputs(*model, 1);
  if (!one.has_value()) return 0;
  std::optional<std::vector<calibration::TensorStats>> stats =
      RunOnce(*model, *one);
  if (!stats.has_value()) return 0;
  if (const auto two = fuzz::SampleInputs(*model, 2); two.has_value()) {
    (void)RunOnce(*model, *two);
  }
  QuantizeAndRun(*model, std::move(*stats), *one,
                 size > 0 ? data[size / 2] : 0);
  return 0;
}

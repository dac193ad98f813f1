// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Runtime profiles: where the quantized model will run, and so which forms
// each op may take and how plans are judged (docs/runtimes.md).
//   litert  LiteRT on CPU with its XNNPACK delegate (phones, desktops,
//           browsers): every form LiteRT runs faithfully; ops off XNNPACK
//           run in slower builtin kernels (runtime/fast_path.h), so plans
//           are judged by estimated latency (runtime/latency.h).
//   tflm    TensorFlow Lite Micro's reference kernels (microcontrollers,
//           often without an FPU): integer only, no float op inside the
//           graph, no float16 or hybrid forms.
//   armnn   Arm NN 20.08 (Debian 12's libarmnn 22) through its TfLite
//           parser and CpuRef backend: no float16 / int64 / int4 tensors,
//           per-tensor FULLY_CONNECTED weights, no 16x8 weighted ops.
// Every model qforge writes also runs in LiteRT: a profile's rules add to
// LiteRT's (runtime/legality.h), never replace them. Which types each op's
// kernel takes per runtime is data, the TFLM and ARMNN traits of the op
// table (ir/ops.def); their further rules are named there too.
#ifndef QFORGE_RUNTIME_PROFILE_H_
#define QFORGE_RUNTIME_PROFILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/model.h"
#include "runtime/legality.h"

namespace qforge::runtime {

enum class Runtime : uint8_t { kLitert, kTflm, kArmnn };

absl::StatusOr<Runtime> ParseRuntime(const std::string& text);
const char* RuntimeName(Runtime runtime);

// The activation types of the TFLM and ARMNN traits.
namespace kernel_types {
enum : uint8_t { F32 = 1, I8 = 2, U8 = 4, I16 = 8 };
}  // namespace kernel_types

// The precisions a plan may give an op on `runtime`, cheapest first: the
// rungs --target-sqnr climbs. "int8", "int16" (int16x8), "float16" (float
// with float16 weights), "float32". litert: int8, then float with float16
// weights, then float32 (int16x8 runs in TFLite's reference kernels, slower
// than float on XNNPACK: the search takes it only where the latency model
// says it is cheaper). tflm: int8, then int16x8; never float. armnn: int8,
// then float32 (no float16 tensors).
std::vector<std::string> PrecisionLadder(Runtime runtime);

// Whether `runtime` is given float ops inside an integer graph.
bool RunsFloatOps(Runtime runtime);
// Whether `runtime` has a `kind` kernel for `activation` activations (its
// TFLM / ARMNN trait); always true for litert, whose limits are LiteRT's
// own (runtime/legality.h).
bool HasKernel(Runtime runtime, ir::OpKind kind, ir::DataType activation);
// Whether `runtime` takes float16 constants behind DEQUANTIZE.
bool TakesFloat16Weights(Runtime runtime);

// Whether `runtime` needs an integer `kind` op to have its bias input even
// when the float model has none: LiteRT's integer CONV_2D and
// DEPTHWISE_CONV_2D (the kIntNeedsBias flag), and on Arm NN every weighted
// op but TRANSPOSE_CONV, as Arm NN 20.08's parser refuses an omitted
// input (TfLiteParser.cpp GetInputs).
bool NeedsBias(Runtime runtime, ir::OpKind kind);

// What `runtime` refuses of `form`, besides LiteRT's rules: the op's TFLM
// or ARMNN trait (its activation type among the trait's types) and rules.
// Empty for litert.
std::vector<legality::Violation> ProfileViolations(
    Runtime runtime, const legality::OpForm& form);

// The rules `form` breaks on `runtime`: LiteRT's (legality::CheckForm) and
// the profile's own. Empty when `runtime` (and LiteRT) runs it faithfully.
std::vector<legality::Violation> CheckForm(Runtime runtime,
                                           const legality::OpForm& form);

// What `runtime` cannot run of a written model: one entry per rule an op
// of subgraph 0 breaks, float ops included, or the model as a whole
// (op_index -1: Arm NN's parser reads one subgraph). Empty for litert.
struct UnsupportedOp {
  int op_index = -1;
  std::string op;      // its display name; "" for the model as a whole
  std::string reason;  // "GELU: Arm NN 20.08 has no GELU kernel"
};
std::vector<UnsupportedOp> FindUnsupportedOps(Runtime runtime,
                                              const ir::Model& model);

// The same, one line each ("op 7 GELU: GELU: Arm NN 20.08 has no GELU
// kernel"). For summaries and --strict.
std::vector<std::string> UnsupportedOps(Runtime runtime,
                                        const ir::Model& model);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_PROFILE_H_

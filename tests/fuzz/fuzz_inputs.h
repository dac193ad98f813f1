// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Helpers shared by the libFuzzer targets: sample tensors for a model's
// entry inputs (bounded, deterministic) and the size bounds a fuzzed model
// must keep to be run at all.
#ifndef QFORGE_TESTS_FUZZ_FUZZ_INPUTS_H_
#define QFORGE_TESTS_FUZZ_FUZZ_INPUTS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/host_tensor.h"
#include "ir/model.h"

namespace qforge::fuzz {

// Per-tensor bound of a fuzzed run: models, inputs and the tensors the
// interpreter computes stay below it (runtime::InterpreterOptions).
inline constexpr int64_t kMaxTensorBytes = int64_t{4} << 20;
// WHILE iterations per op evaluation.
inline constexpr int64_t kMaxLoopIterations = 256;

// Inputs for the entry subgraph: dimension 0 is `batch` where the model
// has 1 or -1 there, other dynamic dims are 1; values follow a fixed
// pattern of small numbers of both signs. nullopt when the inputs would
// pass the bounds.
std::optional<std::vector<ir::HostTensor>> SampleInputs(const ir::Model& model,
                                                        int64_t batch);

// True when every tensor of every subgraph has a shape whose bytes stay
// within kMaxTensorBytes (dynamic dims counted as 1).
bool ModelWithinBounds(const ir::Model& model);

}  // namespace qforge::fuzz

#endif  // QFORGE_TESTS_FUZZ_FUZZ_INPUTS_H_

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Batched inputs for the batch-splitting tests (runtime and calibration).
#ifndef QFORGE_TESTS_SUPPORT_BATCH_TENSORS_H_
#define QFORGE_TESTS_SUPPORT_BATCH_TENSORS_H_

#include <cstdint>

#include "ir/host_tensor.h"
#include "ir/model.h"

namespace qforge::testing {

// A float tensor for the model's first input with the batch dimension set
// to `batch`, uniform in [-1, 1) from `seed`.
ir::HostTensor RandomInput(const ir::Model& model, int64_t batch,
                           uint32_t seed);

// Sample b of a batched tensor, as a batch-1 tensor.
ir::HostTensor Sample(const ir::HostTensor& batched, int64_t b);

}  // namespace qforge::testing

#endif  // QFORGE_TESTS_SUPPORT_BATCH_TENSORS_H_

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/compare_plan.h"

namespace qforge::report {

std::vector<int> Producers(const ir::Subgraph& sg) {
  std::vector<int> producer(sg.tensors.size(), -1);
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    for (int32_t o : sg.operators[i].outputs) {
      if (o >= 0) producer[o] = static_cast<int>(i);
    }
  }
  return producer;
}

}  // namespace qforge::report

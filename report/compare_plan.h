// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// What the report compares (internal to report/): one slot per quantized
// activation of the quantized model with a float twin, or per float output
// of an op kept float, and where that twin's values come from in the
// float run of a sample.
#ifndef QFORGE_REPORT_COMPARE_PLAN_H_
#define QFORGE_REPORT_COMPARE_PLAN_H_

#include <map>
#include <vector>

#include "ir/model.h"
#include "report/metrics.h"

namespace qforge::report {

// One compared tensor: a quantized layer, or the float output of an op
// kept float.
struct Slot {
  int q_tensor = 0;
  int capture = 0;  // index into the float captures
  bool quantized = false;
  // Per-channel SQNR along the innermost axis; not where its producer
  // normalizes over that axis (op flag kLastAxisNotChannels).
  bool channels = true;
  ir::DataType qtype = ir::DataType::kInt8;
  QuantGrid grid;
};

struct Plan {
  std::vector<Slot> slots;
  std::map<int, int> slot_of_q;     // quantized model tensor -> slot
  std::map<int, int> capture_of_f;  // float model tensor -> capture
  std::vector<bool> capture_histogram;
};

// The float values of one sample's captured tensors (null: not seen).
class CapturedFloats {
 public:
  virtual ~CapturedFloats() = default;
  virtual const std::vector<float>* Get(int capture) const = 0;
};

}  // namespace qforge::report

#endif  // QFORGE_REPORT_COMPARE_PLAN_H_

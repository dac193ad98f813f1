// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The report's runtime section: how the quantized model runs where it will
// run (runtime/profile.h). For litert, LiteRT's estimated latency of both
// models (runtime/latency.h) and the quantized model's ops that XNNPACK
// leaves to TFLite's builtin kernels, with the delegate's reason; for tflm
// and armnn, the ops the runtime cannot run, and for tflm the ops that are
// not integer.
#ifndef QFORGE_REPORT_RUNTIME_SECTION_H_
#define QFORGE_REPORT_RUNTIME_SECTION_H_

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ir/model.h"
#include "runtime/profile.h"

namespace qforge::report {

// Ops of one type that the runtime treats alike, for the same reason.
struct RuntimeOpGroup {
  std::string op;               // type ("SOFTMAX"); "" for the whole model
  std::vector<int> op_indices;  // in the quantized model, ascending
  std::string reason;
};

struct RuntimeSection {
  runtime::Runtime profile = runtime::Runtime::kLitert;
  int ops = 0;  // of the quantized model's subgraph 0
  // litert: estimated ms on one thread, and the quantized model's ops on
  // XNNPACK and the partitions they form.
  double float_ms = 0, quant_ms = 0;
  int xnnpack_ops = 0, partitions = 0;
  std::vector<RuntimeOpGroup> off_xnnpack;  // litert
  std::vector<RuntimeOpGroup> unsupported;  // tflm, armnn
  // tflm: ops computing in float (the QUANTIZE / DEQUANTIZE borders aside).
  std::vector<RuntimeOpGroup> not_integer;
};

// Groups ops by (type, reason), in order of each group's first op.
class RuntimeOpGrouper {
 public:
  // `op_index` -1: the model as a whole (a group without indices).
  void Add(int op_index, const std::string& op, const std::string& reason);
  std::vector<RuntimeOpGroup> Take() { return std::move(groups_); }

 private:
  std::map<std::pair<std::string, std::string>, size_t> index_;
  std::vector<RuntimeOpGroup> groups_;
};

RuntimeSection DescribeRuntime(const ir::Model& float_model,
                               const ir::Model& quant_model,
                               runtime::Runtime runtime);

// The runtime as renderers name it: "LiteRT", "TFLite Micro",
// "Arm NN 20.08".
const char* RuntimeDisplayName(runtime::Runtime runtime);

// For the renderers. One line: the estimate (litert), or how many ops the
// runtime cannot run and (tflm) how many are not integer.
std::string RuntimeHeadline(const RuntimeSection& section);
// "op 5", "ops 3, 7, 9", the first `max` indices then ", ... (N ops)".
std::string OpIndexList(const std::vector<int>& indices, size_t max = 8);
// "SOFTMAX x2 (ops 4, 9): why"; "model: why" for the whole model.
std::string GroupLine(const RuntimeOpGroup& group);

}  // namespace qforge::report

#endif  // QFORGE_REPORT_RUNTIME_SECTION_H_

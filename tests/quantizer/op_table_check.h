// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Consistency rules of the op table (ir/ops.def), over a table read the way
// every layer reads it: an X-macro expansion that records which columns a
// row fills. The test expands both the real table and a deliberately broken
// one (broken_ops.def) through the same macros.
#ifndef QFORGE_TESTS_QUANTIZER_OP_TABLE_CHECK_H_
#define QFORGE_TESTS_QUANTIZER_OP_TABLE_CHECK_H_

#include <initializer_list>
#include <string>
#include <vector>

#include "quantizer/op_quant_spec.h"

namespace qforge::testing {

enum class QuantColumn { kNone, kKernelOnly, kSpec };

struct TableRow {
  std::string kind;  // the row's OpKind name, e.g. "Conv2D"
  std::string name;  // TFLite's name
  int code = -1;
  bool float_kernel = false, float_any_type = false;
  bool int_kernel = false;
  bool hybrid = false;
  int hybrid_weight = -1, hybrid_axis = -1;
  QuantColumn quant = QuantColumn::kNone;
  bool int16 = false;
  int weight_axis = -1;
  std::vector<quantizer::Role> roles;
  bool rules = false;
  bool version_fn = false;  // a VER(fn) column
  bool int4 = false;        // FLAGS has kInt4Weights
  // Traits.
  bool clamp = false;  // CLAMP(lo, hi)
  float clamp_lo = 0.0f, clamp_hi = 0.0f;
  int weights_input = -1;  // WEIGHTS(input, layout)
  ir::WeightLayout weight_layout = ir::WeightLayout::kNone;
  // Runtime profiles' traits.
  bool xnn = false;                         // XNN(fn)
  bool xnn_never = false;                   // XNN_NEVER(why)
  bool tflm = false, tflm_rules = false;    // TFLM(types), TFLM_RULES(fn)
  bool armnn = false, armnn_rules = false;  // ARMNN(types), ARMNN_RULES(fn)
};

// Every broken rule, one line each ("ROW: what is wrong"); empty when the
// table is consistent.
std::vector<std::string> CheckOpTable(const std::vector<TableRow>& rows);

// The rows of ir/ops.def.
std::vector<TableRow> RealOpTable();

inline void SetKernels(TableRow& r, bool fk, bool fk_any, bool ik, bool hk,
                       int hk_weight, int hk_axis) {
  r.float_kernel = fk;
  r.float_any_type = fk_any;
  r.int_kernel = ik;
  r.hybrid = hk;
  r.hybrid_weight = hk_weight;
  r.hybrid_axis = hk_axis;
}

inline void SetSpec(TableRow& r, std::initializer_list<quantizer::Role> roles,
                    int axis, int v16) {
  r.quant = QuantColumn::kSpec;
  r.roles.assign(roles.begin(), roles.end());
  r.weight_axis = axis;
  r.int16 = v16 > 0;
}

}  // namespace qforge::testing

#endif  // QFORGE_TESTS_QUANTIZER_OP_TABLE_CHECK_H_

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The numerics modes of one interpreter: which TFLite build's integer
// arithmetic it reproduces. Values, not process state: the CLI fills them
// from --rounding / --arithmetic and hands them down through the options of
// the commands, the interpreter gives each kernel its op's share
// (runtime::OpContext).
#ifndef QFORGE_NUMERICS_MODES_H_
#define QFORGE_NUMERICS_MODES_H_

#include "numerics/fixed_point.h"
#include "numerics/xnnpack_arithmetic.h"

namespace qforge::numerics {

struct Modes {
  RoundingPolicy rounding = RoundingPolicy::kSingle;
  Arithmetic arithmetic = Arithmetic::kTflite;
};

}  // namespace qforge::numerics

#endif  // QFORGE_NUMERICS_MODES_H_

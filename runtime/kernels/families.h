// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Declarations of every kernel family (for the registry).
#ifndef QFORGE_RUNTIME_KERNELS_FAMILIES_H_
#define QFORGE_RUNTIME_KERNELS_FAMILIES_H_

#include "runtime/kernels/control_flow.h"
#include "runtime/kernels/conv.h"
#include "runtime/kernels/custom.h"
#include "runtime/kernels/elementwise.h"
#include "runtime/kernels/integer.h"
#include "runtime/kernels/reduce.h"
#include "runtime/kernels/sequence.h"
#include "runtime/kernels/shape_ops.h"
#include "runtime/kernels/spectral.h"

#endif  // QFORGE_RUNTIME_KERNELS_FAMILIES_H_

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// RETURN_IF_ERROR / ASSIGN_OR_RETURN: Abseil 20220623 ships neither.
#ifndef QFORGE_BASE_STATUS_MACROS_H_
#define QFORGE_BASE_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define QF_CONCAT_INNER_(a, b) a##b
#define QF_CONCAT_(a, b) QF_CONCAT_INNER_(a, b)

#define RETURN_IF_ERROR(expr)                \
  do {                                       \
    ::absl::Status qf_status_ = (expr);      \
    if (!qf_status_.ok()) return qf_status_; \
  } while (0)

#define ASSIGN_OR_RETURN(lhs, expr) \
  QF_ASSIGN_OR_RETURN_IMPL_(QF_CONCAT_(qf_statusor_, __LINE__), lhs, expr)

#define QF_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr) \
  auto statusor = (expr);                              \
  if (!statusor.ok()) return statusor.status();        \
  lhs = std::move(statusor).value()

#endif  // QFORGE_BASE_STATUS_MACROS_H_

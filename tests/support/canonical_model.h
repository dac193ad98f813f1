// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// A canonical text dump of a .tflite file for round-trip tests, built
// independently of qforge's reader and writer (straight from the flatc
// object API): every field of every table, with the indirections that may
// legitimately differ between two equal models normalised away:
//  - op codes: each op gets its own entry (resolved builtin code, custom
//    code, version), so the order and sharing of the op-code table and the
//    int8 deprecated code field do not matter;
//  - buffers: content only (a 64-bit hash and the length), wherever the file
//    stored it (inline or after the flatbuffer); custom options likewise.
#ifndef QFORGE_TESTS_SUPPORT_CANONICAL_MODEL_H_
#define QFORGE_TESTS_SUPPORT_CANONICAL_MODEL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace qforge::testing {

// JSON text (one field per line), or an error if the bytes don't verify.
absl::StatusOr<std::string> CanonicalDump(const std::vector<uint8_t>& file);

// "" when equal, else the first differing line of each dump, with context.
std::string FirstDifference(const std::string& a, const std::string& b);

}  // namespace qforge::testing

#endif  // QFORGE_TESTS_SUPPORT_CANONICAL_MODEL_H_

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Names in a model (tensors, ops, signatures, metadata) are bytes: the
// schema's strings are not checked, so a file may hold any byte there.
// Outputs that must be text (JSON, HTML, Markdown, one-line errors) escape
// what is not valid UTF-8, byte by byte, as the four characters \xHH.
#ifndef QFORGE_BASE_TEXT_H_
#define QFORGE_BASE_TEXT_H_

#include <string>

#include "absl/strings/string_view.h"

namespace qforge {

// True when `s` is valid UTF-8 (RFC 3629: no overlong forms, surrogates or
// code points above U+10FFFF).
bool IsValidUtf8(absl::string_view s);

// `s` with every byte that is not part of a valid UTF-8 sequence written as
// \xHH (valid text, backslashes included, is kept as it is).
std::string EscapeInvalidUtf8(absl::string_view s);

// For one-line messages on a terminal: EscapeInvalidUtf8, and control
// characters (newlines, tabs, escape sequences, DEL) as \xHH too.
std::string EscapeForMessage(absl::string_view s);

}  // namespace qforge

#endif  // QFORGE_BASE_TEXT_H_

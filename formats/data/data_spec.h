// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The `--data` syntax: `[NAME=]PATH`, where NAME is a model input's tensor
// or signature name and PATH is a sample file (.npy .bin .raw .wav .png .jpg
// .jpeg .bmp), an .npz (binds its arrays by key), a list file (.txt .lst: one
// sample file per line, relative to the list's folder, blank lines and #
// comments skipped), a directory (its png/jpg/jpeg/bmp/wav/npy files, sorted
// bytewise, not recursive) or a glob (sorted bytewise).
#ifndef QFORGE_FORMATS_DATA_DATA_SPEC_H_
#define QFORGE_FORMATS_DATA_DATA_SPEC_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "formats/data/input_desc.h"

namespace qforge::formats {

enum class SpecKind {
  kNpy,
  kNpz,
  kRaw,  // .bin / .raw
  kWav,
  kImage,
  kList,
  kDirectory,
  kGlob,
};

struct DataSpec {
  std::string text;     // as given
  std::string binding;  // NAME, empty when not given
  int input = -1;       // index of the bound input; -1 when not bound
  std::string path;
  SpecKind kind = SpecKind::kNpy;
};

// Index of the input whose tensor or signature name is `name`; -1 if none.
// Fails if the name is ambiguous (one input's tensor name is another's
// signature name).
absl::StatusOr<int> FindInput(absl::string_view name,
                              absl::Span<const InputDesc> inputs);

// "'a', 'b' (signature 'x')" for error messages.
std::string InputNames(absl::Span<const InputDesc> inputs);

// Splits off NAME= when NAME names an input (a text whose NAME part names
// no input is a path if that path exists, else refused) and classifies the
// path.
absl::StatusOr<DataSpec> ParseDataSpec(const std::string& text,
                                       absl::Span<const InputDesc> inputs);

// The kind of a single sample file by its extension (case-insensitive):
// kNpy, kRaw, kWav or kImage; nullopt for anything else.
std::optional<SpecKind> SampleFileKind(absl::string_view path);

struct SampleFile {
  std::string path;   // to open
  std::string label;  // path relative to the spec (list line, file name)
};

// The sample files a spec names, in sample order: the file itself, or the
// files of a directory, glob or list. Not for .npz.
absl::StatusOr<std::vector<SampleFile>> ExpandDataSpec(const DataSpec& spec);

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_DATA_DATA_SPEC_H_

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/data_spec.h"

#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "base/file_io.h"
#include "base/status_macros.h"

namespace qforge::formats {
namespace {

constexpr char kDirectoryKinds[] = "png, jpg, jpeg, bmp, wav, npy";
constexpr char kSampleKinds[] = "npy, bin, raw, wav, png, jpg, jpeg, bmp";

std::string Extension(absl::string_view path) {
  const size_t slash = path.rfind('/');
  const absl::string_view base =
      slash == absl::string_view::npos ? path : path.substr(slash + 1);
  const size_t dot = base.rfind('.');
  if (dot == absl::string_view::npos || dot == 0) return "";
  return absl::AsciiStrToLower(base.substr(dot + 1));
}

bool IsDirectory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

bool HasGlobChars(absl::string_view path) {
  return path.find_first_of("*?[") != absl::string_view::npos;
}

absl::StatusOr<std::vector<SampleFile>> ExpandDirectory(const DataSpec& spec) {
  std::error_code ec;
  std::filesystem::directory_iterator it(spec.path, ec);
  if (ec) {
    return absl::UnavailableError(
        absl::StrCat(spec.path, ": cannot list directory: ", ec.message()));
  }
  std::vector<std::string> names;
  for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::optional<SpecKind> kind = SampleFileKind(name);
    // A directory holds whole samples: .bin/.raw are left to lists and globs.
    if (!kind.has_value() || *kind == SpecKind::kRaw) continue;
    if (!IsRegularFile(it->path().string())) continue;
    names.push_back(name);
  }
  if (ec) {
    return absl::UnavailableError(
        absl::StrCat(spec.path, ": cannot list directory: ", ec.message()));
  }
  std::sort(names.begin(), names.end());  // bytewise, locale-independent
  const std::string dir(absl::StripSuffix(spec.path, "/"));
  std::vector<SampleFile> files;
  for (std::string& name : names) {
    files.push_back({absl::StrCat(dir, "/", name), std::move(name)});
  }
  return files;
}

absl::StatusOr<std::vector<SampleFile>> ExpandGlob(const DataSpec& spec) {
  glob_t g;
  const int rc = ::glob(spec.path.c_str(), 0, nullptr, &g);
  if (rc != 0 && rc != GLOB_NOMATCH) {
    globfree(&g);
    return absl::UnavailableError(
        absl::StrCat(spec.path, ": glob failed (code ", rc, ")"));
  }
  std::vector<std::string> paths;
  for (size_t i = 0; rc == 0 && i < g.gl_pathc; ++i) {
    std::string path = g.gl_pathv[i];
    if (SampleFileKind(path).has_value() && IsRegularFile(path)) {
      paths.push_back(std::move(path));
    }
  }
  globfree(&g);
  // glob(3) sorts by the locale's collation; samples are ordered bytewise.
  std::sort(paths.begin(), paths.end());
  // Labels are relative to the pattern's literal folder prefix.
  const size_t meta = spec.path.find_first_of("*?[");
  const size_t slash = spec.path.rfind('/', meta);
  const std::string prefix =
      slash == std::string::npos ? "" : spec.path.substr(0, slash + 1);
  std::vector<SampleFile> files;
  for (std::string& path : paths) {
    std::string label(absl::StripPrefix(path, prefix));
    files.push_back({std::move(path), std::move(label)});
  }
  return files;
}

absl::StatusOr<std::vector<SampleFile>> ExpandList(const DataSpec& spec) {
  ASSIGN_OR_RETURN(const std::vector<uint8_t> bytes, ReadFileBytes(spec.path));
  const absl::string_view text(reinterpret_cast<const char*>(bytes.data()),
                               bytes.size());
  const size_t slash = spec.path.rfind('/');
  const std::string folder =
      slash == std::string::npos ? "" : spec.path.substr(0, slash + 1);
  std::vector<SampleFile> files;
  int line_no = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_no;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    if (line.find('\0') != absl::string_view::npos) {
      return absl::InvalidArgumentError(absl::StrCat(
          spec.path, ":", line_no, ": line holds a NUL byte; not a list file"));
    }
    if (!SampleFileKind(line).has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat(spec.path, ":", line_no, ": '", line,
                       "' is not a sample file (", kSampleKinds, ")"));
    }
    std::string path =
        line[0] == '/' ? std::string(line) : absl::StrCat(folder, line);
    files.push_back({std::move(path), std::string(line)});
  }
  return files;
}

}  // namespace

absl::StatusOr<int> FindInput(absl::string_view name,
                              absl::Span<const InputDesc> inputs) {
  int found = -1;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].name == name || (!inputs[i].signature_name.empty() &&
                                   inputs[i].signature_name == name)) {
      if (found >= 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "'", name, "' names two model inputs (", InputNames(inputs), ")"));
      }
      found = static_cast<int>(i);
    }
  }
  return found;
}

std::string InputNames(absl::Span<const InputDesc> inputs) {
  std::vector<std::string> names;
  for (const InputDesc& input : inputs) {
    std::string name = absl::StrCat("'", input.name, "'");
    if (!input.signature_name.empty() && input.signature_name != input.name) {
      absl::StrAppend(&name, " (signature '", input.signature_name, "')");
    }
    names.push_back(std::move(name));
  }
  return absl::StrJoin(names, ", ");
}

std::optional<SpecKind> SampleFileKind(absl::string_view path) {
  const std::string ext = Extension(path);
  if (ext == "npy") return SpecKind::kNpy;
  if (ext == "bin" || ext == "raw") return SpecKind::kRaw;
  if (ext == "wav") return SpecKind::kWav;
  if (ext == "png" || ext == "jpg" || ext == "jpeg" || ext == "bmp") {
    return SpecKind::kImage;
  }
  return std::nullopt;
}

absl::StatusOr<DataSpec> ParseDataSpec(const std::string& text,
                                       absl::Span<const InputDesc> inputs) {
  DataSpec spec;
  spec.text = text;
  spec.path = text;
  const size_t eq = text.find('=');
  if (eq != std::string::npos) {
    const std::string name = text.substr(0, eq);
    ASSIGN_OR_RETURN(const int input, FindInput(name, inputs));
    if (input >= 0) {
      spec.binding = name;
      spec.input = input;
      spec.path = text.substr(eq + 1);
    } else if (!Exists(text)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--data '", text, "': '", name,
          "' is not a model input (inputs: ", InputNames(inputs), ")"));
    }
  }
  if (spec.path.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--data '", text, "': no path given"));
  }
  if (IsDirectory(spec.path)) {
    spec.kind = SpecKind::kDirectory;
    return spec;
  }
  if (HasGlobChars(spec.path) && !Exists(spec.path)) {
    spec.kind = SpecKind::kGlob;
    return spec;
  }
  const std::string ext = Extension(spec.path);
  if (ext == "npz") {
    spec.kind = SpecKind::kNpz;
  } else if (ext == "txt" || ext == "lst") {
    spec.kind = SpecKind::kList;
  } else if (const std::optional<SpecKind> kind = SampleFileKind(spec.path)) {
    spec.kind = *kind;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat(spec.path, ": unknown kind of data file '.", ext, "' (",
                     kSampleKinds, ", npz, txt, lst, a directory or a glob)"));
  }
  return spec;
}

absl::StatusOr<std::vector<SampleFile>> ExpandDataSpec(const DataSpec& spec) {
  std::vector<SampleFile> files;
  switch (spec.kind) {
    case SpecKind::kNpy:
    case SpecKind::kRaw:
    case SpecKind::kWav:
    case SpecKind::kImage: {
      const size_t slash = spec.path.rfind('/');
      files.push_back({spec.path, slash == std::string::npos
                                      ? spec.path
                                      : spec.path.substr(slash + 1)});
      return files;
    }
    case SpecKind::kNpz:
      return absl::InternalError("ExpandDataSpec: .npz binds by key");
    case SpecKind::kDirectory: {
      ASSIGN_OR_RETURN(files, ExpandDirectory(spec));
      if (files.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat(spec.path, ": directory holds no sample files (",
                         kDirectoryKinds, ")"));
      }
      return files;
    }
    case SpecKind::kGlob: {
      ASSIGN_OR_RETURN(files, ExpandGlob(spec));
      if (files.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat(spec.path, ": pattern matches no sample files (",
                         kSampleKinds, ")"));
      }
      return files;
    }
    case SpecKind::kList: {
      ASSIGN_OR_RETURN(files, ExpandList(spec));
      if (files.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat(spec.path, ": list names no sample files"));
      }
      return files;
    }
  }
  return absl::InternalError("ExpandDataSpec: unknown kind");
}

}  // namespace qforge::formats

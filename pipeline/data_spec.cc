// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/data_spec.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/exit_codes.h"
#include "base/status_macros.h"
#include "formats/data/data_spec.h"
#include "formats/tflite_metadata.h"

namespace qforge::pipeline {
namespace {

// An explicit --color rgb|bgr asks for channels an input must have: refuse
// it when every image-shaped input has one channel (which is always gray),
// rather than silently ignore it.
absl::Status CheckColorFitsInputs(
    const DataSpec& flags, const std::vector<formats::InputDesc>& inputs) {
  if (flags.color != "rgb" && flags.color != "bgr") return absl::OkStatus();
  const formats::InputDesc* gray = nullptr;
  for (const formats::InputDesc& in : inputs) {
    const std::vector<int32_t>& s = in.shape;
    const bool batch_ok = !s.empty() && (s[0] == 1 || s[0] == -1);
    if (s.size() == 4 && batch_ok) {
      const int32_t c = flags.layout == "nchw" ? s[1] : s[3];
      if (c != 1) return absl::OkStatus();  // an input with color
      gray = &in;
    } else if ((s.size() == 3 && batch_ok) || (s.size() == 2 && s[0] != 1)) {
      gray = &in;
    }
  }
  if (gray == nullptr) return absl::OkStatus();
  return UsageError(absl::StrCat(
      "--color ", flags.color, ": input ", formats::DescribeInput(*gray),
      " has one channel (gray); leave --color out or give --color gray"));
}

// "127.5" or "[123.7, 116.3, 103.5]".
std::string FormatValues(const std::vector<float>& v) {
  if (v.size() == 1) return absl::StrCat(v[0]);
  return absl::StrCat("[", absl::StrJoin(v, ", "), "]");
}

// The image normalization the model's metadata states, when no
// --mean/--std/--scale is given (any of them overrides the metadata
// entirely: a mix of the two would be neither's intent). ImageOptions are
// shared by every input, so inputs stating different normalizations get
// none, with a note. Returns the stderr line saying what was applied ("" if
// nothing) and adds notes for metadata that was not used.
std::string ApplyMetadataNormalization(
    const DataSpec& flags, const ir::Model& model,
    const std::vector<formats::InputDesc>& inputs, formats::ImageOptions* image,
    std::vector<std::string>* notes) {
  if (!flags.mean.empty() || !flags.std.empty() || flags.scale != 0.0f) {
    return "";
  }
  formats::MetadataNormalization norm = formats::ReadInputNormalization(model);
  *notes = std::move(norm.notes);
  // Integer inputs take raw pixels (formats/data/image.cc): the metadata's
  // normalization describes the float model they were quantized from.
  std::vector<formats::InputNormalization>& v = norm.inputs;
  v.erase(std::remove_if(v.begin(), v.end(),
                         [&](const formats::InputNormalization& in) {
                           return in.input >= static_cast<int>(inputs.size()) ||
                                  inputs[in.input].type !=
                                      ir::DataType::kFloat32;
                         }),
          v.end());
  if (norm.inputs.empty()) return "";
  const formats::InputNormalization& first = norm.inputs[0];
  for (const formats::InputNormalization& in : norm.inputs) {
    if (in.mean != first.mean || in.std != first.std) {
      notes->push_back(
          "the model's metadata states different normalizations per input; "
          "none applied (give --mean/--std)");
      return "";
    }
  }
  image->mean = first.mean;
  image->std = first.std;
  image->scale = 1.0f;
  std::vector<std::string> names;
  for (const formats::InputNormalization& in : norm.inputs) {
    names.push_back(absl::StrCat("'", inputs[in.input].name, "'"));
  }
  return absl::StrCat(norm.inputs.size() == 1 ? "input " : "inputs ",
                      absl::StrJoin(names, ", "), ": mean ",
                      FormatValues(first.mean), ", std ",
                      FormatValues(first.std),
                      " from the model's metadata (--mean/--std/--scale "
                      "override it)");
}

// A float input fed images with neither flags nor metadata to normalize
// them gets raw 0..255 pixels, which few float models expect: say so, as
// the metadata's normalization is said when applied. Integer inputs take raw
// pixels by design (formats/data/image.h) and get no note.
std::string RawPixelsNote(const DataSpec& flags,
                          const std::vector<formats::InputDesc>& inputs,
                          const std::vector<size_t>& image_inputs,
                          bool none_from_metadata, bool metadata_silent) {
  if (!flags.mean.empty() || !flags.std.empty() || flags.scale != 0.0f ||
      !none_from_metadata) {
    return "";
  }
  std::vector<std::string> names;
  for (size_t i : image_inputs) {
    if (i < inputs.size() && inputs[i].type == ir::DataType::kFloat32) {
      names.push_back(absl::StrCat("'", inputs[i].name, "'"));
    }
  }
  if (names.empty()) return "";
  return absl::StrCat(
      "images fed as raw 0..255 pixels (",
      names.size() == 1 ? "float input " : "float inputs ",
      absl::StrJoin(names, ", "), "): ",
      metadata_silent ? "the model has no normalization metadata"
                      : "the model's metadata gives no normalization to apply",
      " and no --mean/--std/--scale was given");
}

}  // namespace

bool ParseResize(const std::string& text, int* h, int* w) {
  std::vector<std::string> hw = absl::StrSplit(text, 'x');
  return hw.size() == 2 && absl::SimpleAtoi(hw[0], h) &&
         absl::SimpleAtoi(hw[1], w) && *h > 0 && *w > 0 && *h <= 65536 &&
         *w <= 65536;
}

std::vector<formats::InputDesc> InputDescs(const ir::Model& model) {
  std::vector<formats::InputDesc> out;
  if (model.subgraphs.empty()) return out;
  const ir::Subgraph& sg = model.subgraphs[0];
  for (int32_t index : sg.inputs) {
    const ir::Tensor& t = sg.tensors[index];
    formats::InputDesc d;
    d.name = t.name;
    d.type = t.type;
    d.shape = t.shape_signature.empty() ? t.shape : t.shape_signature;
    for (const ir::SignatureDef& sig : model.signature_defs) {
      if (sig.subgraph_index != 0) continue;
      for (const ir::TensorMap& m : sig.inputs) {
        if (m.tensor_index == static_cast<uint32_t>(index))
          d.signature_name = m.name;
      }
    }
    out.push_back(std::move(d));
  }
  return out;
}

absl::StatusOr<formats::SampleSource> OpenData(const DataSpec& flags,
                                               const ir::Model& model,
                                               const Hooks& hooks,
                                               bool fingerprint) {
  formats::LoadOptions options;
  options.fingerprint = fingerprint;
  const std::vector<formats::InputDesc> inputs = InputDescs(model);
  RETURN_IF_ERROR(CheckColorFitsInputs(flags, inputs));
  if (!flags.resize.empty()) {
    int h = 0, w = 0;
    if (!ParseResize(flags.resize, &h, &w)) {
      return UsageError(absl::StrCat("--resize ", flags.resize,
                                     ": expected HxW, e.g. 224x224"));
    }
    options.image.resize_hw = std::make_pair(h, w);
  }
  options.image.mean = flags.mean;
  options.image.std = flags.std;
  if (flags.scale != 0.0f) options.image.scale = flags.scale;
  std::vector<std::string> metadata_notes;
  const std::string applied = ApplyMetadataNormalization(
      flags, model, inputs, &options.image, &metadata_notes);
  options.image.color = flags.color == "bgr"    ? formats::ImageOptions::kBgr
                        : flags.color == "gray" ? formats::ImageOptions::kGray
                                                : formats::ImageOptions::kRgb;
  options.image.layout = flags.layout == "nchw" ? formats::ImageOptions::kNchw
                                                : formats::ImageOptions::kNhwc;
  options.sample_rate = flags.sample_rate;
  options.window = flags.window;
  options.hop = flags.hop;
  absl::StatusOr<formats::SampleSource> source =
      formats::SampleSource::Open(flags.specs, inputs, options);
  if (source.ok() && !hooks.quiet()) {
    // The metadata only changes how images become tensors: say so only
    // when images were read.
    bool reads_images = false;
    for (const std::string& path : source->FilePaths()) {
      reads_images = reads_images ||
                     formats::SampleFileKind(path) == formats::SpecKind::kImage;
    }
    if (reads_images) {
      for (const std::string& note : metadata_notes) {
        hooks.Note(absl::StrCat("data: ", note));
      }
      if (!applied.empty()) hooks.Note(absl::StrCat("data: ", applied));
      const std::string raw =
          RawPixelsNote(flags, inputs, source->ImageInputs(), applied.empty(),
                        metadata_notes.empty());
      if (!raw.empty()) hooks.Note(absl::StrCat("data: ", raw));
    }
    // A folder of clips would print one line per file; a few say enough.
    constexpr size_t kMaxNotes = 5;
    const std::vector<std::string>& notes = source->notes();
    for (size_t i = 0; i < notes.size() && i < kMaxNotes; ++i) {
      hooks.Note(absl::StrCat("data: ", notes[i]));
    }
    if (notes.size() > kMaxNotes) {
      hooks.Note(absl::StrCat("data: ... and ", notes.size() - kMaxNotes,
                              " more files like these"));
    }
  }
  return source;
}

std::vector<std::string> DataInputPaths(const DataSpec& flags,
                                        const formats::SampleSource& source) {
  std::vector<std::string> paths = source.FilePaths();
  for (const std::string& spec : flags.specs) {
    // NAME=PATH binds a path; a path may hold '=' too, so keep both.
    paths.push_back(spec);
    const size_t eq = spec.find('=');
    if (eq != std::string::npos) paths.push_back(spec.substr(eq + 1));
  }
  return paths;
}

}  // namespace qforge::pipeline

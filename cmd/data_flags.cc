// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "cmd/data_flags.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/exit_codes.h"
#include "base/status_macros.h"
#include "cmd/cli_flags.h"
#include "formats/data/data_spec.h"
#include "formats/tflite_metadata.h"

namespace qforge::cmd {
namespace {

constexpr int kMaxSampleRate = 1 << 22;

// An explicit --color rgb|bgr asks for channels an input must have: refuse
// it when every image-shaped input has one channel (which is always gray),
// rather than silently ignore it.
absl::Status CheckColorFitsInputs(
    const DataFlags& flags, const std::vector<formats::InputDesc>& inputs) {
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
    const DataFlags& flags, const ir::Model& model,
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

}  // namespace

void AddDataFlags(CLI::App* app, DataFlags& flags, bool required) {
  auto* data = app->add_option(
      "--data", flags.specs,
      "Sample data: FILE.npy|.npz|.bin|.txt list|DIR|GLOB|.wav, or "
      "NAME=SPEC per input (repeatable). Arrays: the input's shape S is one "
      "sample (an exact match wins: [4,4] for a [4,4] input is one sample); "
      "[N, ...S] is N samples; with a batch dim (S = [1 or -1, ...R]), "
      "[N, ...R] is N samples and R one. A -1 batch is always split: "
      "[A, ...R] is A samples of batch 1. wav: see --window.");
  data->default_str("");
  if (required) data->required();
  app->add_option("--resize", flags.resize, "Resize images to HxW")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            int h = 0, w = 0;
            return ParseResize(text, &h, &w) ? ""
                                             : "expected HxW, e.g. 224x224";
          },
          "HxW"))
      ->default_str("the input's size");
  app->add_option("--mean", flags.mean, "Image mean (one value or per channel)")
      ->delimiter(',')
      ->check(FiniteNumber())
      ->default_str("0");
  app->add_option("--std", flags.std, "Image std (one value or per channel)")
      ->delimiter(',')
      ->check(FiniteNumber(/*nonzero=*/true))
      ->default_str("1");
  app->add_option("--scale", flags.scale,
                  "Multiply pixels by this before --mean/--std")
      ->check(FiniteNumber(/*nonzero=*/true))
      ->default_str("1");
  app->add_option("--color", flags.color,
                  "Image channel order: rgb|bgr|gray (a 1-channel input is "
                  "always gray)")
      ->check(CLI::IsMember({"rgb", "bgr", "gray"}))
      ->default_str("rgb");
  app->add_option("--layout", flags.layout, "Image input layout: nhwc|nchw")
      ->check(CLI::IsMember({"nhwc", "nchw"}));
  app->add_option("--sample-rate", flags.sample_rate,
                  "Sample rate .wav files must have (0: any)")
      ->check(CLI::Range(0, kMaxSampleRate));
  app->add_option("--window", flags.window,
                  "wav: samples per window (default: the input's length; "
                  "for an input with a dynamic dim, sets that dim)")
      ->check(CLI::PositiveNumber);
  app->add_option("--hop", flags.hop,
                  "wav: samples from one window's start to the next "
                  "(default: the window); what is left after the last "
                  "whole window is dropped, with a note")
      ->check(CLI::PositiveNumber);
}

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

absl::StatusOr<formats::SampleSource> OpenData(const DataFlags& flags,
                                               const ir::Model& model,
                                               bool quiet, bool fingerprint) {
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
  if (source.ok() && !quiet) {
    // The metadata only changes how images become tensors: say so only
    // when images were read.
    bool reads_images = false;
    for (const std::string& path : source->FilePaths()) {
      reads_images = reads_images ||
                     formats::SampleFileKind(path) == formats::SpecKind::kImage;
    }
    if (reads_images) {
      for (const std::string& note : metadata_notes) {
        std::fprintf(stderr, "data: %s\n", note.c_str());
      }
      if (!applied.empty()) std::fprintf(stderr, "data: %s\n", applied.c_str());
    }
    // A folder of clips would print one line per file; a few say enough.
    constexpr size_t kMaxNotes = 5;
    const std::vector<std::string>& notes = source->notes();
    for (size_t i = 0; i < notes.size() && i < kMaxNotes; ++i) {
      std::fprintf(stderr, "data: %s\n", notes[i].c_str());
    }
    if (notes.size() > kMaxNotes) {
      std::fprintf(stderr, "data: ... and %zu more files like these\n",
                   notes.size() - kMaxNotes);
    }
  }
  return source;
}

std::vector<std::string> DataInputPaths(const DataFlags& flags,
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

}  // namespace qforge::cmd

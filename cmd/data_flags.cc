// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "cmd/data_flags.h"

#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace qforge::cmd {

void AddDataFlags(CLI::App* app, DataFlags& flags, bool required) {
  auto* data = app->add_option(
      "--data", flags.specs,
      "Sample data: FILE.npy|.npz|.bin|.txt list|DIR|GLOB|.wav, or "
      "NAME=SPEC per input (repeatable). Arrays: the input's shape S is one "
      "sample (an exact match wins: [4,4] for a [4,4] input is one sample); "
      "[N, ...S] is N samples; with a batch dim (S = [1 or -1, ...R]), "
      "[N, ...R] is N samples and R one. A -1 batch is always split: "
      "[A, ...R] is A samples of batch 1. wav: see --window.");
  if (required) data->required();
  app->add_option("--resize", flags.resize, "Resize images to HxW");
  app->add_option("--mean", flags.mean, "Image mean (one value or per channel)")
      ->delimiter(',');
  app->add_option("--std", flags.std, "Image std (one value or per channel)")
      ->delimiter(',');
  app->add_option("--scale", flags.scale,
                  "Multiply pixels by this before --mean/--std");
  app->add_option("--color", flags.color, "Image channel order: rgb|bgr|gray")
      ->check(CLI::IsMember({"rgb", "bgr", "gray"}));
  app->add_option("--layout", flags.layout, "Image input layout: nhwc|nchw")
      ->check(CLI::IsMember({"nhwc", "nchw"}));
  app->add_option("--sample-rate", flags.sample_rate,
                  "Sample rate .wav files must have (0: any)");
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
                                               bool quiet) {
  formats::LoadOptions options;
  if (!flags.resize.empty()) {
    std::vector<std::string> hw = absl::StrSplit(flags.resize, 'x');
    int h = 0, w = 0;
    if (hw.size() != 2 || !absl::SimpleAtoi(hw[0], &h) ||
        !absl::SimpleAtoi(hw[1], &w) || h <= 0 || w <= 0 || h > 65536 ||
        w > 65536) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--resize ", flags.resize, ": expected HxW, e.g. 224x224"));
    }
    options.image.resize_hw = std::make_pair(h, w);
  }
  options.image.mean = flags.mean;
  options.image.std = flags.std;
  if (flags.scale != 0.0f) options.image.scale = flags.scale;
  options.image.color = flags.color == "bgr"    ? formats::ImageOptions::kBgr
                        : flags.color == "gray" ? formats::ImageOptions::kGray
                                                : formats::ImageOptions::kRgb;
  options.image.layout = flags.layout == "nchw" ? formats::ImageOptions::kNchw
                                                : formats::ImageOptions::kNhwc;
  options.sample_rate = flags.sample_rate;
  options.window = flags.window;
  options.hop = flags.hop;
  absl::StatusOr<formats::SampleSource> source =
      formats::SampleSource::Open(flags.specs, InputDescs(model), options);
  if (source.ok() && !quiet) {
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

}  // namespace qforge::cmd

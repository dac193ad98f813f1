// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "cmd/data_flags.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace qforge::cmd {

void AddDataFlags(CLI::App* app, DataFlags& flags, bool required) {
  auto* data = app->add_option(
      "--data", flags.specs,
      "Sample data: FILE.npy|.npz|.bin|.txt list|DIR|GLOB|.wav, or "
      "NAME=SPEC per input (repeatable)");
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
                                               const ir::Model& model) {
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
  return formats::SampleSource::Open(flags.specs, InputDescs(model), options);
}

}  // namespace qforge::cmd

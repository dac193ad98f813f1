// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "cmd/data_flags.h"

#include <string>

#include "cmd/cli_flags.h"

namespace qforge::cmd {
namespace {

constexpr int kMaxSampleRate = 1 << 22;

}  // namespace

void AddDataFlags(CLI::App* app, pipeline::DataSpec& flags, bool required) {
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
            return pipeline::ParseResize(text, &h, &w)
                       ? ""
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

}  // namespace qforge::cmd

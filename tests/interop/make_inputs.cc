// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge_make_inputs MODEL --data SPEC... [--resize HxW --mean --std
//                    --scale --color --layout --sample-rate]
//                    --output-dir DIR [--limit N]
//
// Writes the exact input tensors `qforge run` would feed the model for the
// same --data flags (the same cmd::OpenData, so the same image decoding,
// resizing and scaling), so that other runtimes (LiteRT, in
// tests/interop/float_vs_litert.mjs) can be fed the very same tensors:
//   DIR/input_K.npy  [N, ...sample shape] for input K of subgraph 0
//                    (N = samples, at most --limit; the sample shape has
//                    batch 1 and dynamic dims resolved, as qforge runs it)
// and prints one JSON line on stdout:
//   {"samples":N,"inputs":[{"name":...,"file":...,"shape":[...]}],
//    "sample_names":[...]}
// Errors: one line on stderr, exit codes as qforge's (README "Exit codes").
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/exit_codes.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "cmd/data_flags.h"
#include "cmd/progress.h"
#include "formats/data/npy.h"
#include "formats/tflite_reader.h"
#include "nlohmann/json.hpp"

namespace qforge {
namespace {

struct Args {
  std::string model;
  pipeline::DataSpec data;
  std::string output_dir;
  int64_t limit = 0;  // 0: every sample
};

absl::Status MakeInputs(const Args& args) {
  ASSIGN_OR_RETURN(ir::Model model, formats::ReadTfliteFile(args.model));
  ASSIGN_OR_RETURN(
      formats::SampleSource data,
      pipeline::OpenData(args.data, model, cmd::StderrHooks(false)));
  int64_t n = data.size();
  if (args.limit > 0 && args.limit < n) n = args.limit;
  if (n == 0) return absl::InvalidArgumentError("the data set has no samples");
  const std::vector<formats::InputDesc> descs = pipeline::InputDescs(model);

  // stacked[k]: input k of every sample, along a new leading axis.
  std::vector<ir::HostTensor> stacked(descs.size());
  nlohmann::json names = nlohmann::json::array();
  for (int64_t i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(std::vector<ir::HostTensor> sample, data.Get(i));
    names.push_back(data.SampleName(i));
    for (size_t k = 0; k < sample.size(); ++k) {
      const ir::HostTensor& t = sample[k];
      if (i == 0) {
        std::vector<int64_t> shape = t.shape();
        shape.insert(shape.begin(), n);
        stacked[k] = ir::HostTensor(t.type(), shape);
      } else if (t.type() != stacked[k].type() ||
                 t.ByteSize() * static_cast<size_t>(n) !=
                     stacked[k].ByteSize()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "sample ", i, " (", data.SampleName(i), "): input ", k, " is ",
            t.DebugString(), ", unlike sample 0; cannot stack"));
      }
      std::memcpy(stacked[k].data() + static_cast<size_t>(i) * t.ByteSize(),
                  t.data(), t.ByteSize());
    }
  }

  std::error_code ec;
  std::filesystem::create_directories(args.output_dir, ec);
  if (ec) {
    return absl::UnavailableError(absl::StrCat(
        args.output_dir, ": cannot create folder: ", ec.message()));
  }
  nlohmann::json inputs = nlohmann::json::array();
  const std::string sources[] = {args.model};
  for (size_t k = 0; k < stacked.size(); ++k) {
    const std::string file =
        absl::StrCat(args.output_dir, "/input_", k, ".npy");
    ASSIGN_OR_RETURN(std::vector<uint8_t> npy, formats::WriteNpy(stacked[k]));
    RETURN_IF_ERROR(
        WriteFileAtomic(file, absl::Span<const uint8_t>(npy), sources));
    inputs.push_back({{"name", descs[k].name},
                      {"file", file},
                      {"shape", stacked[k].shape()}});
  }
  nlohmann::json out = {
      {"samples", n}, {"inputs", inputs}, {"sample_names", names}};
  std::cout << out.dump() << "\n";
  return absl::OkStatus();
}

}  // namespace
}  // namespace qforge

int main(int argc, char** argv) {
  CLI::App app{
      "Writes the input tensors `qforge run` would feed a model, as .npy",
      "qforge_make_inputs"};
  qforge::Args args;
  app.add_option("model", args.model, "The .tflite model")->required();
  qforge::cmd::AddDataFlags(&app, args.data, /*required=*/true);
  app.add_option("--output-dir", args.output_dir, "Where to write input_K.npy")
      ->required();
  app.add_option("--limit", args.limit, "At most this many samples (0: all)")
      ->check(CLI::NonNegativeNumber);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? qforge::kExitOk : qforge::kExitUsageOrIo;
  }
  const absl::Status status = qforge::MakeInputs(args);
  if (!status.ok()) {
    std::fprintf(stderr, "qforge_make_inputs: error: %s\n",
                 std::string(status.message()).c_str());
  }
  return qforge::ExitCodeFor(status);
}

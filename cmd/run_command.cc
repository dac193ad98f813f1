// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge run MODEL --data SPEC --output-dir DIR: runs the model on every
// sample and writes DIR/output_K.npy (K = output index); several samples
// are stacked along axis 0. --save-inputs DIR2 writes the inputs fed.
#include <filesystem>
#include <memory>

#include "absl/strings/str_cat.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "cmd/cli_flags.h"
#include "cmd/command.h"
#include "cmd/data_flags.h"
#include "cmd/progress.h"
#include "formats/data/npy.h"
#include "formats/tflite_reader.h"
#include "runtime/interpreter.h"

namespace qforge::cmd {
namespace {

struct RunArgs {
  std::string model;
  DataFlags data;
  std::string output_dir;
  std::string save_inputs;
  int threads = 0;
};

// Stacks per-sample tensors. Outputs: [1, ...] samples concatenate along
// axis 0, others get a new leading axis. Saved inputs (`new_axis`) always
// get a new axis, [N, ...one sample's shape], the form LiteRT's
// run_model.mjs --samples and qforge's --data take back as N samples.
absl::StatusOr<ir::HostTensor> Stack(const std::vector<ir::HostTensor>& parts,
                                     int output, bool new_axis = false) {
  const ir::HostTensor& first = parts[0];
  if (parts.size() == 1) return first;
  std::vector<int64_t> shape = first.shape();
  const bool concat = !new_axis && !shape.empty() && shape[0] == 1;
  if (concat) {
    shape[0] = static_cast<int64_t>(parts.size());
  } else {
    shape.insert(shape.begin(), static_cast<int64_t>(parts.size()));
  }
  ir::HostTensor out(first.type(), shape);
  size_t offset = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].shape() != first.shape() || parts[i].type() != first.type()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "output ", output, " is ", parts[i].DebugString(), " for sample ", i,
          " but ", first.DebugString(), " for sample 0; cannot stack"));
    }
    std::memcpy(out.data() + offset, parts[i].data(), parts[i].ByteSize());
    offset += parts[i].ByteSize();
  }
  return out;
}

absl::Status RunRun(const RunArgs& args, const GlobalFlags& flags) {
  ASSIGN_OR_RETURN(ir::Model model, formats::ReadTfliteFile(args.model));
  ASSIGN_OR_RETURN(formats::SampleSource data,
                   OpenData(args.data, model, flags.quiet,
                            /*fingerprint=*/false));
  std::vector<std::string> inputs = DataInputPaths(args.data, data);
  inputs.push_back(args.model);
  if (data.size() == 0) {
    return absl::InvalidArgumentError("the data set has no samples");
  }
  runtime::InterpreterOptions options;
  options.threads = args.threads;
  options.numerics = flags.numerics;
  ASSIGN_OR_RETURN(std::unique_ptr<runtime::Interpreter> interpreter,
                   runtime::Interpreter::Create(model, options));
  std::vector<std::vector<ir::HostTensor>> outputs(interpreter->num_outputs());
  std::vector<std::vector<ir::HostTensor>> saved(interpreter->num_inputs());
  Progress progress("run", flags.quiet);
  for (int64_t i = 0; i < data.size(); ++i) {
    ASSIGN_OR_RETURN(std::vector<ir::HostTensor> inputs, data.Get(i));
    if (!args.save_inputs.empty()) {
      for (size_t k = 0; k < inputs.size() && k < saved.size(); ++k) {
        saved[k].push_back(inputs[k]);
      }
    }
    absl::Status s = interpreter->Run(inputs);
    if (!s.ok()) {
      return absl::Status(s.code(),
                          absl::StrCat(args.model, ": sample ", i, " (",
                                       data.SampleName(i), "): ", s.message()));
    }
    for (int k = 0; k < interpreter->num_outputs(); ++k) {
      outputs[k].push_back(interpreter->OutputHost(k));
    }
    progress.Update(i + 1, data.size());
  }
  std::error_code ec;
  std::filesystem::create_directories(args.output_dir, ec);
  if (ec) {
    return absl::UnavailableError(absl::StrCat(
        args.output_dir, ": cannot create folder: ", ec.message()));
  }
  if (!args.save_inputs.empty()) {
    std::filesystem::create_directories(args.save_inputs, ec);
    if (ec) {
      return absl::UnavailableError(absl::StrCat(
          args.save_inputs, ": cannot create folder: ", ec.message()));
    }
    for (size_t k = 0; k < saved.size(); ++k) {
      ASSIGN_OR_RETURN(ir::HostTensor stacked,
                       Stack(saved[k], static_cast<int>(k), /*new_axis=*/true));
      ASSIGN_OR_RETURN(std::vector<uint8_t> npy, formats::WriteNpy(stacked));
      RETURN_IF_ERROR(
          WriteFileAtomic(absl::StrCat(args.save_inputs, "/input_", k, ".npy"),
                          absl::Span<const uint8_t>(npy), inputs));
    }
  }
  for (size_t k = 0; k < outputs.size(); ++k) {
    ASSIGN_OR_RETURN(ir::HostTensor stacked,
                     Stack(outputs[k], static_cast<int>(k)));
    ASSIGN_OR_RETURN(std::vector<uint8_t> npy, formats::WriteNpy(stacked));
    RETURN_IF_ERROR(
        WriteFileAtomic(absl::StrCat(args.output_dir, "/output_", k, ".npy"),
                        absl::Span<const uint8_t>(npy), inputs));
  }
  return absl::OkStatus();
}

}  // namespace

void RegisterRun(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* sub = app.add_subcommand("run", "Run a model on sample data");
  sub->add_option("model", args->model, "The .tflite model")->required();
  AddDataFlags(sub, args->data, /*required=*/true);
  sub->add_option("--output-dir", args->output_dir,
                  "Where to write output_K.npy")
      ->required();
  sub->add_option("--save-inputs", args->save_inputs,
                  "Also write the input tensors used as DIR/input_K.npy: one "
                  "sample as the input's shape, N samples as [N, ...shape] "
                  "(LiteRT's run_model.mjs takes them as they are, with "
                  "--samples for N)");
  AddThreadsOption(sub, args->threads, "Threads");
  SetExample(sub,
             "qforge run model.tflite --data x.npy --output-dir out/  "
             "(writes out/output_0.npy, ...)");
  sub->callback([args, &ctx]() { ctx.status = RunRun(*args, ctx.flags); });
}

}  // namespace qforge::cmd

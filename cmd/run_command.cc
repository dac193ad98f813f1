// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge run MODEL --data SPEC --output-dir DIR: runs the model on every
// sample and writes DIR/output_K.npy (K = output index); several samples
// are stacked along axis 0. --save-inputs DIR2 writes the inputs fed.
#include <filesystem>
#include <memory>
#include <numeric>

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
#include "runtime/sample_runner.h"

namespace qforge::cmd {
namespace {

struct RunArgs {
  std::string model;
  pipeline::DataSpec data;
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
  ASSIGN_OR_RETURN(
      formats::SampleSource data,
      pipeline::OpenData(args.data, model, StderrHooks(flags.quiet),
                         /*fingerprint=*/false));
  std::vector<std::string> inputs = pipeline::DataInputPaths(args.data, data);
  inputs.push_back(args.model);
  if (data.size() == 0) {
    return absl::InvalidArgumentError("the data set has no samples");
  }
  const int64_t n = data.size();
  std::vector<int64_t> samples(static_cast<size_t>(n));
  std::iota(samples.begin(), samples.end(), int64_t{0});
  // With at least as many samples as threads, samples run side by side on
  // one-thread interpreters (as calibrate does): small models gain little
  // from splitting one sample's ops, and sample parallelism scales. Fewer
  // samples than threads: one interpreter splits each sample's ops. The
  // outputs are the same either way.
  runtime::SampleRunnerOptions options;
  options.threads = args.threads;
  options.split_ops = true;
  options.interpreter.numerics = flags.numerics;
  Progress progress("run", flags.quiet);
  options.progress = [&progress](int64_t done, int64_t total) {
    progress.Update(done, total);
  };
  ASSIGN_OR_RETURN(runtime::SampleRunner runner,
                   runtime::SampleRunner::Create({&model}, data, samples,
                                                 std::move(options)));
  const int num_outputs = runner.worker(0).interpreters[0]->num_outputs();
  const bool save = !args.save_inputs.empty();
  // Indexed [tensor][sample], so the files do not depend on which worker
  // ran which sample.
  std::vector<std::vector<ir::HostTensor>> outputs(
      static_cast<size_t>(num_outputs),
      std::vector<ir::HostTensor>(static_cast<size_t>(n)));
  std::vector<std::vector<ir::HostTensor>> saved(
      save ? static_cast<size_t>(runner.worker(0).interpreters[0]->num_inputs())
           : 0,
      std::vector<ir::HostTensor>(static_cast<size_t>(n)));
  absl::Status status = runner.Run([&](runtime::SampleWorker& w, int64_t i) {
    runtime::Interpreter& interpreter = *w.interpreters[0];
    RETURN_IF_ERROR(interpreter.Run(w.inputs));
    const size_t at = static_cast<size_t>(i);
    for (int k = 0; k < num_outputs; ++k) {
      outputs[static_cast<size_t>(k)][at] = interpreter.OutputHost(k);
    }
    // The inputs are reused sample after sample unless kept here.
    for (size_t k = 0; k < saved.size() && k < w.inputs.size(); ++k) {
      saved[k][at] = std::move(w.inputs[k]);
    }
    return absl::OkStatus();
  });
  if (!status.ok()) {
    return absl::Status(status.code(),
                        absl::StrCat(args.model, ": ", status.message()));
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

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge run MODEL --data SPEC --output-dir DIR: runs the model on every
// sample and writes DIR/output_K.npy (K = output index); several samples
// are stacked along axis 0. --save-inputs DIR2 writes the inputs fed.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

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
  const int threads =
      args.threads > 0
          ? args.threads
          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // With at least as many samples as threads, samples run side by side on
  // one-thread interpreters (as calibrate does): small models gain nothing
  // from splitting one sample's ops (mobilenet_v1_0.25_224 takes as long
  // per sample on 2 threads as on 1), and sample parallelism scales. Fewer
  // samples than threads: one interpreter splits each sample's ops. The
  // outputs are the same either way.
  const bool by_sample = threads > 1 && n >= threads;
  const int workers = by_sample ? threads : 1;
  runtime::InterpreterOptions options;
  options.threads = by_sample ? 1 : threads;
  options.numerics = flags.numerics;
  std::vector<std::unique_ptr<runtime::Interpreter>> interpreters;
  for (int w = 0; w < workers; ++w) {
    ASSIGN_OR_RETURN(std::unique_ptr<runtime::Interpreter> interpreter,
                     runtime::Interpreter::Create(model, options));
    interpreters.push_back(std::move(interpreter));
  }
  const int num_outputs = interpreters[0]->num_outputs();
  const int num_inputs = interpreters[0]->num_inputs();
  // Indexed [tensor][sample], so the files do not depend on which worker
  // ran which sample.
  std::vector<std::vector<ir::HostTensor>> outputs(
      static_cast<size_t>(num_outputs),
      std::vector<ir::HostTensor>(static_cast<size_t>(n)));
  std::vector<std::vector<ir::HostTensor>> saved(
      args.save_inputs.empty() ? 0 : static_cast<size_t>(num_inputs),
      std::vector<ir::HostTensor>(static_cast<size_t>(n)));
  std::vector<absl::Status> failures(static_cast<size_t>(n));
  std::atomic<int64_t> next{0}, done{0};
  std::atomic<bool> failed{false};
  std::mutex progress_mu;
  Progress progress("run", flags.quiet);
  auto work = [&](runtime::Interpreter& interpreter) {
    // Reused sample after sample (unless --save-inputs keeps them).
    std::vector<ir::HostTensor> given;
    for (;;) {
      const int64_t i = next.fetch_add(1);
      if (i >= n || failed) return;
      const size_t at = static_cast<size_t>(i);
      absl::Status s = data.GetInto(i, given);
      if (s.ok()) s = interpreter.Run(given);
      if (!s.ok()) {
        failures[at] = absl::Status(
            s.code(), absl::StrCat(args.model, ": sample ", i, " (",
                                   data.SampleName(i), "): ", s.message()));
        failed = true;
        return;
      }
      for (int k = 0; k < num_outputs; ++k) {
        outputs[static_cast<size_t>(k)][at] = interpreter.OutputHost(k);
      }
      for (size_t k = 0; k < saved.size() && k < given.size(); ++k) {
        saved[k][at] = std::move(given[k]);
      }
      const int64_t d = ++done;
      std::lock_guard<std::mutex> lock(progress_mu);
      progress.Update(d, n);
    }
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < workers; ++w) {
    pool.emplace_back([&, w] { work(*interpreters[static_cast<size_t>(w)]); });
  }
  work(*interpreters[0]);
  for (std::thread& t : pool) t.join();
  // Workers stop at the first failure they see; the one reported is the
  // first in sample order.
  for (const absl::Status& f : failures) RETURN_IF_ERROR(f);
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

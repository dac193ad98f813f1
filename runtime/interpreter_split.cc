// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// A batched run of a model whose samples are independent
// (interpreter_batch.h), split into batch-1 runs on worker interpreters.
#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "base/status_macros.h"
#include "runtime/interpreter_impl.h"
#include "runtime/tensor_access.h"

namespace qforge::runtime {

int64_t Interpreter::Impl::SplitBatch(
    absl::Span<const ir::HostTensor> inputs) const {
  if (!samples_independent_ || inputs.empty()) return 0;
  const int64_t batch = inputs[0].shape().empty() ? 0 : inputs[0].shape()[0];
  for (const ir::HostTensor& in : inputs) {
    if (in.shape().empty() || in.shape()[0] != batch) return 0;
  }
  return batch;
}

absl::Status Interpreter::Impl::RunSplit(
    absl::Span<const ir::HostTensor> inputs, int64_t batch,
    TensorObserver* observer) {
  SubgraphExec& exec = entry();
  const ir::Subgraph& sg = *exec.sg;
  auto make_worker = [&](int threads) -> absl::StatusOr<std::unique_ptr<Impl>> {
    InterpreterOptions o = options_;
    o.threads = threads;
    auto w = std::make_unique<Impl>(model_, o);
    RETURN_IF_ERROR(w->Init());
    w->samples_independent_ = false;  // workers see batch 1
    return w;
  };
  const bool in_order = observer != nullptr && !observer->ConcurrentObserve();
  const int workers =
      in_order
          ? 1
          : static_cast<int>(std::min<int64_t>(pool_.num_threads(), batch));
  if (in_order && observed_worker_ == nullptr) {
    ASSIGN_OR_RETURN(observed_worker_, make_worker(pool_.num_threads()));
  }
  while (!in_order && sample_workers_.size() < static_cast<size_t>(workers)) {
    ASSIGN_OR_RETURN(std::unique_ptr<Impl> w, make_worker(1));
    sample_workers_.push_back(std::move(w));
    worker_busy_.push_back(false);
  }
  for (SubgraphExec& e : execs_) {
    if (e.reachable) ResetForRun(e);
  }
  std::vector<absl::Status> status(static_cast<size_t>(batch));
  bool outputs_ready = false;
  auto run_sample = [&](Impl& w, int64_t b) -> absl::Status {
    std::vector<InputView> views(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      const size_t bytes = inputs[i].ByteSize() / static_cast<size_t>(batch);
      views[i].shape = Dims(inputs[i].shape().begin(), inputs[i].shape().end());
      views[i].shape[0] = 1;
      views[i].data = inputs[i].data() + static_cast<size_t>(b) * bytes;
      views[i].bytes = bytes;
    }
    RETURN_IF_ERROR(w.RunChecked(views, observer));
    const SubgraphExec& wexec = w.entry();
    {
      std::lock_guard<std::mutex> lock(split_mu_);
      for (size_t k = 0; k < sg.outputs.size(); ++k) {
        const RtTensor& src = wexec.tensors[sg.outputs[k]];
        RtTensor& dst = exec.tensors[sg.outputs[k]];
        Dims shape = src.shape;
        if (shape.empty() || shape[0] != 1) {
          return absl::InternalError(absl::StrCat(
              "batch split: output '", src.name(), "' ", DimsString(src.shape),
              " of one sample has no batch of 1"));
        }
        shape[0] = batch;
        if (!outputs_ready) {
          dst.shape = shape;
          ASSIGN_OR_RETURN(size_t bytes,
                           TensorBytes(dst, options_.max_tensor_bytes));
          RETURN_IF_ERROR(Reserve(exec.owned[sg.outputs[k]], dst, bytes));
        } else if (dst.shape != shape) {
          return absl::InternalError(absl::StrCat(
              "batch split: samples give different shapes for output '",
              src.name(), "'"));
        }
      }
      outputs_ready = true;
    }
    for (int32_t out : sg.outputs) {
      const RtTensor& src = wexec.tensors[out];
      ASSIGN_OR_RETURN(size_t bytes, TensorBytes(src));
      if (bytes > 0) {
        std::memcpy(exec.tensors[out].data + static_cast<size_t>(b) * bytes,
                    src.data, bytes);
      }
    }
    return absl::OkStatus();
  };
  if (in_order) {
    for (int64_t b = 0; b < batch; ++b) {
      RETURN_IF_ERROR(run_sample(*observed_worker_, b));
    }
    return absl::OkStatus();
  }
  pool_.ParallelFor(batch, [&](int64_t b) {
    size_t w = 0;
    {
      std::lock_guard<std::mutex> lock(split_mu_);
      while (worker_busy_[w]) ++w;  // at most `workers` tasks run at once
      worker_busy_[w] = true;
    }
    status[static_cast<size_t>(b)] = run_sample(*sample_workers_[w], b);
    std::lock_guard<std::mutex> lock(split_mu_);
    worker_busy_[w] = false;
  });
  for (const absl::Status& s : status) RETURN_IF_ERROR(s);
  return absl::OkStatus();
}

}  // namespace qforge::runtime

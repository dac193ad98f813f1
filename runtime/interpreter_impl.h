// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The interpreter's inside, shared by interpreter.cc (building, planning
// and running subgraphs) and interpreter_split.cc (running a batch as
// independent samples on worker interpreters). Not part of the API.
#ifndef QFORGE_RUNTIME_INTERPRETER_IMPL_H_
#define QFORGE_RUNTIME_INTERPRETER_IMPL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/aligned_buffer.h"
#include "runtime/interpreter.h"
#include "runtime/kernel.h"
#include "runtime/kernels/control_flow/control_flow.h"
#include "runtime/thread_pool.h"
#include "runtime/unrunnable.h"

namespace qforge::runtime {
namespace interp {

struct OpSlot {
  const ir::Operator* op = nullptr;
  const KernelDef* kernel = nullptr;
  std::unique_ptr<KernelState> state;
  // The op's tensors, built on its first run (exec.tensors never moves).
  std::vector<RtTensor*> inputs, outputs;
  std::vector<Dims> prepared_input_shapes;
  bool prepared = false;
  bool shape_depends_on_data = false;
  bool folded = false;
  bool skipped = false;  // skip_unrunnable: no kernel, or downstream of one
};

enum class Storage : uint8_t {
  kActivation,  // arena (or heap until planned)
  kConstant,    // file buffer, used in place
  kFolded,      // computed once at creation
  kVariable,    // persistent, reset each run
  kInput,       // entry-subgraph input, copied in
  kSkipped,     // produced by a skipped op: never computed
};

struct SubgraphExec {
  int index = 0;
  const ir::Subgraph* sg = nullptr;
  bool reachable = false;
  std::vector<RtTensor> tensors;
  std::vector<Storage> storage;
  std::vector<AlignedBuffer> owned;  // per tensor heap storage
  std::vector<OpSlot> ops;
  std::vector<SkippedOp> skipped;        // skip_unrunnable
  std::vector<int> first_def, last_use;  // op indices; -1 = before op 0
  // Memory plan for activations.
  AlignedBuffer arena;
  std::vector<int64_t> arena_offset;   // -1: not in the arena
  std::vector<size_t> arena_capacity;  // bytes reserved per tensor
  bool plan_valid = false;
  bool plan_dirty = false;
  size_t arena_bytes = 0;
};

inline Dims ToDims(const std::vector<int32_t>& v) {
  return Dims(v.begin(), v.end());
}

// An input tensor as given to a run (a whole HostTensor or one sample).
struct InputView {
  Dims shape;
  const uint8_t* data = nullptr;
  size_t bytes = 0;
};

}  // namespace interp

using interp::InputView;
using interp::OpSlot;
using interp::Storage;
using interp::SubgraphExec;
using interp::ToDims;

class Interpreter::Impl : public SubgraphRunner {
 public:
  Impl(const ir::Model& model, const InterpreterOptions& options)
      : model_(model),
        options_(options),
        isa_(ResolveIsa(options.isa)),
        pool_(options.threads) {}

  absl::Status Init();
  absl::Status Run(absl::Span<const ir::HostTensor> inputs,
                   TensorObserver* observer);
  // Runs on inputs already checked against the model.
  absl::Status RunChecked(absl::Span<const InputView> inputs,
                          TensorObserver* observer);

  // SubgraphRunner.
  absl::Status InvokeSubgraph(int index, absl::Span<RtTensor* const> inputs,
                              absl::Span<RtTensor* const> outputs) override;
  absl::Status ResizeTensor(RtTensor* tensor, Dims shape) override;
  void MarkShapeDependsOnData(int subgraph, int op_index) override {
    execs_[subgraph].ops[op_index].shape_depends_on_data = true;
  }
  ir::HostTensor* Resource(const std::string& key) override {
    return &resources_[key];
  }
  int64_t MaxLoopIterations() const override {
    return options_.max_loop_iterations;
  }
  RtTensor* SubgraphTensor(int subgraph, int index) override {
    if (subgraph < 0 || static_cast<size_t>(subgraph) >= execs_.size())
      return nullptr;
    std::vector<RtTensor>& t = execs_[static_cast<size_t>(subgraph)].tensors;
    return index >= 0 && static_cast<size_t>(index) < t.size() ? &t[index]
                                                               : nullptr;
  }

  SubgraphExec& entry() { return execs_[options_.subgraph]; }
  const SubgraphExec& entry() const { return execs_[options_.subgraph]; }

 private:
  absl::Status InitSubgraph(SubgraphExec& exec);
  absl::Status FoldConstants(SubgraphExec& exec);
  void MarkReachable(int index);
  absl::Status RunOps(SubgraphExec& exec);
  absl::Status RunOp(SubgraphExec& exec, int i, bool folding);
  absl::Status Allocate(SubgraphExec& exec, int t);
  void ResetForRun(SubgraphExec& exec);
  void Plan(SubgraphExec& exec);
  SubgraphExec* Owner(const RtTensor* tensor, int* index);
  // Batch splitting (interpreter_batch.h): the batch size to split, or 0.
  int64_t SplitBatch(absl::Span<const ir::HostTensor> inputs) const;
  absl::Status RunSplit(absl::Span<const ir::HostTensor> inputs, int64_t batch,
                        TensorObserver* observer);

  const ir::Model& model_;
  InterpreterOptions options_;
  Isa isa_;
  ThreadPool pool_;
  std::vector<SubgraphExec> execs_;
  std::map<std::string, ir::HostTensor> resources_;
  // Storage of tensors kernels own (e.g. loop state) that ResizeTensor grew.
  std::map<const RtTensor*, AlignedBuffer> external_;
  TensorObserver* observer_ = nullptr;
  // Batch splitting: one-thread interpreters that run one sample each,
  // claimed by the pool's tasks; runs observed by an observer that is not
  // ConcurrentObserve go one sample after the other through
  // `observed_worker_` (all threads), so it sees the samples in order.
  bool samples_independent_ = false;
  std::vector<std::unique_ptr<Impl>> sample_workers_;
  std::vector<bool> worker_busy_;
  std::unique_ptr<Impl> observed_worker_;
  std::mutex split_mu_;
};

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_INTERPRETER_IMPL_H_

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Runs an ir::Model on the CPU with the float (and, later, integer)
// kernels.
//  - Constants: file buffers are used in place; ops whose inputs are all
//    constant (DEQUANTIZE of float16 weights, DENSIFY of sparse weights,
//    shape arithmetic) are evaluated once at creation ("folded").
//  - Memory: the first run allocates per tensor; afterwards every
//    activation lives in one arena whose offsets are planned from tensor
//    sizes and lifetimes (tensors that are never alive together share
//    bytes). Shapes that change between runs trigger a new plan.
//  - Variables (is_variable tensors, resource variables) start from their
//    initial value at every Run: a run is one sample.
//  - Observers see every tensor an op produces, right after the op.
//  - Batches: when the samples are independent (interpreter_batch.h), a
//    batched run is computed sample by sample, in parallel on the threads
//    (one sample after the other, and seen so, when there is an observer
//    that is not ConcurrentObserve).
#ifndef QFORGE_RUNTIME_INTERPRETER_H_
#define QFORGE_RUNTIME_INTERPRETER_H_

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "numerics/modes.h"
#include "runtime/cpu_isa.h"
#include "runtime/tensor.h"
#include "runtime/unrunnable.h"

namespace qforge::runtime {

class ThreadPool;

struct InterpreterOptions {
  int threads = 0;   // <= 0: all cores
  int subgraph = 0;  // the entry subgraph
  // Ops without a kernel, and every op downstream of one (unrunnable.h),
  // are skipped instead of failing Create: runs compute the rest and
  // leave the skipped ops' outputs unset (model outputs among them read as
  // zeros). For calibration around ops qforge cannot run.
  bool skip_unrunnable = false;
  // Bytes one tensor may take; a larger one fails the run (InvalidArgument
  // naming it) instead of being allocated. 0: only what int64 and the
  // allocator allow. The fuzzers set a small bound.
  int64_t max_tensor_bytes = 0;
  // Iterations of one WHILE evaluation before it fails: a loop whose
  // condition never turns false is an error, not a hang.
  int64_t max_loop_iterations = int64_t{1} << 24;
  // Which TFLite build's integer arithmetic to reproduce (the CLI's
  // --rounding and --arithmetic); each interpreter has its own.
  numerics::Modes numerics;
  // The most the kernels may use of this CPU's instruction sets (every
  // level computes the same results; tests and benchmarks compare them).
  Isa isa = Isa::kAvx512Vnni;
};

class TensorObserver {
 public:
  virtual ~TensorObserver() = default;
  // `tensor` of `subgraph` was just produced by op `op_index` (-1: it is an
  // input of the entry subgraph). Valid only during the call.
  virtual void Observe(int subgraph, int op_index, int tensor_index,
                       const RtTensor& tensor) = 0;
  // True if Observe may be called from several threads at once (for
  // different samples of a batch) and what it records does not depend on
  // the order of the calls; a batched run then keeps its samples parallel.
  virtual bool ConcurrentObserve() const { return false; }
  // Observe, given the interpreter's threads, idle during the call, to
  // split the work over (ThreadPool::ParallelFor). The interpreter calls
  // this one; the default ignores the pool.
  virtual void ObserveParallel(int subgraph, int op_index, int tensor_index,
                               const RtTensor& tensor, ThreadPool& /*pool*/) {
    Observe(subgraph, op_index, tensor_index, tensor);
  }
  // True if the observer overwrites values: after observing an activation
  // an op wrote, Replace may change its values (not its type or shape)
  // before any later op reads them. The report uses it to give each op
  // exact inputs and so measure the noise the op adds on its own. Only in
  // in-order runs (ConcurrentObserve false).
  virtual bool ReplacesValues() const { return false; }
  virtual void Replace(int /*subgraph*/, int /*op_index*/, int /*tensor_index*/,
                       RtTensor& /*tensor*/) {}
};

class Interpreter {
 public:
  // `model` must outlive the interpreter. Fails (Unimplemented, exit code 3)
  // on an op without a kernel, naming it and its index.
  static absl::StatusOr<std::unique_ptr<Interpreter>> Create(
      const ir::Model& model, const InterpreterOptions& options = {});
  ~Interpreter();

  // The entry subgraph's inputs, in order; dynamic (-1) dims take the
  // given size. Errors name the input and both shapes.
  absl::Status Run(absl::Span<const ir::HostTensor> inputs,
                   TensorObserver* observer = nullptr);

  int num_inputs() const;
  int num_outputs() const;
  // Valid after a successful Run.
  const RtTensor& output(int i) const;
  ir::HostTensor OutputHost(int i) const;

  // Bytes of the activation arena of the entry subgraph (after a run).
  size_t arena_bytes() const;

  // The entry subgraph's ops skipped (skip_unrunnable), in op order.
  const std::vector<SkippedOp>& skipped_ops() const;

  class Impl;

 private:
  explicit Interpreter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_INTERPRETER_H_

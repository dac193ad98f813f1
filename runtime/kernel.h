// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The kernel interface. A kernel is two free functions over an OpContext:
//   prepare: check input types/shapes, set every output's shape (and type if
//            it is not the model's), build per-op state such as packed
//            weights. Runs before the first eval and again whenever an
//            input shape changes. Must not read non-constant input data,
//            except for inputs that decide output shapes (RESHAPE's shape,
//            PAD's paddings, ...): use ctx.InputValueKnown() to check, and
//            call ctx.SetShapeDependsOnData() when it is not known yet.
//   eval:    compute outputs from inputs. No allocation on this path.
// Kernels for one op family live in runtime/kernels/<family>/; the op
// table (ir/ops.def) names each op's kernels.
#ifndef QFORGE_RUNTIME_KERNEL_H_
#define QFORGE_RUNTIME_KERNEL_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "numerics/modes.h"
#include "runtime/cpu_isa.h"
#include "runtime/tensor.h"
#include "runtime/thread_pool.h"

namespace qforge::runtime {

// Per-op state a kernel builds in prepare (packed weights, lookup tables).
class KernelState {
 public:
  virtual ~KernelState() = default;
};

// What the interpreter offers kernels beyond their tensors.
class SubgraphRunner {
 public:
  virtual ~SubgraphRunner() = default;
  // Runs subgraph `index` (see OpContext::InvokeSubgraph).
  virtual absl::Status InvokeSubgraph(int index,
                                      absl::Span<RtTensor* const> inputs,
                                      absl::Span<RtTensor* const> outputs) = 0;
  // Gives `tensor` a buffer for `shape` during eval (outputs whose shape is
  // only known once computed).
  virtual absl::Status ResizeTensor(RtTensor* tensor, Dims shape) = 0;
  // The op's output shape depends on input values: prepare it every run.
  virtual void MarkShapeDependsOnData(int subgraph, int op_index) = 0;
  // Storage of the resource variable `key` (VAR_HANDLE's container and
  // shared_name); created empty on first use, cleared at every Run.
  virtual ir::HostTensor* Resource(const std::string& key) = 0;
  // InterpreterOptions::max_loop_iterations; 0: no bound.
  virtual int64_t MaxLoopIterations() const { return 0; }
  // Tensor `index` of `subgraph`; nullptr when out of range.
  virtual RtTensor* SubgraphTensor(int subgraph, int index) {
    (void)subgraph;
    (void)index;
    return nullptr;
  }
};

class OpContext {
 public:
  // The interpreter's form: the tensor lists live in its op slot, so that
  // running an op allocates nothing.
  OpContext(const ir::Operator& op, int subgraph, int op_index,
            absl::Span<RtTensor* const> inputs,
            absl::Span<RtTensor* const> outputs, ThreadPool* pool,
            SubgraphRunner* runner, std::unique_ptr<KernelState>* state)
      : op_(op),
        subgraph_(subgraph),
        op_index_(op_index),
        inputs_(inputs),
        outputs_(outputs),
        pool_(pool),
        runner_(runner),
        state_(state) {}
  // Tests' form: the context holds the lists (a moved vector keeps its
  // heap buffer, so the spans stay valid when the context is moved).
  OpContext(const ir::Operator& op, int subgraph, int op_index,
            std::vector<RtTensor*> inputs, std::vector<RtTensor*> outputs,
            ThreadPool* pool, SubgraphRunner* runner,
            std::unique_ptr<KernelState>* state)
      : op_(op),
        subgraph_(subgraph),
        op_index_(op_index),
        owned_inputs_(std::move(inputs)),
        owned_outputs_(std::move(outputs)),
        inputs_(owned_inputs_),
        outputs_(owned_outputs_),
        pool_(pool),
        runner_(runner),
        state_(state) {}
  OpContext(OpContext&&) = default;
  OpContext(const OpContext&) = delete;
  OpContext& operator=(const OpContext&) = delete;

  const ir::Operator& op() const { return op_; }
  int num_inputs() const { return static_cast<int>(inputs_.size()); }
  int num_outputs() const { return static_cast<int>(outputs_.size()); }
  // nullptr for an absent optional input (index -1 in the model).
  RtTensor* input(int i) const {
    return i < num_inputs() ? inputs_[static_cast<size_t>(i)] : nullptr;
  }
  RtTensor* output(int i) const { return outputs_[static_cast<size_t>(i)]; }
  // The op's intermediate tensors (Operator.intermediates: tensors no op
  // reads or writes, whose quantization parameters TFLite's integer LSTM
  // uses as scales). nullptr when absent or when the interpreter gave the
  // context no subgraph tensors.
  int num_intermediates() const {
    return static_cast<int>(op_.intermediates.size());
  }
  const ir::Tensor* intermediate(int i) const;
  // Set by the interpreter: the tensors of the op's subgraph.
  void set_subgraph_tensors(const std::vector<ir::Tensor>* tensors) {
    subgraph_tensors_ = tensors;
  }

  // Prepare only: the output's shape for this run.
  void SetOutputShape(int i, Dims shape) {
    output(i)->shape = std::move(shape);
  }

  // True when input i's data is available during prepare: a constant, or
  // (at run time) a value an earlier op already produced.
  bool InputValueKnown(int i) const {
    const RtTensor* t = input(i);
    return t != nullptr && t->data != nullptr;
  }

  // Prepare: call when an output shape depends on non-constant input
  // values, so prepare runs again on every run.
  void SetShapeDependsOnData() const {
    runner_->MarkShapeDependsOnData(subgraph_, op_index_);
  }

  // Eval only: gives output i a buffer for `shape` (data-dependent shapes).
  absl::Status ResizeOutput(int i, Dims shape) const {
    return runner_->ResizeTensor(output(i), std::move(shape));
  }

  ir::HostTensor* Resource(const std::string& key) const {
    return runner_->Resource(key);
  }

  int64_t MaxLoopIterations() const { return runner_->MaxLoopIterations(); }

  // A tensor of the op's subgraph by index, for tensors that only a
  // quantization parameter names (blockwise scales); nullptr when absent.
  const RtTensor* tensor(int index) const {
    return runner_ == nullptr ? nullptr
                              : runner_->SubgraphTensor(subgraph_, index);
  }

  ThreadPool& pool() const { return *pool_; }
  // The interpreter's numerics modes, and this op's requantization rounding
  // under them (numerics::OpRounding of the op's types). Kernels pass these
  // values to numerics/; nothing in the process holds a mode.
  const numerics::Modes& modes() const { return modes_; }
  numerics::Rounding rounding() const { return rounding_; }
  numerics::Arithmetic arithmetic() const { return modes_.arithmetic; }
  void set_numerics(const numerics::Modes& modes, numerics::Rounding rounding) {
    modes_ = modes;
    rounding_ = rounding;
  }
  // The instruction sets the op's kernel may use (kScalar: the reference
  // kernels). Fast paths dispatch on it inside prepare and eval.
  Isa isa() const { return isa_; }
  void set_isa(Isa isa) { isa_ = isa; }
  int subgraph_index() const { return subgraph_; }
  int op_index() const { return op_index_; }

  template <typename T>
  T* state() const {
    return static_cast<T*>(state_->get());
  }
  void set_state(std::unique_ptr<KernelState> s) { *state_ = std::move(s); }
  // The op's state, default-constructed the first time (prepare runs again
  // when input shapes change and keeps what it built).
  template <typename T>
  T* StateOrNew() {
    if (*state_ == nullptr) *state_ = std::make_unique<T>();
    return state<T>();
  }

  // Control flow: runs subgraph `index` with `inputs` copied into its
  // inputs; on success its outputs are copied into `outputs` (shapes set).
  absl::Status InvokeSubgraph(int index, absl::Span<RtTensor* const> inputs,
                              absl::Span<RtTensor* const> outputs) const;

  // An InvalidArgument error naming the subgraph, op index and op name:
  // "subgraph 0 op 12 (CONV_2D): <message>".
  absl::Status Error(absl::string_view message) const;
  // Unimplemented (exit code 3), same naming.
  absl::Status Unsupported(absl::string_view message) const;

 private:
  const ir::Operator& op_;
  int subgraph_;
  int op_index_;
  std::vector<RtTensor*> owned_inputs_, owned_outputs_;
  absl::Span<RtTensor*const> inputs_, outputs_;
  ThreadPool* pool_;
  SubgraphRunner* runner_;
  std::unique_ptr<KernelState>* state_;
  const std::vector<ir::Tensor>* subgraph_tensors_ = nullptr;
  numerics::Modes modes_;
  numerics::Rounding rounding_ = numerics::Rounding::kSingle;
  Isa isa_ = Isa::kScalar;
};

using PrepareFn = absl::Status (*)(OpContext&);
using EvalFn = absl::Status (*)(OpContext&);

struct KernelDef {
  PrepareFn prepare = nullptr;
  EvalFn eval = nullptr;
};

// The float kernel of `kind`; nullptr when there is none.
const KernelDef* FindFloatKernel(ir::OpKind kind);
// True when the float kernel of `kind` moves data of any type (RESHAPE,
// TRANSPOSE, ...), so it also runs the op's quantized forms.
bool FloatKernelTakesAnyType(ir::OpKind kind);
// The integer kernel (quantized int8 / uint8 / int16 activations).
const KernelDef* FindIntegerKernel(ir::OpKind kind);
// The hybrid kernel (float activations, quantized int8 constant weights).
const KernelDef* FindHybridKernel(ir::OpKind kind);
// The kernel of a custom op (by its custom code); nullptr when there is none.
const KernelDef* FindCustomKernel(absl::string_view custom_code);
// The custom codes that have kernels (runtime/kernels/custom/custom.def).
std::vector<std::string> CustomKernelCodes();

// Which table serves `op`: integer when its first output (or, for
// DEQUANTIZE, its input) is a quantized integer tensor; hybrid when it
// computes in float with an int8 constant input; float otherwise.
const KernelDef* FindKernel(const ir::Model& model, const ir::Subgraph& sg,
                            const ir::Operator& op);

// Common prepare helpers.
// Checks that input i exists and has `type`.
absl::Status ExpectType(const OpContext& ctx, int input, ir::DataType type);
// Output 0 takes input 0's shape (elementwise unary ops).
absl::Status PrepareSameShape(OpContext& ctx);
// NumPy-style broadcast of two shapes; error names both.
absl::Status BroadcastShapes(const OpContext& ctx, absl::Span<const int64_t> a,
                             absl::Span<const int64_t> b, Dims* out);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNEL_H_

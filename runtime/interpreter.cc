// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/interpreter.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "numerics/fixed_point.h"
#include "runtime/aligned_buffer.h"
#include "runtime/interpreter_batch.h"
#include "runtime/interpreter_impl.h"
#include "runtime/kernel.h"
#include "runtime/kernels/control_flow/control_flow.h"
#include "runtime/legality.h"
#include "runtime/memory_plan.h"
#include "runtime/tensor_access.h"
#include "runtime/unrunnable.h"

namespace qforge::runtime {

void Interpreter::Impl::MarkReachable(int index) {
  SubgraphExec& exec = execs_[index];
  if (exec.reachable) return;
  exec.reachable = true;
  for (const ir::Operator& op : exec.sg->operators) {
    for (int callee : CalledSubgraphs(op)) {
      // Out-of-range indices fail in the kernel's prepare.
      if (callee >= 0 && static_cast<size_t>(callee) < execs_.size())
        MarkReachable(callee);
    }
  }
}

absl::Status Interpreter::Impl::Init() {
  if (options_.subgraph < 0 ||
      static_cast<size_t>(options_.subgraph) >= model_.subgraphs.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("model has no subgraph ", options_.subgraph));
  }
  execs_.resize(model_.subgraphs.size());
  for (size_t i = 0; i < execs_.size(); ++i) {
    execs_[i].index = static_cast<int>(i);
    execs_[i].sg = &model_.subgraphs[i];
  }
  MarkReachable(options_.subgraph);
  for (SubgraphExec& exec : execs_) {
    if (exec.reachable) RETURN_IF_ERROR(InitSubgraph(exec));
  }
  for (SubgraphExec& exec : execs_) {
    if (exec.reachable) RETURN_IF_ERROR(FoldConstants(exec));
  }
  // Batch splitting copies every model output; skipped ones have no data.
  samples_independent_ = entry().skipped.empty() &&
                         SamplesAreIndependent(model_, options_.subgraph);
  return absl::OkStatus();
}

absl::Status Interpreter::Impl::InitSubgraph(SubgraphExec& exec) {
  const ir::Subgraph& sg = *exec.sg;
  const size_t n = sg.tensors.size();
  exec.tensors.resize(n);
  exec.storage.assign(n, Storage::kActivation);
  exec.owned.resize(n);
  exec.arena_offset.assign(n, -1);
  exec.arena_capacity.assign(n, 0);
  exec.first_def.assign(n, -1);
  exec.last_use.assign(n, -1);
  for (size_t t = 0; t < n; ++t) {
    const ir::Tensor& it = sg.tensors[t];
    RtTensor& rt = exec.tensors[t];
    rt.ir = &it;
    rt.type = it.type;
    rt.shape = ToDims(it.shape);
    rt.is_variable = it.is_variable;
    const bool has_data = it.buffer != 0 && it.buffer < model_.buffers.size() &&
                          !model_.buffers[it.buffer].data.empty();
    if (it.is_variable) {
      exec.storage[t] = Storage::kVariable;
    } else if (has_data) {
      exec.storage[t] = Storage::kConstant;
      const ir::Bytes& data = model_.buffers[it.buffer].data;
      // Kernels never write their inputs; constants are used in place.
      rt.data = const_cast<uint8_t*>(data.data());
      rt.bytes = data.size();
      rt.is_constant = true;
      if (it.type == ir::DataType::kInt4) {
        RETURN_IF_ERROR(WidenInt4(exec.owned[t], rt, data));
      }
    }
  }
  for (int32_t in : sg.inputs) {
    if (exec.storage[in] == Storage::kActivation)
      exec.storage[in] = Storage::kInput;
  }
  exec.ops.resize(sg.operators.size());
  if (options_.skip_unrunnable) {
    exec.skipped = UnrunnableOps(model_, exec.index);
    for (const SkippedOp& k : exec.skipped) {
      exec.ops[static_cast<size_t>(k.op_index)].skipped = true;
      for (int32_t out : sg.operators[static_cast<size_t>(k.op_index)].outputs)
        exec.storage[out] = Storage::kSkipped;
    }
  }
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    const ir::Operator& op = sg.operators[i];
    OpSlot& slot = exec.ops[i];
    slot.op = &op;
    slot.kernel = FindKernel(model_, sg, op);
    if (slot.kernel == nullptr && !slot.skipped) {
      return absl::UnimplementedError(absl::StrCat(
          "subgraph ", exec.index, " op ", i, " (", op.DisplayName(),
          "): qforge has no kernel for this op"));
    }
    // A quantized form LiteRT refuses, aborts on or computes garbage for is
    // refused here too, so no figure qforge reports rests on it.
    const std::vector<legality::Violation> violations =
        legality::CheckForm(legality::FormOf(model_, sg, op));
    if (!violations.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("subgraph ", exec.index, " op ", i, " (",
                       op.DisplayName(), "): ", Describe(violations[0])));
    }
    for (int32_t in : op.inputs) {
      if (in >= 0) exec.last_use[in] = static_cast<int>(i);
    }
    for (int32_t out : op.outputs) exec.first_def[out] = static_cast<int>(i);
  }
  const int end = static_cast<int>(sg.operators.size());
  for (int32_t out : sg.outputs) exec.last_use[out] = end;
  // Variables and their initial values.
  for (size_t t = 0; t < n; ++t) {
    if (exec.storage[t] != Storage::kVariable) continue;
    ASSIGN_OR_RETURN(size_t bytes,
                     TensorBytes(exec.tensors[t], options_.max_tensor_bytes));
    RETURN_IF_ERROR(Reserve(exec.owned[t], exec.tensors[t], bytes));
    exec.tensors[t].bytes = bytes;
  }
  return absl::OkStatus();
}

absl::Status Interpreter::Impl::FoldConstants(SubgraphExec& exec) {
  for (size_t i = 0; i < exec.ops.size(); ++i) {
    const ir::Operator& op = *exec.ops[i].op;
    if (exec.ops[i].skipped) continue;
    // Control flow and variables run subgraphs or touch state.
    if (ir::GetOpInfo(op.kind).Has(ir::op_flags::kNeverFolded)) continue;
    if (op.inputs.empty() || op.outputs.empty()) continue;
    bool all_constant = true;
    for (int32_t in : op.inputs) {
      if (in >= 0 && !exec.tensors[in].is_constant) all_constant = false;
    }
    if (!all_constant) continue;
    RETURN_IF_ERROR(RunOp(exec, static_cast<int>(i), /*folding=*/true));
    exec.ops[i].folded = true;
    for (int32_t out : op.outputs) {
      exec.storage[out] = Storage::kFolded;
      exec.tensors[out].is_constant = true;
    }
  }
  return absl::OkStatus();
}

absl::Status Interpreter::Impl::Allocate(SubgraphExec& exec, int t) {
  RtTensor& rt = exec.tensors[t];
  ASSIGN_OR_RETURN(size_t bytes, TensorBytes(rt, options_.max_tensor_bytes));
  if (exec.storage[t] == Storage::kActivation && exec.plan_valid &&
      exec.arena_offset[t] >= 0 && bytes <= exec.arena_capacity[t]) {
    rt.data = exec.arena.data() + exec.arena_offset[t];
    rt.bytes = exec.arena_capacity[t];
    return absl::OkStatus();
  }
  if (exec.storage[t] == Storage::kActivation) exec.plan_dirty = true;
  return Reserve(exec.owned[t], rt, bytes);
}

absl::Status Interpreter::Impl::RunOp(SubgraphExec& exec, int i, bool folding) {
  OpSlot& slot = exec.ops[i];
  const ir::Operator& op = *slot.op;
  std::vector<RtTensor*>& inputs = slot.inputs;
  std::vector<RtTensor*>& outputs = slot.outputs;
  if (inputs.size() != op.inputs.size() ||
      outputs.size() != op.outputs.size()) {
    inputs.clear();
    outputs.clear();
    for (int32_t in : op.inputs)
      inputs.push_back(in >= 0 ? &exec.tensors[in] : nullptr);
    for (int32_t out : op.outputs) outputs.push_back(&exec.tensors[out]);
  }
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k] != nullptr) {
      RETURN_IF_ERROR(CheckReadable(op, exec.index, i, k, *inputs[k]));
    }
  }
  OpContext ctx(op, exec.index, i, absl::MakeConstSpan(inputs),
                absl::MakeConstSpan(outputs), &pool_, this, &slot.state);
  ctx.set_subgraph_tensors(&exec.sg->tensors);
  // Requantization rounding as LiteRT's kernels for this op's types
  // (numerics/fixed_point.h): its uint8 and int16 kernels round twice, and
  // so do the ops flagged kRoundsTwice (int8 PRELU, whose LiteRT kernel
  // rounds twice in its single-rounding build too); int8 GEMM ops (ruy's
  // output stage) may round differently from the rest.
  bool rounds_twice = ir::GetOpInfo(op.kind).Has(ir::op_flags::kRoundsTwice);
  for (const auto* list : {&inputs, &outputs}) {
    for (const RtTensor* t : *list) {
      if (t != nullptr && (t->type == ir::DataType::kUInt8 ||
                           t->type == ir::DataType::kInt16)) {
        rounds_twice = true;
      }
    }
  }
  const bool ruy_gemm = ir::GetOpInfo(op.kind).Has(ir::op_flags::kGemmRounding);
  ctx.set_numerics(
      options_.numerics,
      numerics::OpRounding(options_.numerics.rounding, rounds_twice, ruy_gemm));
  ctx.set_isa(isa_);

  bool need_prepare = !slot.prepared || slot.shape_depends_on_data ||
                      slot.prepared_input_shapes.size() != inputs.size();
  if (!need_prepare) {
    for (size_t k = 0; k < inputs.size(); ++k) {
      const Dims& now = inputs[k] ? inputs[k]->shape : Dims{};
      if (now != slot.prepared_input_shapes[k]) {
        need_prepare = true;
        break;
      }
    }
  }
  if (need_prepare) {
    RETURN_IF_ERROR(slot.kernel->prepare(ctx));
    slot.prepared = true;
    slot.prepared_input_shapes.clear();
    for (RtTensor* in : inputs) {
      slot.prepared_input_shapes.push_back(in ? in->shape : Dims{});
    }
  }
  for (int32_t out : op.outputs) {
    if (exec.storage[out] == Storage::kVariable) {
      // Written in place: the prepared shape must fit its storage.
      const RtTensor& rt = exec.tensors[out];
      ASSIGN_OR_RETURN(size_t bytes, TensorBytes(rt));
      if (bytes > rt.bytes) {
        return absl::InvalidArgumentError(absl::StrCat(
            "subgraph ", exec.index, " op ", i, " (", op.DisplayName(),
            "): output variable '", rt.name(), "' holds ", rt.bytes,
            " bytes, but the op gives it shape ", DimsString(rt.shape), " of ",
            ir::DataTypeName(rt.type), " (", bytes, " bytes)"));
      }
      continue;
    }
    if (folding) {
      RtTensor& rt = exec.tensors[out];
      ASSIGN_OR_RETURN(size_t bytes,
                       TensorBytes(rt, options_.max_tensor_bytes));
      RETURN_IF_ERROR(Reserve(exec.owned[out], rt, bytes));
    } else {
      RETURN_IF_ERROR(Allocate(exec, out));
    }
  }
  RETURN_IF_ERROR(slot.kernel->eval(ctx));
  if (observer_ != nullptr && !folding) {
    for (int32_t out : op.outputs) {
      observer_->ObserveParallel(exec.index, i, out, exec.tensors[out], pool_);
      // Activations only: constants and variables are not this run's to
      // change.
      if (observer_->ReplacesValues() &&
          exec.storage[static_cast<size_t>(out)] == Storage::kActivation) {
        observer_->Replace(exec.index, i, out, exec.tensors[out]);
      }
    }
  }
  return absl::OkStatus();
}

void Interpreter::Impl::ResetForRun(SubgraphExec& exec) {
  for (size_t t = 0; t < exec.tensors.size(); ++t) {
    RtTensor& rt = exec.tensors[t];
    switch (exec.storage[t]) {
      case Storage::kActivation:
        rt.data = nullptr;
        break;
      case Storage::kVariable: {
        // Initial value: the file's buffer, else zeros; int8 variables
        // start at their zero point (the real 0), as TFLite's
        // ResetVariableTensor does.
        const ir::Tensor& it = *rt.ir;
        rt.shape = ToDims(it.shape);
        int fill = 0;
        if (it.type == ir::DataType::kInt8 && it.quantization.has_value() &&
            !it.quantization->zero_point.empty()) {
          fill = static_cast<int>(it.quantization->zero_point[0]);
        }
        // An empty variable has no memory (memset/memcpy on null is UB
        // even for 0 bytes; found by the model fuzzer).
        if (rt.bytes == 0) break;
        std::memset(rt.data, fill, rt.bytes);
        if (it.buffer != 0 && it.buffer < model_.buffers.size()) {
          const ir::Bytes& init = model_.buffers[it.buffer].data;
          if (!init.empty()) {
            std::memcpy(rt.data, init.data(), std::min(init.size(), rt.bytes));
          }
        }
        break;
      }
      case Storage::kSkipped:
        rt.data = nullptr;
        break;
      case Storage::kConstant:
      case Storage::kFolded:
      case Storage::kInput:
        break;
    }
  }
}

absl::Status Interpreter::Impl::RunOps(SubgraphExec& exec) {
  for (size_t i = 0; i < exec.ops.size(); ++i) {
    if (exec.ops[i].folded || exec.ops[i].skipped) continue;
    RETURN_IF_ERROR(RunOp(exec, static_cast<int>(i), /*folding=*/false));
  }
  if (!exec.plan_valid || exec.plan_dirty) Plan(exec);
  return absl::OkStatus();
}

void Interpreter::Impl::Plan(SubgraphExec& exec) {
  std::vector<PlanItem> items;
  for (size_t t = 0; t < exec.tensors.size(); ++t) {
    if (exec.storage[t] != Storage::kActivation) continue;
    const RtTensor& rt = exec.tensors[t];
    absl::StatusOr<size_t> bytes = TensorBytes(rt);
    if (!bytes.ok() || exec.first_def[t] < 0) continue;
    items.push_back(PlanItem{static_cast<int>(t), AlignUp(*bytes),
                             exec.first_def[t],
                             std::max(exec.last_use[t], exec.first_def[t])});
  }
  const MemoryPlan plan = PlanArena(items, kAlignment);
  std::fill(exec.arena_offset.begin(), exec.arena_offset.end(), -1);
  for (size_t k = 0; k < items.size(); ++k) {
    exec.arena_offset[items[k].id] = static_cast<int64_t>(plan.offsets[k]);
    exec.arena_capacity[items[k].id] = items[k].bytes;
  }
  // Without the arena, tensors keep their own buffers (and the next run
  // plans again).
  exec.plan_valid = exec.arena.Reserve(plan.total_bytes) != nullptr;
  exec.arena_bytes = exec.plan_valid ? plan.total_bytes : 0;
  exec.plan_dirty = false;
}

SubgraphExec* Interpreter::Impl::Owner(const RtTensor* tensor, int* index) {
  for (SubgraphExec& exec : execs_) {
    if (exec.tensors.empty()) continue;
    const RtTensor* begin = exec.tensors.data();
    if (tensor >= begin && tensor < begin + exec.tensors.size()) {
      *index = static_cast<int>(tensor - begin);
      return &exec;
    }
  }
  return nullptr;
}

absl::Status Interpreter::Impl::ResizeTensor(RtTensor* tensor, Dims shape) {
  int index = -1;
  SubgraphExec* exec = Owner(tensor, &index);
  tensor->shape = std::move(shape);
  ASSIGN_OR_RETURN(size_t bytes,
                   TensorBytes(*tensor, options_.max_tensor_bytes));
  if (exec == nullptr) {
    // A tensor a kernel owns: its storage lives as long as the interpreter.
    if (bytes <= tensor->bytes && tensor->data != nullptr)
      return absl::OkStatus();
    return Reserve(external_[tensor], *tensor, bytes);
  }
  if (bytes <= tensor->bytes && tensor->data != nullptr)
    return absl::OkStatus();
  if (exec->storage[index] == Storage::kActivation) exec->plan_dirty = true;
  return Reserve(exec->owned[index], *tensor, bytes);
}

absl::Status Interpreter::Impl::InvokeSubgraph(
    int index, absl::Span<RtTensor* const> inputs,
    absl::Span<RtTensor* const> outputs) {
  if (index < 0 || static_cast<size_t>(index) >= execs_.size() ||
      !execs_[index].reachable) {
    return absl::InvalidArgumentError(
        absl::StrCat("invoke of unknown subgraph ", index));
  }
  SubgraphExec& exec = execs_[index];
  const ir::Subgraph& sg = *exec.sg;
  if (inputs.size() != sg.inputs.size() ||
      outputs.size() != sg.outputs.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "subgraph ", index, " takes ", sg.inputs.size(), " inputs and gives ",
        sg.outputs.size(), " outputs; the caller passes ", inputs.size(),
        " and ", outputs.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const int t = sg.inputs[i];
    RtTensor& dst = exec.tensors[t];
    if (dst.type != inputs[i]->type) {
      return absl::InvalidArgumentError(absl::StrCat(
          "subgraph ", index, " input ", i, " '", dst.name(), "' is ",
          ir::DataTypeName(dst.type), ", the caller passes ",
          ir::DataTypeName(inputs[i]->type)));
    }
    if (exec.storage[t] == Storage::kVariable ||
        exec.storage[t] == Storage::kConstant) {
      return absl::InvalidArgumentError(absl::StrCat(
          "subgraph ", index, " input '", dst.name(), "' is not writable"));
    }
    ASSIGN_OR_RETURN(size_t given, TensorBytes(*inputs[i]));
    if (given > inputs[i]->bytes || (given > 0 && inputs[i]->data == nullptr)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "subgraph ", index, " input ", i, ": the caller's tensor '",
          inputs[i]->name(), "' has no value of shape ",
          DimsString(inputs[i]->shape)));
    }
    dst.shape = inputs[i]->shape;
    ASSIGN_OR_RETURN(size_t bytes, TensorBytes(dst, options_.max_tensor_bytes));
    exec.storage[t] = Storage::kInput;
    RETURN_IF_ERROR(Reserve(exec.owned[t], dst, bytes));
    if (bytes > 0) std::memcpy(dst.data, inputs[i]->data, bytes);
  }
  for (size_t t = 0; t < exec.tensors.size(); ++t) {
    if (exec.storage[t] == Storage::kActivation) exec.tensors[t].data = nullptr;
  }
  RETURN_IF_ERROR(RunOps(exec));
  for (size_t i = 0; i < outputs.size(); ++i) {
    const RtTensor& src = exec.tensors[sg.outputs[i]];
    const bool skipped =
        exec.storage[static_cast<size_t>(sg.outputs[i])] == Storage::kSkipped;
    if (!skipped) RETURN_IF_ERROR(CheckOutputWritten(index, i, src));
    if (outputs[i]->type != src.type) {
      return absl::InvalidArgumentError(absl::StrCat(
          "subgraph ", index, " output ", i, " '", src.name(), "' is ",
          ir::DataTypeName(src.type), ", the caller expects ",
          ir::DataTypeName(outputs[i]->type)));
    }
    RETURN_IF_ERROR(ResizeTensor(outputs[i], src.shape));
    ASSIGN_OR_RETURN(size_t bytes, TensorBytes(src));
    if (skipped || src.data == nullptr) {
      // Never computed (skip_unrunnable): reads as zeros.
      if (bytes > 0 && outputs[i]->data != nullptr) {
        std::memset(outputs[i]->data, 0, std::min(bytes, outputs[i]->bytes));
      }
      continue;
    }
    if (bytes > 0 && outputs[i]->data != src.data) {
      std::memmove(outputs[i]->data, src.data, bytes);
    }
  }
  return absl::OkStatus();
}

absl::Status Interpreter::Impl::Run(absl::Span<const ir::HostTensor> inputs,
                                    TensorObserver* observer) {
  SubgraphExec& exec = entry();
  const ir::Subgraph& sg = *exec.sg;
  if (inputs.size() != sg.inputs.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "model takes ", sg.inputs.size(), " inputs, got ", inputs.size()));
  }
  std::vector<InputView> views(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const int t = sg.inputs[i];
    const ir::Tensor& it = *exec.tensors[t].ir;
    const ir::HostTensor& given = inputs[i];
    const std::vector<int32_t>& sig =
        it.shape_signature.empty() ? it.shape : it.shape_signature;
    bool fits = given.type() == it.type && given.shape().size() == sig.size();
    for (size_t d = 0; fits && d < sig.size(); ++d) {
      // Dynamic dims take any size; so does the batch dim, as TFLite lets
      // callers resize it.
      fits = sig[d] < 0 || d == 0 || given.shape()[d] == sig[d];
    }
    if (!fits) {
      return absl::InvalidArgumentError(
          absl::StrCat("input ", i, " '", it.name, "': got ",
                       given.DebugString(), ", the model takes ",
                       ir::DataTypeName(it.type), ir::ShapeString(sig)));
    }
    if (exec.storage[t] == Storage::kConstant) {
      return absl::InvalidArgumentError(
          absl::StrCat("input ", i, " '", it.name, "' is a constant tensor"));
    }
    views[i] = InputView{Dims(given.shape().begin(), given.shape().end()),
                         given.data(), given.ByteSize()};
  }
  if (const int64_t batch = SplitBatch(inputs); batch > 1) {
    return RunSplit(inputs, batch, observer);
  }
  return RunChecked(views, observer);
}

absl::Status Interpreter::Impl::RunChecked(absl::Span<const InputView> inputs,
                                           TensorObserver* observer) {
  SubgraphExec& exec = entry();
  const ir::Subgraph& sg = *exec.sg;
  resources_.clear();
  for (SubgraphExec& e : execs_) {
    if (e.reachable) ResetForRun(e);
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const int t = sg.inputs[i];
    RtTensor& rt = exec.tensors[t];
    rt.shape = inputs[i].shape;
    // Kernels never write their inputs (constants rely on it too), so a
    // plain input is read where the caller holds it: one copy of every
    // sample less. Not an output (it would outlive the caller's memory);
    // 16-byte aligned, as the heap gives, since vector kernels load whole
    // elements at a time.
    const bool is_output =
        std::find(sg.outputs.begin(), sg.outputs.end(), t) != sg.outputs.end();
    if (exec.storage[t] == Storage::kInput && !is_output &&
        reinterpret_cast<uintptr_t>(inputs[i].data) % 16 == 0) {
      rt.data = const_cast<uint8_t*>(inputs[i].data);
      rt.bytes = inputs[i].bytes;
      continue;
    }
    // A variable that is also an input starts the run from the given value.
    RETURN_IF_ERROR(Reserve(exec.owned[t], rt, inputs[i].bytes));
    if (inputs[i].bytes > 0)
      std::memcpy(rt.data, inputs[i].data, inputs[i].bytes);
  }
  observer_ = observer;
  if (observer_ != nullptr) {
    for (int32_t t : sg.inputs)
      observer_->ObserveParallel(exec.index, -1, t, exec.tensors[t], pool_);
  }
  absl::Status status = RunOps(exec);
  observer_ = nullptr;
  RETURN_IF_ERROR(status);
  for (size_t k = 0; k < sg.outputs.size(); ++k) {
    // An output of a skipped op (skip_unrunnable) is never computed.
    if (exec.storage[static_cast<size_t>(sg.outputs[k])] == Storage::kSkipped) {
      continue;
    }
    RETURN_IF_ERROR(
        CheckOutputWritten(exec.index, k, exec.tensors[sg.outputs[k]]));
  }
  return absl::OkStatus();
}

Interpreter::Interpreter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Interpreter::~Interpreter() = default;

absl::StatusOr<std::unique_ptr<Interpreter>> Interpreter::Create(
    const ir::Model& model, const InterpreterOptions& options) {
  auto impl = std::make_unique<Impl>(model, options);
  RETURN_IF_ERROR(impl->Init());
  return std::unique_ptr<Interpreter>(new Interpreter(std::move(impl)));
}

absl::Status Interpreter::Run(absl::Span<const ir::HostTensor> inputs,
                              TensorObserver* observer) {
  return impl_->Run(inputs, observer);
}

int Interpreter::num_inputs() const {
  return static_cast<int>(impl_->entry().sg->inputs.size());
}
int Interpreter::num_outputs() const {
  return static_cast<int>(impl_->entry().sg->outputs.size());
}

const RtTensor& Interpreter::output(int i) const {
  const SubgraphExec& exec = impl_->entry();
  return exec.tensors[exec.sg->outputs[i]];
}

ir::HostTensor Interpreter::OutputHost(int i) const {
  const RtTensor& rt = output(i);
  ir::HostTensor out(rt.type,
                     std::vector<int64_t>(rt.shape.begin(), rt.shape.end()));
  if (out.ByteSize() > 0 && rt.data != nullptr) {
    std::memcpy(out.data(), rt.data, out.ByteSize());
  }
  return out;
}

size_t Interpreter::arena_bytes() const { return impl_->entry().arena_bytes; }

const std::vector<SkippedOp>& Interpreter::skipped_ops() const {
  return impl_->entry().skipped;
}

}  // namespace qforge::runtime

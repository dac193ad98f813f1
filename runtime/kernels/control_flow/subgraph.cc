// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// WHILE, IF, CALL_ONCE and STABLEHLO_COMPOSITE, as TFLite's kernels/while.cc,
// if.cc, call_once.cc and stablehlo_composite.cc, on top of
// OpContext::InvokeSubgraph (which copies the given tensors into the subgraph's
// inputs, runs it, and copies its outputs back, resizing them).
//  - WHILE: outputs start as copies of the inputs; then, while the cond
//    subgraph (same inputs, one bool output of one element) says true, the
//    body subgraph maps the outputs to new values. Loop variables may change
//    shape from one iteration to the next.
//  - IF: input 0 is a bool with one element; inputs 1.. go to the then or
//    else subgraph, whose outputs become the op's outputs.
//  - CALL_ONCE: runs its init subgraph (no inputs, no outputs) the first
//    time it is reached in a run (see control_flow.h).
//  - STABLEHLO_COMPOSITE: runs its decomposition subgraph (index in the
//    op's builtin_options_2, a StableHLOCompositeOptions table) on its
//    inputs, like a call; the composite's name and attributes are only
//    hints for runtimes with a fused kernel, and are not read.
// Subgraph calls nest at most kMaxDepth deep, so a file whose subgraphs
// call each other in a cycle fails instead of overflowing the stack.
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "flatbuffers/flatbuffers.h"
#include "runtime/kernels/control_flow/control_flow.h"

namespace qforge::runtime {
namespace {

constexpr int kMaxDepth = 64;
thread_local int call_depth = 0;

// InvokeSubgraph with the nesting limit.
absl::Status Invoke(const OpContext& ctx, int index,
                    absl::Span<RtTensor* const> inputs,
                    absl::Span<RtTensor* const> outputs) {
  if (call_depth >= kMaxDepth) {
    return ctx.Error(absl::StrCat("subgraph calls nest deeper than ", kMaxDepth,
                                  " (do the subgraphs call each other in a "
                                  "cycle?)"));
  }
  ++call_depth;
  absl::Status status = ctx.InvokeSubgraph(index, inputs, outputs);
  --call_depth;
  if (!status.ok()) {
    return absl::Status(status.code(),
                        absl::StrCat(ctx.Error("").message(), "in subgraph ",
                                     index, ": ", status.message()));
  }
  return absl::OkStatus();
}

absl::Status CheckSubgraphIndex(const OpContext& ctx, int32_t index,
                                absl::string_view role) {
  if (index < 0) {
    return ctx.Error(
        absl::StrCat(role, " subgraph index ", index, " is negative"));
  }
  if (index == ctx.subgraph_index()) {
    return ctx.Error(
        absl::StrCat(role, " subgraph ", index, " is the op's own subgraph"));
  }
  return absl::OkStatus();
}

// Bytes of `t`'s data; resource tensors hold one int32 id per element.
size_t ByteSize(const RtTensor& t) {
  const int64_t n = t.NumElements();
  if (t.type == ir::DataType::kResource) return static_cast<size_t>(4 * n);
  return static_cast<size_t>(ir::DenseByteSize(t.type, n).value_or(0));
}

// ----------------------------------------------------------------------- WHILE

struct WhileState : KernelState {
  ir::Tensor cond_ir;  // names the condition result in messages
  RtTensor cond;       // receives the cond subgraph's output
  alignas(8) uint8_t cond_storage[8] = {};
  std::vector<RtTensor*> vars;  // the op's outputs
};

}  // namespace

absl::Status PrepareWhile(OpContext& ctx) {
  const auto opts = ir::OptionsOr<ir::WhileOptions>(ctx.op().options);
  RETURN_IF_ERROR(CheckSubgraphIndex(ctx, opts.cond_subgraph, "cond"));
  RETURN_IF_ERROR(CheckSubgraphIndex(ctx, opts.body_subgraph, "body"));
  if (opts.cond_subgraph == opts.body_subgraph) {
    return ctx.Error(absl::StrCat("cond and body are the same subgraph ",
                                  opts.cond_subgraph));
  }
  if (ctx.num_outputs() != ctx.num_inputs()) {
    return ctx.Error(absl::StrCat("has ", ctx.num_inputs(), " inputs and ",
                                  ctx.num_outputs(),
                                  " outputs; they must match"));
  }
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    const RtTensor* in = ctx.input(i);
    if (in == nullptr) {
      return ctx.Error(absl::StrCat("loop variable ", i, " is missing"));
    }
    if (in->type != ir::DataType::kResource &&
        !ir::DenseByteSize(in->type, 1).has_value()) {
      return ctx.Unsupported(absl::StrCat("loop variable ", i, " '", in->name(),
                                          "' is ", ir::DataTypeName(in->type)));
    }
    if (ctx.output(i)->type != in->type) {
      return ctx.Error(absl::StrCat(
          "loop variable ", i, ": input '", in->name(), "' is ",
          ir::DataTypeName(in->type), ", output '", ctx.output(i)->name(),
          "' is ", ir::DataTypeName(ctx.output(i)->type)));
    }
    ctx.SetOutputShape(i, in->shape);
  }
  if (ctx.state<WhileState>() == nullptr) {
    auto state = std::make_unique<WhileState>();
    state->cond_ir.name = "WHILE condition result";
    state->cond_ir.type = ir::DataType::kBool;
    state->cond.ir = &state->cond_ir;
    state->cond.type = ir::DataType::kBool;
    ctx.set_state(std::move(state));
  }
  WhileState* s = ctx.state<WhileState>();
  s->vars.clear();
  for (int i = 0; i < ctx.num_outputs(); ++i) s->vars.push_back(ctx.output(i));
  return absl::OkStatus();
}

absl::Status EvalWhile(OpContext& ctx) {
  const auto opts = ir::OptionsOr<ir::WhileOptions>(ctx.op().options);
  WhileState* s = ctx.state<WhileState>();
  if (s == nullptr) return ctx.Error("eval before prepare");
  // Loop variables start as the inputs. The outputs may still have the
  // shapes a previous run's last iteration gave them.
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    const RtTensor& in = *ctx.input(i);
    RETURN_IF_ERROR(ctx.ResizeOutput(i, in.shape));
    RtTensor& out = *ctx.output(i);
    const size_t bytes = ByteSize(in);
    if (bytes > out.bytes) {
      return ctx.Error(absl::StrCat("loop variable ", i, " '", in.name(),
                                    "' does not fit its output"));
    }
    if (bytes > 0 && out.data != in.data) std::memcpy(out.data, in.data, bytes);
  }
  RtTensor* cond = &s->cond;
  const absl::Span<RtTensor* const> vars(s->vars);
  for (int64_t iteration = 0;; ++iteration) {
    if (iteration == ctx.MaxLoopIterations() && iteration > 0) {
      return ctx.Error(absl::StrCat(
          "the loop ran ", iteration,
          " iterations and its condition is still true (an endless loop?)"));
    }
    cond->shape.clear();
    cond->data = s->cond_storage;
    cond->bytes = sizeof(s->cond_storage);
    RETURN_IF_ERROR(Invoke(ctx, opts.cond_subgraph, vars,
                           absl::Span<RtTensor* const>(&cond, 1)));
    if (cond->type != ir::DataType::kBool || cond->NumElements() != 1 ||
        cond->rank() > 1) {
      return ctx.Error(absl::StrCat("cond subgraph ", opts.cond_subgraph,
                                    " returned ", DimsString(cond->shape),
                                    "; it must return one bool ([] or [1])"));
    }
    if (!*cond->Data<bool>()) break;
    RETURN_IF_ERROR(Invoke(ctx, opts.body_subgraph, vars, vars));
  }
  return absl::OkStatus();
}

// -------------------------------------------------------------------------- IF

namespace {

// IF and STABLEHLO_COMPOSITE: what a subgraph call passes.
struct CallState : KernelState {
  int32_t subgraph = 0;            // COMPOSITE: the decomposition
  std::vector<RtTensor*> inputs;   // the op's inputs from `first` on
  std::vector<RtTensor*> outputs;  // the op's outputs
};

// A CallState over the op's inputs from `first` on (all present) and all of
// its outputs, installed as the op's state.
absl::Status MakeCallState(OpContext& ctx, int first, int32_t subgraph) {
  auto state = std::make_unique<CallState>();
  state->subgraph = subgraph;
  for (int i = first; i < ctx.num_inputs(); ++i) {
    if (ctx.input(i) == nullptr) {
      return ctx.Error(absl::StrCat("input ", i, " is missing"));
    }
    state->inputs.push_back(ctx.input(i));
  }
  for (int i = 0; i < ctx.num_outputs(); ++i) {
    state->outputs.push_back(ctx.output(i));
  }
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

}  // namespace

absl::Status PrepareIf(OpContext& ctx) {
  const auto opts = ir::OptionsOr<ir::IfOptions>(ctx.op().options);
  RETURN_IF_ERROR(CheckSubgraphIndex(ctx, opts.then_subgraph, "then"));
  RETURN_IF_ERROR(CheckSubgraphIndex(ctx, opts.else_subgraph, "else"));
  const RtTensor* cond = ctx.input(0);
  if (cond == nullptr) return ctx.Error("input 0 (the condition) is missing");
  if (cond->type != ir::DataType::kBool || cond->NumElements() != 1) {
    return ctx.Error(absl::StrCat(
        "condition '", cond->name(), "' is ", ir::DataTypeName(cond->type),
        DimsString(cond->shape), "; it must be one bool"));
  }
  // Output shapes are those of the branch taken; eval sets them.
  return MakeCallState(ctx, 1, 0);
}

absl::Status EvalIf(OpContext& ctx) {
  const auto opts = ir::OptionsOr<ir::IfOptions>(ctx.op().options);
  const CallState* s = ctx.state<CallState>();
  if (s == nullptr) return ctx.Error("eval before prepare");
  const bool cond = *ctx.input(0)->Data<bool>();
  return Invoke(ctx, cond ? opts.then_subgraph : opts.else_subgraph, s->inputs,
                s->outputs);
}

// ------------------------------------------------------------------- CALL_ONCE

namespace {

// The per-run marker of an init subgraph that already ran. Resource keys of
// variables start with "var:" (variables.cc).
std::string CallOnceKey(int32_t init_subgraph) {
  return absl::StrCat("call_once:", init_subgraph);
}

}  // namespace

absl::Status PrepareCallOnce(OpContext& ctx) {
  const auto opts = ir::OptionsOr<ir::CallOnceOptions>(ctx.op().options);
  RETURN_IF_ERROR(CheckSubgraphIndex(ctx, opts.init_subgraph, "init"));
  if (ctx.num_inputs() != 0 || ctx.num_outputs() != 0) {
    return ctx.Error("CALL_ONCE takes no inputs and no outputs");
  }
  return absl::OkStatus();
}

absl::Status EvalCallOnce(OpContext& ctx) {
  const auto opts = ir::OptionsOr<ir::CallOnceOptions>(ctx.op().options);
  ir::HostTensor* done = ctx.Resource(CallOnceKey(opts.init_subgraph));
  if (done->ByteSize() > 0) return absl::OkStatus();
  RETURN_IF_ERROR(Invoke(ctx, opts.init_subgraph, {}, {}));
  // Resource() pointers stay valid (map nodes), but look the marker up
  // again in case the init subgraph's own ops added entries.
  *ctx.Resource(CallOnceKey(opts.init_subgraph)) =
      ir::HostTensor(ir::DataType::kBool, {});
  return absl::OkStatus();
}

// --------------------------------------------------------- STABLEHLO_COMPOSITE

std::optional<int32_t> CompositeDecompositionSubgraph(const ir::Operator& op) {
  const std::vector<uint8_t>& bytes = op.options2.bytes;
  // StableHLOCompositeOptions is member 21 of the BuiltinOptions2 union;
  // decomposition_subgraph_index is its field 1 (vtable offset 6).
  constexpr uint8_t kCompositeOptions = 21;
  constexpr flatbuffers::voffset_t kIndexField = 6;
  if (op.options2.type != kCompositeOptions || bytes.empty()) {
    return std::nullopt;
  }
  if (bytes.size() < sizeof(flatbuffers::uoffset_t) ||
      flatbuffers::ReadScalar<flatbuffers::uoffset_t>(bytes.data()) >=
          bytes.size()) {
    return std::nullopt;
  }
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  const auto* table = flatbuffers::GetRoot<flatbuffers::Table>(bytes.data());
  if (!table->VerifyTableStart(verifier) ||
      !table->VerifyField<int32_t>(verifier, kIndexField, 4)) {
    return std::nullopt;
  }
  return table->GetField<int32_t>(kIndexField, 0);
}

absl::Status PrepareStablehloComposite(OpContext& ctx) {
  const std::optional<int32_t> index = CompositeDecompositionSubgraph(ctx.op());
  if (!index.has_value()) {
    return ctx.Error(
        "builtin_options_2 is not a readable StableHLOCompositeOptions table "
        "(no decomposition subgraph)");
  }
  RETURN_IF_ERROR(CheckSubgraphIndex(ctx, *index, "decomposition"));
  // Output shapes are the decomposition's; eval sets them.
  return MakeCallState(ctx, 0, *index);
}

absl::Status EvalStablehloComposite(OpContext& ctx) {
  const CallState* s = ctx.state<CallState>();
  if (s == nullptr) return ctx.Error("eval before prepare");
  return Invoke(ctx, s->subgraph, s->inputs, s->outputs);
}

}  // namespace qforge::runtime

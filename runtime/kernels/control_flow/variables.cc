// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// VAR_HANDLE, READ_VARIABLE and ASSIGN_VARIABLE: resource variables, as
// TFLite's kernels/var_handle.cc, read_variable.cc and assign_variable.cc.
//  - VAR_HANDLE names a variable by its options' (container, shared_name);
//    handles with the same names, in any subgraph, are the same variable.
//    Its output is a resource tensor holding an int32 resource id (TFLite's
//    representation), so handles can be passed around, e.g. as WHILE loop
//    variables.
//  - ASSIGN_VARIABLE stores a copy of input 1 (any type and shape; a later
//    assignment may change them).
//  - READ_VARIABLE outputs a copy; reading an unassigned variable fails.
//
// Storage: the interpreter's per-run resource map (OpContext::Resource):
//   "var:<len(container)>:<container><shared_name>"  the variable's value
//   "\x01h:<variable key>"   int32 scalar: the id given to that variable
//   "\x01n:<id>"             uint8 bytes: the variable key of an id
//   "\x01next"               int32 scalar: ids handed out so far
// Ids start at 0 in every run, in the order handles are first evaluated.
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/control_flow/control_flow.h"

namespace qforge::runtime {
namespace {

std::string VariableKey(const ir::VarHandleOptions& o) {
  return absl::StrCat("var:", o.container.size(), ":", o.container,
                      o.shared_name);
}

// A resource map entry that was never written (Resource() creates it
// empty): a default HostTensor has no dims and no bytes, unlike any value.
bool IsUnset(const ir::HostTensor& t) {
  return t.shape().empty() && t.ByteSize() == 0;
}

int32_t ReadInt32Scalar(const ir::HostTensor& t) {
  int32_t v = 0;
  std::memcpy(&v, t.data(), sizeof(v));
  return v;
}

ir::HostTensor Int32Scalar(int32_t v) {
  ir::HostTensor t(ir::DataType::kInt32, {});
  std::memcpy(t.data(), &v, sizeof(v));
  return t;
}

// The resource tensor's single id.
absl::Status CheckResourceInput(const OpContext& ctx, int i) {
  const RtTensor* t = ctx.input(i);
  if (t == nullptr) return ctx.Error(absl::StrCat("input ", i, " is missing"));
  if (t->type != ir::DataType::kResource && t->type != ir::DataType::kInt32) {
    return ctx.Error(absl::StrCat("input ", i, " '", t->name(), "' is ",
                                  ir::DataTypeName(t->type),
                                  "; it must be a resource"));
  }
  if (t->NumElements() != 1) {
    return ctx.Error(absl::StrCat("resource input '", t->name(), "' has shape ",
                                  DimsString(t->shape),
                                  "; it must hold one handle"));
  }
  if (t->is_constant) {
    return ctx.Error(absl::StrCat("resource input '", t->name(),
                                  "' is a constant; handles come from "
                                  "VAR_HANDLE"));
  }
  return absl::OkStatus();
}

// The value of the variable input `i` refers to.
absl::Status LookUpVariable(const OpContext& ctx, int i,
                            ir::HostTensor** value) {
  const RtTensor& handle = *ctx.input(i);
  int32_t id = 0;
  std::memcpy(&id, handle.data, sizeof(id));
  const ir::HostTensor* name = ctx.Resource(absl::StrCat("\x01n:", id));
  if (IsUnset(*name)) {
    return ctx.Error(absl::StrCat("resource '", handle.name(), "' holds id ",
                                  id, ", which no VAR_HANDLE gave out"));
  }
  const std::string key(reinterpret_cast<const char*>(name->data()),
                        name->ByteSize());
  *value = ctx.Resource(key);
  return absl::OkStatus();
}

}  // namespace

// ----------------------------------------------------------------- VAR_HANDLE

namespace {

// Resource map keys of one VAR_HANDLE, built once.
struct VarHandleState : KernelState {
  std::string key;     // the variable's value
  std::string id_key;  // its id
};

}  // namespace

absl::Status PrepareVarHandle(OpContext& ctx) {
  if (ctx.num_inputs() != 0 || ctx.num_outputs() != 1) {
    return ctx.Error("VAR_HANDLE takes no inputs and 1 output");
  }
  const ir::DataType t = ctx.output(0)->type;
  if (t != ir::DataType::kResource && t != ir::DataType::kInt32) {
    return ctx.Error(absl::StrCat("output '", ctx.output(0)->name(), "' is ",
                                  ir::DataTypeName(t),
                                  "; it must be a resource"));
  }
  // No options: TFLite's empty container and shared_name.
  auto state = std::make_unique<VarHandleState>();
  state->key =
      VariableKey(ir::OptionsOr<ir::VarHandleOptions>(ctx.op().options));
  state->id_key = absl::StrCat("\x01h:", state->key);
  ctx.set_state(std::move(state));
  ctx.output(0)->shape.clear();  // a scalar handle (SetOutputShape({}))
  return absl::OkStatus();
}

absl::Status EvalVarHandle(OpContext& ctx) {
  const VarHandleState* s = ctx.state<VarHandleState>();
  if (s == nullptr) return ctx.Error("eval before prepare");
  ir::HostTensor* id_entry = ctx.Resource(s->id_key);
  int32_t id = 0;
  if (IsUnset(*id_entry)) {
    // First use in this run: give the variable the next id.
    ir::HostTensor* next = ctx.Resource("\x01next");
    id = IsUnset(*next) ? 0 : ReadInt32Scalar(*next);
    *next = Int32Scalar(id + 1);
    *ctx.Resource(s->id_key) = Int32Scalar(id);
    ir::HostTensor name(ir::DataType::kUInt8,
                        {static_cast<int64_t>(s->key.size())});
    if (!s->key.empty()) {
      std::memcpy(name.data(), s->key.data(), s->key.size());
    }
    *ctx.Resource(absl::StrCat("\x01n:", id)) = std::move(name);
  } else {
    id = ReadInt32Scalar(*id_entry);
  }
  std::memcpy(ctx.output(0)->data, &id, sizeof(id));
  return absl::OkStatus();
}

// -------------------------------------------------------------- READ_VARIABLE

absl::Status PrepareReadVariable(OpContext& ctx) {
  if (ctx.num_inputs() != 1 || ctx.num_outputs() != 1) {
    return ctx.Error("READ_VARIABLE takes 1 input and 1 output");
  }
  RETURN_IF_ERROR(CheckResourceInput(ctx, 0));
  // The output takes the variable's shape, known in eval.
  return absl::OkStatus();
}

absl::Status EvalReadVariable(OpContext& ctx) {
  ir::HostTensor* value = nullptr;
  RETURN_IF_ERROR(LookUpVariable(ctx, 0, &value));
  if (IsUnset(*value)) {
    return ctx.Error(absl::StrCat("variable of '", ctx.input(0)->name(),
                                  "' is read before any ASSIGN_VARIABLE"));
  }
  RtTensor& out = *ctx.output(0);
  if (out.type != value->type()) {
    return ctx.Error(absl::StrCat(
        "output '", out.name(), "' is ", ir::DataTypeName(out.type),
        "; the variable holds ", value->DebugString()));
  }
  RETURN_IF_ERROR(
      ctx.ResizeOutput(0, Dims(value->shape().begin(), value->shape().end())));
  if (value->ByteSize() > 0) {
    std::memcpy(out.data, value->data(), value->ByteSize());
  }
  return absl::OkStatus();
}

// ------------------------------------------------------------ ASSIGN_VARIABLE

absl::Status PrepareAssignVariable(OpContext& ctx) {
  if (ctx.num_inputs() != 2 || ctx.num_outputs() != 0) {
    return ctx.Error("ASSIGN_VARIABLE takes 2 inputs and no outputs");
  }
  RETURN_IF_ERROR(CheckResourceInput(ctx, 0));
  const RtTensor* v = ctx.input(1);
  if (v == nullptr) return ctx.Error("input 1 (the value) is missing");
  if (!ir::DenseByteSize(v->type, 1).has_value()) {
    return ctx.Unsupported(absl::StrCat("value '", v->name(), "' is ",
                                        ir::DataTypeName(v->type),
                                        "; variables of this type are not "
                                        "supported"));
  }
  return absl::OkStatus();
}

absl::Status EvalAssignVariable(OpContext& ctx) {
  ir::HostTensor* value = nullptr;
  RETURN_IF_ERROR(LookUpVariable(ctx, 0, &value));
  const RtTensor& v = *ctx.input(1);
  const std::vector<int64_t> shape(v.shape.begin(), v.shape.end());
  if (IsUnset(*value) || value->type() != v.type || value->shape() != shape) {
    *value = ir::HostTensor(v.type, shape);
  }
  if (value->ByteSize() > 0) {
    std::memcpy(value->data(), v.data, value->ByteSize());
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Builtin options: wire (object API unions) <-> IR (typed structs for the
// options qforge reads, OpaqueTable for the rest). Internal to formats/.
#ifndef QFORGE_FORMATS_TFLITE_OPTIONS_H_
#define QFORGE_FORMATS_TFLITE_OPTIONS_H_

#include "absl/status/statusor.h"
#include "formats/schema/tflite_generated.h"
#include "ir/op_kind.h"
#include "ir/options.h"

namespace qforge::formats {

// Decodes `options` (an unpacked union). Typed when qforge models the table,
// opaque otherwise.
ir::Options DecodeBuiltinOptions(const tflite::BuiltinOptionsUnion& options);

tflite::BuiltinOptionsUnion EncodeBuiltinOptions(const ir::Options& options);

// The union member ir/ops.def names for `kind` (BuiltinOptions_NONE for
// kinds without a table, kOtherBuiltin and kCustom).
tflite::BuiltinOptions ExpectedOptionsType(ir::OpKind kind);

// The union member `options` encodes to.
tflite::BuiltinOptions OptionsType(const ir::Options& options);

// Opaque tables: any object-API union as a standalone flatbuffer and back.
template <typename UnionT>
ir::OpaqueTable PackOpaque(const UnionT& u) {
  ir::OpaqueTable table;
  table.type = static_cast<uint8_t>(u.type);
  if (u.value == nullptr) return table;
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(flatbuffers::Offset<flatbuffers::Table>(u.Pack(fbb).o));
  table.bytes.assign(fbb.GetBufferPointer(),
                     fbb.GetBufferPointer() + fbb.GetSize());
  return table;
}

// A type without a table (the file named a union member but held none)
// comes back as NONE: flatc's Pack dereferences the value, and an absent
// table means defaults either way.
template <typename UnionT, typename EnumT>
UnionT UnpackOpaque(const ir::OpaqueTable& table) {
  UnionT u;
  if (table.type == 0 || table.bytes.empty()) return u;
  u.type = static_cast<EnumT>(table.type);
  u.value = UnionT::UnPack(flatbuffers::GetRoot<void>(table.bytes.data()),
                           u.type, nullptr);
  if (u.value == nullptr) u.type = static_cast<EnumT>(0);
  return u;
}

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_TFLITE_OPTIONS_H_

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/tflite_reader.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/file_io.h"
#include "base/mapped_file.h"
#include "base/status_macros.h"
#include "flatbuffers/flatbuffers.h"
#include "formats/schema/tflite_generated.h"
#include "formats/tflite_options.h"
#include "ir/validate.h"

namespace qforge::formats {
namespace {

// TFLite marks buffers stored after the flatbuffer with offset > 1 (0 and 1
// are placeholders some writers emit for "none").
constexpr uint64_t kFirstRealOffset = 2;

absl::Status Invalid(absl::string_view source, absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat(source, ": ", message));
}

// Checks that [offset, offset + size) lies inside the file.
absl::Status CheckOutOfLine(absl::Span<const uint8_t> file, uint64_t offset,
                            uint64_t size, absl::string_view source,
                            absl::string_view what) {
  if (offset > file.size() || size > file.size() - offset) {
    return Invalid(
        source,
        absl::StrCat(what, " points at bytes [", offset, ", ", offset + size,
                     ") past the end of the file (", file.size(), " bytes)"));
  }
  return absl::OkStatus();
}

// Reads `size` bytes at `offset` of the file, checking the range.
absl::StatusOr<std::vector<uint8_t>> ReadOutOfLine(
    absl::Span<const uint8_t> file, uint64_t offset, uint64_t size,
    absl::string_view source, absl::string_view what) {
  RETURN_IF_ERROR(CheckOutOfLine(file, offset, size, source, what));
  return std::vector<uint8_t>(file.begin() + offset,
                              file.begin() + offset + size);
}

// Every table of the model except the buffers' bytes, which the object API
// would copy (Model::UnPack copies each Buffer.data); Convert takes those
// from the file itself, as views when it can.
std::unique_ptr<tflite::ModelT> UnpackTables(const tflite::Model& fb) {
  auto m = std::make_unique<tflite::ModelT>();
  m->version = fb.version();
  if (fb.description() != nullptr) m->description = fb.description()->str();
  auto each = [](const auto* vec, auto& out) {
    if (vec == nullptr) return;
    for (flatbuffers::uoffset_t i = 0; i < vec->size(); ++i) {
      out.emplace_back(vec->Get(i)->UnPack());
    }
  };
  each(fb.operator_codes(), m->operator_codes);
  each(fb.subgraphs(), m->subgraphs);
  each(fb.metadata(), m->metadata);
  each(fb.signature_defs(), m->signature_defs);
  each(fb.external_buffer_groups(), m->external_buffer_groups);
  each(fb.external_buffers(), m->external_buffers);
  if (fb.metadata_buffer() != nullptr) {
    m->metadata_buffer.assign(fb.metadata_buffer()->begin(),
                              fb.metadata_buffer()->end());
  }
  return m;
}

ir::Quantization ConvertQuantization(const tflite::QuantizationParametersT& q) {
  ir::Quantization out;
  out.min = q.min;
  out.max = q.max;
  out.scale = q.scale;
  out.zero_point = q.zero_point;
  out.quantized_dimension = q.quantized_dimension;
  if (const auto* b = q.details.AsBlockwiseQuantization()) {
    out.block_scales = b->scales;
    out.block_zero_points = b->zero_points;
    out.block_size = b->block_size;
    return out;
  }
  out.details = PackOpaque(q.details);
  return out;
}

void ConvertIndexVector(const tflite::SparseIndexVectorUnion& u, uint8_t* type,
                        std::vector<int32_t>* out) {
  *type = static_cast<uint8_t>(u.type);
  if (const auto* v = u.AsInt32Vector()) {
    out->assign(v->values.begin(), v->values.end());
  } else if (const auto* v16 = u.AsUint16Vector()) {
    out->assign(v16->values.begin(), v16->values.end());
  } else if (const auto* v8 = u.AsUint8Vector()) {
    out->assign(v8->values.begin(), v8->values.end());
  }
}

ir::Sparsity ConvertSparsity(const tflite::SparsityParametersT& s) {
  ir::Sparsity out;
  out.traversal_order = s.traversal_order;
  out.block_map = s.block_map;
  for (const auto& dm : s.dim_metadata) {
    ir::DimensionMetadata d;
    if (dm) {
      d.sparse_csr = dm->format == tflite::DimensionType_SPARSE_CSR;
      d.dense_size = dm->dense_size;
      ConvertIndexVector(dm->array_segments, &d.segments_type,
                         &d.array_segments);
      ConvertIndexVector(dm->array_indices, &d.indices_type, &d.array_indices);
    }
    out.dim_metadata.push_back(std::move(d));
  }
  return out;
}

absl::StatusOr<ir::Tensor> ConvertTensor(const tflite::TensorT& t,
                                         absl::string_view where) {
  ir::Tensor out;
  out.name = t.name;
  if (!ir::IsValidDataType(t.type)) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": unknown tensor type ", static_cast<int>(t.type)));
  }
  out.type = static_cast<ir::DataType>(t.type);
  out.shape = t.shape;
  out.shape_signature = t.shape_signature;
  out.buffer = t.buffer;
  if (t.quantization) out.quantization = ConvertQuantization(*t.quantization);
  out.is_variable = t.is_variable;
  if (t.sparsity) out.sparsity = ConvertSparsity(*t.sparsity);
  out.has_rank = t.has_rank;
  for (const auto& v : t.variant_tensors) {
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(tflite::VariantSubType::Pack(fbb, v.get()));
    out.variant_tensors.push_back(ir::OpaqueTable{
        1, std::vector<uint8_t>(fbb.GetBufferPointer(),
                                fbb.GetBufferPointer() + fbb.GetSize())});
  }
  out.external_buffer = t.external_buffer;
  return out;
}

template <typename T>
ir::OpaqueTable PackTable(const T& table) {
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(T::TableType::Pack(fbb, &table));
  return ir::OpaqueTable{
      1, std::vector<uint8_t>(fbb.GetBufferPointer(),
                              fbb.GetBufferPointer() + fbb.GetSize())};
}

struct Converter {
  absl::Span<const uint8_t> file;
  absl::string_view source;
  // Keeps `file` alive; when set, buffers are views into it.
  std::shared_ptr<const void> owner;

  // The bytes at `data` (inside `file`): a view when the file has an owner
  // and the bytes are aligned for the element type that reads them
  // (`align`; kernels read constants in place), a copy otherwise. Many
  // converter versions align buffers to 4 bytes only, which suits all but
  // 8-byte types.
  ir::Bytes Take(const uint8_t* data, size_t size, size_t align) const {
    if (owner != nullptr && size > 0 &&
        reinterpret_cast<uintptr_t>(data) % align == 0) {
      return ir::Bytes::View(data, size, owner);
    }
    return ir::Bytes(data, data + size);
  }

  // Per buffer, the largest element size of the tensors reading it (8 for
  // a type the reader will reject; 1 for buffers no tensor reads).
  static std::vector<size_t> BufferAlignments(const tflite::ModelT& m,
                                              size_t buffers) {
    std::vector<size_t> align(buffers, 1);
    for (const auto& sg : m.subgraphs) {
      for (const auto& t : sg->tensors) {
        if (t->buffer >= buffers) continue;
        size_t bytes = 8;
        if (ir::IsValidDataType(t->type)) {
          const std::optional<int> bits =
              ir::DataTypeBits(static_cast<ir::DataType>(t->type));
          if (bits.has_value()) {
            bytes = std::clamp<size_t>(static_cast<size_t>(*bits) / 8, 1, 8);
          }
        }
        align[t->buffer] = std::max(align[t->buffer], bytes);
      }
    }
    return align;
  }

  absl::StatusOr<ir::Operator> ConvertOp(const tflite::ModelT& m,
                                         const tflite::OperatorT& op, size_t sg,
                                         size_t index) {
    const std::string where =
        absl::StrCat(source, ": subgraph ", sg, " op ", index);
    if (op.opcode_index >= m.operator_codes.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": opcode index ", op.opcode_index,
                       " is out of range (model has ", m.operator_codes.size(),
                       " operator codes)"));
    }
    const tflite::OperatorCodeT& code = *m.operator_codes[op.opcode_index];
    ir::Operator out;
    // Old files only set deprecated_builtin_code (int8); new ones set both,
    // with 127 (PLACEHOLDER_FOR_GREATER_OP_CODES) in the old field.
    out.builtin_code =
        std::max<int32_t>(code.builtin_code, code.deprecated_builtin_code);
    out.deprecated_builtin_code = code.deprecated_builtin_code;
    out.kind = ir::OpKindFromBuiltinCode(out.builtin_code);
    out.custom_code = code.custom_code;
    out.version = code.version;
    out.source_opcode_index = static_cast<int32_t>(op.opcode_index);
    out.inputs = op.inputs;
    out.outputs = op.outputs;
    out.intermediates = op.intermediates;
    out.options = DecodeBuiltinOptions(op.builtin_options);
    const tflite::BuiltinOptions expected = ExpectedOptionsType(out.kind);
    if (op.builtin_options.type != tflite::BuiltinOptions_NONE &&
        expected != tflite::BuiltinOptions_NONE &&
        op.builtin_options.type != expected) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, " (", OpName(out), "): builtin_options is ",
          tflite::EnumNameBuiltinOptions(op.builtin_options.type),
          ", the op takes ", tflite::EnumNameBuiltinOptions(expected)));
    }
    out.options2 = PackOpaque(op.builtin_options_2);
    out.custom_options = op.custom_options;
    if (op.large_custom_options_offset >= kFirstRealOffset) {
      ASSIGN_OR_RETURN(out.custom_options,
                       ReadOutOfLine(file, op.large_custom_options_offset,
                                     op.large_custom_options_size, where,
                                     "large custom options"));
    }
    out.custom_options_format = static_cast<int8_t>(op.custom_options_format);
    out.mutating_variable_inputs = op.mutating_variable_inputs;
    out.debug_metadata_index = op.debug_metadata_index;
    return out;
  }

  absl::StatusOr<ir::Model> Convert(const tflite::Model& fb,
                                    const tflite::ModelT& m) {
    ir::Model model;
    model.version = m.version;
    model.description = m.description;
    for (const auto& code : m.operator_codes) {
      model.operator_codes.push_back(
          ir::OperatorCodeEntry{code->deprecated_builtin_code,
                                static_cast<int32_t>(code->builtin_code),
                                code->custom_code, code->version});
    }
    if (fb.buffers() != nullptr) {
      const std::vector<size_t> align =
          BufferAlignments(m, fb.buffers()->size());
      for (flatbuffers::uoffset_t b = 0; b < fb.buffers()->size(); ++b) {
        const tflite::Buffer& buf = *fb.buffers()->Get(b);
        ir::Buffer out;
        if (buf.offset() >= kFirstRealOffset) {
          RETURN_IF_ERROR(CheckOutOfLine(file, buf.offset(), buf.size(), source,
                                         absl::StrCat("buffer ", b)));
          out.data = Take(file.data() + buf.offset(), buf.size(), align[b]);
          out.was_external = true;
        } else if (buf.data() != nullptr) {
          out.data = Take(buf.data()->data(), buf.data()->size(), align[b]);
        }
        model.buffers.push_back(std::move(out));
      }
    }
    for (size_t sg = 0; sg < m.subgraphs.size(); ++sg) {
      const tflite::SubGraphT& s = *m.subgraphs[sg];
      ir::Subgraph subgraph;
      subgraph.name = s.name;
      subgraph.inputs = s.inputs;
      subgraph.outputs = s.outputs;
      subgraph.debug_metadata_index = s.debug_metadata_index;
      for (size_t t = 0; t < s.tensors.size(); ++t) {
        ASSIGN_OR_RETURN(
            ir::Tensor tensor,
            ConvertTensor(*s.tensors[t], absl::StrCat(source, ": subgraph ", sg,
                                                      " tensor ", t)));
        subgraph.tensors.push_back(std::move(tensor));
      }
      for (size_t i = 0; i < s.operators.size(); ++i) {
        ASSIGN_OR_RETURN(ir::Operator op, ConvertOp(m, *s.operators[i], sg, i));
        subgraph.operators.push_back(std::move(op));
      }
      model.subgraphs.push_back(std::move(subgraph));
    }
    model.metadata_buffer = m.metadata_buffer;
    for (const auto& md : m.metadata) {
      model.metadata.push_back(ir::Metadata{md->name, md->buffer});
    }
    for (const auto& sig : m.signature_defs) {
      ir::SignatureDef def;
      def.key = sig->signature_key;
      def.subgraph_index = sig->subgraph_index;
      for (const auto& in : sig->inputs) {
        def.inputs.push_back(ir::TensorMap{in->name, in->tensor_index});
      }
      for (const auto& out : sig->outputs) {
        def.outputs.push_back(ir::TensorMap{out->name, out->tensor_index});
      }
      model.signature_defs.push_back(std::move(def));
    }
    for (const auto& g : m.external_buffer_groups) {
      model.external_buffer_groups.push_back(PackTable(*g));
    }
    for (const auto& e : m.external_buffers) {
      model.external_buffers.push_back(PackTable(*e));
    }
    return model;
  }
};

}  // namespace

std::string BuiltinOpName(int32_t builtin_code) {
  if (builtin_code >= tflite::BuiltinOperator_MIN &&
      builtin_code <= tflite::BuiltinOperator_MAX) {
    const char* name = tflite::EnumNameBuiltinOperator(
        static_cast<tflite::BuiltinOperator>(builtin_code));
    if (name != nullptr && name[0] != '\0') return name;
  }
  return absl::StrCat("BUILTIN_", builtin_code);
}

std::string OpName(const ir::Operator& op) {
  if (op.kind == ir::OpKind::kCustom) return op.custom_code;
  return BuiltinOpName(op.builtin_code);
}

// The verifier (FlatBuffers 2.0) checks that a vector's length is 4-byte
// aligned but not that 8-byte elements are 8-byte aligned; a builder always
// aligns them, so a misaligned int64 vector is a damaged file, and unpacking
// it would be a misaligned load (found by the reader fuzzer). Checked for
// the tensors' zero points; the StableHLO options' int64 vectors are not
// (docs/robustness.md).
// (Callers hold the file in 8-byte aligned memory: a std::vector's or a
// mapping's.)
absl::Status CheckInt64Alignment(const tflite::Model& model,
                                 absl::string_view source) {
  if (model.subgraphs() == nullptr) return absl::OkStatus();
  for (flatbuffers::uoffset_t s = 0; s < model.subgraphs()->size(); ++s) {
    const tflite::SubGraph* sg = model.subgraphs()->Get(s);
    if (sg == nullptr || sg->tensors() == nullptr) continue;
    for (flatbuffers::uoffset_t t = 0; t < sg->tensors()->size(); ++t) {
      const tflite::Tensor* tensor = sg->tensors()->Get(t);
      if (tensor == nullptr || tensor->quantization() == nullptr) continue;
      const auto* zp = tensor->quantization()->zero_point();
      if (zp != nullptr && zp->size() > 0 &&
          reinterpret_cast<uintptr_t>(zp->Data()) % alignof(int64_t) != 0) {
        return Invalid(source,
                       absl::StrCat("subgraph ", s, " tensor ", t,
                                    ": quantization.zero_point (int64) is "
                                    "not 8-byte aligned (damaged file)"));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<ir::Model> ParseTflite(absl::Span<const uint8_t> bytes,
                                      absl::string_view source,
                                      std::shared_ptr<const void> owner) {
  if (bytes.size() < 8) {
    return Invalid(source, absl::StrCat("file is ", bytes.size(),
                                        " bytes; too short to be a .tflite"));
  }
  if (!flatbuffers::BufferHasIdentifier(bytes.data(),
                                        tflite::ModelIdentifier())) {
    return Invalid(source,
                   "missing file identifier 'TFL3' at bytes 4-7; not a "
                   ".tflite model");
  }
  // The verifier caps a flatbuffer at 2 GiB; larger files keep their
  // buffers after the flatbuffer, which the verifier need not see.
  const size_t verify_size =
      std::min<size_t>(bytes.size(), FLATBUFFERS_MAX_BUFFER_SIZE - 1);
  flatbuffers::Verifier verifier(bytes.data(), verify_size);
  if (!tflite::VerifyModelBuffer(verifier)) {
    return Invalid(source,
                   "FlatBuffers verification failed (truncated or corrupt "
                   "file: an offset, vtable or vector runs out of bounds)");
  }
  const tflite::Model* fb_model = tflite::GetModel(bytes.data());
  RETURN_IF_ERROR(CheckInt64Alignment(*fb_model, source));
  std::unique_ptr<tflite::ModelT> unpacked = UnpackTables(*fb_model);
  Converter converter{bytes, source, std::move(owner)};
  ASSIGN_OR_RETURN(ir::Model model, converter.Convert(*fb_model, *unpacked));
  absl::Status valid = ir::ValidateModel(model);
  if (!valid.ok()) {
    return absl::Status(valid.code(),
                        absl::StrCat(source, ": ", valid.message()));
  }
  return model;
}

absl::StatusOr<ModelFile> OpenTfliteFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> file,
                   MappedFile::Open(path));
  ASSIGN_OR_RETURN(ir::Model model, ParseTflite(file->bytes(), path, file));
  return ModelFile{std::move(file), std::move(model)};
}

absl::StatusOr<ir::Model> ReadTfliteFile(const std::string& path) {
  ASSIGN_OR_RETURN(ModelFile file, OpenTfliteFile(path));
  return std::move(file.model);
}

}  // namespace qforge::formats

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/tflite_writer.h"

#include <functional>
#include <map>
#include <memory>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "flatbuffers/flatbuffers.h"
#include "formats/schema/tflite_generated.h"
#include "formats/tflite_options.h"
#include "formats/tflite_pack.h"

namespace qforge::formats {
namespace {

constexpr size_t kExternalAlignment = 16;

size_t AlignUp(size_t n) {
  return (n + kExternalAlignment - 1) / kExternalAlignment * kExternalAlignment;
}

template <typename T>
std::unique_ptr<typename T::NativeTableType> UnpackTable(
    const ir::OpaqueTable& table) {
  return std::unique_ptr<typename T::NativeTableType>(
      flatbuffers::GetRoot<T>(table.bytes.data())->UnPack());
}

std::unique_ptr<tflite::QuantizationParametersT> ConvertQuantization(
    const ir::Quantization& q) {
  auto out = std::make_unique<tflite::QuantizationParametersT>();
  out->min = q.min;
  out->max = q.max;
  out->scale = q.scale;
  out->zero_point = q.zero_point;
  out->quantized_dimension = q.quantized_dimension;
  out->details = UnpackOpaque<tflite::QuantizationDetailsUnion,
                              tflite::QuantizationDetails>(q.details);
  if (q.IsBlockwise()) {
    tflite::BlockwiseQuantizationT b;
    b.scales = q.block_scales;
    b.zero_points = q.block_zero_points;
    b.block_size = q.block_size;
    out->details.Set(std::move(b));
  }
  return out;
}

tflite::SparseIndexVectorUnion ConvertIndexVector(
    uint8_t type, const std::vector<int32_t>& values) {
  tflite::SparseIndexVectorUnion u;
  switch (static_cast<tflite::SparseIndexVector>(type)) {
    case tflite::SparseIndexVector_Int32Vector: {
      tflite::Int32VectorT v;
      v.values = values;
      u.Set(std::move(v));
      break;
    }
    case tflite::SparseIndexVector_Uint16Vector: {
      tflite::Uint16VectorT v;
      v.values.assign(values.begin(), values.end());
      u.Set(std::move(v));
      break;
    }
    case tflite::SparseIndexVector_Uint8Vector: {
      tflite::Uint8VectorT v;
      v.values.assign(values.begin(), values.end());
      u.Set(std::move(v));
      break;
    }
    case tflite::SparseIndexVector_NONE:
      break;
  }
  return u;
}

std::unique_ptr<tflite::SparsityParametersT> ConvertSparsity(
    const ir::Sparsity& s) {
  auto out = std::make_unique<tflite::SparsityParametersT>();
  out->traversal_order = s.traversal_order;
  out->block_map = s.block_map;
  for (const ir::DimensionMetadata& d : s.dim_metadata) {
    auto dm = std::make_unique<tflite::DimensionMetadataT>();
    dm->format = d.sparse_csr ? tflite::DimensionType_SPARSE_CSR
                              : tflite::DimensionType_DENSE;
    dm->dense_size = d.dense_size;
    dm->array_segments = ConvertIndexVector(d.segments_type, d.array_segments);
    dm->array_indices = ConvertIndexVector(d.indices_type, d.array_indices);
    out->dim_metadata.push_back(std::move(dm));
  }
  return out;
}

std::unique_ptr<tflite::TensorT> ConvertTensor(const ir::Tensor& t) {
  auto out = std::make_unique<tflite::TensorT>();
  out->shape = t.shape;
  out->type = static_cast<tflite::TensorType>(t.type);
  out->buffer = t.buffer;
  out->name = t.name;
  if (t.quantization) out->quantization = ConvertQuantization(*t.quantization);
  out->is_variable = t.is_variable;
  if (t.sparsity) out->sparsity = ConvertSparsity(*t.sparsity);
  out->shape_signature = t.shape_signature;
  out->has_rank = t.has_rank;
  for (const ir::OpaqueTable& v : t.variant_tensors) {
    out->variant_tensors.push_back(UnpackTable<tflite::VariantSubType>(v));
  }
  out->external_buffer = t.external_buffer;
  return out;
}

// Op codes: the model's table first (so a copy keeps opcode indices), then
// codes that passes introduced, in first-use order.
class OpCodeTable {
 public:
  using Key = std::tuple<int32_t, std::string, int32_t>;

  OpCodeTable(const ir::Model& model, bool drop_unused) {
    std::vector<bool> used(model.operator_codes.size(), !drop_unused);
    if (drop_unused) {
      for (const ir::Subgraph& sg : model.subgraphs) {
        for (const ir::Operator& op : sg.operators) {
          if (Matches(model, op)) used[op.source_opcode_index] = true;
        }
      }
    }
    for (size_t i = 0; i < model.operator_codes.size(); ++i) {
      if (!used[i]) continue;
      remap_[i] = static_cast<uint32_t>(entries_.size());
      const ir::OperatorCodeEntry& e = model.operator_codes[i];
      index_.emplace(
          Key{std::max<int32_t>(e.builtin_code, e.deprecated_builtin_code),
              e.custom_code, e.version},
          static_cast<uint32_t>(entries_.size()));
      entries_.push_back(e);
    }
  }

  uint32_t IndexFor(const ir::Model& model, const ir::Operator& op) {
    if (Matches(model, op)) return remap_.at(op.source_opcode_index);
    const Key key{op.builtin_code, op.custom_code, op.version};
    auto it = index_.find(key);
    if (it != index_.end()) return it->second;
    ir::OperatorCodeEntry e;
    e.builtin_code = op.builtin_code;
    // Codes above 127 don't fit the old int8 field: it holds the
    // placeholder 127 (PLACEHOLDER_FOR_GREATER_OP_CODES).
    e.deprecated_builtin_code =
        static_cast<int8_t>(std::min<int32_t>(op.builtin_code, 127));
    e.custom_code = op.custom_code;
    e.version = op.version;
    const uint32_t index = static_cast<uint32_t>(entries_.size());
    index_.emplace(key, index);
    entries_.push_back(e);
    return index;
  }

  std::vector<std::unique_ptr<tflite::OperatorCodeT>> Build() const {
    std::vector<std::unique_ptr<tflite::OperatorCodeT>> out;
    for (const ir::OperatorCodeEntry& e : entries_) {
      auto code = std::make_unique<tflite::OperatorCodeT>();
      code->deprecated_builtin_code = e.deprecated_builtin_code;
      code->custom_code = e.custom_code;
      code->version = e.version;
      code->builtin_code = static_cast<tflite::BuiltinOperator>(e.builtin_code);
      out.push_back(std::move(code));
    }
    return out;
  }

 private:
  // The op still has the code of the table entry it was read from.
  static bool Matches(const ir::Model& model, const ir::Operator& op) {
    if (op.source_opcode_index < 0 ||
        static_cast<size_t>(op.source_opcode_index) >=
            model.operator_codes.size()) {
      return false;
    }
    const ir::OperatorCodeEntry& e =
        model.operator_codes[op.source_opcode_index];
    return std::max<int32_t>(e.builtin_code, e.deprecated_builtin_code) ==
               op.builtin_code &&
           e.custom_code == op.custom_code && e.version == op.version;
  }

  std::vector<ir::OperatorCodeEntry> entries_;
  std::map<Key, uint32_t> index_;
  std::map<size_t, uint32_t> remap_;
};

std::unique_ptr<tflite::OperatorT> ConvertOp(const ir::Model& model,
                                             const ir::Operator& op,
                                             OpCodeTable& codes) {
  auto out = std::make_unique<tflite::OperatorT>();
  out->opcode_index = codes.IndexFor(model, op);
  out->inputs = op.inputs;
  out->outputs = op.outputs;
  out->builtin_options = EncodeBuiltinOptions(op.options);
  out->custom_options = op.custom_options;
  out->custom_options_format =
      static_cast<tflite::CustomOptionsFormat>(op.custom_options_format);
  out->mutating_variable_inputs = op.mutating_variable_inputs;
  out->intermediates = op.intermediates;
  out->builtin_options_2 =
      UnpackOpaque<tflite::BuiltinOptions2Union, tflite::BuiltinOptions2>(
          op.options2);
  out->debug_metadata_index = op.debug_metadata_index;
  return out;
}

// Which buffers survive, and their new indices.
std::vector<int64_t> BufferRemap(const ir::Model& model, bool drop_unused) {
  std::vector<int64_t> remap(model.buffers.size(), -1);
  std::vector<bool> used(model.buffers.size(), !drop_unused);
  if (!used.empty()) used[0] = true;  // the empty sentinel stays first
  if (drop_unused) {
    for (const ir::Subgraph& sg : model.subgraphs) {
      for (const ir::Tensor& t : sg.tensors) {
        if (t.buffer < used.size()) used[t.buffer] = true;
      }
    }
    for (const ir::Metadata& m : model.metadata) used[m.buffer] = true;
    for (int32_t b : model.metadata_buffer) {
      if (b >= 0 && static_cast<size_t>(b) < used.size()) used[b] = true;
    }
  }
  int64_t next = 0;
  for (size_t i = 0; i < used.size(); ++i) {
    if (used[i]) remap[i] = next++;
  }
  return remap;
}

std::unique_ptr<tflite::ModelT> BuildModelT(const ir::Model& model,
                                            const std::vector<int64_t>& remap,
                                            bool drop_unused) {
  auto m = std::make_unique<tflite::ModelT>();
  m->version = model.version;
  m->description = model.description;
  OpCodeTable codes(model, drop_unused);
  for (const ir::Subgraph& sg : model.subgraphs) {
    auto s = std::make_unique<tflite::SubGraphT>();
    for (const ir::Tensor& t : sg.tensors) {
      auto tensor = ConvertTensor(t);
      if (t.buffer < remap.size()) {
        tensor->buffer = static_cast<uint32_t>(remap[t.buffer]);
      }
      s->tensors.push_back(std::move(tensor));
    }
    s->inputs = sg.inputs;
    s->outputs = sg.outputs;
    for (const ir::Operator& op : sg.operators) {
      s->operators.push_back(ConvertOp(model, op, codes));
    }
    s->name = sg.name;
    s->debug_metadata_index = sg.debug_metadata_index;
    m->subgraphs.push_back(std::move(s));
  }
  m->operator_codes = codes.Build();
  for (int32_t b : model.metadata_buffer) {
    const bool in_range = b >= 0 && static_cast<size_t>(b) < remap.size();
    m->metadata_buffer.push_back(in_range ? static_cast<int32_t>(remap[b]) : b);
  }
  for (const ir::Metadata& md : model.metadata) {
    auto meta = std::make_unique<tflite::MetadataT>();
    meta->name = md.name;
    meta->buffer = static_cast<uint32_t>(remap[md.buffer]);
    m->metadata.push_back(std::move(meta));
  }
  for (const ir::SignatureDef& sig : model.signature_defs) {
    auto def = std::make_unique<tflite::SignatureDefT>();
    def->signature_key = sig.key;
    def->subgraph_index = sig.subgraph_index;
    for (const ir::TensorMap& in : sig.inputs) {
      auto map = std::make_unique<tflite::TensorMapT>();
      map->name = in.name;
      map->tensor_index = in.tensor_index;
      def->inputs.push_back(std::move(map));
    }
    for (const ir::TensorMap& out : sig.outputs) {
      auto map = std::make_unique<tflite::TensorMapT>();
      map->name = out.name;
      map->tensor_index = out.tensor_index;
      def->outputs.push_back(std::move(map));
    }
    m->signature_defs.push_back(std::move(def));
  }
  for (const ir::OpaqueTable& g : model.external_buffer_groups) {
    m->external_buffer_groups.push_back(
        UnpackTable<tflite::ExternalBufferGroup>(g));
  }
  for (const ir::OpaqueTable& e : model.external_buffers) {
    m->external_buffers.push_back(UnpackTable<tflite::ExternalBuffer>(e));
  }
  return m;
}

std::vector<uint8_t> Finish(const tflite::ModelT& m) {
  flatbuffers::FlatBufferBuilder fbb(1 << 16);
  fbb.Finish(PackModel(fbb, m), tflite::ModelIdentifier());
  return std::vector<uint8_t>(fbb.GetBufferPointer(),
                              fbb.GetBufferPointer() + fbb.GetSize());
}

// Called with a buffer's index in the model once its bytes are written out,
// so a consuming write can free them.
using BufferDone = std::function<void(size_t model_index)>;

// Writes the file to `sink` piece by piece. Buffer bytes are never copied
// into the object model: inline ones are left as uninitialized holes in a
// builder reserved at its final size (so it never reallocates) and filled
// from the model on the way out; external ones go straight to the sink.
absl::Status Serialize(const ir::Model& model, const WriteOptions& options,
                       const ByteSink& sink, const BufferDone& done) {
  const std::vector<int64_t> remap = BufferRemap(model, options.drop_unused);
  std::unique_ptr<tflite::ModelT> m =
      BuildModelT(model, remap, options.drop_unused);
  // Kept buffers, in their new order, with their model indices.
  std::vector<size_t> kept;
  uint64_t total = 0;
  for (size_t i = 0; i < model.buffers.size(); ++i) {
    if (remap[i] < 0) continue;
    kept.push_back(i);
    total += model.buffers[i].data.size();
  }
  uint64_t total_custom = 0;
  for (const ir::Subgraph& sg : model.subgraphs) {
    for (const ir::Operator& op : sg.operators) {
      total_custom += op.custom_options.size();
    }
  }
  const bool external =
      options.force_external_buffers ||
      total + total_custom > options.external_buffer_threshold;
  for (size_t i = 0; i < kept.size(); ++i) {
    m->buffers.push_back(std::make_unique<tflite::BufferT>());
  }
  if (!external) {
    // Inline buffer bytes are not copied into the builder: each data vector
    // is reserved uninitialized (never touched, so never resident), and the
    // file is written as the builder's bytes with the buffers' own bytes in
    // those holes. The layout is exactly CreateVector's.
    // The reservation, the tables alone plus each buffer with its length
    // prefix and alignment padding, bounds the file, so the builder never
    // reallocates (which would copy the holes).
    size_t reserve = Finish(*m).size();
    for (size_t i : kept) {
      reserve += model.buffers[i].data.size() + 2 * kExternalAlignment;
    }
    flatbuffers::FlatBufferBuilder fbb(reserve);
    struct Hole {
      size_t from_end;  // where the data starts, counted from the end
      size_t buffer;    // model index
    };
    std::vector<Hole> holes;
    fbb.Finish(
        PackModel(
            fbb, *m,
            [&](flatbuffers::FlatBufferBuilder& b, size_t i) {
              const size_t n = model.buffers[kept[i]].data.size();
              // The schema's force_align: 16, as the generated code.
              b.ForceVectorAlignment(n, sizeof(uint8_t), 16);
              if (n == 0)
                return flatbuffers::Offset<flatbuffers::Vector<uint8_t>>();
              uint8_t* unused = nullptr;
              const auto offset = b.CreateUninitializedVector(n, &unused);
              // The builder grows down: the data ends where the vector
              // began, GetSize() - 4 (its length prefix) from the end.
              holes.push_back(
                  {b.GetSize() - sizeof(flatbuffers::uoffset_t), kept[i]});
              return offset;
            }),
        tflite::ModelIdentifier());
    const uint8_t* file = fbb.GetBufferPointer();
    const size_t size = fbb.GetSize();
    // Holes were made from the end of the file towards its start.
    size_t at = 0;
    for (auto h = holes.rbegin(); h != holes.rend(); ++h) {
      const size_t start = size - h->from_end;
      const ir::Bytes& data = model.buffers[h->buffer].data;
      RETURN_IF_ERROR(sink({file + at, start - at}));
      RETURN_IF_ERROR(sink(data));
      at = start + data.size();
      done(h->buffer);
    }
    return sink({file + at, size - at});
  }
  // External layout: flatbuffer, then each non-empty buffer 16-byte aligned.
  // Offsets are only known once the flatbuffer's size is, so build twice:
  // first with placeholder offsets of the same encoded width (non-zero), then
  // with the real ones; the size cannot change between the two.
  for (size_t i = 0; i < kept.size(); ++i) {
    const ir::Bytes& data = model.buffers[kept[i]].data;
    if (!data.empty()) {
      m->buffers[i]->offset = 1;
      m->buffers[i]->size = data.size();
    }
  }
  const size_t first_size = Finish(*m).size();
  size_t cursor = AlignUp(first_size);
  for (size_t i = 0; i < kept.size(); ++i) {
    const size_t size = model.buffers[kept[i]].data.size();
    if (size == 0) continue;
    m->buffers[i]->offset = cursor;
    cursor = AlignUp(cursor + size);
  }
  const std::vector<uint8_t> head = Finish(*m);
  if (head.size() != first_size) {
    return absl::InternalError(
        "flatbuffer size changed between layout passes; cannot place "
        "external buffers");
  }
  RETURN_IF_ERROR(sink(head));
  const uint8_t zeros[kExternalAlignment] = {};
  uint64_t written = head.size();
  for (size_t i = 0; i < kept.size(); ++i) {
    const ir::Bytes& data = model.buffers[kept[i]].data;
    if (data.empty()) continue;
    RETURN_IF_ERROR(sink({zeros, m->buffers[i]->offset - written}));
    RETURN_IF_ERROR(sink(data));
    written = m->buffers[i]->offset + data.size();
    done(kept[i]);
  }
  return sink({zeros, cursor - written});
}

}  // namespace

absl::Status SerializeTflite(const ir::Model& model,
                             const WriteOptions& options,
                             const ByteSink& sink) {
  return Serialize(model, options, sink, [](size_t) {});
}

absl::StatusOr<std::vector<uint8_t>> SerializeTflite(
    const ir::Model& model, const WriteOptions& options) {
  std::vector<uint8_t> out;
  RETURN_IF_ERROR(
      SerializeTflite(model, options, [&out](absl::Span<const uint8_t> bytes) {
        out.insert(out.end(), bytes.begin(), bytes.end());
        return absl::OkStatus();
      }));
  return out;
}

absl::Status WriteTfliteFile(const ir::Model& model, const std::string& path,
                             const WriteOptions& options,
                             absl::Span<const std::string> inputs) {
  for (const std::string& input : inputs) {
    if (SameFile(path, input)) {
      return absl::FailedPreconditionError(absl::StrCat(
          path, ": refusing to overwrite the input model ", input));
    }
  }
  ASSIGN_OR_RETURN(PendingFile file, PendingFile::Create(path, inputs));
  RETURN_IF_ERROR(SerializeTflite(
      model, options,
      [&file](absl::Span<const uint8_t> bytes) { return file.Write(bytes); }));
  return file.Commit();
}

absl::Status SerializeTfliteConsuming(ir::Model model,
                                      const WriteOptions& options,
                                      const ByteSink& sink) {
  return Serialize(model, options, sink,
                   [&model](size_t i) { model.buffers[i].data.clear(); });
}

}  // namespace qforge::formats

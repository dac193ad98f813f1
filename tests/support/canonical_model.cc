// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "tests/support/canonical_model.h"

#include <algorithm>
#include <memory>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "flatbuffers/idl.h"
#include "flatbuffers/util.h"
#include "formats/schema/tflite_generated.h"

namespace qforge::testing {
namespace {

uint64_t Fnv1a(const uint8_t* data, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) {
    h ^= data[i];
    h *= 1099511628211ull;
  }
  return h;
}

// Replaces `bytes` by its length and hash (8 + 8 bytes), so dumps stay small
// and compare content only.
void Digest(std::vector<uint8_t>& bytes) {
  const uint64_t n = bytes.size();
  const uint64_t h = Fnv1a(bytes.data(), bytes.size());
  bytes.resize(16);
  std::memcpy(bytes.data(), &n, 8);
  std::memcpy(bytes.data() + 8, &h, 8);
}

}  // namespace

absl::StatusOr<std::string> CanonicalDump(const std::vector<uint8_t>& file) {
  flatbuffers::Verifier verifier(
      file.data(),
      std::min<size_t>(file.size(), FLATBUFFERS_MAX_BUFFER_SIZE - 1));
  if (!tflite::VerifyModelBuffer(verifier)) {
    return absl::InvalidArgumentError("flatbuffer does not verify");
  }
  std::unique_ptr<tflite::ModelT> m(tflite::GetModel(file.data())->UnPack());
  for (auto& buffer : m->buffers) {
    if (buffer->offset > 1) {
      if (buffer->offset + buffer->size > file.size()) {
        return absl::InvalidArgumentError("buffer past end of file");
      }
      buffer->data.assign(file.begin() + buffer->offset,
                          file.begin() + buffer->offset + buffer->size);
    }
    buffer->offset = 0;
    buffer->size = 0;
    Digest(buffer->data);
  }
  std::vector<std::unique_ptr<tflite::OperatorCodeT>> codes;
  for (auto& subgraph : m->subgraphs) {
    for (auto& op : subgraph->operators) {
      if (op->opcode_index >= m->operator_codes.size()) {
        return absl::InvalidArgumentError("opcode index out of range");
      }
      const tflite::OperatorCodeT& code = *m->operator_codes[op->opcode_index];
      auto canonical = std::make_unique<tflite::OperatorCodeT>();
      const int32_t resolved =
          std::max<int32_t>(code.builtin_code, code.deprecated_builtin_code);
      canonical->builtin_code = static_cast<tflite::BuiltinOperator>(resolved);
      canonical->deprecated_builtin_code =
          static_cast<int8_t>(std::min<int32_t>(resolved, 127));
      canonical->custom_code = code.custom_code;
      canonical->version = code.version;
      op->opcode_index = static_cast<uint32_t>(codes.size());
      codes.push_back(std::move(canonical));
      if (op->large_custom_options_offset > 1) {
        const uint64_t off = op->large_custom_options_offset;
        const uint64_t size = op->large_custom_options_size;
        if (off + size > file.size()) {
          return absl::InvalidArgumentError("custom options past end of file");
        }
        op->custom_options.assign(file.begin() + off,
                                  file.begin() + off + size);
      }
      op->large_custom_options_offset = 0;
      op->large_custom_options_size = 0;
    }
  }
  m->operator_codes = std::move(codes);

  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(tflite::Model::Pack(fbb, m.get()), tflite::ModelIdentifier());

  static const std::string* schema = [] {
    auto* text = new std::string;
    if (!flatbuffers::LoadFile(QFORGE_SCHEMA_FILE, false, text)) text->clear();
    return text;
  }();
  if (schema->empty()) {
    return absl::NotFoundError(
        absl::StrCat("cannot read schema ", QFORGE_SCHEMA_FILE));
  }
  flatbuffers::IDLOptions opts;
  opts.strict_json = true;
  opts.output_default_scalars_in_json = true;
  opts.indent_step = 1;
  flatbuffers::Parser parser(opts);
  if (!parser.Parse(schema->c_str())) {
    return absl::InternalError(absl::StrCat("schema: ", parser.error_));
  }
  std::string json;
  if (!flatbuffers::GenerateText(parser, fbb.GetBufferPointer(), &json)) {
    return absl::InternalError("GenerateText failed");
  }
  return json;
}

std::string FirstDifference(const std::string& a, const std::string& b) {
  if (a == b) return "";
  std::vector<std::string> la = absl::StrSplit(a, '\n');
  std::vector<std::string> lb = absl::StrSplit(b, '\n');
  size_t i = 0;
  while (i < la.size() && i < lb.size() && la[i] == lb[i]) ++i;
  std::ostringstream out;
  out << "first difference at line " << i + 1 << ":\n";
  const size_t from = i >= 3 ? i - 3 : 0;
  for (size_t k = from; k < i; ++k) out << "    " << la[k] << "\n";
  out << "  - " << (i < la.size() ? la[i] : "<end>") << "\n";
  out << "  + " << (i < lb.size() ? lb[i] : "<end>") << "\n";
  return out.str();
}

}  // namespace qforge::testing

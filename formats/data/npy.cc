// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/npy.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "formats/data/bytes.h"
#include "formats/data/zip.h"

// .npy data is little-endian and copied as is.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "qforge's data layer assumes a little-endian host");

namespace qforge::formats {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;
// numpy itself refuses headers over 10000 bytes by default; allow more, but
// never let a header length drive a huge scan.
constexpr size_t kMaxHeaderLen = 1 << 20;
constexpr size_t kMaxRank = 64;

struct DtypeRow {
  const char* descr;  // as numpy writes it
  ir::DataType type;
  int size;
};
constexpr DtypeRow kDtypes[] = {
    {"<f4", ir::DataType::kFloat32, 4}, {"<f8", ir::DataType::kFloat64, 8},
    {"<f2", ir::DataType::kFloat16, 2}, {"|i1", ir::DataType::kInt8, 1},
    {"|u1", ir::DataType::kUInt8, 1},   {"<i2", ir::DataType::kInt16, 2},
    {"<u2", ir::DataType::kUInt16, 2},  {"<i4", ir::DataType::kInt32, 4},
    {"<u4", ir::DataType::kUInt32, 4},  {"<i8", ir::DataType::kInt64, 8},
    {"<u8", ir::DataType::kUInt64, 8},  {"|b1", ir::DataType::kBool, 1},
};

std::string SupportedDescrs() {
  std::vector<std::string> names;
  for (const DtypeRow& row : kDtypes) names.push_back(row.descr);
  return absl::StrJoin(names, " ");
}

const DtypeRow* FindDescr(absl::string_view descr) {
  if (descr.size() != 3) return nullptr;
  for (const DtypeRow& row : kDtypes) {
    const absl::string_view want(row.descr);
    if (descr.substr(1) != want.substr(1)) continue;
    // Byte order is meaningless for one-byte types; numpy writes '|'.
    if (descr[0] == want[0] ||
        (row.size == 1 &&
         (descr[0] == '<' || descr[0] == '|' || descr[0] == '='))) {
      return &row;
    }
  }
  return nullptr;
}

// A tiny parser for the Python dict literal numpy writes, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
class HeaderParser {
 public:
  HeaderParser(absl::string_view text, absl::string_view file)
      : text_(text), file_(file) {}

  absl::Status Parse(std::string& descr, bool& fortran,
                     std::vector<int64_t>& shape) {
    SkipSpace();
    if (!Eat('{')) return Error("does not start with '{'");
    std::set<std::string> seen;
    while (true) {
      SkipSpace();
      if (Eat('}')) break;
      std::string key;
      RETURN_IF_ERROR(String(key));
      if (!seen.insert(key).second) return Error("repeats key '" + key + "'");
      SkipSpace();
      if (!Eat(':')) return Error("expects ':' after '" + key + "'");
      SkipSpace();
      if (key == "descr") {
        if (pos_ < text_.size() && text_[pos_] == '[') {
          return Error("has a structured dtype; qforge reads plain arrays");
        }
        RETURN_IF_ERROR(String(descr));
      } else if (key == "fortran_order") {
        RETURN_IF_ERROR(Bool(fortran));
      } else if (key == "shape") {
        RETURN_IF_ERROR(Tuple(shape));
      } else {
        return Error("has unexpected key '" + key + "'");
      }
      SkipSpace();
      if (Eat(',')) continue;
      SkipSpace();
      if (Eat('}')) break;
      return Error("expects ',' or '}' after the value of '" + key + "'");
    }
    SkipSpace();
    if (pos_ != text_.size()) return Error("has text after the closing '}'");
    for (const char* key : {"descr", "fortran_order", "shape"}) {
      if (seen.count(key) == 0) {
        return Error(absl::StrCat("lacks key '", key, "'"));
      }
    }
    return absl::OkStatus();
  }

 private:
  absl::Status Error(absl::string_view what) const {
    return DataError(file_, absl::StrCat(".npy header ", what));
  }
  void SkipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
            text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool Eat(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool EatWord(absl::string_view word) {
    if (absl::StartsWith(text_.substr(pos_), word)) {
      pos_ += word.size();
      return true;
    }
    return false;
  }
  absl::Status String(std::string& out) {
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) {
      return Error("expects a quoted string");
    }
    const char quote = text_[pos_++];
    const size_t end = text_.find(quote, pos_);
    if (end == absl::string_view::npos) return Error("has an unclosed string");
    out = std::string(text_.substr(pos_, end - pos_));
    if (out.find('\\') != std::string::npos) {
      return Error("has an escape in a string");
    }
    pos_ = end + 1;
    return absl::OkStatus();
  }
  absl::Status Bool(bool& out) {
    if (EatWord("True")) {
      out = true;
    } else if (EatWord("False")) {
      out = false;
    } else {
      return Error("expects True or False for 'fortran_order'");
    }
    return absl::OkStatus();
  }
  absl::Status Int(int64_t& out) {
    const size_t start = pos_;
    uint64_t v = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      const uint64_t digit = static_cast<uint64_t>(text_[pos_] - '0');
      if (v > (std::numeric_limits<int64_t>::max() - digit) / 10) {
        return Error("has a dimension that overflows int64");
      }
      v = v * 10 + digit;
      ++pos_;
    }
    if (pos_ == start)
      return Error("expects a non-negative integer in 'shape'");
    Eat('L');  // Python 2 long suffix
    out = static_cast<int64_t>(v);
    return absl::OkStatus();
  }
  absl::Status Tuple(std::vector<int64_t>& out) {
    out.clear();
    if (!Eat('(')) return Error("expects a tuple for 'shape'");
    while (true) {
      SkipSpace();
      if (Eat(')')) return absl::OkStatus();
      if (out.size() == kMaxRank) {
        return Error(absl::StrCat("has more than ", kMaxRank, " dimensions"));
      }
      int64_t dim = 0;
      RETURN_IF_ERROR(Int(dim));
      out.push_back(dim);
      SkipSpace();
      if (Eat(',')) continue;
      SkipSpace();
      if (Eat(')')) {
        if (out.size() == 1) return Error("has '(n)' for a shape, not '(n,)'");
        return absl::OkStatus();
      }
      return Error("has a malformed 'shape' tuple");
    }
  }

  absl::string_view text_;
  absl::string_view file_;
  size_t pos_ = 0;
};

std::string ShapeTuple(const std::vector<int64_t>& shape) {
  if (shape.size() == 1) return absl::StrCat("(", shape[0], ",)");
  return absl::StrCat("(", absl::StrJoin(shape, ", "), ")");
}

}  // namespace

absl::string_view NpyDescr(ir::DataType type) {
  for (const DtypeRow& row : kDtypes) {
    if (row.type == type) return row.descr;
  }
  return "";
}

absl::StatusOr<NpyHeader> ParseNpyHeader(absl::Span<const uint8_t> bytes,
                                         absl::string_view file) {
  return ParseNpyHeaderPrefix(bytes, bytes.size(), file);
}

size_t NpyHeaderBytes(absl::Span<const uint8_t> first) {
  if (first.size() < kMagicLen + 4 ||
      std::memcmp(first.data(), kMagic, kMagicLen) != 0) {
    return first.size();
  }
  if (first[6] == 1) return 10 + (first[8] | first[9] << 8);
  if ((first[6] != 2 && first[6] != 3) || first.size() < 12) {
    return first.size();  // ParseNpyHeaderPrefix says what is wrong
  }
  const size_t len = static_cast<size_t>(first[8]) | first[9] << 8 |
                     first[10] << 16 | static_cast<size_t>(first[11]) << 24;
  return len > kMaxHeaderLen ? 12 : 12 + len;
}

absl::StatusOr<NpyHeader> ParseNpyHeaderPrefix(absl::Span<const uint8_t> bytes,
                                               uint64_t total,
                                               absl::string_view file) {
  if (total < bytes.size()) {
    return absl::InternalError(absl::StrCat(file, ": prefix past the end"));
  }
  if (bytes.size() < kMagicLen + 4 ||
      std::memcmp(bytes.data(), kMagic, kMagicLen) != 0) {
    return DataError(file, "not an .npy file (bad magic)");
  }
  const int major = bytes[6];
  const int minor = bytes[7];
  size_t prefix = 0;
  size_t header_len = 0;
  if (major == 1) {
    prefix = 10;
    header_len = bytes[8] | bytes[9] << 8;
  } else if (major == 2 || major == 3) {
    prefix = 12;
    if (bytes.size() < prefix) return DataError(file, ".npy file is truncated");
    header_len = static_cast<size_t>(bytes[8]) | bytes[9] << 8 |
                 bytes[10] << 16 | static_cast<size_t>(bytes[11]) << 24;
  } else {
    return DataError(file,
                     absl::StrCat(".npy format version ", major, ".", minor,
                                  " is not supported (1.0, 2.0, 3.0 are)"));
  }
  if (header_len > kMaxHeaderLen) {
    return DataError(
        file, absl::StrCat(".npy header length ", header_len, " exceeds the ",
                           kMaxHeaderLen, "-byte limit"));
  }
  if (bytes.size() - prefix < header_len) {
    return DataError(
        file,
        absl::StrCat(".npy header says ", header_len, " bytes, file has only ",
                     bytes.size() - prefix, " after the magic"));
  }
  const absl::string_view text(
      reinterpret_cast<const char*>(bytes.data() + prefix), header_len);
  std::string descr;
  bool fortran = false;
  NpyHeader header;
  RETURN_IF_ERROR(HeaderParser(text, file).Parse(descr, fortran, header.shape));
  const DtypeRow* row = FindDescr(descr);
  if (row == nullptr) {
    if (!descr.empty() && descr[0] == '>') {
      return DataError(file,
                       absl::StrCat("big-endian dtype '", descr,
                                    "' is not supported; save with "
                                    "arr.astype(arr.dtype.newbyteorder('<'))"));
    }
    return DataError(file,
                     absl::StrCat("dtype '", descr, "' is not supported (",
                                  SupportedDescrs(), ")"));
  }
  if (fortran) {
    return DataError(
        file,
        "fortran_order=True: qforge reads C-order arrays only; save "
        "with np.ascontiguousarray(arr)");
  }
  header.type = row->type;
  header.data_offset = prefix + header_len;
  uint64_t count = 1;
  for (int64_t dim : header.shape) {
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(dim), &count)) {
      return DataError(
          file,
          absl::StrCat("shape ", ir::ShapeString(header.shape), " overflows"));
    }
  }
  uint64_t size = 0;
  if (__builtin_mul_overflow(count, static_cast<uint64_t>(row->size), &size) ||
      size > std::numeric_limits<size_t>::max()) {
    return DataError(file, absl::StrCat("shape ", ir::ShapeString(header.shape),
                                        " overflows"));
  }
  header.data_size = static_cast<size_t>(size);
  const uint64_t have = total - header.data_offset;
  if (have != header.data_size) {
    return DataError(
        file, absl::StrCat(
                  have < header.data_size ? "truncated: " : "", "header says ",
                  descr, " ", ir::ShapeString(header.shape), " = ",
                  header.data_size, " bytes of data, file has ", have));
  }
  return header;
}

absl::StatusOr<ir::HostTensor> ReadNpy(absl::Span<const uint8_t> bytes,
                                       absl::string_view file) {
  ASSIGN_OR_RETURN(const NpyHeader header, ParseNpyHeader(bytes, file));
  ir::HostTensor tensor(header.type, header.shape);
  if (tensor.ByteSize() != header.data_size) {
    return absl::InternalError(absl::StrCat(file, ": size mismatch"));
  }
  if (header.data_size > 0) {
    std::memcpy(tensor.data(), bytes.data() + header.data_offset,
                header.data_size);
  }
  return tensor;
}

absl::StatusOr<ir::HostTensor> ReadNpyFile(const std::string& path) {
  ASSIGN_OR_RETURN(const std::vector<uint8_t> bytes, ReadFileBytes(path));
  return ReadNpy(bytes, path);
}

absl::StatusOr<std::vector<uint8_t>> WriteNpy(const ir::HostTensor& tensor) {
  const absl::string_view descr = NpyDescr(tensor.type());
  if (descr.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot write ", tensor.DebugString(),
                     " as .npy: element type not supported"));
  }
  for (int64_t dim : tensor.shape()) {
    if (dim < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cannot write ", tensor.DebugString(), " as .npy: negative dim"));
    }
  }
  std::string dict =
      absl::StrCat("{'descr': '", descr, "', 'fortran_order': False, 'shape': ",
                   ShapeTuple(tensor.shape()), ", }");
  // Pad with spaces so the data starts 64-byte aligned, as numpy does.
  const size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict.push_back('\n');
  if (dict.size() > 0xFFFF) {
    return absl::InvalidArgumentError("npy header too long for version 1.0");
  }
  std::vector<uint8_t> out;
  out.reserve(10 + dict.size() + tensor.ByteSize());
  out.insert(out.end(), kMagic, kMagic + kMagicLen);
  out.push_back(1);
  out.push_back(0);
  out.push_back(static_cast<uint8_t>(dict.size() & 0xFF));
  out.push_back(static_cast<uint8_t>(dict.size() >> 8));
  out.insert(out.end(), dict.begin(), dict.end());
  out.insert(out.end(), tensor.bytes().begin(), tensor.bytes().end());
  return out;
}

absl::StatusOr<std::vector<NpzArray>> IndexNpz(absl::Span<const uint8_t> bytes,
                                               absl::string_view file) {
  ASSIGN_OR_RETURN(const std::vector<ZipEntry> entries,
                   ListZipEntries(bytes, file));
  std::vector<NpzArray> arrays;
  std::set<std::string> keys;
  for (const ZipEntry& entry : entries) {
    if (!absl::EndsWith(entry.name, ".npy")) {
      return DataError(
          file, absl::StrCat("member '", entry.name, "' is not an .npy array"));
    }
    NpzArray array;
    array.key = entry.name.substr(0, entry.name.size() - 4);
    if (!keys.insert(array.key).second) {
      return DataError(file,
                       absl::StrCat("key '", array.key, "' appears twice"));
    }
    const std::string member = absl::StrCat(file, "[", array.key, "]");
    if (entry.method == ZipEntry::kStored) {
      RETURN_IF_ERROR(VerifyStoredZipEntry(bytes, entry, file));
      ASSIGN_OR_RETURN(array.header,
                       ParseNpyHeader(bytes.subspan(entry.data_offset,
                                                    entry.uncompressed_size),
                                      member));
      array.data_offset = entry.data_offset + array.header.data_offset;
    } else {
      // Only the header is inflated here, and checked against the size
      // the zip entry declares, so that a caller can refuse a member
      // (shape, size) before inflating it whole (InflateNpzArray).
      ASSIGN_OR_RETURN(std::vector<uint8_t> head,
                       ZipEntryPrefix(bytes, entry, 12, file));
      ASSIGN_OR_RETURN(
          head, ZipEntryPrefix(bytes, entry, NpyHeaderBytes(head), file));
      ASSIGN_OR_RETURN(
          array.header,
          ParseNpyHeaderPrefix(head, entry.uncompressed_size, member));
      array.data_offset = array.header.data_offset;
      array.deflated = entry;
    }
    arrays.push_back(std::move(array));
  }
  return arrays;
}

absl::Status InflateNpzArray(absl::Span<const uint8_t> bytes, NpzArray& array,
                             absl::string_view file) {
  if (!array.deflated.has_value() || array.inflated != nullptr) {
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(std::vector<uint8_t> inflated,
                   ExtractZipEntry(bytes, *array.deflated, file));
  ASSIGN_OR_RETURN(
      const NpyHeader header,
      ParseNpyHeader(inflated, absl::StrCat(file, "[", array.key, "]")));
  if (header.data_offset != array.header.data_offset ||
      header.data_size != array.header.data_size) {
    return DataError(file, absl::StrCat("key '", array.key,
                                        "': header changed between reads"));
  }
  array.inflated =
      std::make_shared<const std::vector<uint8_t>>(std::move(inflated));
  return absl::OkStatus();
}

absl::StatusOr<std::map<std::string, ir::HostTensor>> ReadNpz(
    absl::Span<const uint8_t> bytes, absl::string_view file) {
  ASSIGN_OR_RETURN(std::vector<NpzArray> arrays, IndexNpz(bytes, file));
  std::map<std::string, ir::HostTensor> out;
  for (NpzArray& array : arrays) {
    RETURN_IF_ERROR(InflateNpzArray(bytes, array, file));
    const uint8_t* src = array.inflated != nullptr
                             ? array.inflated->data() + array.data_offset
                             : bytes.data() + array.data_offset;
    ir::HostTensor tensor(array.header.type, array.header.shape);
    if (tensor.ByteSize() > 0) {
      std::memcpy(tensor.data(), src, tensor.ByteSize());
    }
    out.emplace(array.key, std::move(tensor));
  }
  return out;
}

absl::StatusOr<std::map<std::string, ir::HostTensor>> ReadNpzFile(
    const std::string& path) {
  ASSIGN_OR_RETURN(const std::vector<uint8_t> bytes, ReadFileBytes(path));
  return ReadNpz(bytes, path);
}

}  // namespace qforge::formats

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/zip.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "formats/data/bytes.h"

namespace qforge::formats {
namespace {

constexpr uint32_t kEocdSig = 0x06054b50;
constexpr uint32_t kZip64LocatorSig = 0x07064b50;
constexpr uint32_t kZip64EocdSig = 0x06064b50;
constexpr uint32_t kCentralSig = 0x02014b50;
constexpr uint32_t kLocalSig = 0x04034b50;
constexpr size_t kEocdSize = 22;
constexpr size_t kZip64LocatorSize = 20;
constexpr size_t kZip64EocdSize = 56;
constexpr size_t kCentralSize = 46;
constexpr size_t kLocalSize = 30;
// DEFLATE cannot expand data by more than about 1032:1; a larger claim is a
// lie (or a bomb) and must not drive an allocation.
constexpr uint64_t kMaxDeflateRatio = 1032;

// True when [offset, offset + size) lies inside a buffer of `total` bytes.
bool InBounds(uint64_t offset, uint64_t size, uint64_t total) {
  return offset <= total && size <= total - offset;
}

struct Directory {
  uint64_t entries = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
};

absl::StatusOr<Directory> FindDirectory(absl::Span<const uint8_t> zip,
                                        absl::string_view file) {
  if (zip.size() < kEocdSize) {
    return DataError(file, absl::StrCat("not a zip archive (", zip.size(),
                                        " bytes, too short)"));
  }
  // The end record sits before a comment of up to 64 KiB; search backwards.
  const size_t last = zip.size() - kEocdSize;
  const size_t first = last > 0xFFFF ? last - 0xFFFF : 0;
  size_t pos = last + 1;
  for (size_t p = last + 1; p-- > first;) {
    if (LoadLE32(zip.data() + p) == kEocdSig &&
        p + kEocdSize + LoadLE16(zip.data() + p + 20) <= zip.size()) {
      pos = p;
      break;
    }
  }
  if (pos > last) {
    return DataError(file,
                     "not a zip archive (no end-of-central-directory record)");
  }
  const uint8_t* e = zip.data() + pos;
  if (LoadLE16(e + 4) != 0 || LoadLE16(e + 6) != 0) {
    return DataError(file, "multi-disk zip archives are not supported");
  }
  Directory dir{LoadLE16(e + 10), LoadLE32(e + 16), LoadLE32(e + 12)};
  if (pos >= kZip64LocatorSize &&
      LoadLE32(zip.data() + pos - kZip64LocatorSize) == kZip64LocatorSig) {
    const uint64_t off = LoadLE64(zip.data() + pos - kZip64LocatorSize + 8);
    if (!InBounds(off, kZip64EocdSize, zip.size()) ||
        LoadLE32(zip.data() + off) != kZip64EocdSig) {
      return DataError(file, "zip64 end record points outside the archive");
    }
    const uint8_t* z = zip.data() + off;
    dir.entries = LoadLE64(z + 32);
    dir.size = LoadLE64(z + 40);
    dir.offset = LoadLE64(z + 48);
  }
  if (!InBounds(dir.offset, dir.size, zip.size())) {
    return DataError(
        file, absl::StrCat("central directory (offset ", dir.offset, ", ",
                           dir.size, " bytes) lies outside the archive"));
  }
  return dir;
}

// Applies a zip64 extended-information extra field: it holds, in this order,
// only those of the three values whose 32-bit field was 0xFFFFFFFF.
absl::Status ApplyZip64Extra(absl::Span<const uint8_t> extra, bool need_usize,
                             bool need_csize, bool need_offset, ZipEntry& entry,
                             uint64_t& local_offset, absl::string_view file) {
  size_t p = 0;
  while (p + 4 <= extra.size()) {
    const uint16_t id = LoadLE16(extra.data() + p);
    const uint16_t len = LoadLE16(extra.data() + p + 2);
    if (p + 4 + len > extra.size()) break;
    if (id == 0x0001) {
      const uint8_t* d = extra.data() + p + 4;
      size_t q = 0;
      auto take = [&](uint64_t& out) {
        if (q + 8 > len) return false;
        out = LoadLE64(d + q);
        q += 8;
        return true;
      };
      if ((need_usize && !take(entry.uncompressed_size)) ||
          (need_csize && !take(entry.compressed_size)) ||
          (need_offset && !take(local_offset))) {
        return DataError(file, absl::StrCat("zip entry '", entry.name,
                                            "': zip64 extra field too short"));
      }
      return absl::OkStatus();
    }
    p += 4 + len;
  }
  if (need_usize || need_csize || need_offset) {
    return DataError(file,
                     absl::StrCat("zip entry '", entry.name,
                                  "': sizes need a zip64 extra field, none"));
  }
  return absl::OkStatus();
}

absl::Status CheckRatio(const ZipEntry& entry, absl::string_view where,
                        absl::string_view file) {
  if (entry.method == ZipEntry::kDeflate &&
      entry.uncompressed_size / kMaxDeflateRatio > entry.compressed_size + 1) {
    return DataError(file,
                     absl::StrCat(where, " claims ", entry.uncompressed_size,
                                  " bytes from ", entry.compressed_size,
                                  " compressed; deflate cannot do that"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<ZipEntry>> ListZipEntries(
    absl::Span<const uint8_t> zip, absl::string_view file) {
  ASSIGN_OR_RETURN(const Directory dir, FindDirectory(zip, file));
  std::vector<ZipEntry> entries;
  uint64_t p = dir.offset;
  const uint64_t end = dir.offset + dir.size;
  for (uint64_t i = 0; i < dir.entries; ++i) {
    if (!InBounds(p, kCentralSize, end) ||
        LoadLE32(zip.data() + p) != kCentralSig) {
      return DataError(file, absl::StrCat("central directory entry ", i,
                                          " is truncated or corrupt"));
    }
    const uint8_t* c = zip.data() + p;
    const uint16_t flags = LoadLE16(c + 8);
    const uint16_t method = LoadLE16(c + 10);
    const uint16_t name_len = LoadLE16(c + 28);
    const uint16_t extra_len = LoadLE16(c + 30);
    const uint16_t comment_len = LoadLE16(c + 32);
    const uint64_t var_len = uint64_t{name_len} + extra_len + comment_len;
    if (!InBounds(p + kCentralSize, var_len, end)) {
      return DataError(
          file, absl::StrCat("central directory entry ", i, " is truncated"));
    }
    ZipEntry entry;
    entry.name.assign(reinterpret_cast<const char*>(c + kCentralSize),
                      name_len);
    entry.crc32 = LoadLE32(c + 16);
    entry.compressed_size = LoadLE32(c + 20);
    entry.uncompressed_size = LoadLE32(c + 24);
    uint64_t local_offset = LoadLE32(c + 42);
    RETURN_IF_ERROR(
        ApplyZip64Extra(zip.subspan(p + kCentralSize + name_len, extra_len),
                        entry.uncompressed_size == 0xFFFFFFFF,
                        entry.compressed_size == 0xFFFFFFFF,
                        local_offset == 0xFFFFFFFF, entry, local_offset, file));
    p += kCentralSize + var_len;

    if (entry.name.empty() || entry.name.back() == '/') continue;  // folder
    const std::string where = absl::StrCat("zip entry '", entry.name, "'");
    if (flags & 1) return DataError(file, absl::StrCat(where, " is encrypted"));
    if (method != ZipEntry::kStored && method != ZipEntry::kDeflate) {
      return DataError(file,
                       absl::StrCat(where, " uses compression method ", method,
                                    "; only stored (0) and deflate (8) are "
                                    "supported"));
    }
    entry.method = static_cast<ZipEntry::Method>(method);
    if (entry.method == ZipEntry::kStored &&
        entry.compressed_size != entry.uncompressed_size) {
      return DataError(file,
                       absl::StrCat(where, " is stored but its sizes differ (",
                                    entry.compressed_size, " vs ",
                                    entry.uncompressed_size, ")"));
    }
    RETURN_IF_ERROR(CheckRatio(entry, where, file));
    if (!InBounds(local_offset, kLocalSize, zip.size()) ||
        LoadLE32(zip.data() + local_offset) != kLocalSig) {
      return DataError(file, absl::StrCat(where, ": local header missing"));
    }
    const uint8_t* l = zip.data() + local_offset;
    entry.data_offset = local_offset + kLocalSize + LoadLE16(l + 26) +
                        uint64_t{LoadLE16(l + 28)};
    if (!InBounds(entry.data_offset, entry.compressed_size, zip.size())) {
      return DataError(file,
                       absl::StrCat(where, " (", entry.compressed_size,
                                    " bytes) runs past the end of the file"));
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

absl::StatusOr<std::vector<uint8_t>> ExtractZipEntry(
    absl::Span<const uint8_t> zip, const ZipEntry& entry,
    absl::string_view file) {
  const std::string where = absl::StrCat("zip entry '", entry.name, "'");
  if (!InBounds(entry.data_offset, entry.compressed_size, zip.size())) {
    return DataError(file,
                     absl::StrCat(where, " runs past the end of the file"));
  }
  RETURN_IF_ERROR(CheckRatio(entry, where, file));
  if (entry.method == ZipEntry::kStored &&
      entry.compressed_size != entry.uncompressed_size) {
    return DataError(file,
                     absl::StrCat(where, " is stored but its sizes differ"));
  }
  const uint8_t* src = zip.data() + entry.data_offset;
  std::vector<uint8_t> out;
  if (entry.method == ZipEntry::kStored) {
    out.assign(src, src + entry.compressed_size);
  } else {
    // Inflated a chunk at a time, the output growing with what the stream
    // gives: a member that declares more than it holds fails as corrupt
    // without the declared size ever being allocated.
    constexpr uint64_t kChunk = uint64_t{1} << 20;
    constexpr uint64_t kFirstReserve = uint64_t{64} << 20;
    out.reserve(
        static_cast<size_t>(std::min(entry.uncompressed_size, kFirstReserve)));
    std::vector<uint8_t> chunk(kChunk);
    z_stream zs;
    std::memset(&zs, 0, sizeof(zs));
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) {  // raw deflate, no header
      return absl::InternalError("zlib: inflateInit2 failed");
    }
    uint64_t in_left = entry.compressed_size;
    zs.next_in = const_cast<Bytef*>(src);
    int rc = Z_OK;
    // zlib counts in 32-bit uInt; feed large entries in slices.
    constexpr uint64_t kSlice = 1u << 30;
    bool too_long = false;
    while (rc == Z_OK) {
      if (zs.avail_in == 0) {
        zs.avail_in = static_cast<uInt>(std::min(in_left, kSlice));
        in_left -= zs.avail_in;
      }
      zs.next_out = chunk.data();
      zs.avail_out = static_cast<uInt>(chunk.size());
      rc = inflate(&zs, Z_NO_FLUSH);
      const size_t got = chunk.size() - zs.avail_out;
      if (out.size() + got > entry.uncompressed_size) {
        too_long = true;
        break;
      }
      if (out.size() + got > out.capacity()) {
        out.reserve(static_cast<size_t>(std::min<uint64_t>(
            entry.uncompressed_size, 2 * uint64_t{out.capacity()})));
      }
      out.insert(out.end(), chunk.data(), chunk.data() + got);
      if (rc == Z_BUF_ERROR && (zs.avail_in > 0 || in_left > 0)) {
        rc = Z_OK;  // progress is still possible
      }
    }
    const std::string zmsg = zs.msg != nullptr ? zs.msg : "truncated";
    inflateEnd(&zs);
    if (too_long) {
      return DataError(
          file, absl::StrCat(where, " inflates to more than the ",
                             entry.uncompressed_size, " bytes it declares"));
    }
    if (rc != Z_STREAM_END) {
      return DataError(
          file, absl::StrCat(where, " is corrupt (inflate: ", zmsg, ")"));
    }
    if (out.size() != entry.uncompressed_size) {
      return DataError(
          file, absl::StrCat(where, " inflates to ", out.size(),
                             " bytes, declares ", entry.uncompressed_size));
    }
  }
  if (crc32_z(0, out.data(), out.size()) != entry.crc32) {
    return DataError(file, absl::StrCat(where, " fails its CRC-32 check"));
  }
  return out;
}

absl::StatusOr<std::vector<uint8_t>> ZipEntryPrefix(
    absl::Span<const uint8_t> zip, const ZipEntry& entry, uint64_t n,
    absl::string_view file) {
  const std::string where = absl::StrCat("zip entry '", entry.name, "'");
  if (!InBounds(entry.data_offset, entry.compressed_size, zip.size())) {
    return DataError(file,
                     absl::StrCat(where, " runs past the end of the file"));
  }
  n = std::min(n, entry.uncompressed_size);
  const uint8_t* src = zip.data() + entry.data_offset;
  if (entry.method == ZipEntry::kStored) {
    return std::vector<uint8_t>(src, src + std::min(n, entry.compressed_size));
  }
  // Callers ask for a header's worth: one zlib call covers it.
  constexpr uint64_t kMaxPrefix = 1u << 30;
  if (n > kMaxPrefix) {
    return absl::InternalError(absl::StrCat(where, ": prefix too long"));
  }
  std::vector<uint8_t> out(static_cast<size_t>(n));
  if (n == 0) return out;
  z_stream zs;
  std::memset(&zs, 0, sizeof(zs));
  if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) {
    return absl::InternalError("zlib: inflateInit2 failed");
  }
  zs.next_in = const_cast<Bytef*>(src);
  zs.avail_in = static_cast<uInt>(std::min(entry.compressed_size, kMaxPrefix));
  zs.next_out = out.data();
  zs.avail_out = static_cast<uInt>(n);
  int rc = Z_OK;
  while (rc == Z_OK && zs.avail_out > 0) rc = inflate(&zs, Z_SYNC_FLUSH);
  const uint64_t produced = zs.total_out;
  const std::string zmsg = zs.msg != nullptr ? zs.msg : "truncated";
  inflateEnd(&zs);
  if (produced < n) {
    return DataError(
        file, absl::StrCat(where, " is corrupt (inflate: ",
                           rc == Z_STREAM_END ? "ends early" : zmsg, ")"));
  }
  return out;
}

absl::Status VerifyStoredZipEntry(absl::Span<const uint8_t> zip,
                                  const ZipEntry& entry,
                                  absl::string_view file) {
  const std::string where = absl::StrCat("zip entry '", entry.name, "'");
  if (entry.method != ZipEntry::kStored) {
    return DataError(file, absl::StrCat(where, " is not stored"));
  }
  if (!InBounds(entry.data_offset, entry.compressed_size, zip.size())) {
    return DataError(file,
                     absl::StrCat(where, " runs past the end of the file"));
  }
  if (crc32_z(0, zip.data() + entry.data_offset, entry.compressed_size) !=
      entry.crc32) {
    return DataError(file, absl::StrCat(where, " fails its CRC-32 check"));
  }
  return absl::OkStatus();
}

}  // namespace qforge::formats

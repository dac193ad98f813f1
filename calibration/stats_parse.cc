// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Reading a stats file strictly (docs/stats-format.md): every field must
// have its JSON type and a value the writer could have produced, and every
// error names the field ("tensors[3] 'conv/Relu': max: ..."), so a hand-
// edited or damaged file is refused before a range method or a merge
// computes with it. No nlohmann exception escapes: values are inspected
// with the non-throwing accessors only.
#include <cfloat>
#include <cmath>
#include <set>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/text.h"
#include "calibration/stats_file.h"
#include "nlohmann/json.hpp"

namespace qforge::calibration {
namespace {

using json = nlohmann::json;

constexpr int64_t kMaxShards = 1 << 20;
constexpr int64_t kMaxIndex = INT32_MAX;

std::string Got(const json& v) {
  if (v.is_number_integer() && !v.is_number_unsigned() &&
      v.get<int64_t>() < 0) {
    return "a negative number";
  }
  if (v.is_number_float()) return absl::StrCat("the non-integer ", v.dump());
  return absl::StrCat("a", v.is_object() || v.is_array() ? "n " : " ",
                      v.type_name());
}

// The fields of one JSON object; errors read "<source>: <path>.<key>: ...".
class Fields {
 public:
  Fields(const json& object, std::string path, const std::string& source)
      : object_(object), path_(std::move(path)), source_(source) {}

  absl::Status Error(absl::string_view key, absl::string_view rule) const {
    return absl::InvalidArgumentError(
        absl::StrCat(source_, ": ", Path(key), ": ", rule));
  }

  absl::StatusOr<const json*> Get(absl::string_view key) const {
    if (!object_.is_object()) {
      return absl::InvalidArgumentError(
          absl::StrCat(source_, ": ", path_.empty() ? "the file" : path_,
                       ": expected an object, got ", Got(object_)));
    }
    const auto it = object_.find(std::string(key));
    if (it == object_.end()) return Error(key, "missing");
    return &*it;
  }

  absl::Status String(absl::string_view key, std::string* out) const {
    ASSIGN_OR_RETURN(const json* v, Get(key));
    if (!v->is_string()) {
      return Error(key, absl::StrCat("expected a string, got ", Got(*v)));
    }
    *out = *v->get_ptr<const std::string*>();
    return absl::OkStatus();
  }

  // A non-negative integer no larger than `max`.
  absl::Status Count(absl::string_view key, uint64_t max, uint64_t* out) const {
    ASSIGN_OR_RETURN(const json* v, Get(key));
    return CountValue(*v, key, max, out);
  }
  absl::Status CountValue(const json& v, absl::string_view key, uint64_t max,
                          uint64_t* out) const {
    if (!v.is_number_integer() ||
        (!v.is_number_unsigned() && v.get<int64_t>() < 0)) {
      return Error(
          key, absl::StrCat("expected a non-negative integer, got ", Got(v)));
    }
    const uint64_t n = v.get<uint64_t>();
    if (n > max) {
      return Error(key, absl::StrCat(n, " is out of range [0, ", max, "]"));
    }
    *out = n;
    return absl::OkStatus();
  }

  absl::Status Int(absl::string_view key, int64_t lo, int64_t hi,
                   int* out) const {
    ASSIGN_OR_RETURN(const json* v, Get(key));
    if (!v->is_number_integer()) {
      return Error(key, absl::StrCat("expected an integer, got ", Got(*v)));
    }
    const bool in_range =
        v->is_number_unsigned()
            ? v->get<uint64_t>() <= static_cast<uint64_t>(hi) &&
                  static_cast<int64_t>(v->get<uint64_t>()) >= lo
            : v->get<int64_t>() >= lo && v->get<int64_t>() <= hi;
    if (!in_range) {
      return Error(key, absl::StrCat(v->dump(), " is out of range [", lo, ", ",
                                     hi, "]"));
    }
    *out = static_cast<int>(v->get<int64_t>());
    return absl::OkStatus();
  }

  // A finite number that float32 holds.
  absl::Status Float(absl::string_view key, float* out) const {
    ASSIGN_OR_RETURN(const json* v, Get(key));
    if (!v->is_number()) {
      return Error(key, absl::StrCat("expected a number, got ", Got(*v)));
    }
    const double d = v->get<double>();
    if (!std::isfinite(d) || std::fabs(d) > static_cast<double>(FLT_MAX)) {
      return Error(key,
                   absl::StrCat(v->dump(), " is not a finite float32 value"));
    }
    *out = static_cast<float>(d);
    return absl::OkStatus();
  }

  absl::StatusOr<const json*> Array(absl::string_view key) const {
    ASSIGN_OR_RETURN(const json* v, Get(key));
    if (!v->is_array()) {
      return Error(key, absl::StrCat("expected an array, got ", Got(*v)));
    }
    return v;
  }

  std::string Path(absl::string_view key) const {
    return path_.empty() ? std::string(key) : absl::StrCat(path_, ".", key);
  }

 private:
  const json& object_;
  std::string path_;
  const std::string& source_;
};

absl::Status Hash(const Fields& f, absl::string_view key, std::string* out) {
  RETURN_IF_ERROR(f.String(key, out));
  bool hex = out->size() == 16;
  for (char c : *out)
    hex = hex && (absl::ascii_isdigit(c) || (c >= 'a' && c <= 'f'));
  if (!hex) {
    return f.Error(key, absl::StrCat("'", EscapeForMessage(*out),
                                     "' is not 16 lowercase hex digits"));
  }
  return absl::OkStatus();
}

absl::Status ParseFingerprint(const json& j, const std::string& source,
                              Fingerprint* fp) {
  const Fields f(j, "fingerprint", source);
  RETURN_IF_ERROR(Hash(f, "model_hash", &fp->model_hash));
  RETURN_IF_ERROR(Hash(f, "data_hash", &fp->data_hash));
  RETURN_IF_ERROR(f.String("tool_version", &fp->tool_version));
  if (fp->tool_version.empty()) return f.Error("tool_version", "empty");
  RETURN_IF_ERROR(f.Count("total_samples", kMaxStatsCount, &fp->total_samples));
  if (fp->total_samples == 0) {
    return f.Error("total_samples", "0; a data set has at least one sample");
  }
  RETURN_IF_ERROR(
      f.Int("histogram_stride", 1, kMaxHistogramStride, &fp->histogram_stride));
  RETURN_IF_ERROR(f.Int("shard_count", 1, kMaxShards, &fp->shard_count));
  ASSIGN_OR_RETURN(const json* shards, f.Array("shards"));
  std::set<int> seen;
  for (size_t i = 0; i < shards->size(); ++i) {
    const json& s = (*shards)[i];
    const std::string key = absl::StrCat("shards[", i, "]");
    if (!s.is_number_integer() || s.get<int64_t>() < 0 ||
        s.get<int64_t>() >= fp->shard_count) {
      return f.Error(
          key, absl::StrCat(s.dump(), " is not a shard of ", fp->shard_count));
    }
    if (!seen.insert(s.get<int>()).second) {
      return f.Error(key, absl::StrCat("shard ", s.get<int>(), " repeats"));
    }
    fp->shards.push_back(s.get<int>());
  }
  if (fp->shard_count == 1 && !fp->shards.empty()) {
    return f.Error("shards", "must be [] when shard_count is 1");
  }
  if (fp->shard_count > 1 && fp->shards.empty()) {
    return f.Error("shards", "empty; a sharded file lists its shards");
  }
  return absl::OkStatus();
}

// Keys whose magnitude has exponent 255 hold NaN/Inf patterns, which no
// finite value has (histogram.h).
constexpr uint32_t kFirstNonFiniteMagnitude = 0x7f800000u >> kBucketShift;

absl::Status ParseHistogram(const Fields& f, const json& h, TensorStats* s,
                            int stride) {
  if (h.size() % 2 != 0) {
    return f.Error("histogram", absl::StrCat("has ", h.size(),
                                             " numbers; expected key, count "
                                             "pairs"));
  }
  uint64_t total = 0;
  int64_t previous = -1;
  for (size_t k = 0; k < h.size(); k += 2) {
    const std::string key_field = absl::StrCat("histogram[", k, "]");
    const std::string count_field = absl::StrCat("histogram[", k + 1, "]");
    uint64_t key = 0, n = 0;
    RETURN_IF_ERROR(f.CountValue(h[k], key_field, kNumBuckets - 1, &key));
    if ((key & ((kNumBuckets >> 1) - 1)) >= kFirstNonFiniteMagnitude) {
      return f.Error(key_field,
                     absl::StrCat("bucket ", key, " holds only NaN or Inf"));
    }
    if (static_cast<int64_t>(key) <= previous) {
      return f.Error(key_field,
                     absl::StrCat("bucket ", key, " does not follow bucket ",
                                  previous, " (keys ascend)"));
    }
    previous = static_cast<int64_t>(key);
    RETURN_IF_ERROR(f.CountValue(h[k + 1], count_field, kMaxStatsCount, &n));
    if (n == 0) return f.Error(count_field, "a bucket's count must be >= 1");
    const BucketRange r = RangeOf(static_cast<uint32_t>(key));
    if (s->count > 0 && (r.lo > s->max || r.hi < s->min)) {
      return f.Error(key_field,
                     absl::StrCat("bucket ", key, " [", r.lo, ", ", r.hi,
                                  ") lies outside [min, max] = [", s->min, ", ",
                                  s->max, "]"));
    }
    total += n;  // no overflow: at most 2^14 counts of at most 2^53
    s->histogram.Add(static_cast<uint32_t>(key), n);
  }
  if (stride == 1 ? total != s->count : total > s->count) {
    return f.Error(
        "histogram",
        absl::StrCat("counts sum to ", total, ", but count is ", s->count,
                     stride == 1 ? " (histogram_stride 1 counts "
                                   "every finite value)"
                                 : ""));
  }
  return absl::OkStatus();
}

absl::Status ParseTensor(const json& t, const std::string& path,
                         const std::string& source, int stride,
                         TensorStats* s) {
  // The name goes into the path first, so later errors show it.
  std::string where = path;
  if (t.is_object() && t.contains("name") && t["name"].is_string()) {
    absl::StrAppend(&where, " '",
                    EscapeForMessage(*t["name"].get_ptr<const std::string*>()),
                    "'");
  }
  const Fields f(t, where, source);
  RETURN_IF_ERROR(f.Int("subgraph", 0, kMaxIndex, &s->subgraph));
  RETURN_IF_ERROR(f.Int("tensor", 0, kMaxIndex, &s->tensor));
  RETURN_IF_ERROR(f.String("name", &s->name));
  RETURN_IF_ERROR(f.Count("count", kMaxStatsCount, &s->count));
  RETURN_IF_ERROR(f.Count("nan", kMaxStatsCount, &s->nan));
  RETURN_IF_ERROR(f.Count("pos_inf", kMaxStatsCount, &s->pos_inf));
  RETURN_IF_ERROR(f.Count("neg_inf", kMaxStatsCount, &s->neg_inf));
  float lo = 0, hi = 0;
  RETURN_IF_ERROR(f.Float("min", &lo));
  RETURN_IF_ERROR(f.Float("max", &hi));
  if (s->count > 0) {
    if (lo > hi) {
      return f.Error("min", absl::StrCat(lo, " is above max ", hi));
    }
    s->min = lo;
    s->max = hi;
  }  // else: no finite value seen; min/max keep their empty sentinels
  ASSIGN_OR_RETURN(const json* h, f.Array("histogram"));
  return ParseHistogram(f, *h, s, stride);
}

}  // namespace

absl::StatusOr<StatsFile> ParseStats(const std::string& text,
                                     const std::string& source) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    // "[json.exception.parse_error.101] parse error at line 1, column 7:
    // ..." without its tag; the position helps find a hand edit's mistake.
    absl::string_view what = e.what();
    if (const size_t tag = what.find("] "); tag != absl::string_view::npos) {
      what.remove_prefix(tag + 2);
    }
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": not a JSON stats file: ", what));
  }
  const Fields top(j, "", source);
  std::string format, grid;
  RETURN_IF_ERROR(top.String("format", &format));
  if (format != kStatsFormatName) {
    return top.Error("format", absl::StrCat("'", EscapeForMessage(format),
                                            "'; not a qforge stats file"));
  }
  int version = 0;
  RETURN_IF_ERROR(top.Int("version", 0, kMaxIndex, &version));
  if (version < 1 || version > kStatsFormatVersion) {
    return top.Error("version",
                     absl::StrCat(version, "; this qforge reads versions 1 to ",
                                  kStatsFormatVersion));
  }
  RETURN_IF_ERROR(top.String("histogram_grid", &grid));
  if (grid != kStatsHistogramGrid) {
    return top.Error("histogram_grid", absl::StrCat("'", EscapeForMessage(grid),
                                                    "' is unknown (expected ",
                                                    kStatsHistogramGrid, ")"));
  }
  StatsFile stats;
  stats.version = version;
  ASSIGN_OR_RETURN(const json* fingerprint, top.Get("fingerprint"));
  RETURN_IF_ERROR(ParseFingerprint(*fingerprint, source, &stats.fingerprint));
  RETURN_IF_ERROR(
      top.Count("samples", stats.fingerprint.total_samples, &stats.samples));
  if (stats.fingerprint.shard_count == 1 &&
      stats.samples != stats.fingerprint.total_samples) {
    return top.Error("samples",
                     absl::StrCat(stats.samples,
                                  ", but an unsharded file sees all "
                                  "fingerprint.total_samples (",
                                  stats.fingerprint.total_samples, ")"));
  }
  ASSIGN_OR_RETURN(const json* tensors, top.Array("tensors"));
  if (tensors->empty()) {
    return top.Error("tensors", "empty; the file holds no statistics");
  }
  std::set<std::pair<int, int>> seen;
  for (size_t i = 0; i < tensors->size(); ++i) {
    TensorStats s;
    const std::string path = absl::StrCat("tensors[", i, "]");
    RETURN_IF_ERROR(ParseTensor((*tensors)[i], path, source,
                                stats.fingerprint.histogram_stride, &s));
    if (!seen.insert({s.subgraph, s.tensor}).second) {
      return top.Error(path, absl::StrCat("subgraph ", s.subgraph, " tensor ",
                                          s.tensor, " appears twice"));
    }
    stats.tensors.push_back(std::move(s));
  }
  return stats;
}

}  // namespace qforge::calibration

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "calibration/stats_file.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "base/text.h"
#include "formats/data/fingerprint.h"
#include "nlohmann/json.hpp"

namespace qforge::calibration {
namespace {

using ordered_json = nlohmann::ordered_json;

// a + b, or an error when the sum passes kMaxStatsCount.
absl::Status AddCount(uint64_t* a, uint64_t b, const std::string& source,
                      const std::string& what) {
  if (b > kMaxStatsCount - *a) {
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": ", what, ": merged count passes 2^53"));
  }
  *a += b;
  return absl::OkStatus();
}

absl::Status Invalid(const std::string& source, const std::string& message) {
  return absl::InvalidArgumentError(absl::StrCat(source, ": ", message));
}

}  // namespace

std::string HashBytes(const uint8_t* data, size_t size, int version) {
  if (version >= 2) {
    return absl::StrFormat(
        "%016x", formats::ContentHash64(absl::MakeConstSpan(data, size)));
  }
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) {
    h ^= data[i];
    h *= 1099511628211ull;
  }
  return absl::StrFormat("%016x", h);
}

std::string SerializeStats(const StatsFile& stats) {
  ordered_json j;
  j["format"] = kStatsFormatName;
  j["version"] = stats.version;
  const Fingerprint& f = stats.fingerprint;
  j["fingerprint"] = ordered_json{{"model_hash", f.model_hash},
                                  {"data_hash", f.data_hash},
                                  {"tool_version", f.tool_version},
                                  {"total_samples", f.total_samples},
                                  {"histogram_stride", f.histogram_stride},
                                  {"shard_count", f.shard_count},
                                  {"shards", f.shards}};
  j["samples"] = stats.samples;
  j["histogram_grid"] = kStatsHistogramGrid;
  // One line per tensor: compact, yet diffable and greppable.
  j["tensors"] = ordered_json::array();
  std::string header =
      j.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
  header.resize(header.size() - 2);  // drop "]}"
  std::string out = header + "\n";
  for (size_t i = 0; i < stats.tensors.size(); ++i) {
    const TensorStats& t = stats.tensors[i];
    ordered_json h = ordered_json::array();
    for (const auto& [key, n] : t.histogram.counts()) {
      h.push_back(key);
      h.push_back(n);
    }
    const ordered_json tensor{{"subgraph", t.subgraph},
                              {"tensor", t.tensor},
                              {"name", EscapeInvalidUtf8(t.name)},
                              {"count", t.count},
                              {"nan", t.nan},
                              {"pos_inf", t.pos_inf},
                              {"neg_inf", t.neg_inf},
                              {"min", static_cast<double>(t.min)},
                              {"max", static_cast<double>(t.max)},
                              {"histogram", h}};
    out += tensor.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
    out += i + 1 < stats.tensors.size() ? ",\n" : "\n";
  }
  out += "]}\n";
  return out;
}

bool StatsComplete(const StatsFile& stats) {
  return stats.fingerprint.shard_count == 1;
}

absl::Status CheckStatsMatchModel(const StatsFile& stats,
                                  const ir::Model& model,
                                  const std::string& source) {
  for (size_t i = 0; i < stats.tensors.size(); ++i) {
    const TensorStats& t = stats.tensors[i];
    const std::string where = absl::StrCat("tensors[", i, "]");
    if (static_cast<size_t>(t.subgraph) >= model.subgraphs.size()) {
      return Invalid(source, absl::StrCat(where, ": subgraph ", t.subgraph,
                                          " is out of range (the model has ",
                                          model.subgraphs.size(), ")"));
    }
    const ir::Subgraph& sg = model.subgraphs[t.subgraph];
    if (static_cast<size_t>(t.tensor) >= sg.tensors.size()) {
      return Invalid(source,
                     absl::StrCat(where, ": tensor ", t.tensor,
                                  " is out of range (subgraph ", t.subgraph,
                                  " has ", sg.tensors.size(), " tensors)"));
    }
    const ir::Tensor& mt = sg.tensors[t.tensor];
    if (EscapeInvalidUtf8(mt.name) != t.name) {
      return Invalid(
          source,
          absl::StrCat(where, ": subgraph ", t.subgraph, " tensor ", t.tensor,
                       " is '", EscapeForMessage(mt.name), "' in the model, '",
                       EscapeForMessage(t.name), "' here"));
    }
    if (mt.type != ir::DataType::kFloat32) {
      return Invalid(
          source, absl::StrCat(where, ": tensor '", EscapeForMessage(mt.name),
                               "' is ", ir::DataTypeName(mt.type),
                               " in the model, not float32"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<StatsFile> ReadStatsFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, ReadFileBytes(path));
  return ParseStats(std::string(bytes.begin(), bytes.end()), path);
}

absl::StatusOr<StatsFile> MergeStats(absl::Span<const StatsFile> parts,
                                     absl::Span<const std::string> sources) {
  if (parts.empty()) return absl::InvalidArgumentError("nothing to merge");
  StatsFile out;
  out.version = parts[0].version;
  out.fingerprint = parts[0].fingerprint;
  out.fingerprint.shards.clear();
  std::set<int> shards;
  for (size_t i = 0; i < parts.size(); ++i) {
    const Fingerprint& a = parts[0].fingerprint;
    const Fingerprint& b = parts[i].fingerprint;
    const std::string& src = sources[i];
    if (parts[i].version != parts[0].version) {
      return Invalid(
          src, absl::StrCat("stats format version ", parts[i].version, ", ",
                            sources[0], " has ", parts[0].version,
                            "; calibrate every shard with one "
                            "qforge"));
    }
    if (b.model_hash != a.model_hash) {
      return Invalid(
          src,
          absl::StrCat("stats are of another model (model hash ", b.model_hash,
                       ", expected ", a.model_hash, " from ", sources[0], ")"));
    }
    if (b.data_hash != a.data_hash || b.total_samples != a.total_samples) {
      return Invalid(
          src, absl::StrCat("stats are of another data set (data "
                            "hash ",
                            b.data_hash, ", expected ", a.data_hash, ")"));
    }
    if (b.histogram_stride != a.histogram_stride) {
      return Invalid(src, absl::StrCat("histogram stride ", b.histogram_stride,
                                       ", the others ", a.histogram_stride));
    }
    if (b.tool_version != a.tool_version) {
      return Invalid(src, absl::StrCat("written by qforge ", b.tool_version,
                                       ", the others by ", a.tool_version));
    }
    const std::vector<int> own =
        b.shards.empty() && b.shard_count == 1 ? std::vector<int>{0} : b.shards;
    if (b.shard_count != a.shard_count) {
      return Invalid(src,
                     absl::StrCat("split into ", b.shard_count,
                                  " shards, the others into ", a.shard_count));
    }
    for (int s : own) {
      if (!shards.insert(s).second) {
        return Invalid(src, absl::StrCat("shard ", s, "/", b.shard_count,
                                         " is already in the merge"));
      }
    }
    RETURN_IF_ERROR(AddCount(&out.samples, parts[i].samples, src, "samples"));
  }
  if (out.samples > out.fingerprint.total_samples) {
    return absl::InvalidArgumentError(
        absl::StrCat(sources[0], ": the shards saw ", out.samples,
                     " samples, more than the ", out.fingerprint.total_samples,
                     " of the data set"));
  }
  // Tensors: union keyed by (subgraph, tensor), merged in a fixed order.
  std::map<std::pair<int, int>, TensorStats> merged;
  for (size_t i = 0; i < parts.size(); ++i) {
    for (const TensorStats& t : parts[i].tensors) {
      auto [it, inserted] =
          merged.emplace(std::make_pair(t.subgraph, t.tensor), t);
      if (inserted) continue;
      TensorStats& m = it->second;
      const std::string what =
          absl::StrCat("subgraph ", t.subgraph, " tensor ", t.tensor);
      if (m.name != t.name) {
        return Invalid(sources[i],
                       absl::StrCat(what, " is '", EscapeForMessage(t.name),
                                    "', in another shard '",
                                    EscapeForMessage(m.name), "'"));
      }
      TensorStats sum = m;
      RETURN_IF_ERROR(AddCount(&sum.count, t.count, sources[i], what));
      RETURN_IF_ERROR(AddCount(&sum.nan, t.nan, sources[i], what));
      RETURN_IF_ERROR(AddCount(&sum.pos_inf, t.pos_inf, sources[i], what));
      RETURN_IF_ERROR(AddCount(&sum.neg_inf, t.neg_inf, sources[i], what));
      m.Merge(t);
    }
  }
  for (auto& entry : merged) out.tensors.push_back(std::move(entry.second));
  if (static_cast<int>(shards.size()) == out.fingerprint.shard_count) {
    out.fingerprint.shard_count = 1;  // complete: same as an unsharded run
  } else {
    out.fingerprint.shards.assign(shards.begin(), shards.end());
  }
  return out;
}

}  // namespace qforge::calibration

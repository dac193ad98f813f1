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
#include "nlohmann/json.hpp"

namespace qforge::calibration {
namespace {

using json = nlohmann::ordered_json;

constexpr char kFormat[] = "qforge-stats";
constexpr char kGrid[] = "float32-top14";

absl::Status Invalid(const std::string& source, const std::string& message) {
  return absl::InvalidArgumentError(absl::StrCat(source, ": ", message));
}

}  // namespace

std::string HashBytes(const uint8_t* data, size_t size) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) {
    h ^= data[i];
    h *= 1099511628211ull;
  }
  return absl::StrFormat("%016x", h);
}

std::string SerializeStats(const StatsFile& stats) {
  json j;
  j["format"] = kFormat;
  j["version"] = kStatsFormatVersion;
  const Fingerprint& f = stats.fingerprint;
  j["fingerprint"] = json{{"model_hash", f.model_hash},
                          {"data_hash", f.data_hash},
                          {"tool_version", f.tool_version},
                          {"total_samples", f.total_samples},
                          {"histogram_stride", f.histogram_stride},
                          {"shard_count", f.shard_count},
                          {"shards", f.shards}};
  j["samples"] = stats.samples;
  j["histogram_grid"] = kGrid;
  // One line per tensor: compact, yet diffable and greppable.
  j["tensors"] = json::array();
  std::string header = j.dump();
  header.resize(header.size() - 2);  // drop "]}"
  std::string out = header + "\n";
  for (size_t i = 0; i < stats.tensors.size(); ++i) {
    const TensorStats& t = stats.tensors[i];
    json h = json::array();
    for (const auto& [key, n] : t.histogram.counts()) {
      h.push_back(key);
      h.push_back(n);
    }
    const json tensor{{"subgraph", t.subgraph},
                      {"tensor", t.tensor},
                      {"name", t.name},
                      {"count", t.count},
                      {"nan", t.nan},
                      {"pos_inf", t.pos_inf},
                      {"neg_inf", t.neg_inf},
                      {"min", static_cast<double>(t.min)},
                      {"max", static_cast<double>(t.max)},
                      {"histogram", h}};
    out += tensor.dump();
    out += i + 1 < stats.tensors.size() ? ",\n" : "\n";
  }
  out += "]}\n";
  return out;
}

absl::StatusOr<StatsFile> ParseStats(const std::string& text,
                                     const std::string& source) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return Invalid(source, "not a JSON stats file");
  }
  if (j.value("format", "") != kFormat) {
    return Invalid(source, "not a qforge stats file (format field)");
  }
  if (!j.contains("version") || !j["version"].is_number_integer() ||
      j["version"].get<int>() != kStatsFormatVersion) {
    return Invalid(source, absl::StrCat("stats format version must be ",
                                        kStatsFormatVersion));
  }
  if (j.value("histogram_grid", "") != kGrid) {
    return Invalid(source, "unknown histogram grid");
  }
  StatsFile stats;
  try {
    const json& f = j.at("fingerprint");
    stats.fingerprint.model_hash = f.at("model_hash").get<std::string>();
    stats.fingerprint.data_hash = f.at("data_hash").get<std::string>();
    stats.fingerprint.tool_version = f.at("tool_version").get<std::string>();
    stats.fingerprint.total_samples = f.at("total_samples").get<uint64_t>();
    stats.fingerprint.histogram_stride = f.at("histogram_stride").get<int>();
    stats.fingerprint.shard_count = f.at("shard_count").get<int>();
    stats.fingerprint.shards = f.at("shards").get<std::vector<int>>();
    stats.samples = j.at("samples").get<uint64_t>();
    for (const json& t : j.at("tensors")) {
      TensorStats s;
      s.subgraph = t.at("subgraph").get<int>();
      s.tensor = t.at("tensor").get<int>();
      s.name = t.at("name").get<std::string>();
      s.count = t.at("count").get<uint64_t>();
      s.nan = t.at("nan").get<uint64_t>();
      s.pos_inf = t.at("pos_inf").get<uint64_t>();
      s.neg_inf = t.at("neg_inf").get<uint64_t>();
      s.min = static_cast<float>(t.at("min").get<double>());
      s.max = static_cast<float>(t.at("max").get<double>());
      const json& h = t.at("histogram");
      if (h.size() % 2 != 0) {
        return Invalid(source,
                       absl::StrCat("tensor '", s.name,
                                    "': histogram needs key, count pairs"));
      }
      for (size_t k = 0; k < h.size(); k += 2) {
        const uint32_t key = h.at(k).get<uint32_t>();
        if (key >= kNumBuckets) {
          return Invalid(
              source, absl::StrCat("tensor '", s.name, "': histogram bucket ",
                                   key, " out of range"));
        }
        s.histogram.Add(key, h.at(k + 1).get<uint64_t>());
      }
      stats.tensors.push_back(std::move(s));
    }
  } catch (const json::exception& e) {
    return Invalid(source, absl::StrCat("malformed stats file: ", e.what()));
  }
  return stats;
}

absl::StatusOr<StatsFile> ReadStatsFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, ReadFileBytes(path));
  return ParseStats(std::string(bytes.begin(), bytes.end()), path);
}

absl::StatusOr<StatsFile> MergeStats(absl::Span<const StatsFile> parts,
                                     absl::Span<const std::string> sources) {
  if (parts.empty()) return absl::InvalidArgumentError("nothing to merge");
  StatsFile out;
  out.fingerprint = parts[0].fingerprint;
  out.fingerprint.shards.clear();
  std::set<int> shards;
  for (size_t i = 0; i < parts.size(); ++i) {
    const Fingerprint& a = parts[0].fingerprint;
    const Fingerprint& b = parts[i].fingerprint;
    const std::string& src = sources[i];
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
    out.samples += parts[i].samples;
  }
  // Tensors: union keyed by (subgraph, tensor), merged in a fixed order.
  std::map<std::pair<int, int>, TensorStats> merged;
  for (const StatsFile& part : parts) {
    for (const TensorStats& t : part.tensors) {
      auto [it, inserted] =
          merged.emplace(std::make_pair(t.subgraph, t.tensor), t);
      if (!inserted) it->second.Merge(t);
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

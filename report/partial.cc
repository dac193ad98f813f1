// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The partial report file. Sums are written exactly: an ExactSum as its
// partials (doubles print and parse back bit for bit), non-finite values as
// the strings "inf", "-inf" and "nan". Reading converts nlohmann's type
// errors into InvalidArgument naming the file; nothing throws past it.
#include "report/partial.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "nlohmann/json.hpp"

namespace qforge::report {
namespace {

using json = nlohmann::json;

// A value of the file that is not what the writer writes.
struct BadPartial {
  std::string what;
};

json Double(double v) {
  if (std::isfinite(v)) return json(v);
  if (std::isnan(v)) return json("nan");
  return json(v > 0 ? "inf" : "-inf");
}

// nlohmann's get<integer> converts a floating-point number unchecked
// (undefined out of range): counts must be JSON integers, as written.
int64_t I64(const json& v) {
  if (v.is_number_integer()) return v.get<int64_t>();
  throw BadPartial{absl::StrCat("expected an integer, got ", v.dump())};
}

uint64_t U64(const json& v) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  throw BadPartial{absl::StrCat("expected a count, got ", v.dump())};
}

std::vector<uint64_t> U64s(const json& v) {
  if (!v.is_array()) throw BadPartial{"expected a list of counts"};
  std::vector<uint64_t> out;
  out.reserve(v.size());
  for (const json& e : v) out.push_back(U64(e));
  return out;
}

double ReadDouble(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
  }
  throw BadPartial{absl::StrCat("expected a number, got ", v.dump())};
}

json Sum(const ExactSum& s) {
  json out = json::array();
  for (double p : s.partials()) out.push_back(p);
  if (s.special() != 0.0 || std::isnan(s.special()))
    out.push_back(Double(s.special()));
  return out;
}

ExactSum ReadSum(const json& v) {
  if (!v.is_array()) throw BadPartial{"a sum is not an array"};
  std::vector<double> partials;
  double special = 0;
  for (const json& p : v) {
    const double x = ReadDouble(p);
    if (std::isfinite(x)) {
      partials.push_back(x);
    } else {
      special += x;
    }
  }
  return ExactSum::FromParts(std::move(partials), special);
}

json Sums(const ExactErrorSums& s) {
  if (s.channels < 0) return json::object();  // nothing added
  json out = {{"count", s.count},
              {"nonfinite", s.nonfinite},
              {"ff", Sum(s.sum_ff)},
              {"ee", Sum(s.sum_ee)},
              {"fq", Sum(s.sum_fq)},
              {"qq", Sum(s.sum_qq)},
              {"max_abs_error", Double(s.max_abs_error)},
              {"clipped", s.clipped},
              {"q_lo", s.q_lo},
              {"q_hi", s.q_hi},
              {"f_min", Double(s.f_min)},
              {"f_max", Double(s.f_max)},
              {"channels", s.channels}};
  // Only when some were left out: partials without masked values keep the
  // bytes they had before the field was added.
  if (s.masked > 0) out["masked"] = s.masked;
  json ff = json::array(), ee = json::array();
  for (size_t c = 0; c < s.ch_ff.size(); ++c) {
    ff.push_back(Sum(s.ch_ff[c]));
    ee.push_back(Sum(s.ch_ee[c]));
  }
  out["ch_ff"] = std::move(ff);
  out["ch_ee"] = std::move(ee);
  return out;
}

ExactErrorSums ReadSums(const json& v) {
  ExactErrorSums s;
  if (!v.is_object()) throw BadPartial{"sums are not an object"};
  if (v.empty()) return s;
  s.count = U64(v.at("count"));
  s.nonfinite = U64(v.at("nonfinite"));
  s.masked = v.value("masked", uint64_t{0});
  s.sum_ff = ReadSum(v.at("ff"));
  s.sum_ee = ReadSum(v.at("ee"));
  s.sum_fq = ReadSum(v.at("fq"));
  s.sum_qq = ReadSum(v.at("qq"));
  s.max_abs_error = ReadDouble(v.at("max_abs_error"));
  s.clipped = U64(v.at("clipped"));
  s.q_lo = I64(v.at("q_lo"));
  s.q_hi = I64(v.at("q_hi"));
  s.f_min = ReadDouble(v.at("f_min"));
  s.f_max = ReadDouble(v.at("f_max"));
  s.channels = I64(v.at("channels"));
  const json& ff = v.at("ch_ff");
  const json& ee = v.at("ch_ee");
  if (s.channels < 0 || !ff.is_array() || !ee.is_array() ||
      ff.size() != static_cast<size_t>(s.channels) || ee.size() != ff.size()) {
    throw BadPartial{"channel sums do not match their channel count"};
  }
  for (size_t c = 0; c < ff.size(); ++c) {
    s.ch_ff.push_back(ReadSum(ff[c]));
    s.ch_ee.push_back(ReadSum(ee[c]));
  }
  return s;
}

json SumsList(const std::vector<ExactErrorSums>& list) {
  json out = json::array();
  for (const ExactErrorSums& s : list) out.push_back(Sums(s));
  return out;
}

std::vector<ExactErrorSums> ReadSumsList(const json& v) {
  if (!v.is_array()) throw BadPartial{"a list of sums is not an array"};
  std::vector<ExactErrorSums> out;
  for (const json& s : v) out.push_back(ReadSums(s));
  return out;
}

json Counts(const std::vector<uint64_t>& v) { return json(v); }

json TaskSumsJson(const TaskSums& t) {
  json errors = json::array();
  for (const auto& [key, count] : t.point_errors.counts()) {
    errors.push_back(key);
    errors.push_back(count);
  }
  json j = {{"samples", t.samples},
            {"labeled", t.labeled},
            {"float_correct", t.float_correct},
            {"quant_correct", t.quant_correct},
            {"pixels", t.pixels},
            {"pixels_agree", t.pixels_agree},
            {"intersection", Counts(t.intersection)},
            {"union", Counts(t.union_pixels)},
            {"points", t.points},
            {"point_error", Sum(t.point_error)},
            {"point_errors", std::move(errors)},
            {"reference", t.reference},
            {"matched", t.matched},
            {"match_iou", Sum(t.match_iou)},
            {"score_error", Sum(t.score_error)},
            {"decisions", t.decisions},
            {"decisions_agree", t.decisions_agree},
            {"abs_error", Sum(t.abs_error)}};
  // --labels DIR only: partial reports without masks stay as they were.
  if (!t.label_float_union.empty()) {
    j["label_pixels"] = t.label_pixels;
    j["label_ignored"] = t.label_ignored;
    j["label_float_intersection"] = Counts(t.label_float_intersection);
    j["label_float_union"] = Counts(t.label_float_union);
    j["label_quant_intersection"] = Counts(t.label_quant_intersection);
    j["label_quant_union"] = Counts(t.label_quant_union);
  }
  return j;
}

TaskSums ReadTaskSums(const json& v) {
  if (!v.is_object()) throw BadPartial{"task sums are not an object"};
  TaskSums t;
  t.samples = U64(v.at("samples"));
  t.labeled = U64(v.at("labeled"));
  t.float_correct = U64(v.at("float_correct"));
  t.quant_correct = U64(v.at("quant_correct"));
  t.pixels = U64(v.at("pixels"));
  t.pixels_agree = U64(v.at("pixels_agree"));
  t.intersection = U64s(v.at("intersection"));
  t.union_pixels = U64s(v.at("union"));
  if (t.intersection.size() != t.union_pixels.size())
    throw BadPartial{"task sums: intersection and union differ in length"};
  t.points = U64(v.at("points"));
  t.point_error = ReadSum(v.at("point_error"));
  const auto flat = U64s(v.at("point_errors"));
  if (flat.size() % 2 != 0) throw BadPartial{"point errors are not pairs"};
  for (size_t i = 0; i < flat.size(); i += 2) {
    if (flat[i] >= calibration::kNumBuckets)
      throw BadPartial{"a point error key is out of range"};
    t.point_errors.Add(static_cast<uint32_t>(flat[i]), flat[i + 1]);
  }
  t.reference = U64(v.at("reference"));
  t.matched = U64(v.at("matched"));
  t.match_iou = ReadSum(v.at("match_iou"));
  t.score_error = ReadSum(v.at("score_error"));
  t.decisions = U64(v.at("decisions"));
  t.decisions_agree = U64(v.at("decisions_agree"));
  t.abs_error = ReadSum(v.at("abs_error"));
  if (v.contains("label_float_union")) {
    t.label_pixels = U64(v.at("label_pixels"));
    t.label_ignored = U64(v.at("label_ignored"));
    t.label_float_intersection = U64s(v.at("label_float_intersection"));
    t.label_float_union = U64s(v.at("label_float_union"));
    t.label_quant_intersection = U64s(v.at("label_quant_intersection"));
    t.label_quant_union = U64s(v.at("label_quant_union"));
    const size_t n = t.label_float_union.size();
    if (t.label_float_intersection.size() != n ||
        t.label_quant_intersection.size() != n ||
        t.label_quant_union.size() != n)
      throw BadPartial{"task sums: label mask counts differ in length"};
  }
  return t;
}

absl::Status Invalid(const std::string& source, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat(source, ": ", what));
}

}  // namespace

std::string SerializePartial(const PartialReport& p) {
  const PartialFingerprint& f = p.fingerprint;
  json head = {{"format", kPartialFormatName},
               {"version", p.version},
               {"fingerprint",
                {{"float_model_hash", f.float_model_hash},
                 {"quant_model_hash", f.quant_model_hash},
                 {"data_hash", f.data_hash},
                 {"tool_version", f.tool_version},
                 {"numerics", f.numerics},
                 {"data_for_quant_model", f.data_for_quant_model},
                 {"total_samples", f.total_samples},
                 {"shard_count", f.shard_count},
                 {"shards", f.shards}}},
               {"float_model", p.float_model},
               {"quant_model", p.quant_model},
               {"samples", p.samples},
               {"task_overrides", p.sums.task_overrides},
               {"labels", p.sums.labels}};
  const ReportSums& s = p.sums;
  json classes = json::array();
  for (const OutputClasses& c : s.classes) {
    json counts = json::array();
    for (const auto& [n, k] : c.counts)
      counts.push_back({n, k.judged, k.top1, k.top5});
    classes.push_back({{"first_position", c.first_position},
                       {"first_classes", c.first_classes},
                       {"counts", std::move(counts)}});
  }
  json histograms = json::array();
  for (const auto& [capture, h] : s.histograms) {
    json flat = json::array();
    for (const auto& [key, count] : h.counts()) {
      flat.push_back(key);
      flat.push_back(count);
    }
    histograms.push_back({capture, std::move(flat)});
  }
  // One line per part, so that the files diff and grep well.
  std::string out = head.dump();
  out.pop_back();  // the closing brace
  auto line = [&out](const char* key, const json& value) {
    absl::StrAppend(&out, ",\n\"", key, "\":", value.dump());
  };
  line("outputs", SumsList(s.outputs));
  line("classes", classes);
  json tasks = json::array();
  for (const TaskSums& t : s.tasks) tasks.push_back(TaskSumsJson(t));
  line("tasks", tasks);
  line("slots", SumsList(s.slots));
  line("own", SumsList(s.own));
  line("rounding", SumsList(s.rounding));
  line("propagated", SumsList(s.propagated));
  line("histograms", histograms);
  out += "}\n";
  return out;
}

absl::StatusOr<PartialReport> ParsePartial(const std::string& text,
                                           const std::string& source) {
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return Invalid(source, "not JSON (a partial report of report --shard)");
  }
  if (j.value("format", "") != kPartialFormatName) {
    return Invalid(source, absl::StrCat("not a partial report (format '",
                                        j.value("format", ""), "', expected '",
                                        kPartialFormatName, "')"));
  }
  PartialReport p;
  try {
    p.version = static_cast<int>(I64(j.at("version")));
    if (p.version != kPartialFormatVersion) {
      return Invalid(
          source, absl::StrCat("partial report version ", p.version,
                               "; this qforge reads ", kPartialFormatVersion));
    }
    const json& f = j.at("fingerprint");
    PartialFingerprint& fp = p.fingerprint;
    fp.float_model_hash = f.at("float_model_hash").get<std::string>();
    fp.quant_model_hash = f.at("quant_model_hash").get<std::string>();
    fp.data_hash = f.at("data_hash").get<std::string>();
    fp.tool_version = f.at("tool_version").get<std::string>();
    fp.numerics = f.at("numerics").get<std::string>();
    fp.data_for_quant_model = f.at("data_for_quant_model").get<bool>();
    fp.total_samples = I64(f.at("total_samples"));
    fp.shard_count = static_cast<int>(I64(f.at("shard_count")));
    for (const json& k : f.at("shards")) {
      fp.shards.push_back(static_cast<int>(I64(k)));
    }
    if (fp.total_samples < 1 || fp.shard_count < 1) {
      throw BadPartial{"fingerprint: no samples or no shards"};
    }
    for (int k : fp.shards) {
      if (k < 0 || k >= fp.shard_count) {
        throw BadPartial{
            absl::StrCat("fingerprint: shard ", k, " of ", fp.shard_count)};
      }
    }
    p.float_model = j.at("float_model").get<std::string>();
    p.quant_model = j.at("quant_model").get<std::string>();
    p.samples = I64(j.at("samples"));
    if (p.samples < 0 || p.samples > fp.total_samples) {
      throw BadPartial{"samples: out of range"};
    }
    ReportSums& s = p.sums;
    s.outputs = ReadSumsList(j.at("outputs"));
    s.slots = ReadSumsList(j.at("slots"));
    s.own = ReadSumsList(j.at("own"));
    s.rounding = ReadSumsList(j.at("rounding"));
    s.propagated = ReadSumsList(j.at("propagated"));
    if (s.own.size() != s.slots.size() || s.rounding.size() != s.slots.size() ||
        s.propagated.size() != s.slots.size())
      throw BadPartial{"slots, own, rounding and propagated differ in length"};
    for (const json& c : j.at("classes")) {
      OutputClasses oc;
      oc.first_position = I64(c.at("first_position"));
      oc.first_classes = I64(c.at("first_classes"));
      for (const json& k : c.at("counts")) {
        const std::vector<uint64_t> v = U64s(k);
        if (v.size() != 4) throw BadPartial{"class counts: expected 4 values"};
        oc.counts[static_cast<int64_t>(v[0])] = {v[1], v[2], v[3]};
      }
      s.classes.push_back(std::move(oc));
    }
    if (s.classes.size() != s.outputs.size())
      throw BadPartial{"classes and outputs differ in length"};
    for (const json& t : j.at("tasks")) s.tasks.push_back(ReadTaskSums(t));
    if (s.tasks.size() != s.outputs.size())
      throw BadPartial{"tasks and outputs differ in length"};
    s.task_overrides = j.at("task_overrides").get<std::vector<std::string>>();
    s.labels = j.at("labels").get<std::string>();
    for (const json& h : j.at("histograms")) {
      const int capture = static_cast<int>(I64(h.at(0)));
      const std::vector<uint64_t> flat = U64s(h.at(1));
      if (flat.size() % 2 != 0) throw BadPartial{"a histogram is not pairs"};
      calibration::Histogram& out = s.histograms[capture];
      for (size_t i = 0; i < flat.size(); i += 2) {
        if (flat[i] >= calibration::kNumBuckets)
          throw BadPartial{"a histogram key is out of range"};
        out.Add(static_cast<uint32_t>(flat[i]), flat[i + 1]);
      }
    }
  } catch (const BadPartial& e) {
    return Invalid(source, absl::StrCat("damaged partial report: ", e.what));
  } catch (const json::exception& e) {
    return Invalid(source, absl::StrCat("damaged partial report: ", e.what()));
  }
  return p;
}

absl::StatusOr<PartialReport> ReadPartialFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, ReadFileBytes(path));
  return ParsePartial(std::string(bytes.begin(), bytes.end()), path);
}

absl::StatusOr<PartialReport> MergePartials(
    absl::Span<const PartialReport> parts,
    absl::Span<const std::string> sources) {
  if (parts.empty()) return absl::InvalidArgumentError("nothing to merge");
  PartialReport out = parts[0];
  out.fingerprint.shards.clear();
  out.samples = 0;
  std::set<int> shards;
  const PartialFingerprint& a = parts[0].fingerprint;
  for (size_t i = 0; i < parts.size(); ++i) {
    const PartialFingerprint& b = parts[i].fingerprint;
    const std::string& src = sources[i];
    if (b.float_model_hash != a.float_model_hash ||
        b.quant_model_hash != a.quant_model_hash) {
      return Invalid(
          src, absl::StrCat("a report of other models (hashes ",
                            b.float_model_hash, " and ", b.quant_model_hash,
                            ", expected ", a.float_model_hash, " and ",
                            a.quant_model_hash, " from ", sources[0], ")"));
    }
    if (b.data_hash != a.data_hash || b.total_samples != a.total_samples) {
      return Invalid(src,
                     absl::StrCat("a report of another data set (data "
                                  "hash ",
                                  b.data_hash, ", ", b.total_samples,
                                  " samples; expected ", a.data_hash, ", ",
                                  a.total_samples, " from ", sources[0], ")"));
    }
    if (b.tool_version != a.tool_version) {
      return Invalid(src,
                     absl::StrCat("written by qforge ", b.tool_version, ", ",
                                  sources[0], " by ", a.tool_version));
    }
    if (b.numerics != a.numerics ||
        b.data_for_quant_model != a.data_for_quant_model) {
      return Invalid(src,
                     absl::StrCat("run with other options (", b.numerics, ", ",
                                  sources[0], ": ", a.numerics, ")"));
    }
    if (parts[i].sums.task_overrides != parts[0].sums.task_overrides ||
        parts[i].sums.labels != parts[0].sums.labels) {
      return Invalid(src, absl::StrCat("run with other --task or --labels "
                                       "than ",
                                       sources[0]));
    }
    if (b.shard_count != a.shard_count) {
      return Invalid(src,
                     absl::StrCat("split into ", b.shard_count,
                                  " shards, the others into ", a.shard_count));
    }
    for (int k : b.shards) {
      if (!shards.insert(k).second) {
        return Invalid(src, absl::StrCat("shard ", k, "/", b.shard_count,
                                         " is already in the merge"));
      }
    }
    out.samples += parts[i].samples;
    if (i > 0) {
      absl::Status s = MergeSums(parts[i].sums, out.sums);
      if (!s.ok()) return Invalid(src, std::string(s.message()));
    }
  }
  if (out.samples > a.total_samples) {
    return Invalid(sources[0], absl::StrCat("the shards saw ", out.samples,
                                            " samples, more than the ",
                                            a.total_samples, " of the report"));
  }
  out.fingerprint.shards.assign(shards.begin(), shards.end());
  return out;
}

std::string NumericsFingerprint(const numerics::Modes& m) {
  return absl::StrCat("rounding ", static_cast<int>(m.rounding),
                      ", arithmetic ", static_cast<int>(m.arithmetic));
}

std::vector<int> MissingShards(const PartialReport& partial) {
  std::vector<int> missing;
  const std::vector<int>& have = partial.fingerprint.shards;
  for (int k = 0; k < partial.fingerprint.shard_count; ++k) {
    if (std::find(have.begin(), have.end(), k) == have.end())
      missing.push_back(k);
  }
  return missing;
}

}  // namespace qforge::report

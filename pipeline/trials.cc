// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/trials.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <system_error>
#include <thread>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "calibration/stats_file.h"
#include "formats/tflite_reader.h"
#include "formats/tflite_writer.h"
#include "nlohmann/json.hpp"
#include "report/partial.h"
#include "report/task_kind.h"

namespace qforge::pipeline {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr char kTrialFormat[] = "qforge-trial";
constexpr auto kPoll = std::chrono::milliseconds(100);

std::string TrialName(int trial) {
  return absl::StrFormat("trial-%03d", trial);
}

std::string ShardFile(const std::string& dir, const std::string& trial, int k,
                      const char* ext) {
  return absl::StrCat(dir, "/", trial, ".", k, ext);
}

std::string ReadText(const std::string& path) {
  absl::StatusOr<std::vector<uint8_t>> bytes = ReadFileBytes(path);
  return bytes.ok() ? std::string(bytes->begin(), bytes->end()) : "";
}

// What a worker needs of one trial.
struct TrialSpec {
  std::string name;            // "trial-007"
  std::string candidate;       // file name in the folder
  std::string candidate_hash;  // calibration::HashBytes of it
  std::string float_model_hash;
  int shard_count = 1;
  std::vector<int64_t> check;
  // How the report judges the outputs (--task, --labels).
  std::vector<std::string> tasks;
  std::vector<int64_t> labels;
  std::string labels_fingerprint;
};

absl::StatusOr<TrialSpec> ParseTrial(const std::string& path) {
  const json j = json::parse(ReadText(path), nullptr, false);
  if (j.is_discarded() || !j.is_object() ||
      j.value("format", "") != kTrialFormat || j.value("version", 0) != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not a trial file (qforge-trial version 1)"));
  }
  TrialSpec t;
  try {
    t.name = j.at("trial").get<std::string>();
    t.candidate = j.at("candidate").get<std::string>();
    t.candidate_hash = j.at("candidate_hash").get<std::string>();
    t.float_model_hash = j.at("float_model_hash").get<std::string>();
    t.shard_count = j.at("shard_count").get<int>();
    t.check = j.at("check").get<std::vector<int64_t>>();
    t.tasks = j.value("tasks", std::vector<std::string>{});
    t.labels = j.value("labels", std::vector<int64_t>{});
    t.labels_fingerprint = j.value("labels_fingerprint", std::string());
  } catch (const json::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": damaged trial file: ", e.what()));
  }
  return t;
}

}  // namespace

absl::StatusOr<TrialsDir> TrialsDir::Open(const std::string& dir, int shards,
                                          std::string float_model_hash,
                                          const Hooks& hooks) {
  if (shards < 1) {
    return absl::InvalidArgumentError("--trial-shards must be >= 1");
  }
  std::error_code ec;
  fs::create_directory(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    return absl::FailedPreconditionError(absl::StrCat(
        dir, ": cannot create the trials folder",
        ec ? absl::StrCat(" (", ec.message(), ")") : std::string()));
  }
  // An earlier search's files: its workers' results must not be taken for
  // this one's.
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name == "done" || absl::StartsWith(name, "trial-"))
      fs::remove(e.path(), ec);
  }
  TrialsDir t;
  t.dir_ = dir;
  t.shards_ = shards;
  t.float_model_hash_ = std::move(float_model_hash);
  t.hooks_ = hooks;
  t.open_ = true;
  return t;
}

TrialsDir::~TrialsDir() {
  if (!open_) return;
  // Best effort: without it, workers stop after their idle time.
  (void)WriteFileAtomic(dir_ + "/done", absl::string_view("done\n"));
}

absl::StatusOr<report::Report> TrialsDir::Evaluate(
    const ir::Model& float_model, const ir::Model& candidate,
    const formats::SampleSource& data, const report::ReportOptions& options) {
  const std::string trial = TrialName(next_++);
  ASSIGN_OR_RETURN(
      const std::vector<uint8_t> bytes,
      formats::SerializeTflite(candidate, formats::WriteOptions()));
  const std::string hash = calibration::HashBytes(bytes.data(), bytes.size());
  // The model as the workers will read it.
  ASSIGN_OR_RETURN(const ir::Model read,
                   formats::ParseTflite(bytes, trial + ".tflite"));
  RETURN_IF_ERROR(WriteFileAtomic(dir_ + "/" + trial + ".tflite",
                                  absl::Span<const uint8_t>(bytes)));
  json spec = {
      {"format", kTrialFormat}, {"version", 1},
      {"trial", trial},         {"candidate", trial + ".tflite"},
      {"candidate_hash", hash}, {"float_model_hash", float_model_hash_},
      {"shard_count", shards_}, {"check", options.samples}};
  if (!options.tasks.empty() || !options.labels.empty()) {
    std::vector<std::string> tasks;
    for (const report::TaskOverride& o : options.tasks) {
      tasks.push_back(
          absl::StrCat(o.output, "=", report::TaskKindName(o.kind)));
    }
    spec["tasks"] = tasks;
    spec["labels"] = options.labels;
    spec["labels_fingerprint"] = options.labels_fingerprint;
  }
  RETURN_IF_ERROR(
      WriteFileAtomic(dir_ + "/" + trial + ".json", spec.dump() + "\n"));

  std::vector<std::string> parts;
  for (int k = 0; k < shards_; ++k)
    parts.push_back(ShardFile(dir_, trial, k, ".part"));
  const auto start = std::chrono::steady_clock::now();
  bool noted = false;
  for (;;) {
    int have = 0;
    for (int k = 0; k < shards_; ++k) {
      const std::string error = ShardFile(dir_, trial, k, ".error");
      if (fs::exists(error)) {
        return absl::InternalError(absl::StrCat(
            error, ": the worker of shard ", k, " failed: ", ReadText(error)));
      }
      have += fs::exists(parts[static_cast<size_t>(k)]) ? 1 : 0;
    }
    if (have == shards_) break;
    if (!noted &&
        std::chrono::steady_clock::now() - start > std::chrono::seconds(10)) {
      noted = true;
      hooks_.Note(absl::StrCat("target-sqnr: waiting for ", shards_ - have,
                               " of ", shards_, " shards of ", dir_, "/", trial,
                               " (qforge eval-trial ... --trials-dir ", dir_,
                               " --shard K/", shards_, ")"));
    }
    std::this_thread::sleep_for(kPoll);
  }
  std::vector<report::PartialReport> read_parts;
  for (const std::string& p : parts) {
    ASSIGN_OR_RETURN(report::PartialReport part, report::ReadPartialFile(p));
    read_parts.push_back(std::move(part));
  }
  ASSIGN_OR_RETURN(report::PartialReport merged,
                   report::MergePartials(read_parts, parts));
  const report::PartialFingerprint& f = merged.fingerprint;
  ASSIGN_OR_RETURN(const std::string data_hash, data.Fingerprint());
  std::string wrong;
  if (f.float_model_hash != float_model_hash_) wrong = "float model";
  if (f.quant_model_hash != hash) wrong = "candidate model";
  if (f.data_hash != data_hash) wrong = "data set";
  if (f.numerics != report::NumericsFingerprint(options.numerics))
    wrong = "numerics (--rounding, --arithmetic)";
  if (f.total_samples != static_cast<int64_t>(options.samples.size()) ||
      !report::MissingShards(merged).empty()) {
    wrong = "check samples";
  }
  if (!wrong.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        parts[0], ": the workers ran another ", wrong,
        " than the search (give eval-trial the model and --data flags of "
        "quantize)"));
  }
  ASSIGN_OR_RETURN(report::Report r,
                   report::FinishReport(float_model, read, merged.sums,
                                        merged.samples, options));
  r.data_fingerprint = data_hash;
  return r;
}

absl::Status ServeTrials(const ir::Model& float_model,
                         absl::Span<const uint8_t> float_bytes,
                         const DataSpec& data, const TrialWorker& worker,
                         const Hooks& hooks) {
  const std::string float_hash =
      calibration::HashBytes(float_bytes.data(), float_bytes.size());
  ASSIGN_OR_RETURN(formats::SampleSource source,
                   OpenData(data, float_model, hooks));
  // Workers may start before the search has made the folder.
  std::error_code made;
  fs::create_directory(worker.dir, made);
  const fs::file_time_type started = fs::file_time_type::clock::now();
  auto last_work = std::chrono::steady_clock::now();
  const std::string& dir = worker.dir;
  for (;;) {
    std::error_code ec;
    std::vector<std::string> trials;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
      const std::string name = e.path().filename().string();
      if (absl::StartsWith(name, "trial-") && absl::EndsWith(name, ".json"))
        trials.push_back(name.substr(0, name.size() - 5));
    }
    if (ec) {
      return absl::FailedPreconditionError(
          absl::StrCat(dir, ": cannot list the trials folder: ", ec.message()));
    }
    std::sort(trials.begin(), trials.end());
    bool worked = false;
    for (const std::string& name : trials) {
      const std::string part =
          ShardFile(dir, name, worker.shard_index, ".part");
      const std::string error =
          ShardFile(dir, name, worker.shard_index, ".error");
      if (fs::exists(part) || fs::exists(error)) continue;
      worked = true;
      absl::Status s = [&]() -> absl::Status {
        ASSIGN_OR_RETURN(const TrialSpec t,
                         ParseTrial(dir + "/" + name + ".json"));
        if (t.shard_count != worker.shard_count) {
          return absl::InvalidArgumentError(
              absl::StrCat("the search splits trials into ", t.shard_count,
                           " shards, this worker was given --shard ",
                           worker.shard_index, "/", worker.shard_count));
        }
        if (t.float_model_hash != float_hash) {
          return absl::InvalidArgumentError(
              "this worker's float model is not the search's");
        }
        ASSIGN_OR_RETURN(formats::ModelFile candidate,
                         formats::OpenTfliteFile(dir + "/" + t.candidate));
        const absl::Span<const uint8_t> bytes = candidate.bytes();
        report::ReportOptions o;
        o.threads = worker.threads;
        o.numerics = worker.numerics;
        o.samples = t.check;
        o.shard_index = worker.shard_index;
        o.shard_count = worker.shard_count;
        o.histogram_layers = 0;
        for (const std::string& task : t.tasks) {
          ASSIGN_OR_RETURN(report::TaskOverride over,
                           report::ParseTaskOverride(task));
          o.tasks.push_back(std::move(over));
        }
        o.labels = t.labels;
        o.labels_fingerprint = t.labels_fingerprint;
        ASSIGN_OR_RETURN(
            report::ReportSums sums,
            report::AccumulateReport(float_model, candidate.model, source, o));
        report::PartialReport p;
        report::PartialFingerprint& f = p.fingerprint;
        f.float_model_hash = float_hash;
        f.quant_model_hash = calibration::HashBytes(bytes.data(), bytes.size());
        ASSIGN_OR_RETURN(f.data_hash, source.Fingerprint());
        f.tool_version = QFORGE_VERSION;
        f.numerics = report::NumericsFingerprint(worker.numerics);
        f.total_samples = static_cast<int64_t>(t.check.size());
        f.shard_count = worker.shard_count;
        f.shards = {worker.shard_index};
        p.float_model = "float model";
        p.quant_model = t.candidate;
        for (int64_t i = worker.shard_index; i < f.total_samples;
             i += worker.shard_count)
          ++p.samples;
        p.sums = std::move(sums);
        return WriteFileAtomic(part, report::SerializePartial(p));
      }();
      if (!s.ok()) {
        hooks.Note(absl::StrCat("eval-trial: ", name, ": ", s.message()));
        RETURN_IF_ERROR(
            WriteFileAtomic(error, absl::StrCat(s.message(), "\n")));
      } else {
        hooks.Note(absl::StrCat("eval-trial: ", name, " shard ",
                                worker.shard_index, "/", worker.shard_count,
                                " done"));
      }
    }
    const auto now = std::chrono::steady_clock::now();
    if (worked) {
      last_work = now;
      continue;
    }
    const std::string done = dir + "/done";
    if (fs::exists(done) && fs::last_write_time(done, ec) >= started && !ec)
      return absl::OkStatus();
    if (now - last_work > std::chrono::duration<double>(worker.idle_seconds)) {
      hooks.Note(absl::StrCat("eval-trial: nothing new in ", dir, " for ",
                              worker.idle_seconds, " s: stopping"));
      return absl::OkStatus();
    }
    std::this_thread::sleep_for(kPoll);
  }
}

}  // namespace qforge::pipeline

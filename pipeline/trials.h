// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The target search's trials evaluated by other processes (quantize
// --target-sqnr --trials-dir DIR, qforge eval-trial): the search writes
// each candidate model and a trial file into DIR; workers, any number of
// processes on any machines that see DIR (GNU parallel, a Slurm array),
// each evaluate one shard of every trial's check samples (report --shard's
// sums) and write a partial report; the search merges the shards into the
// trial's report, which is the report one process computes (exact sums),
// so the same plan and the same bytes come out. Files appear atomically
// (written to a temporary name, then renamed), so readers never see half
// a file. A worker's failure is a file too, which the search reports.
//   DIR/trial-NNN.tflite     the candidate
//   DIR/trial-NNN.json       the trial: its check samples, shard count and
//                            the fingerprints the workers must match
//   DIR/trial-NNN.K.part     shard K's partial report (docs/report-partial.md)
//   DIR/trial-NNN.K.error    or why shard K failed
//   DIR/done                 the search has ended: workers exit
#ifndef QFORGE_PIPELINE_TRIALS_H_
#define QFORGE_PIPELINE_TRIALS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "formats/data/data_source.h"
#include "ir/model.h"
#include "pipeline/data_spec.h"
#include "pipeline/hooks.h"
#include "report/report.h"

namespace qforge::pipeline {

// The search's side.
class TrialsDir {
 public:
  // Creates DIR (its parent must exist) and removes the files of an
  // earlier search from it. `float_model_hash`: of the float model file.
  static absl::StatusOr<TrialsDir> Open(const std::string& dir, int shards,
                                        std::string float_model_hash,
                                        const Hooks& hooks);
  TrialsDir(TrialsDir&&) = default;
  TrialsDir& operator=(TrialsDir&&) = default;
  ~TrialsDir();  // writes DIR/done

  // The report of `candidate` against `float_model` on the samples
  // `options.samples` of `data`, by the workers; waits for them.
  absl::StatusOr<report::Report> Evaluate(const ir::Model& float_model,
                                          const ir::Model& candidate,
                                          const formats::SampleSource& data,
                                          const report::ReportOptions& options);

 private:
  TrialsDir() = default;
  std::string dir_;
  int shards_ = 1;
  std::string float_model_hash_;
  Hooks hooks_;
  int next_ = 0;
  bool open_ = false;
};

// The worker's side (qforge eval-trial): evaluates shard K of N of every
// trial in `dir` that has none yet, until DIR/done appears (a done file
// older than the worker is an earlier search's) or nothing new came for
// `idle_seconds`.
struct TrialWorker {
  std::string dir;
  int shard_index = 0, shard_count = 1;
  int threads = 0;
  numerics::Modes numerics;
  double idle_seconds = 600;
};
absl::Status ServeTrials(const ir::Model& float_model,
                         absl::Span<const uint8_t> float_bytes,
                         const DataSpec& data, const TrialWorker& worker,
                         const Hooks& hooks);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_TRIALS_H_

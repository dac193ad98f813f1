// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// quantize --eval-cmd, the precision search's side: each candidate model
// the search would accept is written to a temp folder and scored by the
// user's command (pipeline/eval_command.h), within --eval-budget runs. A
// candidate with the same bytes as one scored before takes that score
// without a run. The folder and its files go when the evaluator does, and
// on SIGINT, SIGTERM and SIGHUP, which also kill a command running then.
#ifndef QFORGE_PIPELINE_CANDIDATE_EVAL_H_
#define QFORGE_PIPELINE_CANDIDATE_EVAL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pipeline/eval_command.h"
#include "pipeline/hooks.h"

namespace qforge::pipeline {

// One run of the command.
struct EvalRun {
  int candidate = 0;  // 1, 2, ...: the runs in order
  std::string label;  // what the candidate raised ("as asked", "op 12 ...")
  double score = 0;
  bool accepted = false;
};

struct EvalVerdict {
  double score = 0;
  bool accepted = false;
  int candidate = 0;  // the run that scored these bytes
};

class CandidateEvaluator {
 public:
  // Makes the temp folder (in $TMPDIR, else /tmp). The settings are
  // checked already (pipeline/quantize.cc).
  static absl::StatusOr<std::unique_ptr<CandidateEvaluator>> Create(
      const EvalSettings& settings, const Hooks& hooks);
  ~CandidateEvaluator();
  CandidateEvaluator(const CandidateEvaluator&) = delete;
  CandidateEvaluator& operator=(const CandidateEvaluator&) = delete;

  // The score of the model `bytes`; nullopt when that needs a run and the
  // budget is spent. A command that fails, times out or prints no number
  // is an error naming the candidate.
  absl::StatusOr<std::optional<EvalVerdict>> Evaluate(
      absl::Span<const uint8_t> bytes, const std::string& label);

  bool Spent() const {
    return static_cast<int>(runs_.size()) >= settings_.budget;
  }
  const std::vector<EvalRun>& runs() const { return runs_; }

 private:
  CandidateEvaluator(const EvalSettings& settings, const Hooks& hooks,
                     std::string dir);
  bool Accepted(double score) const;

  EvalSettings settings_;
  Hooks hooks_;
  std::string dir_;
  std::vector<EvalRun> runs_;
  std::map<std::string, EvalVerdict> scored_;  // by the bytes' hash
};

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_CANDIDATE_EVAL_H_

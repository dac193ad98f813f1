// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/candidate_eval.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "calibration/stats_file.h"

namespace qforge::pipeline {
namespace {

// What a signal that ends qforge must clean up: the command running, the
// candidate file and the folder. The handler may only make async-signal-
// safe calls, so the paths are fixed arrays guarded by flags.
constexpr size_t kMaxEvalPath = 4096;
char eval_dir[kMaxEvalPath];
char eval_file[kMaxEvalPath];
std::atomic<bool> eval_dir_set{false};
std::atomic<bool> eval_file_set{false};
constexpr int kEvalSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction eval_previous[3];
bool eval_installed[3] = {false, false, false};

void OnEvalSignal(int sig, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  const int group = RunningCommandGroup();
  if (group > 0) {
    ::kill(-group, SIGKILL);
    ::kill(group, SIGKILL);
    // Reaped here (qforge is their subreaper, eval_command.cc), a second at
    // most: once qforge is gone they would be left to init.
    for (int i = 0; i < 200; ++i) {
      int status = 0;
      while (::waitpid(-group, &status, WNOHANG) > 0) {
      }
      if (::kill(-group, 0) != 0 && errno == ESRCH) break;
      const struct timespec pause = {0, 5000000};
      ::nanosleep(&pause, nullptr);
    }
  }
  if (eval_file_set.load()) ::unlink(eval_file);
  if (eval_dir_set.load()) ::rmdir(eval_dir);
  // Then whatever handled the signal before (base/file_io.h's cleanup,
  // which ends the process), or the default action.
  for (int i = 0; i < 3; ++i) {
    if (kEvalSignals[i] != sig) continue;
    const struct sigaction& old = eval_previous[i];
    if ((old.sa_flags & SA_SIGINFO) != 0) {
      if (old.sa_sigaction != nullptr) old.sa_sigaction(sig, info, context);
    } else if (old.sa_handler == SIG_DFL) {
      ::signal(sig, SIG_DFL);
      ::raise(sig);
    } else if (old.sa_handler != SIG_IGN) {
      old.sa_handler(sig);
    }
  }
  errno = saved_errno;
}

void InstallEvalCleanup() {
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_sigaction = OnEvalSignal;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  for (int i = 0; i < 3; ++i) {
    struct sigaction old;
    if (::sigaction(kEvalSignals[i], nullptr, &old) != 0) continue;
    // A signal the caller ignores (nohup) stays ignored.
    if ((old.sa_flags & SA_SIGINFO) == 0 && old.sa_handler == SIG_IGN) {
      continue;
    }
    eval_previous[i] = old;
    eval_installed[i] = ::sigaction(kEvalSignals[i], &action, nullptr) == 0;
  }
}

void RemoveEvalCleanup() {
  for (int i = 0; i < 3; ++i) {
    if (eval_installed[i])
      ::sigaction(kEvalSignals[i], &eval_previous[i], nullptr);
    eval_installed[i] = false;
  }
}

bool SetPath(char* dest, const std::string& path) {
  if (path.size() >= kMaxEvalPath) return false;
  std::memcpy(dest, path.c_str(), path.size() + 1);
  return true;
}

std::string TempRoot() {
  const char* env = std::getenv("TMPDIR");
  return env != nullptr && env[0] != '\0' ? env : "/tmp";
}

absl::Status WriteCandidate(const std::string& path,
                            absl::Span<const uint8_t> bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    return absl::UnavailableError(
        absl::StrCat(path, ": cannot write: ", std::strerror(errno)));
  }
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const bool closed = std::fclose(f) == 0;
  if (!ok || !closed) {
    return absl::UnavailableError(absl::StrCat(path, ": cannot write"));
  }
  return absl::OkStatus();
}

// The last line of `text` for a one-line message, cut to `limit`.
std::string Quoted(const std::string& text, size_t limit = 200) {
  std::string line = LastLine(text);
  if (line.size() > limit) line = line.substr(0, limit) + "...";
  return absl::StrCat("'", line, "'");
}

}  // namespace

absl::StatusOr<std::unique_ptr<CandidateEvaluator>> CandidateEvaluator::Create(
    const EvalSettings& settings, const Hooks& hooks) {
  std::string pattern = TempRoot() + "/qforge-eval-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    return absl::UnavailableError(
        absl::StrCat("--eval-cmd: cannot make a temp folder in ", TempRoot(),
                     ": ", std::strerror(errno)));
  }
  return std::unique_ptr<CandidateEvaluator>(
      new CandidateEvaluator(settings, hooks, std::move(pattern)));
}

CandidateEvaluator::CandidateEvaluator(const EvalSettings& settings,
                                       const Hooks& hooks, std::string dir)
    : settings_(settings), hooks_(hooks), dir_(std::move(dir)) {
  eval_dir_set.store(SetPath(eval_dir, dir_));
  InstallEvalCleanup();
}

CandidateEvaluator::~CandidateEvaluator() {
  std::error_code ec;
  // The command may have left files of its own next to the candidate.
  std::filesystem::remove_all(dir_, ec);
  RemoveEvalCleanup();
  eval_dir_set.store(false);
}

bool CandidateEvaluator::Accepted(double score) const {
  return std::isnan(settings_.max) ? score >= settings_.min
                                   : score <= settings_.max;
}

absl::StatusOr<std::optional<EvalVerdict>> CandidateEvaluator::Evaluate(
    absl::Span<const uint8_t> bytes, const std::string& label) {
  const std::string key = absl::StrCat(
      calibration::HashBytes(bytes.data(), bytes.size()), ":", bytes.size());
  auto verdict_text = [&](const EvalVerdict& v) {
    const char* op = std::isnan(settings_.max) ? (v.accepted ? ">=" : "<")
                                               : (v.accepted ? "<=" : ">");
    return absl::StrFormat(
        "%.6g (%s, %s %g)", v.score, v.accepted ? "accept" : "reject", op,
        std::isnan(settings_.max) ? settings_.min : settings_.max);
  };
  if (auto it = scored_.find(key); it != scored_.end()) {
    hooks_.Note(absl::StrCat("eval-cmd: ", label, ": the model of candidate ",
                             it->second.candidate, ": ",
                             verdict_text(it->second)));
    return std::optional<EvalVerdict>(it->second);
  }
  if (Spent()) return std::optional<EvalVerdict>();
  const int candidate = static_cast<int>(runs_.size()) + 1;
  const std::string path =
      absl::StrFormat("%s/candidate-%03d.tflite", dir_, candidate);
  eval_file_set.store(SetPath(eval_file, path));
  absl::Status written = WriteCandidate(path, bytes);
  absl::StatusOr<CommandRun> ran =
      written.ok() ? RunShellCommand(SubstituteModel(settings_.cmd, path),
                                     settings_.timeout)
                   : absl::StatusOr<CommandRun>(written);
  ::unlink(path.c_str());
  eval_file_set.store(false);
  const std::string who =
      absl::StrCat("--eval-cmd failed on candidate ", candidate, " (", label,
                   "): '", settings_.cmd, "'");
  if (!ran.ok()) {
    return absl::Status(ran.status().code(),
                        absl::StrCat(who, ": ", ran.status().message()));
  }
  std::string why;
  if (ran->timed_out) {
    why = absl::StrFormat(
        " did not finish within --eval-timeout %g s; its process group was "
        "killed",
        settings_.timeout);
  } else if (ran->signal != 0) {
    why = absl::StrCat(" was killed by signal ", ran->signal, " (",
                       strsignal(ran->signal), ")");
  } else if (ran->exit_code != 0) {
    why = absl::StrCat(" exited with status ", ran->exit_code);
  }
  std::optional<double> score;
  if (why.empty()) {
    score = ParseScore(ran->out);
    if (!score.has_value()) {
      why = LastLine(ran->out).empty()
                ? " printed nothing on stdout (the score goes alone on its "
                  "last line)"
                : absl::StrCat(
                      " printed no number on the last line of its stdout: ",
                      Quoted(ran->out));
    }
  }
  if (!why.empty()) {
    // The command's own words, for the user to debug it.
    std::vector<std::string> lines;
    for (absl::string_view l : absl::StrSplit(ran->err_tail, '\n')) {
      if (!LastLine(std::string_view(l.data(), l.size())).empty()) {
        lines.emplace_back(l);
      }
    }
    const size_t from = lines.size() > 5 ? lines.size() - 5 : 0;
    for (size_t i = from; i < lines.size(); ++i) {
      hooks_.Note(absl::StrCat("eval-cmd: stderr: ", lines[i]));
    }
    if (!lines.empty()) {
      absl::StrAppend(&why, "; its stderr ended: ", Quoted(ran->err_tail));
    }
    return absl::AbortedError(absl::StrCat(who, why));
  }
  EvalVerdict v;
  v.score = *score;
  v.accepted = Accepted(*score);
  v.candidate = candidate;
  runs_.push_back({candidate, label, v.score, v.accepted});
  scored_[key] = v;
  hooks_.Note(absl::StrCat("eval-cmd: candidate ", candidate, " (", label,
                           "): ", verdict_text(v)));
  return std::optional<EvalVerdict>(v);
}

}  // namespace qforge::pipeline

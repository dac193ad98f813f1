// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/eval_command.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace qforge::pipeline {
namespace {

std::atomic<int> running_group{0};
static_assert(std::atomic<int>::is_always_lock_free);

constexpr size_t kOutKept = 64 * 1024;
constexpr size_t kErrKept = 4 * 1024;
constexpr int kPollMs = 100;
// After SIGTERM (timeout), or once the shell has exited, this long for the
// rest to end and the pipes to close.
constexpr double kGraceSeconds = 1.0;

// Appends `n` bytes to `buf`, which keeps about its last `kept` bytes.
void Append(std::string& buf, const char* data, size_t n, size_t kept) {
  buf.append(data, n);
  if (buf.size() > 2 * kept) buf.erase(0, buf.size() - kept);
}

void TrimTo(std::string& buf, size_t kept) {
  if (buf.size() > kept) buf.erase(0, buf.size() - kept);
}

// Whether `pid` has ended, leaving it a zombie: its pid (the group's id)
// cannot be reused until it is reaped, so killing the group stays safe.
bool Ended(pid_t pid) {
  siginfo_t info;
  std::memset(&info, 0, sizeof(info));
  if (::waitid(P_PID, static_cast<id_t>(pid), &info,
               WEXITED | WNOHANG | WNOWAIT) != 0) {
    return errno != EINTR;
  }
  return info.si_pid == pid;
}

// The group, and the leader in case it has not made its session yet.
void KillGroup(pid_t pid, int sig) {
  ::kill(-pid, sig);
  ::kill(pid, sig);
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since)
      .count();
}

// Waits (a grace period at most) until the group `pgid`, killed, is gone,
// reaping those of its members that are qforge's children: as a subreaper
// qforge inherits the orphans, so none is left a zombie.
void ReapGroup(pid_t pgid) {
  const auto start = std::chrono::steady_clock::now();
  while (Seconds(start) < kGraceSeconds) {
    int status = 0;
    while (::waitpid(-pgid, &status, WNOHANG) > 0) {
    }
    if (::kill(-pgid, 0) != 0 && errno == ESRCH) return;
    ::poll(nullptr, 0, 5);
  }
}

std::string_view Trim(std::string_view s) {
  const char* space = " \t\r\n\v\f";
  const size_t b = s.find_first_not_of(space);
  if (b == std::string_view::npos) return {};
  const size_t e = s.find_last_not_of(space);
  return s.substr(b, e - b + 1);
}

// In the child between fork and exec: async-signal-safe calls only.
[[noreturn]] void ExecShell(const char* const argv[], int out, int err) {
  ::setsid();
  const int null = ::open("/dev/null", O_RDONLY);
  if (null >= 0) ::dup2(null, 0);
  ::dup2(out, 1);
  ::dup2(err, 2);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  // qforge's own files (the pending output among them) are not the
  // command's business.
  ::close_range(3, ~0U, 0);
  ::execv("/bin/sh", const_cast<char* const*>(argv));
  _exit(127);
}

}  // namespace

std::string ShellQuote(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string SubstituteModel(std::string_view cmd, std::string_view path) {
  constexpr std::string_view kModel = "{model}";
  const std::string quoted = ShellQuote(path);
  std::string out;
  size_t at = 0;
  for (size_t hit; (hit = cmd.find(kModel, at)) != std::string_view::npos;
       at = hit + kModel.size()) {
    out.append(cmd.substr(at, hit - at));
    out.append(quoted);
  }
  out.append(cmd.substr(at));
  return out;
}

std::string LastLine(std::string_view text) {
  while (!text.empty()) {
    const size_t nl = text.find_last_of('\n', text.size() - 1);
    const std::string_view line =
        nl == std::string_view::npos ? text : text.substr(nl + 1);
    if (!Trim(line).empty()) return std::string(Trim(line));
    if (nl == std::string_view::npos) break;
    text = text.substr(0, nl);
  }
  return "";
}

std::optional<double> ParseScore(std::string_view out) {
  const std::string line = LastLine(out);
  if (line.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(line.c_str(), &end);
  if (end != line.c_str() + line.size() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

int RunningCommandGroup() { return running_group.load(); }

absl::StatusOr<CommandRun> RunShellCommand(const std::string& command,
                                           double timeout_seconds) {
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    return absl::UnavailableError(
        absl::StrCat("--eval-cmd: pipe: ", std::strerror(errno)));
  }
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    const int e = errno;
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return absl::UnavailableError(
        absl::StrCat("--eval-cmd: pipe: ", std::strerror(e)));
  }
  const char* const argv[] = {"sh", "-c", command.c_str(), nullptr};
  // While it runs, what the command leaves behind comes to qforge to reap,
  // not to init (which may not reap).
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  const pid_t pid = ::fork();
  if (pid == 0) ExecShell(argv, out_pipe[1], err_pipe[1]);
  const int fork_errno = errno;
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (pid < 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    return absl::UnavailableError(
        absl::StrCat("--eval-cmd: fork: ", std::strerror(fork_errno)));
  }
  running_group.store(pid);
  const auto start = std::chrono::steady_clock::now();
  CommandRun run;
  int fds[2] = {out_pipe[0], err_pipe[0]};
  bool ended = false;
  double ended_at = 0;
  char chunk[8192];
  while (true) {
    if (!ended && Ended(pid)) {
      ended = true;
      ended_at = Seconds(start);
      KillGroup(pid, SIGKILL);  // what it left running
    }
    if (ended && ((fds[0] < 0 && fds[1] < 0) ||
                  Seconds(start) - ended_at > kGraceSeconds)) {
      break;
    }
    if (!ended && Seconds(start) >= timeout_seconds) {
      run.timed_out = true;
      break;
    }
    pollfd polls[2];
    int n = 0;
    for (const int fd : fds) {
      if (fd >= 0) polls[n++] = {fd, POLLIN, 0};
    }
    if (::poll(polls, static_cast<nfds_t>(n), kPollMs) <= 0) continue;
    for (int i = 0; i < n; ++i) {
      if (polls[i].revents == 0) continue;
      const ssize_t got = ::read(polls[i].fd, chunk, sizeof(chunk));
      if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      const bool is_out = polls[i].fd == fds[0];
      if (got <= 0) {
        ::close(polls[i].fd);
        fds[is_out ? 0 : 1] = -1;
        continue;
      }
      Append(is_out ? run.out : run.err_tail, chunk, static_cast<size_t>(got),
             is_out ? kOutKept : kErrKept);
    }
  }
  if (run.timed_out) {
    KillGroup(pid, SIGTERM);
    const auto term = std::chrono::steady_clock::now();
    while (!Ended(pid) && Seconds(term) < kGraceSeconds) {
      ::poll(nullptr, 0, 20);
    }
    KillGroup(pid, SIGKILL);
  }
  for (const int fd : fds) {
    if (fd >= 0) ::close(fd);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ReapGroup(pid);
  running_group.store(0);
  ::prctl(PR_SET_CHILD_SUBREAPER, 0);
  if (!run.timed_out) {
    if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) run.signal = WTERMSIG(status);
  }
  TrimTo(run.out, kOutKept);
  TrimTo(run.err_tail, kErrKept);
  return run;
}

}  // namespace qforge::pipeline

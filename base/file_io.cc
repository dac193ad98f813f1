// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "base/file_io.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"

namespace qforge {
namespace {

absl::Status ErrnoError(absl::string_view what, const std::string& path) {
  return absl::UnavailableError(
      absl::StrCat(path, ": ", what, ": ", std::strerror(errno)));
}

// ---------------------------------------------------------------------------
// Named temp files to remove if a signal ends the process. The handler may
// only call async-signal-safe functions: the registry is a fixed array of
// paths, each guarded by a lock-free state.
constexpr int kSlots = 16;
constexpr size_t kMaxTempPath = 4096;
enum SlotState : int { kFree = 0, kFilling = 1, kActive = 2 };
std::atomic<int> slot_state[kSlots];
char slot_path[kSlots][kMaxTempPath];

static_assert(std::atomic<int>::is_always_lock_free);

int RegisterTemp(const std::string& path) {
  if (path.size() >= kMaxTempPath) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (slot_state[i].compare_exchange_strong(expected, kFilling)) {
      std::memcpy(slot_path[i], path.c_str(), path.size() + 1);
      slot_state[i].store(kActive);
      return i;
    }
  }
  return -1;  // more pending files than slots: removed on error only
}

void UnregisterTemp(int slot) {
  if (slot >= 0) slot_state[slot].store(kFree);
}

void RemoveTempsAndReraise(int sig) {
  for (int i = 0; i < kSlots; ++i) {
    if (slot_state[i].load() == kActive) ::unlink(slot_path[i]);
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

std::string Folder(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string Canonical(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::weakly_canonical(path, ec);
  return ec ? path : p.string();
}

// Gives the file behind `make(name)` a fresh name next to `path`,
// "<path>.qforge-tmp-<pid>-<n>", registered for cleanup before it exists
// so that no signal can leave it behind. `make` returns false with errno
// set; EEXIST tries the next name.
template <typename Make>
absl::Status MakeNamedTemp(const std::string& path, std::string* temp,
                           int* slot, Make make) {
  static std::atomic<int> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name =
        absl::StrCat(path, ".qforge-tmp-", ::getpid(), "-", counter++);
    *slot = RegisterTemp(name);
    if (make(name)) {
      *temp = std::move(name);
      return absl::OkStatus();
    }
    const int err = errno;
    UnregisterTemp(*slot);
    *slot = -1;
    if (err != EEXIST) {
      errno = err;
      return ErrnoError("cannot create a file in its folder", path);
    }
  }
  return absl::UnavailableError(
      absl::StrCat(path, ": cannot create a file in its folder"));
}

}  // namespace

absl::StatusOr<std::vector<uint8_t>> ReadFileBytes(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) {
      return absl::NotFoundError(absl::StrCat(path, ": no such file"));
    }
    return ErrnoError("cannot open", path);
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return absl::FailedPreconditionError(
        absl::StrCat(path, ": not a regular file"));
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      return ErrnoError("read failed", path);
    }
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  return bytes;
}

bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool SamePath(const std::string& a, const std::string& b) {
  return SameFile(a, b) || Canonical(a) == Canonical(b);
}

absl::StatusOr<PendingFile> PendingFile::Create(
    const std::string& path, absl::Span<const std::string> inputs) {
  for (const std::string& input : inputs) {
    if (!input.empty() && SamePath(path, input)) {
      return absl::FailedPreconditionError(absl::StrCat(
          path, ": refusing to overwrite an input file (", input, ")"));
    }
  }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    // Replacing a device or FIFO (-o /dev/stdout) would remove it.
    return absl::FailedPreconditionError(absl::StrCat(
        path, S_ISDIR(st.st_mode) ? ": is a folder; give a file name"
                                  : ": not a regular file; qforge writes "
                                    "files"));
  }
  PendingFile file;
  file.path_ = path;
  file.inputs_.assign(inputs.begin(), inputs.end());
#ifdef O_TMPFILE
  if (std::getenv("QFORGE_NAMED_TEMP") == nullptr) {
    file.fd_ =
        ::open(Folder(path).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
  }
#endif
  if (file.fd_ < 0) {
    int fd = -1;
    absl::Status s = MakeNamedTemp(
        path, &file.temp_, &file.slot_, [&fd](const std::string& name) {
          fd = ::open(name.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
                      0644);
          return fd >= 0;
        });
    if (!s.ok()) return s;
    file.fd_ = fd;
  }
  return file;
}

PendingFile::PendingFile(PendingFile&& other) noexcept {
  *this = std::move(other);
}

PendingFile& PendingFile::operator=(PendingFile&& other) noexcept {
  if (this != &other) {
    Discard();
    path_ = std::move(other.path_);
    temp_ = std::move(other.temp_);
    inputs_ = std::move(other.inputs_);
    fd_ = other.fd_;
    slot_ = other.slot_;
    other.fd_ = -1;
    other.slot_ = -1;
    other.temp_.clear();
  }
  return *this;
}

PendingFile::~PendingFile() { Discard(); }

void PendingFile::Discard() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
  UnregisterTemp(slot_);
  slot_ = -1;
}

absl::Status PendingFile::Write(absl::Span<const uint8_t> bytes) {
  if (fd_ < 0) return absl::FailedPreconditionError(path_ + ": not open");
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      absl::Status s = ErrnoError("write failed", path_);
      Discard();
      return s;
    }
    done += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

absl::Status PendingFile::Commit() {
  if (fd_ < 0) return absl::FailedPreconditionError(path_ + ": not open");
  // An input may have appeared at the path since Create (e.g. written by
  // an earlier output of the same run).
  for (const std::string& input : inputs_) {
    if (!input.empty() && SamePath(path_, input)) {
      Discard();
      return absl::FailedPreconditionError(absl::StrCat(
          path_, ": refusing to overwrite an input file (", input, ")"));
    }
  }
  if (::fsync(fd_) != 0) {
    absl::Status s = ErrnoError("write failed", path_);
    Discard();
    return s;
  }
  if (temp_.empty()) {
    // O_TMPFILE: give the file a name. linkat() cannot replace, so a new
    // output is linked at its path, and an existing one replaced through
    // a temp name and rename().
    const std::string self = absl::StrCat("/proc/self/fd/", fd_);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, path_.c_str(),
                 AT_SYMLINK_FOLLOW) == 0) {
      Discard();
      return absl::OkStatus();
    }
    if (errno != EEXIST) {
      absl::Status s = ErrnoError("cannot move the output into place", path_);
      Discard();
      return s;
    }
    absl::Status s =
        MakeNamedTemp(path_, &temp_, &slot_, [&self](const std::string& name) {
          return ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, name.c_str(),
                          AT_SYMLINK_FOLLOW) == 0;
        });
    if (!s.ok()) {
      Discard();
      return s;
    }
  }
  if (::close(fd_) != 0) {
    fd_ = -1;
    absl::Status s = ErrnoError("write failed", path_);
    Discard();
    return s;
  }
  fd_ = -1;
  if (::rename(temp_.c_str(), path_.c_str()) != 0) {
    absl::Status s = ErrnoError("cannot rename temp file into place", path_);
    Discard();
    return s;
  }
  temp_.clear();
  Discard();
  return absl::OkStatus();
}

absl::Status WriteFileAtomic(const std::string& path,
                             absl::Span<const absl::Span<const uint8_t>> chunks,
                             absl::Span<const std::string> inputs) {
  absl::StatusOr<PendingFile> file = PendingFile::Create(path, inputs);
  if (!file.ok()) return file.status();
  for (absl::Span<const uint8_t> chunk : chunks) {
    absl::Status s = file->Write(chunk);
    if (!s.ok()) return s;
  }
  return file->Commit();
}

void InstallTempFileCleanup() {
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = RemoveTempsAndReraise;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old;
    // A signal the caller ignores (nohup) stays ignored.
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN)
      continue;
    ::sigaction(sig, &action, nullptr);
  }
}

}  // namespace qforge

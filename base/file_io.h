// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Whole-file reads and atomic writes. Every output of qforge goes through
// PendingFile (or WriteFileAtomic, its one-call form): the bytes go to a
// file nobody sees until it is complete, which then takes the output's
// name in one step, so a failed or interrupted run never leaves a partial
// output, and no output is ever written over one of the run's inputs.
//
// Where the file system allows it (Linux, O_TMPFILE: ext4, xfs, btrfs,
// tmpfs) the file has no name while it is written, so even SIGKILL leaves
// nothing behind. Elsewhere it is "<output>.qforge-tmp-XXXXXX" in the
// output's folder, removed on error, and on SIGINT/SIGTERM/SIGHUP once
// InstallTempFileCleanup() has run. QFORGE_NAMED_TEMP=1 in the environment
// forces the named temp file (tests of the signal handler use it).
#ifndef QFORGE_BASE_FILE_IO_H_
#define QFORGE_BASE_FILE_IO_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace qforge {

absl::StatusOr<std::vector<uint8_t>> ReadFileBytes(const std::string& path);

// True when both paths exist and are the same file (same device and inode).
bool SameFile(const std::string& a, const std::string& b);

// True when `a` and `b` name the same file, existing or not: the same inode,
// or the same path once "." / ".." / symlinks of the existing part are
// resolved.
bool SamePath(const std::string& a, const std::string& b);

// An output being written. Create() checks that `path` can be written (its
// folder exists and is writable, it is not a folder) and is none of
// `inputs`; nothing appears at `path` before Commit().
class PendingFile {
 public:
  static absl::StatusOr<PendingFile> Create(
      const std::string& path, absl::Span<const std::string> inputs = {});
  PendingFile(PendingFile&& other) noexcept;
  PendingFile& operator=(PendingFile&& other) noexcept;
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  // Discards the file unless committed.
  ~PendingFile();

  absl::Status Write(absl::Span<const uint8_t> bytes);
  absl::Status Write(absl::string_view text) {
    return Write(absl::Span<const uint8_t>(
        reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  }
  // Flushes and moves the file into place (replacing what was there).
  absl::Status Commit();

  const std::string& path() const { return path_; }

 private:
  PendingFile() = default;
  void Discard();

  std::string path_;
  std::string temp_;  // the named temp file; empty for O_TMPFILE
  int fd_ = -1;
  int slot_ = -1;  // cleanup registry slot of temp_
  std::vector<std::string> inputs_;
};

// Writes `chunks` back to back into `path` atomically. Refuses (exit code
// 1) when `path` names the same file as any of `inputs`.
absl::Status WriteFileAtomic(const std::string& path,
                             absl::Span<const absl::Span<const uint8_t>> chunks,
                             absl::Span<const std::string> inputs = {});

inline absl::Status WriteFileAtomic(const std::string& path,
                                    absl::Span<const uint8_t> bytes,
                                    absl::Span<const std::string> inputs = {}) {
  const absl::Span<const uint8_t> chunks[] = {bytes};
  return WriteFileAtomic(path, chunks, inputs);
}

inline absl::Status WriteFileAtomic(const std::string& path,
                                    absl::string_view text,
                                    absl::Span<const std::string> inputs = {}) {
  return WriteFileAtomic(
      path,
      absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()),
                                text.size()),
      inputs);
}

// SIGINT, SIGTERM and SIGHUP remove the named temp files of writes in
// progress, then end the process as the signal would have. Call once, early
// in main().
void InstallTempFileCleanup();

}  // namespace qforge

#endif  // QFORGE_BASE_FILE_IO_H_

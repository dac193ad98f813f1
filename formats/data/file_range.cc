// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/file_range.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace qforge::formats {

absl::StatusOr<std::shared_ptr<const OpenFile>> OpenFile::Open(
    const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) {
      return absl::NotFoundError(absl::StrCat(path, ": no such file"));
    }
    if (errno == EMFILE || errno == ENFILE) {
      return absl::ResourceExhaustedError(
          absl::StrCat(path, ": cannot open: ", std::strerror(errno)));
    }
    return absl::UnavailableError(
        absl::StrCat(path, ": cannot open: ", std::strerror(errno)));
  }
  return std::shared_ptr<const OpenFile>(new OpenFile(fd, path));
}

OpenFile::~OpenFile() { ::close(fd_); }

absl::Status OpenFile::ReadAt(uint64_t offset, absl::Span<uint8_t> out) const {
  size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::pread(fd_, out.data() + done, out.size() - done,
                              static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return absl::UnavailableError(
          absl::StrCat(path_, ": read failed: ", std::strerror(errno)));
    }
    if (n == 0) {
      return absl::UnavailableError(absl::StrCat(
          path_,
          ": file is shorter than when it was opened (changed on disk?)"));
    }
    done += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

}  // namespace qforge::formats

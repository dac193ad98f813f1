// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Where tests find bundled data, the shared corpus and the qforge binary.
#ifndef QFORGE_TESTS_SUPPORT_TEST_PATHS_H_
#define QFORGE_TESTS_SUPPORT_TEST_PATHS_H_

#include <string>
#include <vector>

#include "ir/model.h"

namespace qforge::testing {

// testdata/ in the source tree.
std::string TestDataDir();
// ../shared/corpus next to the checkout; "" when absent.
std::string CorpusDir();
// The built qforge executable.
std::string QforgeBinary();

// Every file under `dir` (recursive) whose name ends in `suffix`, sorted.
std::vector<std::string> FindFiles(const std::string& dir,
                                   const std::string& suffix);

// A file's bytes as a string ("" when unreadable).
std::string ReadText(const std::string& path);
// The same bytes as a vector (empty when unreadable).
std::vector<uint8_t> ReadBytes(const std::string& path);

// The model at `path`, read with qforge's reader; a test failure (and an
// empty model) when it cannot be read.
ir::Model ReadModel(const std::string& path);

// `qforge quantize` of the bundled MNIST CNN on its ten digits (pixels
// scaled to [0, 1]) followed by `flags`.
std::string QuantizeMnistCommand(const std::string& flags);

// A fresh, empty temp directory for one test.
std::string MakeTempDir();

struct CommandResult {
  int exit_code = -1;
  std::string out, err;
};
// Runs `command` through /bin/sh, capturing stdout and stderr.
CommandResult RunCommand(const std::string& command);

// `report` (a `qforge report` command line without -o, --shard or
// --format) run whole with `whole_flags` into dir/one.json, and as shards
// 0/2 and 1/2 with `shard_flags` into dir/p.0 and dir/p.1, merged (in the
// order 1, 0 when `reversed`) into dir/merged.json. The JSON texts; a
// command that fails is a test failure.
struct WholeAndMerged {
  std::string one, merged;
};
WholeAndMerged ReportWholeAndMerged(const std::string& report,
                                    const std::string& whole_flags,
                                    const std::string& shard_flags,
                                    const std::string& dir, bool reversed);

}  // namespace qforge::testing

#endif  // QFORGE_TESTS_SUPPORT_TEST_PATHS_H_

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "tests/support/test_paths.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/file_io.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"

namespace qforge::testing {

namespace fs = std::filesystem;

std::string TestDataDir() { return QFORGE_TESTDATA_DIR; }

std::string CorpusDir() {
  if (const char* env = std::getenv("QFORGE_CORPUS_DIR")) return env;
  std::error_code ec;
  if (fs::is_directory(QFORGE_CORPUS_DIR, ec)) return QFORGE_CORPUS_DIR;
  return "";
}

std::string QforgeBinary() { return QFORGE_BINARY; }

std::string ReadText(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::vector<uint8_t> ReadBytes(const std::string& path) {
  absl::StatusOr<std::vector<uint8_t>> bytes = ReadFileBytes(path);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  return bytes.ok() ? *std::move(bytes) : std::vector<uint8_t>{};
}

ir::Model ReadModel(const std::string& path) {
  absl::StatusOr<std::vector<uint8_t>> bytes = ReadFileBytes(path);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  if (!bytes.ok()) return {};
  absl::StatusOr<ir::Model> m = formats::ParseTflite(*bytes, path);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *m : ir::Model{};
}

std::string QuantizeMnistCommand(const std::string& flags) {
  return QforgeBinary() + " quantize " + TestDataDir() +
         "/models/conv_fc_mnist.tflite --data '" + TestDataDir() +
         "/mnist/*.png' --scale 0.003921569 " + flags;
}

std::vector<std::string> FindFiles(const std::string& dir,
                                   const std::string& suffix) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const std::string path = it->path().string();
    if (it->is_regular_file() && path.size() >= suffix.size() &&
        path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0) {
      out.push_back(path);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string MakeTempDir() {
  std::string tmpl =
      (fs::temp_directory_path() / "qforge-test-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) return "";
  return tmpl;
}

CommandResult RunCommand(const std::string& command) {
  const std::string dir = MakeTempDir();
  const std::string out = dir + "/out", err = dir + "/err";
  const int status = std::system((command + " >" + out + " 2>" + err).c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  auto slurp = [](const std::string& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  result.out = slurp(out);
  result.err = slurp(err);
  fs::remove_all(dir);
  return result;
}

WholeAndMerged ReportWholeAndMerged(const std::string& report,
                                    const std::string& whole_flags,
                                    const std::string& shard_flags,
                                    const std::string& dir, bool reversed) {
  CommandResult r = RunCommand(report + " " + whole_flags +
                               " --format json -o " + dir + "/one.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (int k = 0; k < 2; ++k) {
    r = RunCommand(report + " " + shard_flags + " --shard " +
                   std::to_string(k) + "/2 -o " + dir + "/p." +
                   std::to_string(k));
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  const std::string a = dir + (reversed ? "/p.1" : "/p.0");
  const std::string b = dir + (reversed ? "/p.0" : "/p.1");
  r = RunCommand(QforgeBinary() + " merge-reports " + a + " " + b +
                 " --format json -o " + dir + "/merged.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return {ReadText(dir + "/one.json"), ReadText(dir + "/merged.json")};
}

}  // namespace qforge::testing

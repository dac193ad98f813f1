// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// PendingFile: nothing at the path before Commit, nothing left after a
// discard, inputs never replaced, unwritable paths refused at Create, and
// the same with the named temp file (QFORGE_NAMED_TEMP).
#include "base/file_io.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int Entries(const std::string& dir) {
  return static_cast<int>(
      std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

class PendingFileTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (GetParam()) {
      setenv("QFORGE_NAMED_TEMP", "1", 1);
    } else {
      unsetenv("QFORGE_NAMED_TEMP");
    }
    dir_ = testing::MakeTempDir();
  }
  void TearDown() override {
    unsetenv("QFORGE_NAMED_TEMP");
    fs::remove_all(dir_);
  }
  std::string dir_;
};

TEST_P(PendingFileTest, InvisibleUntilCommitThenReplaces) {
  const std::string path = dir_ + "/out.bin";
  {
    absl::StatusOr<PendingFile> f = PendingFile::Create(path);
    ASSERT_TRUE(f.ok()) << f.status();
    ASSERT_TRUE(f->Write("hello").ok());
    EXPECT_FALSE(fs::exists(path));
    EXPECT_EQ(Entries(dir_), GetParam() ? 1 : 0);  // the named temp file
    ASSERT_TRUE(f->Commit().ok());
  }
  EXPECT_EQ(Slurp(path), "hello");
  ASSERT_TRUE(WriteFileAtomic(path, absl::string_view("again")).ok());
  EXPECT_EQ(Slurp(path), "again");
  EXPECT_EQ(Entries(dir_), 1);
}

TEST_P(PendingFileTest, DiscardedWithoutCommitLeavesNothing) {
  {
    absl::StatusOr<PendingFile> f = PendingFile::Create(dir_ + "/out.bin");
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE(f->Write("partial").ok());
  }
  EXPECT_EQ(Entries(dir_), 0);
}

TEST_P(PendingFileTest, RefusesInputsFoldersAndMissingFolders) {
  const std::string input = dir_ + "/in.bin";
  std::ofstream(input) << "input";
  const std::string inputs[] = {input};
  absl::StatusOr<PendingFile> f =
      PendingFile::Create(dir_ + "/sub/../in.bin", inputs);
  EXPECT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find("refusing to overwrite"),
            std::string::npos);
  EXPECT_FALSE(PendingFile::Create(dir_).ok());  // a folder
  EXPECT_FALSE(PendingFile::Create(dir_ + "/missing/out.bin").ok());
  EXPECT_FALSE(PendingFile::Create("/dev/null").ok());  // not a file
  EXPECT_EQ(Slurp(input), "input");
  EXPECT_EQ(Entries(dir_), 1);
}

TEST(SamePathTest, ResolvesDotsAndMissingFiles) {
  const std::string dir = testing::MakeTempDir();
  EXPECT_TRUE(SamePath(dir + "/a/../b.txt", dir + "/b.txt"));
  EXPECT_TRUE(SamePath(dir + "/./b.txt", dir + "/b.txt"));
  EXPECT_FALSE(SamePath(dir + "/a.txt", dir + "/b.txt"));
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Temp, PendingFileTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Named" : "Unnamed";
                         });

}  // namespace
}  // namespace qforge

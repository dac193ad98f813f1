// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The layers' include graph (docs/architecture.md): data flows one way,
// formats -> ir -> runtime -> calibration -> quantizer -> report ->
// pipeline -> cmd, over the leaves numerics and base, so no library
// includes a header of a layer above it. report compares any two models
// and does not know the quantizer (pipeline explains what the quantizer
// did). Read from the sources, so a new upward include fails here, not in
// a later review.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/support/test_paths.h"

namespace qforge {
namespace {

namespace fs = std::filesystem;

// Each library folder and the project folders its sources may include.
const std::map<std::string, std::set<std::string>>& AllowedIncludes() {
  static const auto* allowed = [] {
    auto* a = new std::map<std::string, std::set<std::string>>;
    std::set<std::string> below;
    // In layer order; report is the one sibling rule: not the quantizer.
    for (const char* layer :
         {"numerics", "base", "ir", "formats", "runtime", "calibration",
          "quantizer", "report", "pipeline", "cmd"}) {
      below.insert(layer);
      (*a)[layer] = below;
    }
    (*a)["numerics"] = {"numerics"};
    (*a)["base"] = {"base"};
    (*a)["ir"] = {"base", "numerics", "ir"};
    (*a)["report"].erase("quantizer");
    return a;
  }();
  return *allowed;
}

std::string SourceDir() {
  return fs::path(testing::TestDataDir()).parent_path().string();
}

// "dir" of every `#include "dir/..."` in `path`, with its line number.
std::vector<std::pair<int, std::string>> ProjectIncludes(const fs::path& path) {
  static const std::regex kInclude(R"re(^\s*#\s*include\s+"([a-z_]+)/)re");
  std::vector<std::pair<int, std::string>> out;
  std::ifstream in(path);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::smatch m;
    if (std::regex_search(line, m, kInclude)) out.push_back({n, m[1].str()});
  }
  return out;
}

TEST(IncludeGraphTest, NoLibraryIncludesALayerAboveIt) {
  const std::string root = SourceDir();
  int files = 0;
  std::vector<std::string> upward;
  for (const auto& [layer, allowed] : AllowedIncludes()) {
    const fs::path dir = fs::path(root) / layer;
    ASSERT_TRUE(fs::is_directory(dir)) << dir;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      const std::string ext = entry.path().extension().string();
      if (ext != ".h" && ext != ".cc" && ext != ".def") continue;
      ++files;
      for (const auto& [line, target] : ProjectIncludes(entry.path())) {
        // Project folders only: third-party headers (absl/, nlohmann/, ...)
        // are not layers.
        if (AllowedIncludes().count(target) == 0 || allowed.count(target)) {
          continue;
        }
        upward.push_back(fs::relative(entry.path(), root).string() + ":" +
                         std::to_string(line) + " includes " + target + "/");
      }
    }
  }
  EXPECT_GT(files, 300);  // the tree was found and read
  EXPECT_TRUE(upward.empty()) << ::testing::PrintToString(upward);
}

// The rule itself: the report may not include the quantizer, the
// pipeline may include both, and nothing below cmd includes cmd.
TEST(IncludeGraphTest, RulesAreTheLayersOfTheArchitecture) {
  const auto& a = AllowedIncludes();
  EXPECT_EQ(a.at("report").count("quantizer"), 0u);
  EXPECT_EQ(a.at("pipeline").count("quantizer"), 1u);
  EXPECT_EQ(a.at("pipeline").count("report"), 1u);
  EXPECT_EQ(a.at("quantizer").count("report"), 0u);
  EXPECT_EQ(a.at("runtime").count("calibration"), 0u);
  for (const auto& [layer, allowed] : a) {
    if (layer != "cmd") {
      EXPECT_EQ(allowed.count("cmd"), 0u) << layer;
    }
    if (layer != "cmd" && layer != "pipeline") {
      EXPECT_EQ(allowed.count("pipeline"), 0u) << layer;
    }
  }
}

}  // namespace
}  // namespace qforge

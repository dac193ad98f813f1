// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// `inspect --json` succeeds on every corpus model and its op histogram
// matches the corpus catalogue (corpus/README.md, written by an independent
// tool): the total op count and every "OP×N" the catalogue lists.
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "base/file_io.h"
#include "cmd/model_summary.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

struct Expected {
  int64_t total = 0;
  std::map<std::string, int64_t> counts;  // "CONV_2D" or "custom:Name"
};

// Rows like: | `models/x/y.tflite` | ... | 7 ops: MAX_POOL_2D×2, ... | ...
std::map<std::string, Expected> ParseCatalogue(const std::string& path) {
  std::map<std::string, Expected> out;
  std::ifstream in(path);
  std::string line;
  const std::regex row(R"(^\| `([^`]+\.tflite)` \|)");
  const std::regex ops(R"(\| (\d+) ops: ([^|]*)\|)");
  const std::regex item(R"(([A-Za-z0-9_:.\-]+)×(\d+))");
  while (std::getline(in, line)) {
    std::smatch m, o;
    if (!std::regex_search(line, m, row)) continue;
    if (!std::regex_search(line, o, ops)) continue;
    Expected e;
    e.total = std::stoll(o[1]);
    const std::string list = o[2];
    for (auto it = std::sregex_iterator(list.begin(), list.end(), item);
         it != std::sregex_iterator(); ++it) {
      e.counts[(*it)[1]] = std::stoll((*it)[2]);
    }
    out.emplace(m[1], std::move(e));
  }
  return out;
}

TEST(InspectCorpusTest, EveryModelMatchesTheCatalogue) {
  const std::string corpus = testing::CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "../shared/corpus absent";
  const std::map<std::string, Expected> catalogue =
      ParseCatalogue(corpus + "/README.md");
  ASSERT_GT(catalogue.size(), 300u);
  int inspected = 0, compared = 0;
  for (const std::string& path : testing::FindFiles(corpus, ".tflite")) {
    absl::StatusOr<std::vector<uint8_t>> bytes = ReadFileBytes(path);
    ASSERT_TRUE(bytes.ok());
    absl::StatusOr<ir::Model> model = formats::ParseTflite(*bytes, path);
    if (!model.ok()) {
      // Only the known-invalid file (see roundtrip_test) may fail.
      EXPECT_NE(path.find("add_shared_tensors"), std::string::npos)
          << model.status();
      continue;
    }
    const nlohmann::ordered_json j =
        cmd::SummarizeModel(*model, path, bytes->size());
    ASSERT_FALSE(j.dump().empty());
    ++inspected;
    const std::string rel = path.substr(corpus.size() + 1);
    auto it = catalogue.find(rel);
    if (it == catalogue.end()) continue;
    ++compared;
    EXPECT_EQ(j["ops"]["total"].get<int64_t>(), it->second.total) << rel;
    for (const auto& [name, count] : it->second.counts) {
      int64_t got = 0;
      if (name.rfind("custom:", 0) == 0) {
        const std::string custom = name.substr(7);
        if (j["ops"]["custom"].contains(custom)) {
          got = j["ops"]["custom"][custom].get<int64_t>();
        }
      } else if (j["ops"]["builtin"].contains(name)) {
        got = j["ops"]["builtin"][name].get<int64_t>();
      }
      EXPECT_EQ(got, count) << rel << " " << name;
    }
  }
  std::printf(
      "inspect: %d corpus models inspected, %d compared with the "
      "catalogue\n",
      inspected, compared);
}

}  // namespace
}  // namespace qforge

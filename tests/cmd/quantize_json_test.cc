// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// quantize --json (docs/quantize-json.md) on the bundled MNIST CNN and on
// palm_detection from the corpus: every key present, the numbers those of
// the summary on stderr, the kept-float reasons, --json - on stdout while
// the model is written, the tflm profile's integer check, --target-sqnr's
// plan, and the paths --json may not take.
#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using json = nlohmann::ordered_json;
using testing::QforgeBinary;
using testing::RunCommand;

int CountLines(const std::string& text, const std::string& prefix) {
  int n = 0;
  size_t at = 0;
  while ((at = text.find("\n" + prefix, at)) != std::string::npos) {
    ++n;
    ++at;
  }
  return n;
}

// The JSON against the summary `err` printed for the same run.
void ExpectSummaryMatches(const std::string& err, const json& j) {
  const std::vector<std::string> keys = {"format",
                                         "version",
                                         "model",
                                         "output",
                                         "scheme",
                                         "method",
                                         "runtime",
                                         "ops_quantized",
                                         "kept_float",
                                         "repairs",
                                         "calibration_samples",
                                         "calibration_source",
                                         "input_bytes",
                                         "output_bytes",
                                         "latency",
                                         "unsupported",
                                         "not_integer",
                                         "method_auto",
                                         "weight_rounding",
                                         "target",
                                         "eval_cmd",
                                         "report"};
  std::vector<std::string> got;
  for (const auto& [k, v] : j.items()) got.push_back(k);
  EXPECT_EQ(got, keys);
  EXPECT_EQ(j["format"], "qforge-quantize-outcome");
  EXPECT_EQ(j["version"], 1);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      err, m,
      std::regex(R"(quantize \((\S+), (\S+)\): (\d+) ops quantized, (\d+) )"
                 R"(kept float)")))
      << err;
  EXPECT_EQ(j["scheme"], m[1].str());
  EXPECT_EQ(j["method"], m[2].str());
  EXPECT_EQ(j["ops_quantized"].get<int>(), std::stoi(m[3].str()));
  EXPECT_EQ(j["kept_float"].size(), std::stoul(m[4].str()));
  ASSERT_TRUE(
      std::regex_search(err, m, std::regex(R"(size: (\d+) -> (\d+) bytes)")))
      << err;
  EXPECT_EQ(j["input_bytes"].get<uint64_t>(), std::stoull(m[1].str()));
  EXPECT_EQ(j["output_bytes"].get<uint64_t>(), std::stoull(m[2].str()));
  EXPECT_EQ(j["output_bytes"].get<uint64_t>(),
            std::filesystem::file_size(j["output"].get<std::string>()));
  // The samples calibrated on, and where --report went.
  if (j["calibration_samples"].is_null()) {
    EXPECT_EQ(err.find("  calibrated on "), std::string::npos) << err;
  } else {
    const std::string line =
        "  calibrated on " +
        std::to_string(j["calibration_samples"].get<uint64_t>()) +
        " samples (--" + j["calibration_source"].get<std::string>() + ")\n";
    EXPECT_NE(err.find(line), std::string::npos) << line << err;
  }
  if (j["report"].is_null()) {
    EXPECT_EQ(err.find("  report: "), std::string::npos) << err;
  } else {
    const json& rep = j["report"];
    char db[32];
    std::snprintf(db, sizeof(db), "%.2f",
                  rep["worst_output_sqnr_db"].get<double>());
    const std::string line =
        "  report: " + rep["path"].get<std::string>() + " (" +
        std::to_string(rep["samples"].get<int64_t>()) +
        " samples; worst output '" + rep["worst_output"].get<std::string>() +
        "' " + db + " dB SQNR)\n";
    EXPECT_NE(err.find(line), std::string::npos) << line << err;
  }
  // Every kept-float op has its reason; the summary prints those not kept
  // for the fast path one a line, the others grouped.
  int listed = 0;
  for (const json& k : j["kept_float"]) {
    EXPECT_FALSE(k["reason"].get<std::string>().empty()) << k.dump();
    if (k["fast_path"].get<bool>()) {
      EXPECT_NE(k["reason"].get<std::string>().find("XNNPACK runs it in float"),
                std::string::npos)
          << k.dump();
      continue;
    }
    ++listed;
    const std::string line = "  float: op " +
                             std::to_string(k["op_index"].get<int>()) + " " +
                             k["op"].get<std::string>() + ": " +
                             k["reason"].get<std::string>() + "\n";
    EXPECT_NE(err.find(line), std::string::npos) << line << err;
  }
  EXPECT_EQ(CountLines(err, "  float: op "), listed);
  EXPECT_EQ(CountLines(err, "  repaired: op "),
            static_cast<int>(j["repairs"].size()));
  if (j["runtime"] != "litert") {
    EXPECT_TRUE(j["latency"].is_null());
    EXPECT_TRUE(j["unsupported"].is_array());
    return;
  }
  EXPECT_TRUE(j["unsupported"].is_null());
  EXPECT_TRUE(j["not_integer"].is_null());
  const json& l = j["latency"];
  ASSERT_TRUE(l.is_object()) << j.dump();
  ASSERT_TRUE(std::regex_search(
      err, m,
      std::regex(R"(LiteRT \(estimated, one thread\): ([0-9.]+) -> ([0-9.]+) )"
                 R"(ms; (\d+) of (\d+) ops on XNNPACK in (\d+) partitions)")))
      << err;
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.3f",
                l["estimated_float_ms"].get<double>());
  EXPECT_EQ(buf, m[1].str());
  std::snprintf(buf, sizeof(buf), "%.3f",
                l["estimated_quantized_ms"].get<double>());
  EXPECT_EQ(buf, m[2].str());
  EXPECT_EQ(l["xnnpack_ops"].get<int>(), std::stoi(m[3].str()));
  EXPECT_EQ(l["ops"].get<int>(), std::stoi(m[4].str()));
  EXPECT_EQ(l["xnnpack_partitions"].get<int>(), std::stoi(m[5].str()));
  EXPECT_EQ(l["ops"].get<int>() - l["xnnpack_ops"].get<int>(),
            static_cast<int>(l["off_fast_path"].size()));
  // The summary groups them: one line per op type and reason.
  std::vector<std::pair<std::string, std::string>> keys_seen;
  std::vector<std::vector<int>> groups;
  for (const json& o : l["off_fast_path"]) {
    const std::pair<std::string, std::string> key = {o["op"], o["reason"]};
    size_t g = 0;
    while (g < keys_seen.size() && keys_seen[g] != key) ++g;
    if (g == keys_seen.size()) {
      keys_seen.push_back(key);
      groups.emplace_back();
    }
    groups[g].push_back(o["op_index"].get<int>());
  }
  for (size_t g = 0; g < groups.size(); ++g) {
    const std::vector<int>& ops = groups[g];
    std::string line = "  builtin kernels: " + keys_seen[g].first;
    if (ops.size() > 1) line += " x" + std::to_string(ops.size());
    line += ops.size() > 1 ? " (ops " : " (op ";
    for (size_t i = 0; i < ops.size() && i < 8; ++i) {
      line += (i == 0 ? "" : ", ") + std::to_string(ops[i]);
    }
    if (ops.size() > 8)
      line += ", ... (" + std::to_string(ops.size()) + " ops)";
    line += "): " + keys_seen[g].second + "\n";
    EXPECT_NE(err.find(line), std::string::npos) << line << err;
  }
  EXPECT_EQ(CountLines(err, "  builtin kernels: "),
            static_cast<int>(groups.size()));
  // The summary warns exactly when the model written is estimated slower
  // than the float model (palm_detection int16x8: its reference kernels).
  EXPECT_EQ(CountLines(err, "  note: estimated slower than the float model"),
            l["estimated_quantized_ms"].get<double>() >
                    l["estimated_float_ms"].get<double>()
                ? 1
                : 0)
      << err;
}

TEST(QuantizeJsonTest, CnnJsonIsTheSummary) {
  const std::string dir = testing::MakeTempDir();
  const testing::CommandResult r = RunCommand(testing::QuantizeMnistCommand(
      "-o " + dir + "/q.tflite --json " + dir + "/q.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(testing::ReadText(dir + "/q.json"));
  ExpectSummaryMatches(r.err, j);
  EXPECT_EQ(j["scheme"], "int8");
  EXPECT_EQ(j["method"], "mse");
  EXPECT_EQ(j["runtime"], "litert");
  EXPECT_EQ(j["output"], dir + "/q.tflite");
  // XNNPACK has no int8 AVERAGE_POOL_2D or SOFTMAX: both stay float for
  // the fast path.
  std::vector<std::string> fast;
  for (const json& k : j["kept_float"]) {
    if (k["fast_path"].get<bool>()) fast.push_back(k["op"]);
  }
  EXPECT_EQ(fast, (std::vector<std::string>{"AVERAGE_POOL_2D", "SOFTMAX"}));
  EXPECT_GT(j["latency"]["estimated_float_ms"].get<double>(), 0);
  EXPECT_TRUE(j["target"].is_null());
  EXPECT_TRUE(j["eval_cmd"].is_null());
  EXPECT_TRUE(j["weight_rounding"].is_null());
  EXPECT_TRUE(j["method_auto"].is_null());
}

// The summary says how many samples the statistics saw and where --report
// went with its worst output (mlperf-tiny's vww_96 on the corpus's two
// person-detection images and coral's squat photo, as commands.sh runs
// it); the report file agrees.
TEST(QuantizeJsonTest, SummaryNamesSamplesAndReport) {
  const std::string corpus = testing::CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "../shared/corpus absent";
  const std::string dir = testing::MakeTempDir();
  const std::string model = corpus + "/models/mlperf-tiny/vww_96_float.tflite";
  const std::string data =
      " --data '" + corpus +
      "/data/tflite-micro/tensorflow/lite/micro/examples/person_detection/"
      "testdata/*.bmp' --data " +
      corpus + "/data/coral/squat.bmp --scale 0.003921569";
  testing::CommandResult r = RunCommand(
      QforgeBinary() + " quantize " + model + data + " -o " + dir +
      "/q.tflite --report " + dir + "/r.json --json " + dir + "/q.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(testing::ReadText(dir + "/q.json"));
  ExpectSummaryMatches(r.err, j);
  EXPECT_EQ(j["calibration_samples"], 3);
  EXPECT_EQ(j["calibration_source"], "data");
  ASSERT_TRUE(j["report"].is_object());
  EXPECT_EQ(j["report"]["path"], dir + "/r.json");
  EXPECT_EQ(j["report"]["samples"], 3);
  EXPECT_EQ(j["report"]["worst_output"], "Identity");
  const json rep = json::parse(testing::ReadText(dir + "/r.json"));
  EXPECT_EQ(j["report"]["worst_output_sqnr_db"], rep["min_output_sqnr_db"]);

  // From --stats: the samples the file records; no report.
  r = RunCommand(QforgeBinary() + " -q calibrate " + model + data + " -o " +
                 dir + "/s.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCommand(QforgeBinary() + " quantize " + model + " --stats " + dir +
                 "/s.json -o " + dir + "/q2.tflite --json " + dir + "/q2.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = json::parse(testing::ReadText(dir + "/q2.json"));
  ExpectSummaryMatches(r.err, j);
  EXPECT_EQ(j["calibration_samples"], 3);
  EXPECT_EQ(j["calibration_source"], "stats");
  EXPECT_TRUE(j["report"].is_null());
  // float16 needs no statistics.
  r = RunCommand(QforgeBinary() + " quantize " + model +
                 " --scheme float16 -o " + dir + "/q3.tflite --json " + dir +
                 "/q3.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = json::parse(testing::ReadText(dir + "/q3.json"));
  ExpectSummaryMatches(r.err, j);
  EXPECT_TRUE(j["calibration_samples"].is_null());
}

TEST(QuantizeJsonTest, StdoutWhileTheModelIsWritten) {
  const std::string dir = testing::MakeTempDir();
  const testing::CommandResult r = RunCommand(testing::QuantizeMnistCommand(
      "--keep-integer -q -o " + dir + "/q.tflite --json -"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const json j = json::parse(r.out);  // throws on anything but one object
  EXPECT_EQ(j["format"], "qforge-quantize-outcome");
  EXPECT_TRUE(j["kept_float"].empty());
  const ir::Model m = testing::ReadModel(dir + "/q.tflite");
  ASSERT_EQ(m.subgraphs.size(), 1u);
  EXPECT_EQ(j["output_bytes"].get<uint64_t>(),
            std::filesystem::file_size(dir + "/q.tflite"));
  // The int8 AVERAGE_POOL_2D and SOFTMAX run in the builtin kernels.
  std::vector<std::string> off;
  for (const json& o : j["latency"]["off_fast_path"]) off.push_back(o["op"]);
  EXPECT_EQ(off, (std::vector<std::string>{"AVERAGE_POOL_2D", "SOFTMAX"}));
}

TEST(QuantizeJsonTest, TflmSaysEveryOpIsInteger) {
  const std::string dir = testing::MakeTempDir();
  const testing::CommandResult r = RunCommand(testing::QuantizeMnistCommand(
      "--runtime tflm --scheme int16x8 -o " + dir + "/q.tflite --json -"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  ExpectSummaryMatches(r.err, j);
  EXPECT_EQ(j["runtime"], "tflm");
  EXPECT_EQ(j["unsupported"], json::array());
  EXPECT_EQ(j["not_integer"], json::array());
  EXPECT_TRUE(j["kept_float"].empty());
  EXPECT_NE(r.err.find("  TFLite Micro: runs every op, every op integer\n"),
            std::string::npos)
      << r.err;
}

TEST(QuantizeJsonTest, TargetPlan) {
  const std::string dir = testing::MakeTempDir();
  // 200 dB: met only in float32 (the litert ladder's top rung).
  const testing::CommandResult r = RunCommand(testing::QuantizeMnistCommand(
      "--target-sqnr 200 -o " + dir + "/q.tflite --json " + dir + "/q.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(testing::ReadText(dir + "/q.json"));
  ExpectSummaryMatches(r.err, j);
  const json& t = j["target"];
  ASSERT_TRUE(t.is_object()) << j.dump();
  EXPECT_EQ(t["metric"], "worst");
  EXPECT_EQ(t["target"], 200.0);
  EXPECT_EQ(t["check_samples"], 2);  // every 4th of 10 digits
  EXPECT_TRUE(t["reached"].is_null() || t["reached"].get<double>() >= 200)
      << t.dump();
  ASSERT_FALSE(t["plan"].empty());
  // The plan's table: from its heading to the summary.
  const size_t from = r.err.find("target-sqnr: plan");
  ASSERT_NE(from, std::string::npos) << r.err;
  const std::string table =
      r.err.substr(from, r.err.find("quantize (", from) - from);
  EXPECT_EQ(static_cast<int>(t["plan"].size()), CountLines(table, "  op "));
  for (const json& row : t["plan"]) {
    const std::string head = "\n  op " +
                             std::to_string(row["op_index"].get<int>()) + " " +
                             row["op"].get<std::string>() + " -> " +
                             row["precision"].get<std::string>();
    EXPECT_NE(table.find(head), std::string::npos) << head << table;
    EXPECT_EQ(row["gain"].is_null(), row["bytes"].is_null());
  }
}

TEST(QuantizeJsonTest, NeverOverAnInputOrAnotherOutput) {
  const std::string dir = testing::MakeTempDir();
  // The model's own path: a usage error, nothing written.
  testing::CommandResult r = RunCommand(testing::QuantizeMnistCommand(
      "-q -o " + dir + "/q.tflite --json " + dir + "/q.tflite"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/q.tflite"));
  // A --data file.
  const std::string digit = dir + "/0.png";
  std::filesystem::copy_file(testing::TestDataDir() + "/mnist/sample0.png",
                             digit);
  const std::string before = testing::ReadText(digit);
  r = RunCommand(QforgeBinary() + " quantize " + testing::TestDataDir() +
                 "/models/conv_fc_mnist.tflite --data " + digit +
                 " --scale 0.003921569 -q -o " + dir + "/q.tflite --json " +
                 digit);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("refusing to overwrite an input file"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(testing::ReadText(digit), before);
  EXPECT_FALSE(std::filesystem::exists(dir + "/q.tflite"));
}

// palm_detection (MediaPipe) on ten hand photos in [-1, 1]: PRELU and
// RESIZE_BILINEAR among its ops, some kept float for the fast path; in
// int16x8 every op off XNNPACK says why.
TEST(QuantizeJsonTest, PalmDetection) {
  const std::string corpus = testing::CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "../shared/corpus absent";
  const std::string model = corpus + "/models/mediapipe/palm_detection.tflite";
  const std::string data =
      " --data '" + corpus +
      "/data/mediapipe/mediapipe/model_maker/python/vision/gesture_recognizer/"
      "testdata/raw_data/rock/*.jpg' --mean 127.5 --std 127.5 ";
  if (!std::filesystem::exists(model)) GTEST_SKIP() << model << " absent";
  const std::string dir = testing::MakeTempDir();
  for (const char* scheme : {"int8", "int16x8"}) {
    const std::string out = dir + "/" + scheme + ".tflite";
    const testing::CommandResult r =
        RunCommand(QforgeBinary() + " quantize " + model + data + " --scheme " +
                   scheme + " -o " + out + " --json -");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json j = json::parse(r.out);
    ExpectSummaryMatches(r.err, j);
    EXPECT_EQ(j["scheme"], scheme);
    // int16x8 runs in LiteRT's reference kernels, int8 on XNNPACK.
    EXPECT_EQ(r.err.find("note: estimated slower") != std::string::npos,
              std::string(scheme) == "int16x8")
        << r.err;
    const json& off = j["latency"]["off_fast_path"];
    if (std::string(scheme) == "int16x8") {
      ASSERT_FALSE(off.empty());
      int reference = 0;
      for (const json& o : off) {
        reference +=
            o["reason"].get<std::string>().find(
                "run in TFLite's reference kernels") != std::string::npos;
      }
      EXPECT_GT(reference, 0) << off.dump(1);
    }
  }
}

}  // namespace
}  // namespace qforge

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// `qforge report` and `qforge quantize --report` end to end on the bundled
// MNIST CNN and its ten bundled digits: the JSON contract, determinism
// over thread counts, --min-sqnr's exit code 4, integer model inputs, the
// HTML page (in headless Chromium when installed), and a deliberately
// broken layer that the report must rank worst.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "calibration/stats_file.h"
#include "formats/tflite_reader.h"
#include "formats/tflite_writer.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "quantizer/quantize.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using nlohmann::json;
using testing::QforgeBinary;
using testing::RunCommand;
using testing::TestDataDir;

std::string FloatModel() {
  return TestDataDir() + "/models/conv_fc_mnist.tflite";
}
std::string Data() {
  return " --data '" + TestDataDir() + "/mnist/*.png' --scale 0.003921569 ";
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class ReportCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(testing::MakeTempDir());
    const testing::CommandResult r =
        RunCommand(QforgeBinary() + " quantize " + FloatModel() + Data() +
                   " --keep-integer -o " + *dir_ + "/q.tflite --report " +
                   *dir_ + "/q_report.json -q");
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  static std::string Dir() { return *dir_; }
  static std::string Quant() { return *dir_ + "/q.tflite"; }
  static std::string* dir_;
};
std::string* ReportCliTest::dir_ = nullptr;

TEST_F(ReportCliTest, QuantizeReportIsTheJsonContract) {
  const json j = json::parse(ReadText(Dir() + "/q_report.json"));
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["samples"], 10);
  EXPECT_EQ(j["weight_only"], false);
  ASSERT_EQ(j["outputs"].size(), 1u);
  const json& o = j["outputs"][0];
  EXPECT_EQ(o["classifier"], true);
  EXPECT_EQ(o["classes"], 10);
  EXPECT_EQ(o["agreement_samples"], 10);
  // Measured in LiteRT on the same digits: 50.9 dB, top-1 10/10
  // (docs/quantization.md).
  EXPECT_GT(o["sqnr_db"].get<double>(), 35.0);
  EXPECT_EQ(o["top1_agree"], 10);
  EXPECT_EQ(o["top5_agree"], 10);
  // Every quantized activation of the CNN: input, conv, pool, two FCs and
  // the softmax (the reshape shares its input's tensor parameters but is a
  // tensor of its own).
  const json& layers = j["layers"];
  ASSERT_GE(layers.size(), 5u);
  double prev = -1e300;
  for (const json& l : layers) {
    // Worst first: by the noise the layer adds (null: none).
    const double db =
        l["introduced_db"].is_null() ? 1e300 : l["introduced_db"].get<double>();
    EXPECT_GE(db, prev) << l.dump();
    prev = db;
    // The noise a layer adds is at most its total noise.
    if (!l["sqnr_db"].is_null()) {
      EXPECT_GE(db, l["sqnr_db"].get<double>() - 1e-9) << l.dump();
    }
    EXPECT_EQ(l["dtype"], "int8");
    EXPECT_GT(l["count"].get<uint64_t>(), 0u);
    EXPECT_GE(l["range_used"].get<double>(), 0.0);
    EXPECT_LE(l["range_used"].get<double>(), 1.0);
    // Well-calibrated int8 layers are within a few times pure rounding
    // noise (0.29).
    EXPECT_LT(l["rmse_over_scale"].get<double>(), 3.0) << l.dump();
  }
  EXPECT_TRUE(layers[0].contains("histogram"));
  EXPECT_EQ(j["float_ops"].size(), 0u);
  // quantize --report's runtime section is its --runtime's, litert: QUANTIZE,
  // CONV_2D, AVERAGE_POOL_2D, RESHAPE, FULLY_CONNECTED x2, SOFTMAX,
  // DEQUANTIZE; XNNPACK has no int8 AVERAGE_POOL_2D or SOFTMAX
  // (tests/pipeline/runtime_profiles_test.cc reads the same model).
  const json& rt = j["runtime"];
  EXPECT_EQ(rt["name"], "litert");
  EXPECT_EQ(rt["ops"], 8);
  EXPECT_GT(rt["estimated_float_ms"].get<double>(), 0);
  EXPECT_GT(rt["estimated_quant_ms"].get<double>(), 0);
  EXPECT_EQ(rt["xnnpack_ops"], 6);
  EXPECT_EQ(rt["xnnpack_partitions"], 3);
  ASSERT_EQ(rt["off_xnnpack"].size(), 2u) << rt.dump();
  EXPECT_EQ(rt["off_xnnpack"][0]["op"], "AVERAGE_POOL_2D");
  EXPECT_EQ(rt["off_xnnpack"][0]["op_indices"], json::array({2}));
  EXPECT_EQ(rt["off_xnnpack"][1]["op"], "SOFTMAX");
  EXPECT_EQ(rt["off_xnnpack"][1]["op_indices"], json::array({6}));
  for (const json& g : rt["off_xnnpack"]) {
    EXPECT_FALSE(g["reason"].get<std::string>().empty());
  }
  EXPECT_TRUE(rt["unsupported"].is_null());
  EXPECT_TRUE(rt["not_integer"].is_null());
}

// The runtime section in every format, for each runtime. The model is
// quantized for litert: per-channel FULLY_CONNECTED weights, which Arm NN
// 20.08 refuses (both FULLY_CONNECTED ops, one reason: one group).
TEST_F(ReportCliTest, RuntimeSectionInEveryFormat) {
  const std::string base = QforgeBinary() + " report " + FloatModel() + " " +
                           Quant() + Data() + " -q";
  testing::CommandResult r = RunCommand(base + " --runtime tflm");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\nruntime tflm: TFLite Micro: runs every op; every "
                       "op is integer\n"),
            std::string::npos)
      << r.out;
  r = RunCommand(base + " --runtime armnn --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json rt = json::parse(r.out)["runtime"];
  EXPECT_EQ(rt["name"], "armnn");
  EXPECT_TRUE(rt["estimated_quant_ms"].is_null());
  EXPECT_TRUE(rt["off_xnnpack"].is_null());
  EXPECT_TRUE(rt["not_integer"].is_null());
  ASSERT_EQ(rt["unsupported"].size(), 1u) << rt.dump();
  EXPECT_EQ(rt["unsupported"][0]["op"], "FULLY_CONNECTED");
  EXPECT_EQ(rt["unsupported"][0]["op_indices"], json::array({4, 5}));
  r = RunCommand(base + " --runtime armnn");
  EXPECT_NE(r.out.find("runtime armnn: Arm NN 20.08: cannot run 2 of 8 ops\n"
                       "  cannot run:\n    FULLY_CONNECTED x2 (ops 4, 5): "
                       "FULLY_CONNECTED: per-channel FULLY_CONNECTED weights"),
            std::string::npos)
      << r.out;
  r = RunCommand(base);
  EXPECT_NE(r.out.find("\nruntime litert: LiteRT, estimated on one thread: "
                       "float model "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  off XNNPACK, in TFLite's builtin kernels:\n    "
                       "AVERAGE_POOL_2D (op 2): "),
            std::string::npos)
      << r.out;
  r = RunCommand(base + " --format md");
  EXPECT_NE(r.out.find("\n## Runtime: litert\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| SOFTMAX | 1 | op 6 | "), std::string::npos) << r.out;
  r = RunCommand(base + " --format html");
  EXPECT_NE(r.out.find("<h2>Runtime: litert</h2>"), std::string::npos);
  EXPECT_NE(r.out.find("<tr><td>SOFTMAX</td><td class=\"n\">1</td><td>op "
                       "6</td>"),
            std::string::npos);
  EXPECT_EQ(RunCommand(base + " --runtime tflite").exit_code, 1);
}

TEST_F(ReportCliTest, ReportCommandMatchesQuantizeReportAtAnyThreadCount) {
  const std::string base = QforgeBinary() + " report " + FloatModel() + " " +
                           Quant() + Data() + " --format json -q";
  const testing::CommandResult one = RunCommand(base + " --threads 1");
  const testing::CommandResult three = RunCommand(base + " --threads 3");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ASSERT_EQ(three.exit_code, 0) << three.err;
  EXPECT_EQ(one.out, three.out);
  EXPECT_EQ(one.out, ReadText(Dir() + "/q_report.json"));
}

// SOFTMAX's innermost axis holds classes, not channels (op flag
// kLastAxisNotChannels): its layer has no channel SQNR, and the tensor
// SQNR alone ranks it. The CNN's other layers keep theirs. (On a
// 1001-class MobileNet the median class SQNR was ~0 dB on every photo,
// since most probabilities lie below one int8 step, and put SOFTMAX first
// among the layers to raise, whatever the photo.)
TEST_F(ReportCliTest, SoftmaxIsRatedWithoutChannelSqnr) {
  const json j = json::parse(ReadText(Dir() + "/q_report.json"));
  int softmax = 0, with_channels = 0;
  for (const json& l : j["layers"]) {
    if (l["op"] == "SOFTMAX") {
      ++softmax;
      EXPECT_TRUE(l["channel_sqnr_db"].is_null()) << l.dump();
    } else if (!l["channel_sqnr_db"].is_null()) {
      ++with_channels;
    }
  }
  EXPECT_EQ(softmax, 1);
  EXPECT_GE(with_channels, 3);
}

TEST_F(ReportCliTest, MinSqnrExitsFourBelowTheBound) {
  const std::string base =
      QforgeBinary() + " report " + FloatModel() + " " + Quant() + Data();
  testing::CommandResult r =
      RunCommand(base + " --min-sqnr 200 -o " + Dir() + "/r.txt");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("below --min-sqnr 200"), std::string::npos) << r.err;
  // The report is still written.
  EXPECT_NE(ReadText(Dir() + "/r.txt").find("layers, worst first"),
            std::string::npos);
  r = RunCommand(base + " --min-sqnr 20 -q");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("SQNR"), std::string::npos);
}

TEST_F(ReportCliTest, IntegerModelInputsGetQuantizedData) {
  const std::string q8 = Dir() + "/q8.tflite";
  testing::CommandResult r =
      RunCommand(QforgeBinary() + " quantize " + FloatModel() + Data() +
                 " --input-type int8 --output-type int8 -o " + q8 + " -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCommand(QforgeBinary() + " report " + FloatModel() + " " + q8 +
                 Data() + " --format json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["outputs"][0]["dtype"], "int8");
  EXPECT_GT(j["outputs"][0]["sqnr_db"].get<double>(), 35.0);
  EXPECT_EQ(j["outputs"][0]["top1_agree"], 10);
}

TEST_F(ReportCliTest, MarkdownAndSelfContainedHtml) {
  const std::string base = QforgeBinary() + " report " + FloatModel() + " " +
                           Quant() + Data() + " -q";
  testing::CommandResult r = RunCommand(base + " --format md");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("| SQNR (dB) |"), std::string::npos);
  // What to try next, as in the text report: the same suggestions.
  testing::CommandResult text = RunCommand(base);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const size_t next = text.out.find("\nto try next");
  ASSERT_NE(next, std::string::npos) << text.out;
  const size_t flag = text.out.find(": --", next);
  ASSERT_NE(flag, std::string::npos);
  const std::string first_flag =
      text.out.substr(flag + 2, text.out.find('\n', flag) - flag - 2);
  EXPECT_NE(r.out.find("\n## To try next\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" | `" + first_flag + "` |\n"), std::string::npos)
      << first_flag << "\n"
      << r.out;
  const std::string html_path = Dir() + "/r.html";
  r = RunCommand(base + " -o " + html_path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = ReadText(html_path);
  EXPECT_NE(html.find("<h2>To try next</h2>"), std::string::npos);
  EXPECT_NE(html.find("<td><code>" + first_flag + "</code></td></tr>"),
            std::string::npos)
      << first_flag;
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<svg id=\"sqnr-bars\""), std::string::npos);
  EXPECT_NE(html.find("class=\"qrange\""), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  // Only the SVG namespace names a URL.
  size_t pos = 0, urls = 0, ns = 0;
  while ((pos = html.find("http", pos)) != std::string::npos) {
    ++urls;
    if (html.compare(pos, 26, "http://www.w3.org/2000/svg") == 0) ++ns;
    ++pos;
  }
  EXPECT_EQ(urls, ns);
  size_t histograms = 0;
  for (pos = html.find("class=\"histogram\""); pos != std::string::npos;
       pos = html.find("class=\"histogram\"", pos + 1)) {
    ++histograms;
  }
  EXPECT_EQ(histograms, 5u);
}

// The page fits a 1400-px window: measured by the browser itself. A copy
// of the page gets a script (the report has none) that writes the root
// element's scrollWidth and clientWidth into the DOM, which --dump-dom
// prints: scrollWidth > clientWidth is exactly "runs off the page", with
// no dependence on fonts, colours or anti-aliasing, as a check of the
// screenshot's pixels would have. The screenshot is still taken at that
// size. scripts/install_deps.sh installs chromium, so CI runs this.
TEST_F(ReportCliTest, HtmlRendersInHeadlessChromium) {
  if (RunCommand("command -v chromium").exit_code != 0) {
    GTEST_SKIP() << "chromium is not installed (apt-get install chromium)";
  }
  const std::string html_path = Dir() + "/page.html";
  testing::CommandResult r =
      RunCommand(QforgeBinary() + " report " + FloatModel() + " " + Quant() +
                 Data() + " -q -o " + html_path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string flags =
      " --headless --no-sandbox --disable-gpu --no-first-run "
      "--user-data-dir=" +
      Dir() + "/chromium-profile ";
  r = RunCommand("timeout 120 chromium" + flags + "--dump-dom file://" +
                 html_path + " 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0);
  // The parsed DOM has the SVG charts with their bars.
  EXPECT_NE(r.out.find("<svg id=\"sqnr-bars\""), std::string::npos);
  EXPECT_NE(r.out.find("class=\"bar\""), std::string::npos);
  EXPECT_NE(r.out.find("class=\"histogram\""), std::string::npos);
  // "To try next" is on the page.
  EXPECT_NE(r.out.find("<table id=\"next\">"), std::string::npos);

  std::string probe = ReadText(html_path);
  const size_t end = probe.rfind("</body>");
  ASSERT_NE(end, std::string::npos);
  probe.insert(end,
               "<script>const e = document.documentElement;"
               "document.body.setAttribute('data-scroll-width', e.scrollWidth);"
               "document.body.setAttribute('data-client-width', "
               "e.clientWidth);</script>");
  const std::string probe_path = Dir() + "/probe.html";
  {
    std::ofstream f(probe_path, std::ios::binary);
    f << probe;
  }
  r = RunCommand("timeout 120 chromium" + flags +
                 "--window-size=1400,900 --dump-dom file://" + probe_path +
                 " 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m,
                                std::regex("data-scroll-width=\"([0-9]+)\" "
                                           "data-client-width=\"([0-9]+)\"")))
      << r.out.substr(0, 2000);
  const int scroll_width = std::stoi(m[1]);
  const int client_width = std::stoi(m[2]);
  // The window size took effect (less a scroll bar), and nothing is wider.
  EXPECT_GT(client_width, 1300);
  EXPECT_LE(client_width, 1400);
  EXPECT_LE(scroll_width, client_width);

  const std::string png = Dir() + "/page.png";
  r = RunCommand("timeout 120 chromium" + flags +
                 "--window-size=1400,2400 "
                 "--screenshot=" +
                 png + " file://" + html_path + " >/dev/null 2>&1");
  ASSERT_EQ(r.exit_code, 0);
  ASSERT_TRUE(std::filesystem::exists(png));
  EXPECT_GT(std::filesystem::file_size(png), 20000u);
}

// A layer broken after calibration: output channel 5 of the CONV_2D's
// weights and bias is scaled x100 in the IR, and the model is quantized
// with the statistics of the intact model (so the activation ranges are
// the calibrated ones, as when a layer's weights go wrong after
// calibration, or a quantizer bug hits one layer). Compared with the intact
// float model, the report must rank the conv output worst: there channel 5
// saturates at the top of the calibrated range; later layers average it
// (pool) or mix it with correct channels (the FCs). Measured: conv 4.4 dB,
// pool 5.0 dB, FCs 12 and 14 dB.
// Scales output channel 5 of the CNN's CONV_2D (weights [8, 3, 3, 1] and
// bias [8]) by 100 in `m`.
constexpr char kBrokenLayer[] =
    "sequential/conv2d/Relu;sequential/conv2d/BiasAdd;sequential/conv2d/"
    "Conv2D;sequential/conv2d/BiasAdd/ReadVariableOp1";

void BreakConvChannel(ir::Model& m) {
  ir::Subgraph& sg = m.subgraphs[0];
  auto conv = std::find_if(
      sg.operators.begin(), sg.operators.end(),
      [](const ir::Operator& op) { return op.kind == ir::OpKind::kConv2D; });
  ASSERT_NE(conv, sg.operators.end());
  EXPECT_EQ(sg.tensors[conv->outputs[0]].name, kBrokenLayer);
  constexpr int kChannel = 5;
  for (int k : {1, 2}) {
    const ir::Tensor& t = sg.tensors[conv->inputs[k]];
    ASSERT_EQ(t.shape[0], 8);
    std::vector<uint8_t>& bytes = m.buffers[t.buffer].data.mutable_vector();
    const size_t per_channel = bytes.size() / sizeof(float) / t.shape[0];
    float* v = reinterpret_cast<float*>(bytes.data());
    for (size_t i = 0; i < per_channel; ++i)
      v[kChannel * per_channel + i] *= 100.0f;
  }
}

// The scenario: the float model itself has a weight channel scaled
// x100 before quantizing, and is calibrated and quantized as it is. The
// conv's activation range grows ~100x, so its other 7 channels keep a few
// integer steps. Its tensor SQNR stays high (channel 5 carries nearly all
// the signal power; measured 43 dB, while the FCs read 32-33 dB), but its
// median channel SQNR collapses (11 dB), and the report ranks layers by
// the noise each adds itself: the conv comes first, the pool that inherits
// its grid second, and the layers after it add nothing visible.
TEST_F(ReportCliTest, LayerBrokenBeforeQuantizingIsNamedFirst) {
  absl::StatusOr<ir::Model> m = formats::ReadTfliteFile(FloatModel());
  ASSERT_TRUE(m.ok()) << m.status();
  BreakConvChannel(*m);
  const std::string broken_float = Dir() + "/broken_float.tflite";
  const std::string broken_quant = Dir() + "/broken_float_q.tflite";
  ASSERT_TRUE(formats::WriteTfliteFile(*m, broken_float).ok());
  testing::CommandResult r =
      RunCommand(QforgeBinary() + " quantize " + broken_float + Data() +
                 " --keep-integer -o " + broken_quant + " -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCommand(QforgeBinary() + " report " + broken_float + " " +
                 broken_quant + Data() + " --format json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_FALSE(j["layers"].empty());
  const json& worst = j["layers"][0];
  EXPECT_EQ(worst["name"], kBrokenLayer) << j["layers"].dump(1);
  EXPECT_LT(worst["introduced_db"].get<double>(), 20.0);
  EXPECT_LT(worst["channel_sqnr_db"].get<double>(), 20.0);
  EXPECT_GT(worst["sqnr_db"].get<double>(), 35.0);  // the tensor SQNR hides it
  EXPECT_NE(worst["worst_channel"].get<int>(), 5);  // 5 is the loud one
}

// A layer broken after calibration: output channel 5 of the CONV_2D's
// weights and bias is scaled x100 in the IR, and the model is quantized
// with the statistics of the intact model (so the activation ranges are
// the calibrated ones, as when a layer's weights go wrong after
// calibration, or a quantizer bug hits one layer). Compared with the intact
// float model, the report must rank the conv output worst: there channel 5
// saturates at the top of the calibrated range; later layers average it
// (pool) or mix it with correct channels (the FCs). Measured: conv 4.4 dB,
// pool 5.0 dB, FCs 12 and 14 dB.

TEST_F(ReportCliTest, BrokenLayerIsRankedWorst) {
  const std::string stats_path = Dir() + "/intact_stats.json";
  testing::CommandResult r =
      RunCommand(QforgeBinary() + " calibrate " + FloatModel() + Data() +
                 " -o " + stats_path + " -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  absl::StatusOr<calibration::StatsFile> stats =
      calibration::ReadStatsFile(stats_path);
  ASSERT_TRUE(stats.ok()) << stats.status();
  absl::StatusOr<ir::Model> m = formats::ReadTfliteFile(FloatModel());
  ASSERT_TRUE(m.ok()) << m.status();
  BreakConvChannel(*m);
  absl::StatusOr<quantizer::QuantizeResult> q =
      quantizer::Quantize(*m, &*stats, quantizer::QuantizeOptions{});
  ASSERT_TRUE(q.ok()) << q.status();
  const std::string broken = Dir() + "/broken_q.tflite";
  ASSERT_TRUE(formats::WriteTfliteFile(q->model, broken).ok());
  r = RunCommand(QforgeBinary() + " report " + FloatModel() + " " + broken +
                 Data() + " --format json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_FALSE(j["layers"].empty());
  EXPECT_EQ(j["layers"][0]["name"], kBrokenLayer) << j["layers"].dump(1);
  EXPECT_LT(j["layers"][0]["sqnr_db"].get<double>(), 10.0);
}

}  // namespace
}  // namespace qforge

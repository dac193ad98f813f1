// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// --data on images uses the input normalization a model's tflite-support
// metadata states (NormalizationOptions), unless --mean/--std/--scale is
// given. The CLI cases use the corpus's mobilenet_v1_0.25_224 with metadata
// (mean 127.5, std 127.5, per tflite-support's test data) and the bundled
// 224x224 shoe photo; expected values are (pixel - 127.5) / 127.5 from the
// pixels DecodeImage gives, and byte-identical to an explicit
// --scale 1 --mean 127.5 --std 127.5 run. The parser cases use metadata
// buffers built here with the generated schema code.
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "flatbuffers/flatbuffers.h"
#include "formats/data/image.h"
#include "formats/data/npy.h"
#include "formats/schema/tflite_metadata_generated.h"
#include "formats/tflite_metadata.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

namespace md = ::qforge::tflite_metadata;
using testing::CorpusDir;
using testing::MakeTempDir;
using testing::QforgeBinary;
using testing::RunCommand;
using testing::TestDataDir;

constexpr char kModel[] =
    "/models/tflite-support/mobilenet_v1_0.25_224_1_metadata_1.tflite";
constexpr char kLine[] =
    "data: input 'input': mean 127.5, std 127.5 from the model's metadata";

std::string Photo() { return TestDataDir() + "/data/shoe_224_224_3.jpeg"; }

// `qforge run` on the photo; returns stderr, the inputs fed in `dir`.
testing::CommandResult RunOnPhoto(const std::string& model,
                                  const std::string& dir,
                                  const std::string& extra) {
  return RunCommand(QforgeBinary() + " run " + model + " --data " + Photo() +
                    " --output-dir " + dir + "/out --save-inputs " + dir +
                    "/in " + extra);
}

TEST(MetadataNormCliTest, ImagesUseTheModelsNormalization) {
  const std::string corpus = CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "../shared/corpus absent";
  const std::string model = corpus + kModel;
  const std::string tmp = MakeTempDir();

  const testing::CommandResult meta = RunOnPhoto(model, tmp + "/meta", "");
  ASSERT_EQ(meta.exit_code, 0) << meta.err;
  EXPECT_NE(meta.err.find(kLine), std::string::npos) << meta.err;

  const testing::CommandResult expl = RunOnPhoto(
      model, tmp + "/explicit", "--scale 1 --mean 127.5 --std 127.5");
  ASSERT_EQ(expl.exit_code, 0) << expl.err;
  EXPECT_EQ(expl.err.find("from the model's metadata"), std::string::npos)
      << expl.err;
  const std::vector<uint8_t> a =
      testing::ReadBytes(tmp + "/meta/in/input_0.npy");
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, testing::ReadBytes(tmp + "/explicit/in/input_0.npy"));

  // Hand derivation: (pixel - 127.5) / 127.5 per channel, RGB, NHWC.
  const std::vector<uint8_t> jpeg = testing::ReadBytes(Photo());
  absl::StatusOr<formats::Image> img = formats::DecodeImage(jpeg, Photo());
  ASSERT_TRUE(img.ok()) << img.status();
  ASSERT_EQ(img->height * img->width * 3, 224 * 224 * 3);
  absl::StatusOr<ir::HostTensor> t =
      formats::ReadNpyFile(tmp + "/meta/in/input_0.npy");
  ASSERT_TRUE(t.ok()) << t.status();
  const absl::Span<const float> got = t->Flat<float>();
  ASSERT_EQ(got.size(), img->pixels.size());
  float lo = 1e9f, hi = -1e9f;
  for (size_t i = 0; i < got.size(); ++i) {
    const float want = static_cast<float>((img->pixels[i] - 127.5) / 127.5);
    ASSERT_EQ(got[i], want) << "element " << i;
    lo = std::min(lo, got[i]);
    hi = std::max(hi, got[i]);
  }
  EXPECT_GE(lo, -1.0f);
  EXPECT_LE(hi, 1.0f);

  // -q keeps stderr free of the line.
  const testing::CommandResult quiet = RunOnPhoto(model, tmp + "/quiet", "-q");
  EXPECT_EQ(quiet.err.find("from the model's metadata"), std::string::npos)
      << quiet.err;
}

TEST(MetadataNormCliTest, AnyExplicitFlagOverridesTheMetadataEntirely) {
  const std::string corpus = CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "../shared/corpus absent";
  const std::string model = corpus + kModel;
  const std::string tmp = MakeTempDir();
  // --std alone: mean 0 (the flag default), not the metadata's 127.5.
  const testing::CommandResult r = RunOnPhoto(model, tmp + "/s", "--std 255");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("from the model's metadata"), std::string::npos);
  const testing::CommandResult ref =
      RunOnPhoto(model, tmp + "/ref", "--scale 1 --mean 0 --std 255");
  ASSERT_EQ(ref.exit_code, 0) << ref.err;
  EXPECT_EQ(testing::ReadBytes(tmp + "/s/in/input_0.npy"),
            testing::ReadBytes(tmp + "/ref/in/input_0.npy"));
}

// A float image model without normalization metadata (mlperf-tiny's
// vww_96_float) fed images with no --mean/--std/--scale gets raw 0..255
// pixels: every command that reads the images says so once, -q silences
// it, and any normalization flag makes it go.
TEST(MetadataNormCliTest, RawPixelsAreNotedWhenNothingNormalizes) {
  const std::string corpus = CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "../shared/corpus absent";
  const std::string model = corpus + "/models/mlperf-tiny/vww_96_float.tflite";
  const std::string data =
      " --data '" + corpus +
      "/data/tflite-micro/tensorflow/lite/micro/examples/person_detection/"
      "testdata/*.bmp'";
  const std::string tmp = MakeTempDir();
  const std::string note =
      "data: images fed as raw 0..255 pixels (float input "
      "'input_1'): the model has no normalization metadata and no "
      "--mean/--std/--scale was given";
  const std::string q = QforgeBinary();
  auto count = [&](const std::string& err) {
    size_t n = 0;
    for (size_t at = err.find(note); at != std::string::npos;
         at = err.find(note, at + 1)) {
      ++n;
    }
    return n;
  };
  const testing::CommandResult cal =
      RunCommand(q + " calibrate " + model + data + " -o " + tmp + "/s.json");
  ASSERT_EQ(cal.exit_code, 0) << cal.err;
  EXPECT_EQ(count(cal.err), 1u) << cal.err;
  const testing::CommandResult quant =
      RunCommand(q + " quantize " + model + data + " -o " + tmp +
                 "/q.tflite --report " + tmp + "/r.json");
  ASSERT_EQ(quant.exit_code, 0) << quant.err;
  EXPECT_EQ(count(quant.err), 1u) << quant.err;  // not again for --report
  const testing::CommandResult rep =
      RunCommand(q + " report " + model + " " + tmp + "/q.tflite" + data +
                 " -o " + tmp + "/r2.json");
  ASSERT_EQ(rep.exit_code, 0) << rep.err;
  EXPECT_EQ(count(rep.err), 1u) << rep.err;
  const testing::CommandResult run =
      RunCommand(q + " run " + model + data + " --output-dir " + tmp + "/out");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(count(run.err), 1u) << run.err;

  const testing::CommandResult quiet = RunCommand(
      q + " -q run " + model + data + " --output-dir " + tmp + "/outq");
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
  int k = 0;
  for (const char* flag :
       {"--scale 0.003921569", "--mean 127.5", "--std 255"}) {
    const testing::CommandResult r =
        RunCommand(q + " run " + model + data + " " + flag + " --output-dir " +
                   tmp + "/out" + std::to_string(++k));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err.find("raw 0..255"), std::string::npos) << flag << r.err;
  }
}

// A ModelMetadata with one subgraph whose inputs carry `units`.
std::vector<uint8_t> BuildMetadata(const std::vector<std::vector<float>>& means,
                                   const std::vector<std::vector<float>>& stds,
                                   bool score_unit_first) {
  flatbuffers::FlatBufferBuilder b;
  std::vector<flatbuffers::Offset<md::TensorMetadata>> tensors;
  for (size_t i = 0; i < means.size(); ++i) {
    std::vector<flatbuffers::Offset<md::ProcessUnit>> units;
    if (score_unit_first) {
      // An unknown union member (type 2, ScoreCalibrationOptions upstream)
      // is skipped: an empty table stands in for it.
      flatbuffers::uoffset_t start = b.StartTable();
      const flatbuffers::Offset<void> empty(b.EndTable(start));
      units.push_back(md::CreateProcessUnit(
          b, static_cast<md::ProcessUnitOptions>(2), empty));
    }
    auto norm = md::CreateNormalizationOptions(b, b.CreateVector(means[i]),
                                               b.CreateVector(stds[i]));
    units.push_back(md::CreateProcessUnit(
        b, md::ProcessUnitOptions_NormalizationOptions, norm.Union()));
    tensors.push_back(md::CreateTensorMetadata(b, b.CreateString("in"),
                                               b.CreateVector(units)));
  }
  auto sg = md::CreateSubGraphMetadata(b, b.CreateVector(tensors));
  std::vector<flatbuffers::Offset<md::SubGraphMetadata>> sgs = {sg};
  auto root =
      md::CreateModelMetadata(b, b.CreateString("m"), b.CreateVector(sgs));
  md::FinishModelMetadataBuffer(b, root);
  return std::vector<uint8_t>(b.GetBufferPointer(),
                              b.GetBufferPointer() + b.GetSize());
}

TEST(MetadataNormParseTest, ReadsPerChannelValuesAndSkipsOtherUnits) {
  const std::vector<uint8_t> bytes = BuildMetadata(
      {{123.675f, 116.28f, 103.53f}}, {{58.395f, 57.12f, 57.375f}},
      /*score_unit_first=*/true);
  formats::MetadataNormalization n = formats::ParseInputNormalization(bytes, 1);
  EXPECT_TRUE(n.notes.empty());
  ASSERT_EQ(n.inputs.size(), 1u);
  EXPECT_EQ(n.inputs[0].input, 0);
  EXPECT_EQ(n.inputs[0].mean, (std::vector<float>{123.675f, 116.28f, 103.53f}));
  EXPECT_EQ(n.inputs[0].std, (std::vector<float>{58.395f, 57.12f, 57.375f}));
  // Entries past the model's inputs do not count.
  EXPECT_TRUE(formats::ParseInputNormalization(bytes, 0).inputs.empty());
}

TEST(MetadataNormParseTest, ZeroStdIsIgnoredWithANote) {
  const std::vector<uint8_t> bytes =
      BuildMetadata({{0.0f}}, {{0.0f}}, /*score_unit_first=*/false);
  formats::MetadataNormalization n = formats::ParseInputNormalization(bytes, 1);
  EXPECT_TRUE(n.inputs.empty());
  ASSERT_EQ(n.notes.size(), 1u);
}

TEST(MetadataNormParseTest, MalformedBuffersNeverCrash) {
  const std::vector<uint8_t> good =
      BuildMetadata({{127.5f}}, {{127.5f}}, /*score_unit_first=*/false);
  ASSERT_EQ(formats::ParseInputNormalization(good, 1).inputs.size(), 1u);
  // Every truncation is refused with a note; every single-byte corruption
  // is parsed or refused, never a crash (ASan builds check the reads).
  for (size_t n = 0; n < good.size(); ++n) {
    formats::MetadataNormalization r = formats::ParseInputNormalization(
        absl::Span<const uint8_t>(good.data(), n), 1);
    EXPECT_TRUE(r.inputs.empty()) << n;
    EXPECT_EQ(r.notes.size(), 1u) << n;
  }
  for (size_t i = 0; i < good.size(); ++i) {
    std::vector<uint8_t> bad = good;
    bad[i] ^= 0xff;
    (void)formats::ParseInputNormalization(bad, 1);
  }
  const std::vector<uint8_t> junk(64, 0xff);
  formats::MetadataNormalization r = formats::ParseInputNormalization(junk, 1);
  EXPECT_TRUE(r.inputs.empty());
  EXPECT_EQ(r.notes.size(), 1u);
}

}  // namespace
}  // namespace qforge

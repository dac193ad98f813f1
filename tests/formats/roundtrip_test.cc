// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// read -> IR -> write must lose nothing: the copy's canonical dump (built
// from flatc's object API, independent of qforge's reader and writer) equals
// the original's, writing is deterministic, and a copy of a copy is the same
// bytes. Runs over testdata/ always and over ../shared/corpus when present.
#include <cstdio>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "base/file_io.h"
#include "formats/tflite_reader.h"
#include "formats/tflite_writer.h"
#include "gtest/gtest.h"
#include "tests/support/canonical_model.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::CanonicalDump;
using testing::FirstDifference;

// Corpus files that are not valid models, and why; the reader must reject
// them (LiteRT does too).
const std::map<std::string, std::string>& KnownInvalid() {
  static const auto* m = new std::map<std::string, std::string>{
      {"add_shared_tensors.tflite",
       "tensor 1 is both input and output of op 0 (LiteRT: 'Tensor 1 is both "
       "input 0 and output 0')"},
  };
  return *m;
}

std::string Basename(const std::string& path) {
  return path.substr(path.find_last_of('/') + 1);
}

// Checks one model; returns "" on success or the failure.
std::string CheckRoundTrip(const std::string& path,
                           const formats::WriteOptions& options) {
  absl::StatusOr<std::vector<uint8_t>> original = ReadFileBytes(path);
  if (!original.ok()) return std::string(original.status().message());
  absl::StatusOr<ir::Model> model = formats::ParseTflite(*original, path);
  if (!model.ok()) return "read: " + std::string(model.status().message());
  absl::StatusOr<std::vector<uint8_t>> copy =
      formats::SerializeTflite(*model, options);
  if (!copy.ok()) return "write: " + std::string(copy.status().message());
  absl::StatusOr<std::vector<uint8_t>> again =
      formats::SerializeTflite(*model, options);
  if (!again.ok() || *again != *copy) return "write is not deterministic";

  absl::StatusOr<std::string> want = CanonicalDump(*original);
  absl::StatusOr<std::string> got = CanonicalDump(*copy);
  if (!want.ok())
    return "dump original: " + std::string(want.status().message());
  if (!got.ok()) return "dump copy: " + std::string(got.status().message());
  const std::string diff = FirstDifference(*want, *got);
  if (!diff.empty()) return "copy differs from original: " + diff;

  // Mapped (buffers are views of the file) and written streaming, each
  // buffer freed once written: the same bytes.
  absl::StatusOr<formats::ModelFile> mapped = formats::OpenTfliteFile(path);
  if (!mapped.ok()) return "map: " + std::string(mapped.status().message());
  std::vector<uint8_t> streamed;
  absl::Status streaming = formats::SerializeTfliteConsuming(
      std::move(mapped->model), options, [&](absl::Span<const uint8_t> b) {
        streamed.insert(streamed.end(), b.begin(), b.end());
        return absl::OkStatus();
      });
  if (!streaming.ok() || streamed != *copy) return "streamed write differs";

  // The copy reads back, and writing it again gives the same bytes.
  absl::StatusOr<ir::Model> reread = formats::ParseTflite(*copy, "copy");
  if (!reread.ok()) return "reread: " + std::string(reread.status().message());
  absl::StatusOr<std::vector<uint8_t>> copy2 =
      formats::SerializeTflite(*reread, options);
  if (!copy2.ok() || *copy2 != *copy) return "copy of copy differs";
  return "";
}

TEST(RoundTripTest, BundledModels) {
  const std::vector<std::string> models =
      testing::FindFiles(testing::TestDataDir() + "/models", ".tflite");
  ASSERT_GE(models.size(), 10u);
  for (const std::string& path : models) {
    EXPECT_EQ(CheckRoundTrip(path, {}), "") << path;
  }
  std::printf("round trip: %zu bundled models checked\n", models.size());
}

TEST(RoundTripTest, BundledModelsWithExternalBuffers) {
  // Buffers stored after the flatbuffer (the >2 GiB layout) round-trip too.
  formats::WriteOptions options;
  options.force_external_buffers = true;
  for (const std::string& path :
       testing::FindFiles(testing::TestDataDir() + "/models", ".tflite")) {
    EXPECT_EQ(CheckRoundTrip(path, options), "") << path;
  }
}

TEST(RoundTripTest, ExternalLayoutIsAlignedAndAfterFlatbuffer) {
  absl::StatusOr<ir::Model> model = formats::ReadTfliteFile(
      testing::TestDataDir() + "/models/conv_fc_mnist.tflite");
  ASSERT_TRUE(model.ok()) << model.status();
  formats::WriteOptions options;
  options.force_external_buffers = true;
  absl::StatusOr<std::vector<uint8_t>> bytes =
      formats::SerializeTflite(*model, options);
  ASSERT_TRUE(bytes.ok());
  absl::StatusOr<ir::Model> back = formats::ParseTflite(*bytes, "external");
  ASSERT_TRUE(back.ok()) << back.status();
  int external = 0;
  for (size_t i = 0; i < back->buffers.size(); ++i) {
    EXPECT_EQ(back->buffers[i].data, model->buffers[i].data) << "buffer " << i;
    external += back->buffers[i].was_external;
  }
  EXPECT_GT(external, 0);
}

TEST(RoundTripTest, CorpusModels) {
  const std::string corpus = testing::CorpusDir();
  if (corpus.empty()) {
    GTEST_SKIP() << "../shared/corpus absent: corpus round trip skipped";
  }
  const std::vector<std::string> models = testing::FindFiles(corpus, ".tflite");
  ASSERT_GT(models.size(), 400u);
  int checked = 0, rejected = 0;
  for (const std::string& path : models) {
    auto known = KnownInvalid().find(Basename(path));
    if (known != KnownInvalid().end()) {
      absl::StatusOr<ir::Model> model = formats::ReadTfliteFile(path);
      EXPECT_FALSE(model.ok())
          << path << " should be rejected: " << known->second;
      ++rejected;
      continue;
    }
    EXPECT_EQ(CheckRoundTrip(path, {}), "") << path;
    ++checked;
  }
  std::printf("round trip: %d corpus models checked, %d rejected as invalid\n",
              checked, rejected);
}

}  // namespace
}  // namespace qforge

namespace qforge {
namespace {

// Fuzzer finding: an options union type without its table. Reading, writing
// and reading back must succeed (the writer once dereferenced the missing
// table), and a second write must give the same bytes.
TEST(RoundTripTest, OptionsTypeWithoutTable) {
  const std::string path =
      testing::TestDataDir() + "/regressions/options_type_without_table.tflite";
  absl::StatusOr<ir::Model> model = formats::ReadTfliteFile(path);
  ASSERT_TRUE(model.ok()) << model.status();
  absl::StatusOr<std::vector<uint8_t>> bytes = formats::SerializeTflite(*model);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  absl::StatusOr<ir::Model> again = formats::ParseTflite(*bytes, "copy");
  ASSERT_TRUE(again.ok()) << again.status();
  absl::StatusOr<std::vector<uint8_t>> twice = formats::SerializeTflite(*again);
  ASSERT_TRUE(twice.ok()) << twice.status();
  EXPECT_EQ(*bytes, *twice);
}

// An op without options gets its own table's defaults, the fields of the
// IR's struct at their defaults (SUB's table named by is_sub); an op with
// options keeps them, and an op without a table keeps none.
TEST(OptionsOrDefaultsTest, TableOfTheOpsRow) {
  ir::Operator op;
  op.kind = ir::OpKind::kFullyConnected;
  const ir::Options fc = formats::OptionsOrDefaults(op);
  ASSERT_TRUE(std::holds_alternative<ir::FullyConnectedOptions>(fc));
  const auto& f = std::get<ir::FullyConnectedOptions>(fc);
  const ir::FullyConnectedOptions want;
  EXPECT_EQ(f.activation, want.activation);
  EXPECT_EQ(f.weights_format, want.weights_format);
  EXPECT_EQ(f.keep_num_dims, want.keep_num_dims);
  EXPECT_EQ(f.asymmetric_quantize_inputs, want.asymmetric_quantize_inputs);
  EXPECT_EQ(f.quantized_bias_type, want.quantized_bias_type);

  for (ir::OpKind kind : {ir::OpKind::kAdd, ir::OpKind::kSub}) {
    op.kind = kind;
    const ir::Options o = formats::OptionsOrDefaults(op);
    ASSERT_TRUE(std::holds_alternative<ir::AddSubOptions>(o));
    const auto& a = std::get<ir::AddSubOptions>(o);
    EXPECT_EQ(a.is_sub, kind == ir::OpKind::kSub);
    EXPECT_EQ(a.activation, ir::Activation::kNone);
    EXPECT_TRUE(a.pot_scale_int16);
  }

  op.kind = ir::OpKind::kRelu;  // NONE: no table
  EXPECT_TRUE(
      std::holds_alternative<std::monostate>(formats::OptionsOrDefaults(op)));

  op.kind = ir::OpKind::kFullyConnected;
  ir::FullyConnectedOptions given;
  given.keep_num_dims = true;
  op.options = given;
  EXPECT_TRUE(
      std::get<ir::FullyConnectedOptions>(formats::OptionsOrDefaults(op))
          .keep_num_dims);
}

}  // namespace
}  // namespace qforge

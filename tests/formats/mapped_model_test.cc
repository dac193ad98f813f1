// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Models are mapped, not read: a loaded model's constant buffers are views
// of the file (no copy), the first write to one copies it, and a model
// written from views, streamed or consuming, has the bytes of the ordinary
// write.
#include <cstring>
#include <string>
#include <vector>

#include "base/file_io.h"
#include "formats/tflite_reader.h"
#include "formats/tflite_writer.h"
#include "gtest/gtest.h"
#include "ir/bytes.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

TEST(BytesTest, ViewSharesCopyOnWriteAndAdoptNeverCopies) {
  auto owner =
      std::make_shared<std::vector<uint8_t>>(std::vector<uint8_t>{1, 2, 3, 4});
  ir::Bytes view = ir::Bytes::View(owner->data(), owner->size(), owner);
  ir::Bytes shared = view;  // a copy of a view is the same memory
  EXPECT_TRUE(shared.is_view());
  EXPECT_EQ(shared.data(), owner->data());
  shared.mutable_data()[0] = 9;  // the first write copies
  EXPECT_FALSE(shared.is_view());
  EXPECT_NE(shared.data(), owner->data());
  EXPECT_EQ((*owner)[0], 1);
  EXPECT_EQ(shared[0], 9);
  EXPECT_EQ(view, ir::Bytes({1, 2, 3, 4}));
  EXPECT_NE(view, shared);

  std::vector<int16_t> values = {-1, 2, 300};
  const void* storage = values.data();
  ir::Bytes adopted = ir::Bytes::Adopt(std::move(values));
  EXPECT_EQ(static_cast<const void*>(adopted.data()), storage);
  ASSERT_EQ(adopted.size(), 6u);
  int16_t last;
  std::memcpy(&last, adopted.data() + 4, 2);
  EXPECT_EQ(last, 300);
}

TEST(MappedModelTest, BuffersAreViewsOfTheFile) {
  for (const char* name : {"conv_fc_mnist.tflite", "trained_lstm.tflite"}) {
    const std::string path = testing::TestDataDir() + "/models/" + name;
    absl::StatusOr<formats::ModelFile> file = formats::OpenTfliteFile(path);
    ASSERT_TRUE(file.ok()) << file.status();
    const uint8_t* begin = file->bytes().data();
    const uint8_t* end = begin + file->bytes().size();
    int views = 0;
    for (const ir::Buffer& b : file->model.buffers) {
      if (b.data.empty()) continue;
      // Every buffer is aligned to its tensor's element size here (TFLite's
      // converter aligns to at least 4), so every one is read in place.
      ASSERT_TRUE(b.data.is_view()) << name;
      EXPECT_GE(b.data.data(), begin);
      EXPECT_LE(b.data.data() + b.data.size(), end);
      ++views;
    }
    EXPECT_GT(views, 0) << name;
    // Parsed from bytes without an owner, buffers are copies.
    absl::StatusOr<std::vector<uint8_t>> bytes = ReadFileBytes(path);
    ASSERT_TRUE(bytes.ok());
    absl::StatusOr<ir::Model> copied = formats::ParseTflite(*bytes, path);
    ASSERT_TRUE(copied.ok());
    for (size_t i = 0; i < copied->buffers.size(); ++i) {
      EXPECT_FALSE(copied->buffers[i].data.is_view());
      EXPECT_EQ(copied->buffers[i].data, file->model.buffers[i].data);
    }
  }
}

// Every bundled model, inline and with external buffers: the mapped model
// written streaming and consuming gives SerializeTflite's bytes, and so
// does WriteTfliteFile.
TEST(MappedModelTest, StreamedWritesEqualTheOrdinaryWrite) {
  const std::string dir = ::testing::TempDir();
  for (const std::string& path :
       testing::FindFiles(testing::TestDataDir() + "/models", ".tflite")) {
    for (bool external : {false, true}) {
      SCOPED_TRACE(path + (external ? " external" : " inline"));
      formats::WriteOptions options;
      options.force_external_buffers = external;
      absl::StatusOr<formats::ModelFile> file = formats::OpenTfliteFile(path);
      ASSERT_TRUE(file.ok()) << file.status();
      absl::StatusOr<std::vector<uint8_t>> want =
          formats::SerializeTflite(file->model, options);
      ASSERT_TRUE(want.ok()) << want.status();
      const std::string out = dir + "/mapped_copy.tflite";
      ASSERT_TRUE(
          formats::WriteTfliteFile(file->model, out, options, {path}).ok());
      absl::StatusOr<std::vector<uint8_t>> written = ReadFileBytes(out);
      ASSERT_TRUE(written.ok());
      EXPECT_TRUE(*written == *want);
      bool any_data = false;
      for (const ir::Buffer& b : file->model.buffers) {
        any_data |= !b.data.empty();
      }
      std::vector<uint8_t> streamed;
      int pieces = 0;
      ASSERT_TRUE(formats::SerializeTfliteConsuming(
                      std::move(file->model), options,
                      [&](absl::Span<const uint8_t> piece) {
                        streamed.insert(streamed.end(), piece.begin(),
                                        piece.end());
                        ++pieces;
                        return absl::OkStatus();
                      })
                      .ok());
      EXPECT_TRUE(streamed == *want);
      // The buffers came as pieces of their own.
      if (any_data) {
        EXPECT_GT(pieces, 1);
      }
    }
  }
}

}  // namespace
}  // namespace qforge

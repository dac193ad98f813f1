// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/data_source.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/formats/data/test_util.h"

namespace qforge::formats {
namespace {

using ::qforge::formats::testing::HugeDeflatedNpz;
using ::qforge::formats::testing::Iota;
using ::qforge::formats::testing::MakeTempDir;
using ::qforge::formats::testing::MakeWav16;
using ::qforge::formats::testing::ReadBytes;
using ::qforge::formats::testing::TestdataPath;
using ::qforge::formats::testing::WriteBytes;
using ::qforge::formats::testing::WriteNpyFile;
using ::qforge::formats::testing::WriteText;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

InputDesc Input(std::string name, ir::DataType type, std::vector<int32_t> shape,
                std::string signature = "") {
  InputDesc d;
  d.name = std::move(name);
  d.signature_name = std::move(signature);
  d.type = type;
  d.shape = std::move(shape);
  return d;
}

absl::StatusOr<SampleSource> Open(std::vector<std::string> specs,
                                  std::vector<InputDesc> inputs,
                                  const LoadOptions& options = {}) {
  return SampleSource::Open(specs, inputs, options);
}

// The inputs the numpy fixture npz/savez.npz was written for.
std::vector<InputDesc> NpzInputs() {
  return {Input("serving_default_image:0", ir::DataType::kFloat32, {1, 4, 4, 3},
                "image"),
          Input("mask", ir::DataType::kUInt8, {-1, 4})};
}

TEST(SampleSourceTest, NpyBatchSplitsIntoSamples) {
  const std::string dir = MakeTempDir();
  WriteNpyFile(dir + "/x.npy", Iota({3, 4}));
  absl::StatusOr<SampleSource> src =
      Open({dir + "/x.npy"}, {Input("x", ir::DataType::kFloat32, {-1, 4})});
  ASSERT_TRUE(src.ok()) << src.status();
  ASSERT_EQ(src->size(), 3);
  absl::StatusOr<std::vector<ir::HostTensor>> s = src->Get(2);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->size(), 1u);
  EXPECT_EQ((*s)[0], Iota({1, 4}, 8));
  EXPECT_EQ(src->SampleName(2), "x.npy[2]");
  EXPECT_EQ(src->Get(3).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(src->Get(-1).status().code(), absl::StatusCode::kOutOfRange);
}

// GetInto reuses buffers whose type and shape fit, and must fill the rest:
// a default-constructed tensor is float32 and scalar-shaped but empty, the
// case that once failed with "sample size mismatch" on scalar inputs.
TEST(SampleSourceTest, GetIntoReusesAndFillsFreshTensors) {
  const std::string dir = MakeTempDir();
  WriteNpyFile(dir + "/s.npy", Iota({3}));
  WriteNpyFile(dir + "/x.npy", Iota({3, 4}));
  absl::StatusOr<SampleSource> src =
      Open({"s=" + dir + "/s.npy", "x=" + dir + "/x.npy"},
           {Input("s", ir::DataType::kFloat32, {}),
            Input("x", ir::DataType::kFloat32, {-1, 4})});
  ASSERT_TRUE(src.ok()) << src.status();
  ASSERT_EQ(src->size(), 3);
  std::vector<ir::HostTensor> t;
  ASSERT_TRUE(src->GetInto(0, t).ok());
  ASSERT_EQ(t.size(), 2u);
  const uint8_t* buffer = t[1].data();
  for (int64_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(src->GetInto(i, t).ok());
    EXPECT_EQ(t[0], Iota({}, static_cast<float>(i)));
    EXPECT_EQ(t[1], Iota({1, 4}, static_cast<float>(4 * i)));
    EXPECT_EQ(t[1].data(), buffer);  // the same buffer, refilled
  }
  EXPECT_EQ(src->GetInto(3, t).code(), absl::StatusCode::kOutOfRange);
}

TEST(SampleSourceTest, NpyExactFitAndMissingBatch) {
  const std::string dir = MakeTempDir();
  WriteNpyFile(dir + "/a.npy", Iota({1, 2, 3}));
  WriteNpyFile(dir + "/b.npy", Iota({2, 3}, 100));
  absl::StatusOr<SampleSource> src =
      Open({dir + "/a.npy", dir + "/b.npy"},
           {Input("x", ir::DataType::kFloat32, {1, 2, 3})});
  ASSERT_TRUE(src.ok()) << src.status();
  ASSERT_EQ(src->size(), 2);  // specs for one input concatenate
  EXPECT_EQ(src->Get(0).value()[0], Iota({1, 2, 3}));
  EXPECT_EQ(src->Get(1).value()[0], Iota({1, 2, 3}, 100));
}

TEST(SampleSourceTest, DynamicDimsResolveFromData) {
  const std::string dir = MakeTempDir();
  WriteNpyFile(dir + "/a.npy", Iota({1, 7, 4}));
  absl::StatusOr<SampleSource> src =
      Open({dir + "/a.npy"}, {Input("x", ir::DataType::kFloat32, {1, -1, 4})});
  ASSERT_TRUE(src.ok()) << src.status();
  EXPECT_EQ(src->Get(0).value()[0].shape(), (std::vector<int64_t>{1, 7, 4}));
}

TEST(SampleSourceTest, ConvertsFloat64AndFloat16) {
  const std::string dir = MakeTempDir();
  ir::HostTensor f64(ir::DataType::kFloat64, {2, 2});
  std::vector<double> values = {0.1, -2.5, 1e300, 3};
  std::memcpy(f64.data(), values.data(), 32);
  WriteNpyFile(dir + "/d.npy", f64);
  absl::StatusOr<SampleSource> src =
      Open({dir + "/d.npy"}, {Input("x", ir::DataType::kFloat32, {1, 2})});
  ASSERT_TRUE(src.ok()) << src.status();
  EXPECT_THAT(src->Get(0).value()[0].Flat<float>(), ElementsAre(0.1f, -2.5f));
  EXPECT_THAT(src->Get(1).value()[0].Flat<float>(),
              ElementsAre(std::numeric_limits<float>::infinity(), 3.0f));
  // numpy's float16 fixture: [[-2, -1, 0], [1, 2, 3]].
  src = Open({TestdataPath("npy/f2.npy")},
             {Input("x", ir::DataType::kFloat32, {-1, 3})});
  ASSERT_TRUE(src.ok()) << src.status();
  EXPECT_THAT(src->Get(1).value()[0].Flat<float>(), ElementsAre(1, 2, 3));
}

TEST(SampleSourceTest, ShapeAndTypeMismatchMessages) {
  const std::string dir = MakeTempDir();
  WriteNpyFile(dir + "/x.npy", Iota({3, 8, 8}));
  absl::StatusOr<SampleSource> src = Open(
      {dir + "/x.npy"}, {Input("image", ir::DataType::kFloat32, {1, 8, 8, 3})});
  ASSERT_FALSE(src.ok());
  EXPECT_EQ(src.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(src.status().message(),
            absl::StrCat(dir,
                         "/x.npy: shape [3,8,8] does not fit input 'image' "
                         "float32[1,8,8,3] (want [1,8,8,3], [N,8,8,3], "
                         "[8,8,3] or [N,1,8,8,3])"));
  src = Open({TestdataPath("npy/i4.npy")},
             {Input("image", ir::DataType::kFloat32, {-1, 3})});
  ASSERT_FALSE(src.ok());
  EXPECT_THAT(src.status().message(),
              HasSubstr("i4.npy: dtype int32 does not match input 'image' "
                        "float32[-1,3]"));
  // Integer data feeds an integer input of the same type as is.
  src = Open({TestdataPath("npy/i4.npy")},
             {Input("ids", ir::DataType::kInt32, {1, 3})});
  ASSERT_TRUE(src.ok()) << src.status();
  EXPECT_THAT(src->Get(0).value()[0].Flat<int32_t>(), ElementsAre(-2, -1, 0));
}

TEST(SampleSourceTest, BindsByNameAndRefusesAmbiguity) {
  const std::string dir = MakeTempDir();
  WriteNpyFile(dir + "/img.npy", Iota({2, 4, 4, 3}));
  ir::HostTensor mask(ir::DataType::kUInt8, {2, 4});
  mask.bytes()[5] = 9;
  WriteNpyFile(dir + "/mask.npy", mask);
  const std::vector<InputDesc> inputs = NpzInputs();
  // Signature name for one, tensor name for the other, any order.
  absl::StatusOr<SampleSource> src =
      Open({"mask=" + dir + "/mask.npy", "image=" + dir + "/img.npy"}, inputs);
  ASSERT_TRUE(src.ok()) << src.status();
  ASSERT_EQ(src->size(), 2);
  absl::StatusOr<std::vector<ir::HostTensor>> s = src->Get(1);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->size(), 2u);  // model input order
  EXPECT_EQ((*s)[0], Iota({1, 4, 4, 3}, 48));
  EXPECT_THAT((*s)[1].Flat<uint8_t>(), ElementsAre(0, 9, 0, 0));
  EXPECT_EQ(src->SampleName(1),
            "serving_default_image:0=img.npy[1], mask=mask.npy[1]");

  absl::StatusOr<SampleSource> unbound = Open({dir + "/img.npy"}, inputs);
  ASSERT_FALSE(unbound.ok());
  EXPECT_THAT(unbound.status().message(),
              HasSubstr("the model has 2 inputs; bind each with NAME="));
  absl::StatusOr<SampleSource> missing =
      Open({"image=" + dir + "/img.npy"}, inputs);
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(),
              HasSubstr("no --data for input 'mask' uint8[-1,4]"));
  absl::StatusOr<SampleSource> wrong =
      Open({"maks=" + dir + "/mask.npy"}, inputs);
  EXPECT_THAT(wrong.status().message(),
              HasSubstr("'maks' is not a model input (inputs: "
                        "'serving_default_image:0' (signature 'image'), "
                        "'mask')"));
}

TEST(SampleSourceTest, NpzBindsByKey) {
  for (const char* name : {"npz/savez.npz", "npz/savez_compressed.npz"}) {
    SCOPED_TRACE(name);
    absl::StatusOr<SampleSource> src = Open({TestdataPath(name)}, NpzInputs());
    ASSERT_TRUE(src.ok()) << src.status();
    ASSERT_EQ(src->size(), 2);
    absl::StatusOr<std::vector<ir::HostTensor>> s = src->Get(1);
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ((*s)[0].shape(), (std::vector<int64_t>{1, 4, 4, 3}));
    EXPECT_EQ((*s)[0].Flat<float>()[0], 4.8f);  // arange(96)/10, sample 1
    EXPECT_THAT((*s)[1].Flat<uint8_t>(), ElementsAre(4, 5, 6, 7));
  }
  // An .npz takes no NAME=, and its keys must name inputs.
  EXPECT_THAT(Open({"mask=" + TestdataPath("npz/savez.npz")}, NpzInputs())
                  .status()
                  .message(),
              HasSubstr("an .npz binds its arrays by key"));
  EXPECT_THAT(Open({TestdataPath("npz/savez.npz")},
                   {Input("image", ir::DataType::kFloat32, {1, 4, 4, 3})})
                  .status()
                  .message(),
              HasSubstr("key 'mask' is not a model input (inputs: 'image')"));
  // All inputs must end up with the same number of samples: here mask fits
  // [1,2,4] as one sample while image has two.
  absl::StatusOr<SampleSource> uneven =
      Open({TestdataPath("npz/savez.npz")},
           {Input("image", ir::DataType::kFloat32, {1, 4, 4, 3}),
            Input("mask", ir::DataType::kUInt8, {1, 2, 4})});
  ASSERT_FALSE(uneven.ok());
  EXPECT_EQ(uneven.status().message(),
            "inputs disagree on the number of samples: 'image' has 2, 'mask' "
            "has 1");
}

// GCC says __SANITIZE_ADDRESS__, clang (which builds the sanitizer tree)
// __has_feature(address_sanitizer).
#if defined(__SANITIZE_ADDRESS__)
#define QF_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define QF_TEST_UNDER_ASAN 1
#endif
#endif
#ifndef QF_TEST_UNDER_ASAN
#define QF_TEST_UNDER_ASAN 0
#endif

// A small .npz whose compressed member declares gigabytes: refused on what
// its header declares, before the member is inflated (its stream holds the
// header only, so inflating would fail as corrupt instead). The shape
// against the input first, then the size against the memory qforge may
// use: a lowered RLIMIT_AS gives a clear error, not an allocation failure.
TEST(SampleSourceTest, HugeNpzMembersAreRefusedBeforeInflating) {
  const std::string dir = MakeTempDir();
  const std::string path = dir + "/huge.npz";
  WriteBytes(path, HugeDeflatedNpz("x", {5'000'000'000}, 20'000'000));
  absl::StatusOr<SampleSource> src =
      Open({path}, {Input("x", ir::DataType::kFloat32, {-1, 4})});
  ASSERT_FALSE(src.ok());
  EXPECT_THAT(src.status().message(), HasSubstr(path + "[x]: "));
  EXPECT_THAT(src.status().message(), Not(HasSubstr("corrupt")));
  EXPECT_EQ(src.status().message().find('\n'), std::string::npos);

#if QF_TEST_UNDER_ASAN
  GTEST_SKIP() << "AddressSanitizer reserves more address space than the "
                  "limit this case sets";
#else
  // 150M samples of [1, 4] float32: 2.4 GB behind 3 MB, with the address
  // space limited to 1 GiB (so half of it, 512 MiB, may be inflated).
  WriteBytes(path, HugeDeflatedNpz("x", {150'000'000, 4}, 3'000'000));
  const auto limited_open = [&path]() {
    struct rlimit limit = {1u << 30, 1u << 30};
    if (::setrlimit(RLIMIT_AS, &limit) != 0) std::_Exit(3);
    absl::StatusOr<SampleSource> big =
        Open({path}, {Input("x", ir::DataType::kFloat32, {-1, 4})});
    if (big.ok()) std::_Exit(4);
    std::fprintf(stderr, "%s\n", std::string(big.status().message()).c_str());
    std::_Exit(0);
  };
  EXPECT_EXIT(
      limited_open(), ::testing::ExitedWithCode(0),
      ::testing::AllOf(
          HasSubstr("huge.npz[x]: compressed member inflates to 24000001"),
          HasSubstr("more than qforge keeps in memory")));
#endif
}

TEST(SampleSourceTest, RawBinaries) {
  const std::string dir = MakeTempDir();
  const ir::HostTensor data = Iota({3, 4});
  WriteBytes(dir + "/x.bin", data.bytes());
  absl::StatusOr<SampleSource> src =
      Open({dir + "/x.bin"}, {Input("x", ir::DataType::kFloat32, {-1, 4})});
  ASSERT_TRUE(src.ok()) << src.status();
  ASSERT_EQ(src->size(), 3);
  EXPECT_EQ(src->Get(1).value()[0], Iota({1, 4}, 4));
  WriteBytes(dir + "/odd.raw",
             absl::MakeConstSpan(data.bytes().data(), data.ByteSize() - 4));
  EXPECT_THAT(
      Open({dir + "/odd.raw"}, {Input("x", ir::DataType::kFloat32, {1, 8})})
          .status()
          .message(),
      HasSubstr("odd.raw: 11 values is not a positive multiple of "
                "input 'x' float32[1,8] (8 values per sample)"));
  WriteBytes(dir + "/ragged.bin", absl::MakeConstSpan(data.bytes().data(), 6));
  EXPECT_THAT(
      Open({dir + "/ragged.bin"}, {Input("x", ir::DataType::kFloat32, {1, 8})})
          .status()
          .message(),
      HasSubstr("6 bytes is not a whole number of float32 values"));
}

TEST(SampleSourceTest, ListsDirectoriesAndGlobs) {
  const std::string dir = MakeTempDir();
  std::filesystem::create_directory(dir + "/set");
  WriteNpyFile(dir + "/set/b.npy", Iota({1, 2}, 20));
  WriteNpyFile(dir + "/set/a.npy", Iota({2, 2}, 10));  // two samples
  WriteText(dir + "/set/README.md", "ignored");
  WriteText(dir + "/list.txt", "# order as listed\nset/b.npy\n\nset/a.npy\n");
  const std::vector<InputDesc> in = {
      Input("x", ir::DataType::kFloat32, {-1, 2})};

  absl::StatusOr<SampleSource> dsrc = Open({dir + "/set"}, in);
  ASSERT_TRUE(dsrc.ok()) << dsrc.status();
  ASSERT_EQ(dsrc->size(), 3);
  EXPECT_EQ(dsrc->Get(0).value()[0], Iota({1, 2}, 10));  // a.npy first
  EXPECT_EQ(dsrc->Get(2).value()[0], Iota({1, 2}, 20));
  EXPECT_EQ(dsrc->SampleName(1), "a.npy[1]");

  absl::StatusOr<SampleSource> lsrc = Open({dir + "/list.txt"}, in);
  ASSERT_TRUE(lsrc.ok()) << lsrc.status();
  ASSERT_EQ(lsrc->size(), 3);
  EXPECT_EQ(lsrc->Get(0).value()[0], Iota({1, 2}, 20));  // b.npy first
  EXPECT_EQ(lsrc->SampleName(0), "set/b.npy");

  absl::StatusOr<SampleSource> gsrc = Open({"x=" + dir + "/set/*.npy"}, in);
  ASSERT_TRUE(gsrc.ok()) << gsrc.status();
  EXPECT_EQ(gsrc->size(), 3);

  WriteText(dir + "/broken.txt", "set/nope.npy\n");
  absl::StatusOr<SampleSource> broken = Open({dir + "/broken.txt"}, in);
  EXPECT_EQ(broken.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(broken.status().message(),
              HasSubstr("set/nope.npy: no such file (input 'x')"));
}

TEST(SampleSourceTest, WavWindowsAndTypes) {
  const std::string wav = TestdataPath("yes_1000ms.wav");
  const std::vector<uint8_t> bytes = ReadBytes(wav);
  absl::StatusOr<SampleSource> one =
      Open({wav}, {Input("audio", ir::DataType::kFloat32, {1, 16000})});
  ASSERT_TRUE(one.ok()) << one.status();
  ASSERT_EQ(one->size(), 1);
  ir::HostTensor t = one->Get(0).value()[0];
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{1, 16000}));
  int16_t s100;
  std::memcpy(&s100, bytes.data() + 44 + 200, 2);
  EXPECT_EQ(t.Flat<float>()[100], s100 / 32768.0f);

  absl::StatusOr<SampleSource> windows =
      Open({wav}, {Input("audio", ir::DataType::kInt16, {1, 4000})});
  ASSERT_TRUE(windows.ok()) << windows.status();
  ASSERT_EQ(windows->size(), 4);
  EXPECT_EQ(windows->Get(0).value()[0].Flat<int16_t>()[100], s100);
  int16_t s4100;
  std::memcpy(&s4100, bytes.data() + 44 + 2 * 4100, 2);
  EXPECT_EQ(windows->Get(1).value()[0].Flat<int16_t>()[100], s4100);

  EXPECT_TRUE(windows->notes().empty());  // 16000 = 4 * 4000

  // 16000 = 2 * 7000 + 2000: two windows, the last 2000 samples dropped
  // with a note.
  absl::StatusOr<SampleSource> partial =
      Open({wav}, {Input("audio", ir::DataType::kFloat32, {1, 7000})});
  ASSERT_TRUE(partial.ok()) << partial.status();
  EXPECT_EQ(partial->size(), 2);
  EXPECT_THAT(partial->notes(),
              ElementsAre(absl::StrCat(
                  wav,
                  ": 16000 samples -> 2 windows of 7000 (hop 7000); the "
                  "last 2000 samples are dropped")));
  int16_t s7100;
  std::memcpy(&s7100, bytes.data() + 44 + 2 * 7100, 2);
  EXPECT_EQ(partial->Get(1).value()[0].Flat<float>()[100], s7100 / 32768.0f);

  // Overlapping windows (--window 4000 --hop 1000 for a dynamic length):
  // starts 0, 1000, ..., 12000, (16000-4000)/1000+1 = 13 windows.
  LoadOptions overlap;
  overlap.window = 4000;
  overlap.hop = 1000;
  absl::StatusOr<SampleSource> hops =
      Open({wav}, {Input("audio", ir::DataType::kInt16, {1, -1})}, overlap);
  ASSERT_TRUE(hops.ok()) << hops.status();
  ASSERT_EQ(hops->size(), 13);
  EXPECT_TRUE(hops->notes().empty());
  const ir::HostTensor w3 = hops->Get(3).value()[0];
  EXPECT_EQ(w3.shape(), (std::vector<int64_t>{1, 4000}));
  int16_t s3100;
  std::memcpy(&s3100, bytes.data() + 44 + 2 * 3100, 2);
  EXPECT_EQ(w3.Flat<int16_t>()[100], s3100);
  EXPECT_EQ(Open({wav}, {Input("audio", ir::DataType::kFloat32, {1, 20000})})
                .status()
                .message(),
            absl::StrCat(wav,
                         ": 16000 values is less than one window of 20000 "
                         "for input 'audio' float32[1,20000]"));
  LoadOptions eight_k;
  eight_k.sample_rate = 8000;
  EXPECT_EQ(
      Open({wav}, {Input("audio", ir::DataType::kFloat32, {1, 16000})}, eight_k)
          .status()
          .message(),
      absl::StrCat(wav,
                   ": is 16000 Hz, expected 8000 Hz (--sample-rate) "
                   "(input 'audio')"));
  EXPECT_THAT(Open({wav}, {Input("audio", ir::DataType::kUInt8, {1, 16000})})
                  .status()
                  .message(),
              HasSubstr("cannot take audio"));

  const std::string dir = MakeTempDir();
  std::vector<int16_t> stereo_samples(8, 1);
  std::vector<uint8_t> stereo = MakeWav16(stereo_samples);
  stereo[22] = 2;  // channels
  WriteBytes(dir + "/st.wav", stereo);
  EXPECT_THAT(
      Open({dir + "/st.wav"}, {Input("audio", ir::DataType::kFloat32, {1, 4})})
          .status()
          .message(),
      HasSubstr("st.wav: has 2 channels; qforge reads mono"));
}

TEST(SampleSourceTest, ImagesFromADirectory) {
  const std::string dir = MakeTempDir();
  std::filesystem::copy(TestdataPath("person.bmp"), dir + "/1.bmp");
  std::filesystem::copy(TestdataPath("mnist_sample3.png"), dir + "/2.png");
  std::filesystem::copy(TestdataPath("shoe_224_224_3.jpeg"), dir + "/3.jpeg");
  LoadOptions options;
  options.image.scale = 1.0f / 255;
  absl::StatusOr<SampleSource> src =
      Open({dir}, {Input("input", ir::DataType::kFloat32, {-1, 32, 32, 3})},
           options);
  ASSERT_TRUE(src.ok()) << src.status();
  ASSERT_EQ(src->size(), 3);
  for (int64_t i = 0; i < 3; ++i) {
    absl::StatusOr<std::vector<ir::HostTensor>> s = src->Get(i);
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ((*s)[0].shape(), (std::vector<int64_t>{1, 32, 32, 3}));
    for (float v : (*s)[0].Flat<float>()) {
      ASSERT_GE(v, 0.0f);
      ASSERT_LE(v, 1.0f);
    }
  }
  EXPECT_THAT(
      Open({dir}, {Input("ids", ir::DataType::kInt32, {1, 256})})
          .status()
          .message(),
      HasSubstr("1.bmp: input 'ids' int32[1,256] is not an image input"));
  WriteText(dir + "/4.png", "not a png");
  EXPECT_THAT(
      Open({dir}, {Input("input", ir::DataType::kFloat32, {-1, 32, 32, 3})})
          .status()
          .message(),
      HasSubstr("4.png: cannot decode image"));
}

// Get(i) depends only on i: any order, any thread, same tensors.
TEST(SampleSourceTest, GetIsShardIndependentAndThreadSafe) {
  const std::string dir = MakeTempDir();
  WriteNpyFile(dir + "/x.npy", Iota({64, 5}));
  std::filesystem::copy(TestdataPath("person.bmp"), dir + "/p.bmp");
  absl::StatusOr<SampleSource> src =
      Open({"x=" + dir + "/x.npy", "img=" + dir + "/p.bmp"},
           {Input("x", ir::DataType::kFloat32, {1, 5}),
            Input("img", ir::DataType::kUInt8, {1, 48, 48, 1})});
  ASSERT_FALSE(src.ok());  // 64 vs 1 samples
  src = Open({"x=" + dir + "/x.npy"},
             {Input("x", ir::DataType::kFloat32, {1, 5})});
  ASSERT_TRUE(src.ok()) << src.status();
  std::vector<std::vector<ir::HostTensor>> sequential;
  for (int64_t i = 0; i < src->size(); ++i) {
    sequential.push_back(src->Get(i).value());
  }
  std::vector<int64_t> order(static_cast<size_t>(src->size()));
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int64_t>(i);
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::vector<int64_t> mine = order;
      std::shuffle(mine.begin(), mine.end(), std::mt19937(t));
      for (int64_t i : mine) {
        if (i % 4 != t && t != 0) continue;  // shards, plus a full pass
        absl::StatusOr<std::vector<ir::HostTensor>> s = src->Get(i);
        if (!s.ok() || *s != sequential[static_cast<size_t>(i)]) {
          ++mismatches[static_cast<size_t>(t)];
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_THAT(mismatches, ElementsAre(0, 0, 0, 0));
}

TEST(SampleSourceTest, FingerprintIsStable) {
  const std::string a = MakeTempDir();
  const std::string b = MakeTempDir();
  for (const std::string& dir : {a, b}) {
    std::filesystem::create_directory(dir + "/set");
    WriteNpyFile(dir + "/set/x.npy", Iota({4, 3}));
    WriteNpyFile(dir + "/set/y.npy", Iota({2, 3}, 7));
  }
  const std::vector<InputDesc> in = {
      Input("x", ir::DataType::kFloat32, {-1, 3})};
  const std::string fa = Open({a + "/set"}, in)->Fingerprint().value();
  EXPECT_EQ(fa.size(), 16u);
  // Same files in another folder (another machine): same fingerprint.
  EXPECT_EQ(Open({b + "/set"}, in)->Fingerprint().value(), fa);
  EXPECT_EQ(Open({a + "/set"}, in)->Fingerprint().value(), fa);
  // Content, options and spec all count.
  WriteNpyFile(b + "/set/y.npy", Iota({2, 3}, 8));
  EXPECT_NE(Open({b + "/set"}, in)->Fingerprint().value(), fa);
  LoadOptions options;
  options.image.mean = {1};
  EXPECT_NE(Open({a + "/set"}, in, options)->Fingerprint().value(), fa);
  LoadOptions hop;
  hop.hop = 3;
  EXPECT_NE(Open({a + "/set"}, in, hop)->Fingerprint().value(), fa);
  EXPECT_NE(Open({"x=" + a + "/set"}, in)->Fingerprint().value(), fa);
  EXPECT_NE(
      Open({a + "/set/x.npy", a + "/set/y.npy"}, in)->Fingerprint().value(),
      fa);

  // Binding order on the command line does not matter.
  const std::vector<InputDesc> two = NpzInputs();
  const std::string img = TestdataPath("npy/f4.npy");
  WriteNpyFile(a + "/img.npy", Iota({2, 4, 4, 3}));
  WriteNpyFile(a + "/mask.npy", ir::HostTensor(ir::DataType::kUInt8, {2, 4}));
  EXPECT_EQ(Open({"image=" + a + "/img.npy", "mask=" + a + "/mask.npy"}, two)
                ->Fingerprint()
                .value(),
            Open({"mask=" + a + "/mask.npy", "image=" + a + "/img.npy"}, two)
                ->Fingerprint()
                .value());

  // Pinned: the fingerprint of the checked-in numpy fixture with default
  // options. A change here invalidates every cached calibration; bump
  // kFingerprintVersion in data_source.cc on purpose, then update this.
  EXPECT_EQ(Open({TestdataPath("npz/savez.npz")}, two)->Fingerprint().value(),
            "801d9fd66083d020");  // qforge-data/3 (JPEG by libjpeg-turbo)
}

// Array files are hashed from the bytes Get() reads (lazy_content_hash.h),
// so the fingerprint must not depend on which samples were read, in which
// order or by how many threads. The pinned values come from the build
// before that change (0a74433), which hashed each file whole when it was
// opened: `qforge calibrate testdata/models/two_signatures.tflite --data F`
// (its input is float32[?], as here).
TEST(SampleSourceTest, FingerprintDoesNotDependOnWhatWasRead) {
  const std::vector<InputDesc> in = {Input("x", ir::DataType::kFloat32, {-1})};
  LoadOptions windows;  // overlapping: each window re-reads 3/4 of the last
  windows.window = 4000;
  windows.hop = 1000;
  struct Case {
    std::string path;
    LoadOptions options;
    std::string pinned;
  };
  const Case cases[] = {
      {TestdataPath("npy/f4.npy"), {}, "6b1837282e3b8a35"},  // read in place
      {TestdataPath("npy/f8.npy"), {}, "cffbe89591e9178c"},  // converted
      {TestdataPath("yes_1000ms.wav"), {}, "4d4e9cda7330a36c"},
      {TestdataPath("yes_1000ms.wav"), windows, "8a28dc35d6a9e3e8"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.path);
    const int64_t n = Open({c.path}, in, c.options)->size();
    ASSERT_GT(n, 0);
    std::vector<std::pair<std::string, std::vector<int64_t>>> patterns;
    patterns.push_back({"nothing", {}});
    std::vector<int64_t> all(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) all[static_cast<size_t>(i)] = i;
    patterns.push_back({"in order", all});
    patterns.push_back({"reversed", {all.rbegin(), all.rend()}});
    patterns.push_back({"the last", {n - 1}});
    std::vector<int64_t> some;
    for (int64_t i = 1; i < n; i += 3) some.push_back(i);
    patterns.push_back({"every third", some});
    for (const auto& [name, reads] : patterns) {
      absl::StatusOr<SampleSource> src = Open({c.path}, in, c.options);
      ASSERT_TRUE(src.ok()) << src.status();
      for (int64_t i : reads) ASSERT_TRUE(src->Get(i).ok());
      EXPECT_EQ(src->Fingerprint().value(), c.pinned) << name;
    }
    // Four threads reading all samples at once, twice each.
    absl::StatusOr<SampleSource> src = Open({c.path}, in, c.options);
    ASSERT_TRUE(src.ok()) << src.status();
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&src, n, t] {
        for (int64_t i = t % 2; i < 2 * n; ++i) (void)src->Get(i % n);
      });
    }
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(src->Fingerprint().value(), c.pinned) << "4 threads";
  }
}

// A file cut short after it was opened: the sample read and the
// fingerprint say so, naming the file; neither reads past its end.
TEST(SampleSourceTest, FileShortenedAfterOpenIsAnError) {
  const std::string dir = MakeTempDir();
  WriteNpyFile(dir + "/x.npy", Iota({8, 4}));
  absl::StatusOr<SampleSource> src =
      Open({dir + "/x.npy"}, {Input("x", ir::DataType::kFloat32, {-1, 4})});
  ASSERT_TRUE(src.ok()) << src.status();
  // 8 samples of 16 bytes end the file; the last 4 go.
  std::filesystem::resize_file(dir + "/x.npy",
                               std::filesystem::file_size(dir + "/x.npy") - 64);
  EXPECT_TRUE(src->Get(3).ok());
  const absl::Status read = src->Get(7).status();
  EXPECT_EQ(read.code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(read.message(), HasSubstr("x.npy: file is shorter"));
  const absl::Status hash = src->Fingerprint().status();
  EXPECT_EQ(hash.code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(hash.message(), HasSubstr("x.npy: file is shorter"));
}

// Array files are kept open to read samples from, at most a quarter of
// `ulimit -n` of them; past that, and when descriptors run out, a file is
// opened per sample. Either way the samples and the fingerprint are the
// same as with descriptors to spare.
TEST(SampleSourceTest, FewDescriptorsReadTheSameSamples) {
  const std::string dir = MakeTempDir();
  for (int i = 0; i < 40; ++i) {
    WriteNpyFile(absl::StrCat(dir, "/s", 100 + i, ".npy"), Iota({2, 3}, i));
  }
  const std::vector<InputDesc> in = {
      Input("x", ir::DataType::kFloat32, {-1, 3})};
  std::vector<std::vector<ir::HostTensor>> samples;
  std::string fingerprint;
  {
    absl::StatusOr<SampleSource> roomy = Open({dir}, in);
    ASSERT_TRUE(roomy.ok()) << roomy.status();
    ASSERT_EQ(roomy->size(), 80);
    for (int64_t i = 0; i < 80; ++i) samples.push_back(roomy->Get(i).value());
    fingerprint = roomy->Fingerprint().value();
  }

  struct rlimit saved;
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &saved), 0);
  int open_now = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator("/proc/self/fd")) {
    (void)entry;
    ++open_now;
  }
  // Room for what is open now plus 12: a few files are kept open, the rest
  // read per sample.
  struct rlimit low = saved;
  low.rlim_cur = static_cast<rlim_t>(open_now + 12);
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
  absl::StatusOr<SampleSource> tight = Open({dir}, in);
  // All but 2 of the descriptors left held elsewhere: keeping a file open
  // fails (one is needed to map it), so every file is read per sample.
  std::vector<int> held;
  for (;;) {
    const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd < 0) break;
    held.push_back(fd);
  }
  for (int k = 0; k < 2 && !held.empty(); ++k) {
    ::close(held.back());
    held.pop_back();
  }
  absl::StatusOr<SampleSource> starved = Open({dir}, in);
  for (int fd : held) ::close(fd);
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &saved), 0);
  ASSERT_TRUE(tight.ok()) << tight.status();
  ASSERT_TRUE(starved.ok()) << starved.status();
  for (const absl::StatusOr<SampleSource>* src : {&tight, &starved}) {
    for (int64_t i = 0; i < 80; ++i) {
      ASSERT_EQ((*src)->Get(i).value(), samples[static_cast<size_t>(i)]) << i;
    }
    EXPECT_EQ((*src)->Fingerprint().value(), fingerprint);
  }
}

}  // namespace
}  // namespace qforge::formats

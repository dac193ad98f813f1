// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/wav.h"

#include <cstring>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/formats/data/test_util.h"

namespace qforge::formats {
namespace {

using ::qforge::formats::testing::MakeWav;
using ::qforge::formats::testing::MakeWav16;
using ::qforge::formats::testing::Mutate;
using ::qforge::formats::testing::ReadBytes;
using ::qforge::formats::testing::TestdataPath;
using ::qforge::formats::testing::WavSpec;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(WavTest, ReadsRealSpeechFile) {
  const std::vector<uint8_t> bytes = ReadBytes(TestdataPath("yes_1000ms.wav"));
  absl::StatusOr<WavInfo> info = ParseWav(bytes, "yes.wav");
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->sample_rate, 16000);
  EXPECT_EQ(info->num_samples, 16000);
  EXPECT_EQ(info->data_offset, 44u);

  absl::StatusOr<std::vector<float>> samples = ReadWavFloat(bytes, "yes.wav");
  absl::StatusOr<std::vector<int16_t>> raw = ReadWavInt16(bytes, "yes.wav");
  ASSERT_TRUE(samples.ok() && raw.ok());
  ASSERT_EQ(samples->size(), 16000u);
  ASSERT_EQ(raw->size(), 16000u);
  int nonzero = 0;
  for (size_t i = 0; i < samples->size(); ++i) {
    int16_t stored;
    std::memcpy(&stored, bytes.data() + 44 + 2 * i, 2);
    EXPECT_EQ((*raw)[i], stored);
    EXPECT_EQ((*samples)[i], stored / 32768.0f);
    EXPECT_GE((*samples)[i], -1.0f);
    EXPECT_LT((*samples)[i], 1.0f);
    nonzero += stored != 0;
  }
  EXPECT_GT(nonzero, 8000);  // it is speech, not silence
}

TEST(WavTest, ScalesFullRange) {
  absl::StatusOr<std::vector<float>> s =
      ReadWavFloat(MakeWav16({-32768, -16384, 0, 16384, 32767}), "r.wav");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_THAT(*s, ElementsAre(-1.0f, -0.5f, 0.0f, 0.5f, 32767 / 32768.0f));
}

TEST(WavTest, RefusesStereo) {
  WavSpec spec;
  spec.channels = 2;
  absl::StatusOr<WavInfo> info =
      ParseWav(MakeWav(spec, std::vector<uint8_t>(8)), "st.wav");
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(info.status().message(),
            "st.wav: has 2 channels; qforge reads mono");
}

TEST(WavTest, RefusesSampleRateMismatch) {
  const std::vector<uint8_t> wav = MakeWav16({1, 2, 3}, 44100);
  EXPECT_EQ(ParseWav(wav, "cd.wav").status().message(),
            "cd.wav: is 44100 Hz, expected 16000 Hz (--sample-rate)");
  EXPECT_THAT(ParseWav(wav, "cd.wav", WavOptions{8000}).status().message(),
              HasSubstr("expected 8000 Hz"));
  absl::StatusOr<WavInfo> any = ParseWav(wav, "cd.wav", WavOptions{0});
  ASSERT_TRUE(any.ok()) << any.status();
  EXPECT_EQ(any->sample_rate, 44100);
  EXPECT_TRUE(ParseWav(wav, "cd.wav", WavOptions{44100}).ok());
}

TEST(WavTest, RefusesOtherEncodings) {
  WavSpec eight;
  eight.bits = 8;
  EXPECT_THAT(ParseWav(MakeWav(eight, {1, 2}), "8.wav").status().message(),
              HasSubstr("is 8-bit PCM; qforge reads 16-bit PCM"));
  WavSpec fl;
  fl.format = 3;
  fl.bits = 32;
  EXPECT_THAT(ParseWav(MakeWav(fl, {0, 0, 0, 0}), "f.wav").status().message(),
              HasSubstr("IEEE float"));
  WavSpec alaw;
  alaw.format = 6;
  EXPECT_THAT(ParseWav(MakeWav(alaw, {0, 0}), "a.wav").status().message(),
              HasSubstr("not PCM (format tag 6)"));
  const std::vector<uint8_t> text = {'h', 'e', 'l', 'l', 'o', ' ', 'w',
                                     'o', 'r', 'l', 'd', '!', '!'};
  EXPECT_EQ(ParseWav(text, "t.wav").status().message(),
            "t.wav: not a RIFF/WAVE file");
}

TEST(WavTest, SkipsOtherChunksAndAcceptsExtensiblePcm) {
  std::vector<uint8_t> wav = MakeWav16({7, -7});
  // Insert an odd-sized LIST chunk (padded to even) before 'data'.
  const std::vector<uint8_t> list = {'L', 'I', 'S', 'T', 3,   0,
                                     0,   0,   'a', 'b', 'c', 0};
  wav.insert(wav.begin() + 36, list.begin(), list.end());
  absl::StatusOr<std::vector<int16_t>> s = ReadWavInt16(wav, "l.wav");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_THAT(*s, ElementsAre(7, -7));

  // WAVE_FORMAT_EXTENSIBLE with the PCM sub-format GUID.
  std::vector<uint8_t> ext = MakeWav16({5});
  ext[20] = 0xFE;
  ext[21] = 0xFF;
  ext[16] = 40;  // fmt chunk size
  std::vector<uint8_t> tail(24, 0);
  tail[0] = 22;  // cbSize
  tail[2] = 16;  // valid bits
  tail[8] = 1;   // sub-format GUID starts 01 00
  ext.insert(ext.begin() + 36, tail.begin(), tail.end());
  s = ReadWavInt16(ext, "x.wav");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_THAT(*s, ElementsAre(5));
}

TEST(WavTest, RefusesTruncatedData) {
  std::vector<uint8_t> wav = MakeWav16({1, 2, 3, 4});
  wav.resize(wav.size() - 3);
  EXPECT_THAT(ParseWav(wav, "cut.wav").status().message(),
              HasSubstr("truncated: data chunk says 8 bytes, file has 5"));
  const std::vector<uint8_t> real = ReadBytes(TestdataPath("yes_1000ms.wav"));
  for (size_t n = 0; n < 200; ++n) {
    EXPECT_FALSE(ParseWav(absl::MakeConstSpan(real.data(), n), "c").ok()) << n;
  }
}

TEST(WavTest, SurvivesMutations) {
  const std::vector<uint8_t> small = MakeWav16({1, -2, 3, -4, 5});
  for (uint32_t seed = 0; seed < 5000; ++seed) {
    (void)ReadWavFloat(Mutate(small, seed), "m.wav", WavOptions{0});
  }
}

}  // namespace
}  // namespace qforge::formats

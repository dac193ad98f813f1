// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target for statistics files (docs/stats-format.md): parse;
// an accepted file must serialise and parse back to the same statistics;
// merge it alone and with a shard of the bundled MNIST CNN's calibration
// (testdata/stats/mnist.shard1of2.json); check it against that model and
// quantize the model with it (int8 and int16x8, minmax / percentile / kl /
// mse). Seed with testdata/stats and testdata/bad_stats; tests/fuzz/stats.dict
// holds the format's keys. Refusals are statuses; crashes, sanitizer reports,
// uncaught exceptions and hangs are bugs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "calibration/stats_file.h"
#include "formats/tflite_reader.h"
#include "quantizer/quantize.h"

namespace {

using namespace qforge;  // NOLINT: a fuzzer entry point

struct Fixture {
  ir::Model model;
  calibration::StatsFile shard;
};

const Fixture& GetFixture() {
  static const Fixture* fixture = [] {
    auto* f = new Fixture;
    const std::string dir = QFORGE_TESTDATA_DIR;
    absl::StatusOr<ir::Model> model =
        formats::ReadTfliteFile(dir + "/models/conv_fc_mnist.tflite");
    absl::StatusOr<calibration::StatsFile> shard =
        calibration::ReadStatsFile(dir + "/stats/mnist.shard1of2.json");
    if (!model.ok() || !shard.ok()) std::abort();
    f->model = *std::move(model);
    f->shard = *std::move(shard);
    return f;
  }();
  return *fixture;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Fixture& fixture = GetFixture();
  const std::string text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<calibration::StatsFile> stats =
      calibration::ParseStats(text, "fuzz.json");
  if (!stats.ok()) return 0;
  const std::string again = calibration::SerializeStats(*stats);
  absl::StatusOr<calibration::StatsFile> back =
      calibration::ParseStats(again, "again.json");
  if (!back.ok() || calibration::SerializeStats(*back) != again) std::abort();

  const std::string names[] = {"fuzz.json", "shard1.json"};
  (void)calibration::MergeStats(absl::MakeConstSpan(&*stats, 1), names);
  const calibration::StatsFile pair[] = {*stats, fixture.shard};
  absl::StatusOr<calibration::StatsFile> merged =
      calibration::MergeStats(pair, names);

  for (const calibration::StatsFile* s :
       {&*stats, merged.ok() ? &*merged : nullptr}) {
    if (s == nullptr ||
        !calibration::CheckStatsMatchModel(*s, fixture.model, "fuzz").ok()) {
      continue;
    }
    quantizer::QuantizeOptions options;
    const uint8_t selector = data[size / 2];
    options.scheme =
        (selector & 1) ? quantizer::Scheme::kInt16x8 : quantizer::Scheme::kInt8;
    options.range.num_bits =
        options.scheme == quantizer::Scheme::kInt16x8 ? 16 : 8;
    constexpr calibration::RangeMethod kMethods[] = {
        calibration::RangeMethod::kMinMax,
        calibration::RangeMethod::kPercentile, calibration::RangeMethod::kKl,
        calibration::RangeMethod::kMse};
    options.range.method = kMethods[(selector >> 1) % 4];
    (void)quantizer::Quantize(fixture.model, s, options);
  }
  return 0;
}

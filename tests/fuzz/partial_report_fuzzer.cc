// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target for partial report files (docs/report-partial.md), what
// `merge-reports` reads from other machines: parse; an accepted file must
// serialise and parse back to the same text; merge it alone, with itself
// (overlapping shards) and with a real shard of the bundled hello-world
// model's report (testdata/fuzz/partial_report_fuzzer, the seeds), and list
// its missing shards. Refusals are statuses; crashes, sanitizer reports,
// uncaught exceptions and hangs are bugs.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "report/partial.h"

namespace {

using namespace qforge;  // NOLINT: a fuzzer entry point

const report::PartialReport& Shard1() {
  static const report::PartialReport* shard = [] {
    absl::StatusOr<report::PartialReport> read = report::ReadPartialFile(
        std::string(QFORGE_TESTDATA_DIR) +
        "/fuzz/partial_report_fuzzer/hello_world_shard1of2.json");
    if (!read.ok()) std::abort();
    return new report::PartialReport(*std::move(read));
  }();
  return *shard;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const report::PartialReport& shard1 = Shard1();
  const std::string text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<report::PartialReport> partial =
      report::ParsePartial(text, "fuzz.json");
  if (!partial.ok()) return 0;
  const std::string again = report::SerializePartial(*partial);
  absl::StatusOr<report::PartialReport> back =
      report::ParsePartial(again, "again.json");
  if (!back.ok()) {
    std::fprintf(stderr, "written file refused: %s\n",
                 std::string(back.status().message()).c_str());
    std::abort();
  }
  const std::string twice = report::SerializePartial(*back);
  if (twice != again) {
    size_t i = 0;
    while (i < again.size() && i < twice.size() && again[i] == twice[i]) ++i;
    const size_t from = i > 120 ? i - 120 : 0;
    std::fprintf(stderr, "round trip differs at byte %zu:\n%s\n---\n%s\n", i,
                 again.substr(from, 240).c_str(),
                 twice.substr(from, 240).c_str());
    std::abort();
  }

  (void)report::MissingShards(*partial);
  const std::string names[] = {"fuzz.json", "shard1.json"};
  (void)report::MergePartials(absl::MakeConstSpan(&*partial, 1), names);
  const report::PartialReport self[] = {*partial, *partial};
  (void)report::MergePartials(self, names);
  const report::PartialReport pair[] = {*partial, shard1};
  absl::StatusOr<report::PartialReport> merged =
      report::MergePartials(pair, names);
  if (merged.ok()) (void)report::SerializePartial(*merged);
  return 0;
}

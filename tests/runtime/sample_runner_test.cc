// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The sample runner's contract (runtime/sample_runner.h): workers capped by
// the samples, blocks run in order on one worker, results merged in sample
// order, and the first error in sample order whatever the thread count.
#include "runtime/sample_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <numeric>
#include <set>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "formats/data/npy.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/op_model.h"
#include "tests/support/test_paths.h"

// A named namespace: unity builds put several test files in one
// translation unit, where anonymous-namespace helpers would collide.
namespace qforge::testing::sample_runner {

using ::testing::StartsWith;

// x -> RELU -> y, x float32 [1, 4].
ir::Model ReluModel() {
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 4}, "x");
  const int y = m.Output(ir::DataType::kFloat32, {1, 4}, "y");
  m.Op(ir::OpKind::kRelu, {x}, {y});
  return m.model();
}

// `n` samples in one .npy: sample i holds i - 1, i, i + 1, i + 2.
formats::SampleSource Samples(int n) {
  std::vector<float> values;
  for (int i = 0; i < n; ++i) {
    for (int j = -1; j < 3; ++j) values.push_back(static_cast<float>(i + j));
  }
  const std::string path = MakeTempDir() + "/x.npy";
  absl::StatusOr<std::vector<uint8_t>> npy =
      formats::WriteNpy(MakeTensor<float>({n, 4}, values));
  EXPECT_TRUE(npy.ok()) << npy.status();
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(npy->data()),
             static_cast<std::streamsize>(npy->size()));
  formats::InputDesc x;
  x.name = "x";
  x.shape = {-1, 4};
  absl::StatusOr<formats::SampleSource> data =
      formats::SampleSource::Open({path}, {x}, {});
  EXPECT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(data->size(), n);
  return std::move(*data);
}

std::vector<int64_t> AllOf(int64_t n) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), int64_t{0});
  return v;
}

runtime::SampleRunner MakeRunner(const ir::Model& model,
                                 const formats::SampleSource& data,
                                 absl::Span<const int64_t> samples,
                                 runtime::SampleRunnerOptions options) {
  absl::StatusOr<runtime::SampleRunner> runner =
      runtime::SampleRunner::Create({&model}, data, samples, options);
  EXPECT_TRUE(runner.ok()) << runner.status();
  return std::move(*runner);
}

TEST(SampleRunner, WorkersAreCappedBySamplesAndBlocks) {
  const ir::Model model = ReluModel();
  const formats::SampleSource data = Samples(20);
  const std::vector<int64_t> all = AllOf(20);
  auto plan = [&](int64_t n, int threads, int64_t block, bool split) {
    runtime::SampleRunnerOptions o;
    o.threads = threads;
    o.block = block;
    o.split_ops = split;
    runtime::SampleRunner r =
        MakeRunner(model, data, absl::MakeSpan(all).first(n), o);
    return std::make_pair(r.workers(), r.interpreter_threads());
  };
  EXPECT_EQ(plan(3, 8, 1, false), std::make_pair(3, 1));
  EXPECT_EQ(plan(20, 8, 8, false), std::make_pair(3, 1));  // 3 blocks
  EXPECT_EQ(plan(20, 2, 8, false), std::make_pair(2, 1));
  EXPECT_EQ(plan(20, 1, 1, false), std::make_pair(1, 1));
  // split_ops: fewer samples than threads, one worker splits the ops.
  EXPECT_EQ(plan(3, 4, 1, true), std::make_pair(1, 4));
  EXPECT_EQ(plan(4, 4, 1, true), std::make_pair(4, 1));
  EXPECT_EQ(plan(20, 1, 1, true), std::make_pair(1, 1));
}

TEST(SampleRunner, ZeroSamplesRunNothing) {
  const ir::Model model = ReluModel();
  const formats::SampleSource data = Samples(4);
  runtime::SampleRunnerOptions o;
  o.threads = 4;
  int progress = 0;
  o.progress = [&](int64_t, int64_t) { ++progress; };
  runtime::SampleRunner runner = MakeRunner(model, data, {}, o);
  EXPECT_EQ(runner.workers(), 1);
  int calls = 0;
  EXPECT_TRUE(runner
                  .Run([&](runtime::SampleWorker&, int64_t) {
                    ++calls;
                    return absl::OkStatus();
                  })
                  .ok());
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(progress, 0);
}

// Each sample arrives loaded into the worker's inputs, runs on the worker's
// interpreter, and each worker index stays on one thread (worker 0 on the
// caller's), so per-worker state needs no lock.
TEST(SampleRunner, WorkersGetTheirSamplesLoaded) {
  const ir::Model model = ReluModel();
  const formats::SampleSource data = Samples(30);
  const std::vector<int64_t> samples = {7, 2, 29, 0, 11, 11, 5, 3};
  for (int threads : {1, 2, 4}) {
    runtime::SampleRunnerOptions o;
    o.threads = threads;
    runtime::SampleRunner runner = MakeRunner(model, data, samples, o);
    std::vector<std::vector<float>> outputs(samples.size());
    std::vector<std::set<std::thread::id>> thread_of(
        static_cast<size_t>(runner.workers()));
    ASSERT_TRUE(runner
                    .Run([&](runtime::SampleWorker& w, int64_t k) {
                      thread_of[static_cast<size_t>(w.index)].insert(
                          std::this_thread::get_id());
                      RETURN_IF_ERROR(w.interpreters[0]->Run(w.inputs));
                      outputs[static_cast<size_t>(k)] =
                          Values<float>(w.interpreters[0]->OutputHost(0));
                      return absl::OkStatus();
                    })
                    .ok());
    for (size_t k = 0; k < samples.size(); ++k) {
      const float i = static_cast<float>(samples[k]);
      EXPECT_EQ(outputs[k],
                (std::vector<float>{std::max(0.0f, i - 1), i, i + 1, i + 2}))
          << "threads " << threads << ", k " << k;
    }
    // Worker 0 may get no sample if the others took them all.
    if (!thread_of[0].empty()) {
      EXPECT_EQ(*thread_of[0].begin(), std::this_thread::get_id());
    }
    for (const auto& ids : thread_of) EXPECT_LE(ids.size(), 1u);
  }
}

// Samples 5, 13 and 30 fail. With several workers, 5 fails last in time:
// it waits for 13's failure, and worker 0 sleeps through its first samples
// so that another worker is likely to hold 5 (a pick by worker order would
// then return 13). Whatever the thread count, 5's error is returned and
// every sample before it ran.
TEST(SampleRunner, FirstErrorInSampleOrderWins) {
  const ir::Model model = ReluModel();
  const formats::SampleSource data = Samples(40);
  const std::vector<int64_t> all = AllOf(40);
  for (int threads : {1, 2, 3, 4, 8}) {
    for (int64_t block : {1, 4}) {
      runtime::SampleRunnerOptions o;
      o.threads = threads;
      o.block = block;
      runtime::SampleRunner runner = MakeRunner(model, data, all, o);
      std::vector<std::atomic<bool>> ran(all.size());
      std::atomic<bool> failed13{false};
      const bool wait = runner.workers() > 1;
      const absl::Status s =
          runner.Run([&](runtime::SampleWorker& w, int64_t k) {
            ran[static_cast<size_t>(k)] = true;
            if (w.index == 0 && k < 4) {
              std::this_thread::sleep_for(std::chrono::milliseconds(5));
            }
            for (int i = 0; wait && k == 5 && !failed13 && i < 1000; ++i) {
              std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            if (k == 13) failed13 = true;
            if (k == 5 || k == 13 || k == 30) {
              return absl::DataLossError(absl::StrCat("boom ", k));
            }
            return absl::OkStatus();
          });
      EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
      EXPECT_EQ(s.message(), "sample 5 (x.npy[5]): boom 5")
          << "threads " << threads << ", block " << block;
      for (size_t k = 0; k < 5; ++k) EXPECT_TRUE(ran[k]) << k;
      if (wait) {
        EXPECT_TRUE(failed13);
      }
    }
  }
}

// Per-sample results fold in sample order whichever worker finishes first:
// a float sum whose value depends on the order comes out bit-identical.
TEST(SampleRunner, InSampleOrderMergesInSampleOrder) {
  const ir::Model model = ReluModel();
  const int n = 64;
  const formats::SampleSource data = Samples(n);
  const std::vector<int64_t> all = AllOf(n);
  auto term = [](int64_t k) {
    return k % 3 == 0 ? 1e16 * (k % 2 ? -1 : 1) : 1.0 + static_cast<double>(k);
  };
  double expected = 0;
  for (int64_t k = 0; k < n; ++k) expected += term(k);
  for (int threads : {1, 2, 4}) {
    runtime::SampleRunnerOptions o;
    o.threads = threads;
    std::vector<int64_t> progress;
    o.progress = [&](int64_t done, int64_t total) {
      EXPECT_EQ(total, n);
      progress.push_back(done);
    };
    runtime::SampleRunner runner = MakeRunner(model, data, all, o);
    double sum = 0;
    std::vector<int64_t> order;
    runtime::InSampleOrder<double> merged([&](int64_t k, double& v) {
      order.push_back(k);
      sum += v;
    });
    ASSERT_TRUE(runner
                    .Run([&](runtime::SampleWorker& w, int64_t k) {
                      // Later samples on worker 0 finish late.
                      if (w.index == 0 && k % 5 == 0) {
                        std::this_thread::sleep_for(
                            std::chrono::milliseconds(1));
                      }
                      merged.Add(k, term(k));
                      return absl::OkStatus();
                    })
                    .ok());
    EXPECT_EQ(order, all) << "threads " << threads;
    EXPECT_EQ(std::memcmp(&sum, &expected, sizeof sum), 0)
        << sum << " vs " << expected;
    const std::vector<int64_t> counts = AllOf(n + 1);
    EXPECT_EQ(progress, std::vector<int64_t>(counts.begin() + 1, counts.end()));
  }
}

// A block's samples run in order on one worker, so per-block sums do not
// depend on the thread count either.
TEST(SampleRunner, BlocksRunInOrderOnOneWorker) {
  const ir::Model model = ReluModel();
  const int n = 50;
  const formats::SampleSource data = Samples(n);
  const std::vector<int64_t> all = AllOf(n);
  for (int threads : {1, 2, 4}) {
    runtime::SampleRunnerOptions o;
    o.threads = threads;
    o.block = 8;
    runtime::SampleRunner runner = MakeRunner(model, data, all, o);
    std::vector<std::vector<int64_t>> by_worker(
        static_cast<size_t>(runner.workers()));
    ASSERT_TRUE(runner
                    .Run([&](runtime::SampleWorker& w, int64_t k) {
                      by_worker[static_cast<size_t>(w.index)].push_back(k);
                      return absl::OkStatus();
                    })
                    .ok());
    std::map<int64_t, int> worker_of_block;
    std::vector<int64_t> seen;
    for (size_t w = 0; w < by_worker.size(); ++w) {
      const std::vector<int64_t>& ks = by_worker[w];
      EXPECT_TRUE(std::is_sorted(ks.begin(), ks.end()));
      for (int64_t k : ks) {
        auto [it, inserted] =
            worker_of_block.emplace(k / 8, static_cast<int>(w));
        EXPECT_EQ(it->second, static_cast<int>(w)) << "sample " << k;
        seen.push_back(k);
      }
    }
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(seen, all);
  }
}

TEST(SampleRunner, InterpreterErrorsNameTheModel) {
  const ir::Model good = ReluModel();
  const ir::Model bad;  // no subgraph
  const formats::SampleSource data = Samples(4);
  const std::vector<int64_t> all = AllOf(4);
  runtime::SampleRunnerOptions o;
  o.threads = 2;
  o.model_names = {"float model", "quantized model"};
  absl::StatusOr<runtime::SampleRunner> runner =
      runtime::SampleRunner::Create({&good, &bad}, data, all, o);
  ASSERT_FALSE(runner.ok());
  EXPECT_THAT(std::string(runner.status().message()),
              StartsWith("quantized model: "));
}

}  // namespace qforge::testing::sample_runner

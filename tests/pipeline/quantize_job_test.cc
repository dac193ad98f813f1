// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The quantize pipeline as a library: a job's JSON form, and a job run
// through RunQuantizeJob writes the bytes `qforge quantize` writes for the
// same flags.
#include "pipeline/quantize_job.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "base/exit_codes.h"
#include "pipeline/quantize.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using pipeline::QuantizeJob;

// A job with every field away from its default.
QuantizeJob EveryFieldSet() {
  QuantizeJob j;
  j.model = "m.tflite";
  j.stats = "s.json";
  j.data.specs = {"a=x/*.png", "b.npy"};
  j.data.resize = "32x48";
  j.data.mean = {1.5f, 2.5f};
  j.data.std = {3};
  j.data.scale = 0.25f;
  j.data.color = "bgr";
  j.data.layout = "nchw";
  j.data.sample_rate = 8000;
  j.data.window = 400;
  j.data.hop = 160;
  j.output = "o.tflite";
  j.method = "percentile:99.9";
  j.scheme = "int16x8";
  j.input_type = "int16";
  j.output_type = "int16";
  j.float_ops = {"re:^head/"};
  j.int8_ops = {"3"};
  j.int4_ops = {"CONV_2D"};
  j.int16_ops = {"conv1"};
  j.weight_bits = 4;
  j.float_weights = "float16";
  j.int16_headroom = 3.5f;
  j.recipe = "r.json";
  j.save_recipe = "saved.json";
  j.target.sqnr = 31.5;
  j.target.steps = 9;
  j.target.metric = "top1";
  j.target.max_size = 123456;
  j.target.max_float_ops = 2;
  j.eval.cmd = "python3 eval.py {model} 'it''s'";
  j.eval.min = 0.75;
  j.eval.budget = 5;
  j.eval.timeout = 12.5;
  j.strict = true;
  j.fc_per_tensor = true;
  j.threads = 3;
  j.report = "r.html";
  j.tasks = {"0=segmentation", "scores=none"};
  j.labels = "labels.txt";
  j.recovery.optimize = "accuracy";
  j.recovery.equalize = true;
  j.recovery.bias_correction = true;
  j.recovery.bias_one_pass = true;
  j.recovery.adaround = true;
  j.recovery.adaround_iterations = 77;
  j.recovery.adaround_batch = 5;
  j.recovery.seed = 11;
  j.recovery.samples = 0;
  j.numerics.rounding = numerics::RoundingPolicy::kLegacy;
  j.numerics.arithmetic = numerics::Arithmetic::kXnnpack;
  return j;
}

TEST(QuantizeJobTest, JsonKeepsEveryField) {
  const QuantizeJob job = EveryFieldSet();
  const std::string text = pipeline::QuantizeJobToJson(job);
  absl::StatusOr<QuantizeJob> back =
      pipeline::QuantizeJobFromJson(text, "job.json");
  ASSERT_TRUE(back.ok()) << back.status();
  // Equal jobs serialize alike; and a field the writer dropped or the
  // reader ignored would show as a default here.
  EXPECT_EQ(pipeline::QuantizeJobToJson(*back), text);
  EXPECT_NE(pipeline::QuantizeJobToJson(QuantizeJob{}), text);
  EXPECT_EQ(back->data.mean, job.data.mean);
  EXPECT_EQ(back->target.sqnr, 31.5);
  EXPECT_EQ(back->eval.cmd, job.eval.cmd);
  EXPECT_EQ(back->eval.min, 0.75);
  EXPECT_TRUE(std::isnan(back->eval.max));
  EXPECT_EQ(back->eval.budget, 5);
  EXPECT_EQ(back->eval.timeout, 12.5);
  EXPECT_EQ(back->labels, "labels.txt");
  EXPECT_EQ(back->tasks.size(), 2u);
  EXPECT_EQ(back->recovery.seed, 11u);
  EXPECT_EQ(back->numerics.rounding, numerics::RoundingPolicy::kLegacy);
  EXPECT_EQ(back->numerics.arithmetic, numerics::Arithmetic::kXnnpack);
}

// --target VALUE with a task metric: the bound, not --target-sqnr's.
TEST(QuantizeJobTest, TaskTargetRoundTrips) {
  QuantizeJob job;
  job.target.value = 0.99;
  job.target.metric = "mask-agreement";
  job.tasks = {"1=score"};
  const std::string text = pipeline::QuantizeJobToJson(job);
  absl::StatusOr<QuantizeJob> back =
      pipeline::QuantizeJobFromJson(text, "job.json");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(pipeline::QuantizeJobToJson(*back), text);
  EXPECT_TRUE(back->target.active());
  EXPECT_TRUE(std::isnan(back->target.sqnr));
  EXPECT_EQ(back->target.value, 0.99);
  EXPECT_EQ(back->target.bound(), 0.99);
  EXPECT_EQ(back->target.metric, "mask-agreement");
  EXPECT_EQ(back->tasks, std::vector<std::string>{"1=score"});
}

TEST(QuantizeJobTest, NoTargetRoundTripsAsNone) {
  absl::StatusOr<QuantizeJob> back = pipeline::QuantizeJobFromJson(
      pipeline::QuantizeJobToJson(QuantizeJob{}), "job.json");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_FALSE(back->target.active());
  EXPECT_FALSE(back->eval.active());
  EXPECT_TRUE(std::isnan(back->eval.min));
  EXPECT_TRUE(std::isnan(back->eval.max));
}

// --eval-max (the other bound) survives too, with no min.
TEST(QuantizeJobTest, EvalMaxRoundTrips) {
  QuantizeJob job;
  job.eval.cmd = "./err.sh {model}";
  job.eval.max = 0.05;
  absl::StatusOr<QuantizeJob> back = pipeline::QuantizeJobFromJson(
      pipeline::QuantizeJobToJson(job), "job.json");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->eval.max, 0.05);
  EXPECT_TRUE(std::isnan(back->eval.min));
  EXPECT_EQ(back->eval.budget, 16);
  EXPECT_EQ(back->eval.timeout, 600);
}

TEST(QuantizeJobTest, BadJsonNamesTheKey) {
  const std::string good = pipeline::QuantizeJobToJson(QuantizeJob{});
  struct Case {
    std::string from, to, message;
  } cases[] = {
      {"\"strict\": false", "\"strict\": 1", "job.json: strict: expected true"},
      {"\"hop\": 0", "\"hop\": 0, \"hops\": 1", "job.json: data.hops: unknown"},
      {"\"qforge_quantize_job\": 1", "\"qforge_quantize_job\": 2",
       "job.json: qforge_quantize_job: version 2"},
      {"\"rounding\": \"single\"", "\"rounding\": \"up\"",
       "job.json: rounding: expected single"},
      {"\"data\": {", "\"data\": [], \"x\": {", "job.json: data: expected an"},
      {"\"budget\": 16", "\"budget\": \"16\"",
       "job.json: eval.budget: expected an integer"},
  };
  for (const Case& c : cases) {
    std::string text = good;
    const size_t at = text.find(c.from);
    ASSERT_NE(at, std::string::npos) << c.from;
    text.replace(at, c.from.size(), c.to);
    absl::StatusOr<QuantizeJob> job =
        pipeline::QuantizeJobFromJson(text, "job.json");
    ASSERT_FALSE(job.ok()) << c.to;
    EXPECT_EQ(job.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(std::string(job.status().message()).rfind(c.message, 0), 0u)
        << job.status();
  }
  EXPECT_FALSE(pipeline::QuantizeJobFromJson("{", "job.json").ok());
}

// The library run and the CLI write the same model, recipe and report.
TEST(QuantizeJobTest, RunWritesWhatTheCliWrites) {
  const std::string dir = testing::MakeTempDir();
  QuantizeJob job;
  job.model = testing::TestDataDir() + "/models/conv_fc_mnist.tflite";
  job.data.specs = {testing::TestDataDir() + "/mnist/*.png"};
  job.data.scale = 0.003921569f;
  job.output = dir + "/lib.tflite";
  job.save_recipe = dir + "/lib.recipe.json";
  job.report = dir + "/lib.report.json";
  job.recovery.optimize = "fast";
  job.int16_ops = {"0"};
  std::vector<std::string> notes;
  pipeline::Hooks hooks;
  hooks.note = [&](const std::string& line) { notes.push_back(line); };
  absl::StatusOr<pipeline::QuantizeOutcome> outcome =
      pipeline::RunQuantizeJob(job, hooks);
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(outcome->scheme, "int8");
  EXPECT_EQ(outcome->method, "mse");
  EXPECT_GT(outcome->ops_quantized, 0);
  ASSERT_FALSE(outcome->op_choices.empty());
  EXPECT_EQ(outcome->op_choices[0].precision, "int16");
  EXPECT_EQ(outcome->output_bytes, testing::ReadBytes(job.output).size());
  // One-pass bias correction said what it did.
  bool bias_note = false;
  for (const std::string& n : notes) bias_note |= n.rfind("bias-corr", 0) == 0;
  EXPECT_TRUE(bias_note);

  // The report names the models by the paths given: the CLI gets the same.
  const std::string cli =
      testing::QuantizeMnistCommand("--optimize fast --int16-op 0 -q -o " +
                                    dir + "/cli.tflite --save-recipe " + dir +
                                    "/cli.recipe.json") +
      " --report " + dir + "/cli.report.json";
  ASSERT_EQ(std::system(cli.c_str()), 0) << cli;
  EXPECT_EQ(testing::ReadBytes(dir + "/cli.tflite"),
            testing::ReadBytes(job.output));
  EXPECT_EQ(testing::ReadText(dir + "/cli.recipe.json"),
            testing::ReadText(job.save_recipe));
  std::string cli_report = testing::ReadText(dir + "/cli.report.json");
  std::string lib_report = testing::ReadText(job.report);
  ASSERT_FALSE(lib_report.empty());
  for (std::string* r : {&cli_report, &lib_report}) {
    for (const char* name : {"/cli.", "/lib."}) {
      for (size_t at; (at = r->find(name)) != std::string::npos;) {
        r->replace(at, 5, "/out.");
      }
    }
  }
  EXPECT_EQ(cli_report, lib_report);
}

TEST(QuantizeJobTest, TargetNotMetWritesNothing) {
  const std::string dir = testing::MakeTempDir();
  QuantizeJob job;
  job.model = testing::TestDataDir() + "/models/conv_fc_mnist.tflite";
  job.data.specs = {testing::TestDataDir() + "/mnist/*.png"};
  job.data.scale = 0.003921569f;
  job.output = dir + "/out.tflite";
  // Beyond any integer plan: TFLite Micro's ladder has no float rung.
  job.target.sqnr = 500;
  job.runtime = "tflm";
  absl::StatusOr<pipeline::QuantizeOutcome> outcome =
      pipeline::RunQuantizeJob(job, pipeline::Hooks{});
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(ExitCodeFor(outcome.status()), kExitAccuracyBound)
      << outcome.status();
  EXPECT_FALSE(std::filesystem::exists(job.output));
}

}  // namespace
}  // namespace qforge

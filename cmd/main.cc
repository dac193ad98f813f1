// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge: post-training quantization for TensorFlow Lite models.
#include <cstdio>
#include <iostream>

#include "CLI/CLI.hpp"
#include "base/exit_codes.h"
#include "cmd/command.h"
#include "numerics/modes.h"

int main(int argc, char** argv) {
  CLI::App app{"qforge: post-training quantization for TensorFlow Lite models",
               "qforge"};
  app.set_version_flag("--version", std::string("qforge ") + QFORGE_VERSION);
  app.require_subcommand(1);
  app.fallthrough();  // global flags (--quiet) may follow the subcommand
  qforge::cmd::CommandContext ctx;
  app.add_flag("-q,--quiet", ctx.flags.quiet,
               "No progress or summary output on stderr");
  // Set while parsing, before any command runs; the commands hand them to
  // their interpreters (numerics/modes.h).
  app.add_option_function<std::string>(
         "--rounding",
         [&ctx](const std::string& mode) {
           using qforge::numerics::RoundingPolicy;
           ctx.flags.numerics.rounding =
               mode == "double"   ? RoundingPolicy::kDouble
               : mode == "legacy" ? RoundingPolicy::kLegacy
                                  : RoundingPolicy::kSingle;
         },
         "int8 requantization rounding: single (as LiteRT; default), double "
         "(as TFLite Micro) or legacy (as older TFLite builds, e.g. "
         "tfjs-tflite: CONV_2D/FULLY_CONNECTED/BATCH_MATMUL round once in "
         "ruy, other ops twice); uint8 and int16 ops always round twice, as "
         "LiteRT's")
      ->check(CLI::IsMember({"single", "double", "legacy"}))
      ->trigger_on_parse();
  app.add_option_function<std::string>(
         "--arithmetic",
         [&ctx](const std::string& mode) {
           ctx.flags.numerics.arithmetic =
               mode == "xnnpack" ? qforge::numerics::Arithmetic::kXnnpack
                                 : qforge::numerics::Arithmetic::kTflite;
         },
         "8-bit CONV_2D/DEPTHWISE_CONV_2D/FULLY_CONNECTED/ADD arithmetic: "
         "tflite (TFLite's builtin kernels; default) or xnnpack (as LiteRT's "
         "XNNPACK delegate: float requantization, XNNPACK's ADD)")
      ->check(CLI::IsMember({"tflite", "xnnpack"}))
      ->trigger_on_parse();
  CLI::App* help = app.add_subcommand("help", "Show help for qforge");
  qforge::cmd::RegisterInspect(app, ctx);
  qforge::cmd::RegisterCopy(app, ctx);
  qforge::cmd::RegisterExtract(app, ctx);
  qforge::cmd::RegisterRun(app, ctx);
  qforge::cmd::RegisterCalibrate(app, ctx);
  qforge::cmd::RegisterQuantize(app, ctx);
  qforge::cmd::RegisterReport(app, ctx);
  // Rendered before parsing: afterwards CLI11 shows the selected
  // subcommand's help instead of the whole tool's.
  const std::string top_help = app.help();
  help->callback([&top_help]() { std::cout << top_help; });
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help / --version exit 0; every other parse error is a usage error.
    const int code = app.exit(e);
    return code == 0 ? qforge::kExitOk : qforge::kExitUsageOrIo;
  }
  if (!ctx.status.ok()) {
    std::fprintf(stderr, "qforge: error: %s\n",
                 std::string(ctx.status.message()).c_str());
  }
  return qforge::ExitCodeFor(ctx.status);
}

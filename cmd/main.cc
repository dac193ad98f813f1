// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge: post-training quantization for TensorFlow Lite models.
//
// Every failure ends here as one line on stderr, "qforge: error: ...", and a
// documented exit code (base/exit_codes.h): a command's status, what the
// option parser refuses (usage, exit code 1), and running out of memory.
// The line is escaped (control characters and invalid UTF-8 as \xHH): it
// may quote names and header bytes from any file.
#include <malloc.h>

#include <cstdio>
#include <iostream>
#include <map>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/exit_codes.h"
#include "base/file_io.h"
#include "base/text.h"
#include "cmd/command.h"
#include "numerics/modes.h"

namespace {

int Fail(int code, const std::string& message) {
  std::fprintf(stderr, "qforge: error: %s\n",
               qforge::EscapeForMessage(message).c_str());
  return code;
}

// --rounding and --arithmetic: set while parsing, before any command runs;
// the commands hand them to their interpreters (numerics/modes.h).
void AddNumericsFlags(CLI::App& app, qforge::cmd::CommandContext& ctx) {
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
}

// Parses the command line and runs the command. Returns the exit code when
// parsing ended it (--help, --version, a usage error).
std::optional<int> Parse(CLI::App& app, int argc, char** argv,
                         const std::map<std::string, std::string>& command_help,
                         const std::vector<std::string>& commands) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help / --version exit 0; every other parse error is a usage error,
    // one line naming the command it was parsing.
    if (e.get_exit_code() == 0) return app.exit(e);
    if (argc >= 2 && argv[1][0] != '-' && command_help.count(argv[1]) == 0 &&
        std::string(argv[1]) != "help") {
      return Fail(qforge::kExitUsageOrIo,
                  absl::StrCat("unknown command '", argv[1], "' (commands: ",
                               absl::StrJoin(commands, ", "), ")"));
    }
    std::string where;
    for (const CLI::App* sub : app.get_subcommands()) {
      where = absl::StrCat(sub->get_name(), ": ");
    }
    return Fail(
        qforge::kExitUsageOrIo,
        absl::StrCat(
            where, e.what(), " (see qforge help", where.empty() ? "" : " ",
            where.empty() ? "" : where.substr(0, where.size() - 2), ")"));
  } catch (const std::bad_alloc&) {
    return Fail(qforge::kExitUsageOrIo, "out of memory");
  } catch (const std::length_error&) {
    return Fail(qforge::kExitUsageOrIo, "out of memory (a size too large)");
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  // Temporary outputs are removed on SIGINT/SIGTERM (base/file_io.h).
  qforge::InstallTempFileCleanup();
  // Every sample allocates and frees buffers of the same sizes (inputs,
  // outputs, scratch). glibc's defaults map and unmap the large ones, or
  // trim them off the heap, each time, so every sample paid page faults and
  // page clearing again (docs/performance.md). Kept in the heap they are
  // reused; the peak is unchanged.
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  CLI::App app{"qforge: post-training quantization for TensorFlow Lite models",
               "qforge"};
  app.set_version_flag("--version", std::string("qforge ") + QFORGE_VERSION);
  app.require_subcommand(1);
  app.fallthrough();  // global flags (--quiet) may follow the subcommand
  // Subcommands inherit this: --help shows every option's default.
  app.option_defaults()->always_capture_default();
  app.footer(
      "Run 'qforge help COMMAND' (or 'qforge COMMAND --help') for a "
      "command's options, defaults and an example.\nExit codes: 0 ok, 1 "
      "usage or file error, 2 invalid model or data, 3 unsupported, 4 "
      "accuracy bound not met.");
  qforge::cmd::CommandContext ctx;
  app.add_flag("-q,--quiet", ctx.flags.quiet,
               "No progress or summary output on stderr");
  AddNumericsFlags(app, ctx);
  CLI::App* help = app.add_subcommand("help",
                                      "Show help for qforge or one "
                                      "command: qforge help COMMAND");
  std::string help_topic;
  help->add_option("command", help_topic, "The command to explain");
  qforge::cmd::RegisterInspect(app, ctx);
  qforge::cmd::RegisterCopy(app, ctx);
  qforge::cmd::RegisterExtract(app, ctx);
  qforge::cmd::RegisterRun(app, ctx);
  qforge::cmd::RegisterCalibrate(app, ctx);
  qforge::cmd::RegisterQuantize(app, ctx);
  qforge::cmd::RegisterReport(app, ctx);
  qforge::cmd::RegisterEvalTrial(app, ctx);
  // Rendered before parsing: afterwards CLI11 shows the selected
  // subcommand's help instead of the whole tool's.
  const std::string top_help = app.help();
  std::map<std::string, std::string> command_help;
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub == help) continue;
    std::string text = sub->help();
    // Rendered alone, a subcommand's usage line lacks the tool's name.
    const std::string usage = "Usage: " + sub->get_name();
    if (text.find(usage) != std::string::npos &&
        text.find("Usage: qforge ") == std::string::npos) {
      text.replace(text.find(usage), usage.size(),
                   "Usage: qforge " + sub->get_name());
    }
    command_help[sub->get_name()] = text;
    commands.push_back(sub->get_name());
  }
  help->callback([&]() {
    if (help_topic.empty()) {
      std::cout << top_help;
      return;
    }
    const auto it = command_help.find(help_topic);
    if (it == command_help.end()) {
      ctx.status = qforge::UsageError(
          absl::StrCat("help: no command '", help_topic,
                       "' (commands: ", absl::StrJoin(commands, ", "), ")"));
      return;
    }
    std::cout << it->second;
  });
  if (const std::optional<int> code =
          Parse(app, argc, argv, command_help, commands)) {
    return *code;
  }
  if (!ctx.status.ok()) {
    return Fail(qforge::ExitCodeFor(ctx.status),
                std::string(ctx.status.message()));
  }
  return qforge::kExitOk;
}

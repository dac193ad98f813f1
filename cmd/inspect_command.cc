// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge inspect MODEL [--json] [--ops]
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "base/file_io.h"
#include "base/status_macros.h"
#include "cmd/cli_flags.h"
#include "cmd/command.h"
#include "cmd/model_summary.h"
#include "cmd/runtime_summary.h"
#include "formats/tflite_reader.h"

namespace qforge::cmd {
namespace {

struct InspectArgs {
  std::string model;
  bool json = false;
  bool ops = false;
  std::string runtime;  // "": no runtime summary
};

// Subgraph 0's ops by index, as quantize's --float-op / --int16-op and the
// report name them: type, input and output tensor names ("-" for an
// omitted optional input).
nlohmann::ordered_json OpList(const ir::Model& model) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  if (model.subgraphs.empty()) return list;
  const ir::Subgraph& sg = model.subgraphs[0];
  auto names = [&sg](const std::vector<int32_t>& ts) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (int32_t t : ts) {
      out.push_back(t >= 0 && static_cast<size_t>(t) < sg.tensors.size()
                        ? sg.tensors[static_cast<size_t>(t)].name
                        : std::string("-"));
    }
    return out;
  };
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    const ir::Operator& op = sg.operators[i];
    list.push_back({{"index", i},
                    {"op", op.DisplayName()},
                    {"inputs", names(op.inputs)},
                    {"outputs", names(op.outputs)}});
  }
  return list;
}

std::string OpListText(const nlohmann::ordered_json& list) {
  std::string out = "ops of subgraph 0 (index: type  inputs -> outputs):\n";
  for (const auto& op : list) {
    std::string ins, outs;
    for (const auto& n : op["inputs"]) {
      ins += (ins.empty() ? "" : ", ") + n.get<std::string>();
    }
    for (const auto& n : op["outputs"]) {
      outs += (outs.empty() ? "" : ", ") + n.get<std::string>();
    }
    out += "  " + std::to_string(op["index"].get<size_t>()) + ": " +
           op["op"].get<std::string>() + "  " + ins + " -> " + outs + "\n";
  }
  return out;
}

absl::Status RunInspect(const InspectArgs& args) {
  // Mapped: only the flatbuffer's tables are read, not the weights.
  ASSIGN_OR_RETURN(const formats::ModelFile file,
                   formats::OpenTfliteFile(args.model));
  nlohmann::ordered_json summary =
      SummarizeModel(file.model, args.model, file.bytes().size());
  if (args.ops) summary["op_list"] = OpList(file.model);
  if (!args.runtime.empty()) {
    ASSIGN_OR_RETURN(const runtime::Runtime rt,
                     runtime::ParseRuntime(args.runtime));
    summary["runtime"] = SummarizeRuntime(file.model, rt);
  }
  if (args.json) {
    // Every string is valid UTF-8 already (model_summary.cc); replacing
    // keeps a missed one from aborting.
    std::cout << summary.dump(2, ' ', false,
                              nlohmann::ordered_json::error_handler_t::replace)
              << "\n";
  } else {
    std::cout << RenderSummaryText(summary);
    if (args.ops) std::cout << OpListText(summary["op_list"]);
    if (!args.runtime.empty()) {
      std::cout << RenderRuntimeText(summary["runtime"]);
    }
  }
  return absl::OkStatus();
}

}  // namespace

void RegisterInspect(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<InspectArgs>();
  CLI::App* sub = app.add_subcommand(
      "inspect",
      "Show a model's inputs, outputs, ops, tensors and quantization");
  sub->add_option("model", args->model, "The .tflite model")->required();
  sub->add_flag("--json", args->json,
                "Print JSON (schema: docs/inspect-json.md)");
  sub->add_flag("--ops", args->ops,
                "Also list subgraph 0's ops by index with their input and "
                "output tensors (the indices quantize's --float-op and "
                "--int16-op take)");
  sub->add_option("--runtime", args->runtime,
                  "Also say how the model runs there: litert (estimated "
                  "latency, ops off XNNPACK and why), tflm or armnn (ops "
                  "the runtime cannot run)")
      ->check(CLI::IsMember({"litert", "tflm", "armnn"}));
  SetExample(sub, "qforge inspect model.tflite --ops");
  sub->callback([args, &ctx]() { ctx.status = RunInspect(*args); });
}

}  // namespace qforge::cmd

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The integer kernels against TFLite's reference kernels, exactly: every
// int16x8 single-op model of corpus/int_refs/seanet/<op>/<op>N.tflite is
// run on its <op>N_input<k>_<type>.csv inputs and its output must equal
// <op>N_golden_<type>.csv element for element. (The CSVs are one line of
// comma-separated integers, in the model's input order; the golden file is
// output 0.) Skipped when the shared corpus is absent.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "numerics/fixed_point.h"
#include "runtime/interpreter.h"
#include "runtime/kernel.h"
#include "runtime/thread_pool.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

namespace fs = std::filesystem;

// TFLite Micro's arithmetic (--rounding double), which made the goldens.
constexpr numerics::Modes kTfliteMicro{numerics::RoundingPolicy::kDouble,
                                       numerics::Arithmetic::kTflite};

// The file `<stem>_<role>_<type>.csv` for any type suffix; "" if none.
std::string FindCsv(const std::string& dir, const std::string& stem,
                    const std::string& role) {
  const std::string prefix = stem + "_" + role + "_";
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && name.size() > 4 &&
        name.substr(name.size() - 4) == ".csv") {
      return e.path().string();
    }
  }
  return "";
}

std::vector<int64_t> ReadCsv(const std::string& path) {
  std::ifstream in(path);
  std::vector<int64_t> v;
  std::string tok;
  while (std::getline(in, tok, ',')) {
    if (tok.find_first_not_of(" \r\n\t") == std::string::npos) continue;
    v.push_back(std::stoll(tok));
  }
  return v;
}

// Stores integer values into a tensor of the given type.
absl::Status Fill(ir::HostTensor* t, const std::vector<int64_t>& v) {
  if (static_cast<int64_t>(v.size()) != t->NumElements()) {
    return absl::InvalidArgumentError(
        absl::StrCat(v.size(), " values for ", t->DebugString()));
  }
  for (size_t i = 0; i < v.size(); ++i) {
    switch (t->type()) {
      case ir::DataType::kInt8:
        t->Flat<int8_t>()[i] = static_cast<int8_t>(v[i]);
        break;
      case ir::DataType::kInt16:
        t->Flat<int16_t>()[i] = static_cast<int16_t>(v[i]);
        break;
      case ir::DataType::kInt32:
        t->Flat<int32_t>()[i] = static_cast<int32_t>(v[i]);
        break;
      default:
        return absl::UnimplementedError(t->DebugString());
    }
  }
  return absl::OkStatus();
}

std::vector<int64_t> Values(const ir::HostTensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    switch (t.type()) {
      case ir::DataType::kInt8:
        v.push_back(t.Flat<int8_t>()[static_cast<size_t>(i)]);
        break;
      case ir::DataType::kInt16:
        v.push_back(t.Flat<int16_t>()[static_cast<size_t>(i)]);
        break;
      case ir::DataType::kInt32:
        v.push_back(t.Flat<int32_t>()[static_cast<size_t>(i)]);
        break;
      default:
        break;
    }
  }
  return v;
}

// Runs the single op of `model` straight through the integer kernel table,
// for ops the interpreter does not yet dispatch to it (QUANTIZE to int32:
// FindKernel only treats int8/uint8/int16 outputs as quantized).
class NoSubgraphs : public runtime::SubgraphRunner {
 public:
  absl::Status InvokeSubgraph(int, absl::Span<runtime::RtTensor* const>,
                              absl::Span<runtime::RtTensor* const>) override {
    return absl::UnimplementedError("no subgraphs");
  }
  absl::Status ResizeTensor(runtime::RtTensor*, runtime::Dims) override {
    return absl::UnimplementedError("no resizing");
  }
  void MarkShapeDependsOnData(int, int) override {}
  ir::HostTensor* Resource(const std::string&) override { return nullptr; }
};

absl::StatusOr<ir::HostTensor> RunDirect(
    const ir::Model& model, const std::vector<ir::HostTensor>& inputs) {
  const ir::Subgraph& sg = model.subgraphs[0];
  if (sg.operators.size() != 1) return absl::UnimplementedError("not one op");
  const ir::Operator& op = sg.operators[0];
  const runtime::KernelDef* k = runtime::FindIntegerKernel(op.kind);
  if (k == nullptr) return absl::UnimplementedError("no integer kernel");
  std::vector<runtime::RtTensor> in_t(op.inputs.size()),
      out_t(op.outputs.size());
  std::vector<ir::HostTensor> in_data = inputs;
  std::vector<runtime::RtTensor*> ins, outs;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const ir::Tensor& t = sg.tensors[static_cast<size_t>(op.inputs[i])];
    size_t k_in = 0;
    while (k_in < sg.inputs.size() && sg.inputs[k_in] != op.inputs[i]) ++k_in;
    if (k_in == sg.inputs.size()) return absl::UnimplementedError("constant");
    in_t[i].type = t.type;
    in_t[i].shape.assign(t.shape.begin(), t.shape.end());
    in_t[i].data = in_data[k_in].data();
    in_t[i].bytes = in_data[k_in].ByteSize();
    in_t[i].ir = &t;
    ins.push_back(&in_t[i]);
  }
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    out_t[i].type = sg.tensors[static_cast<size_t>(op.outputs[i])].type;
    out_t[i].ir = &sg.tensors[static_cast<size_t>(op.outputs[i])];
    outs.push_back(&out_t[i]);
  }
  runtime::ThreadPool pool(1);
  NoSubgraphs runner;
  std::unique_ptr<runtime::KernelState> state;
  runtime::OpContext ctx(op, 0, 0, ins, outs, &pool, &runner, &state);
  ctx.set_numerics(kTfliteMicro, numerics::Rounding::kDouble);
  absl::Status s = k->prepare(ctx);
  if (!s.ok()) return s;
  ir::HostTensor out(out_t[0].type, std::vector<int64_t>(out_t[0].shape.begin(),
                                                         out_t[0].shape.end()));
  out_t[0].data = out.data();
  out_t[0].bytes = out.ByteSize();
  s = k->eval(ctx);
  if (!s.ok()) return s;
  return out;
}

struct CaseResult {
  bool ran = false;
  bool matched = false;
  bool direct = false;  // run outside the interpreter (dispatch gap)
  std::string message;
};

CaseResult RunCase(const std::string& dir, const std::string& stem,
                   int threads) {
  CaseResult r;
  absl::StatusOr<ir::Model> model =
      formats::ReadTfliteFile(dir + "/" + stem + ".tflite");
  if (!model.ok()) {
    r.message = std::string(model.status().message());
    return r;
  }
  const ir::Subgraph& sg = model->subgraphs[0];
  std::vector<ir::HostTensor> inputs;
  for (size_t k = 0; k < sg.inputs.size(); ++k) {
    const ir::Tensor& t = sg.tensors[static_cast<size_t>(sg.inputs[k])];
    const std::string csv = FindCsv(dir, stem, absl::StrCat("input", k));
    if (csv.empty()) {
      r.message = absl::StrCat("no CSV for input ", k);
      return r;
    }
    ir::HostTensor h(t.type,
                     std::vector<int64_t>(t.shape.begin(), t.shape.end()));
    absl::Status s = Fill(&h, ReadCsv(csv));
    if (!s.ok()) {
      r.message = std::string(s.message());
      return r;
    }
    inputs.push_back(std::move(h));
  }
  runtime::InterpreterOptions opts;
  opts.threads = threads;
  opts.numerics = kTfliteMicro;
  std::vector<int64_t> got;
  auto interp = runtime::Interpreter::Create(*model, opts);
  if (!interp.ok() &&
      interp.status().code() == absl::StatusCode::kUnimplemented) {
    absl::StatusOr<ir::HostTensor> out = RunDirect(*model, inputs);
    if (!out.ok()) {
      r.message = absl::StrCat(interp.status().message(),
                               "; direct: ", out.status().message());
      return r;
    }
    r.direct = true;
    got = Values(*out);
  } else if (!interp.ok()) {
    r.message = std::string(interp.status().message());
    return r;
  } else {
    absl::Status s = (*interp)->Run(inputs);
    if (!s.ok()) {
      r.message = std::string(s.message());
      return r;
    }
    got = Values((*interp)->OutputHost(0));
  }
  r.ran = true;
  const std::vector<int64_t> want = ReadCsv(FindCsv(dir, stem, "golden"));
  if (got.size() != want.size()) {
    r.message = absl::StrCat(got.size(), " outputs, golden has ", want.size());
    return r;
  }
  int64_t mismatches = 0;
  size_t first = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want[i]) {
      if (mismatches++ == 0) first = i;
    }
  }
  r.matched = mismatches == 0;
  if (!r.matched) {
    r.message =
        absl::StrCat(mismatches, " of ", got.size(), " differ; first at ",
                     first, ": got ", got[first], ", golden ", want[first]);
  }
  return r;
}

TEST(IntegerSeanetTest, EveryModelMatchesGoldenExactly) {
  // The goldens come from TFLite Micro, which rounds requantization twice
  // (numerics/fixed_point.h): RunCase runs with --rounding double.
  const std::string corpus = testing::CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "shared corpus absent (../shared/corpus)";
  const std::string root = corpus + "/int_refs/seanet";
  if (!fs::is_directory(root)) GTEST_SKIP() << "no " << root;
  int checked = 0, matched = 0, direct = 0;
  for (const std::string& path : testing::FindFiles(root, ".tflite")) {
    const fs::path p(path);
    const std::string stem = p.stem().string();
    // Alternate thread counts: results must not depend on them.
    const CaseResult r =
        RunCase(p.parent_path().string(), stem, checked % 2 == 0 ? 1 : 4);
    ++checked;
    if (r.direct) {
      ++direct;
      std::printf(
          "%s: run directly through the integer kernel (the "
          "interpreter does not dispatch it yet)\n",
          stem.c_str());
    }
    if (r.matched) {
      ++matched;
    } else {
      ADD_FAILURE() << stem << (r.ran ? ": " : ": did not run: ") << r.message;
    }
  }
  std::printf(
      "seanet int16x8: %d models checked, %d matched exactly (%d run "
      "directly)\n",
      checked, matched, direct);
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace qforge

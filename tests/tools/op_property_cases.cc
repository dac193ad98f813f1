// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Property cases for the quantizer's legality (tests/interop/
// op_property_litert.mjs runs them in LiteRT): single-op float models of
// every op kind the quantizer quantizes, with random shapes, weights and
// calibration ranges across 40 orders of magnitude, tiny and huge
// constants, zero-width ranges and float sentinels (+/-3.4e38). Each case
// is quantized by qforge (int8 or int16x8, integer model inputs and
// outputs) and run by qforge's interpreter on random integer inputs.
//
//   op_property_cases OUT_DIR --scheme int8|int16x8 --cases N [--seed S]
//
// Writes OUT_DIR/NNNNN.tflite, NNNNN_in_K.npy, NNNNN_out_K.npy (qforge's
// outputs) and OUT_DIR/manifest.jsonl, one JSON line per case:
//   {"case":"00012","op":"ADD","scheme":"int8","status":"ok"|"refused",
//    "kept_float":[...], "detail":"..."}
// "refused": the quantizer or qforge's own interpreter refused the case
// (the reason is in "detail"); the runner counts those and fails on any
// that is not a named legality refusal. Int8 CONV_2D, DEPTHWISE_CONV_2D,
// FULLY_CONNECTED and ADD cases also carry the fast-path prediction
// ("xnnpack": true when runtime/fast_path.h says LiteRT's XNNPACK delegate
// takes the op, "xnnpack_refusal" otherwise) and the outputs of qforge run
// with --arithmetic xnnpack (NNNNN_xnn_out_K.npy): XNNPACK and TFLite's
// builtin kernels round some values of these ops differently, so LiteRT's
// output can tell which ran. Exit 0 unless a case could not be written at
// all.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "calibration/stats_file.h"
#include "formats/data/npy.h"
#include "formats/tflite_writer.h"
#include "nlohmann/json.hpp"
#include "quantizer/quantize.h"
#include "runtime/fast_path.h"
#include "runtime/interpreter.h"
#include "runtime/legality.h"
#include "tests/support/op_model.h"
#include "tests/tools/op_property_rows.h"

namespace qforge {
namespace {

using op_property::Case;
using op_property::Gen;
using op_property::OpRow;
using op_property::Rows;
constexpr ir::DataType kF32 = ir::DataType::kFloat32;

// Calibration statistics with a random range for every non-constant float
// tensor of subgraph 0.
calibration::StatsFile RandomStats(Gen& g, const ir::Model& model) {
  calibration::StatsFile stats;
  stats.samples = 1;
  const ir::Subgraph& sg = model.subgraphs[0];
  for (size_t t = 0; t < sg.tensors.size(); ++t) {
    const ir::Tensor& tensor = sg.tensors[t];
    const bool constant =
        tensor.buffer != 0 && !model.buffers[tensor.buffer].data.empty();
    if (tensor.type != kF32 || constant) continue;
    calibration::TensorStats s;
    s.subgraph = 0;
    s.tensor = static_cast<int>(t);
    s.name = tensor.name;
    s.count = 1;
    const auto [lo, hi] = g.Range();
    s.min = lo;
    s.max = hi;
    stats.tensors.push_back(std::move(s));
  }
  return stats;
}

// Plain rows: the outputs' ranges cover what the float model computes on 8
// random samples within the inputs' ranges (as a trained model's
// calibration would), rounded up to a power-of-two scale, so that the
// outputs use their integer range instead of saturating or sitting at the
// zero point.
absl::Status CalibrateOutputs(Gen& g, const ir::Model& model,
                              calibration::StatsFile* stats) {
  const ir::Subgraph& sg = model.subgraphs[0];
  auto stat_of = [&](int32_t tensor) -> calibration::TensorStats* {
    for (calibration::TensorStats& s : stats->tensors) {
      if (s.tensor == tensor) return &s;
    }
    return nullptr;
  };
  runtime::InterpreterOptions io;
  io.threads = 1;
  ASSIGN_OR_RETURN(std::unique_ptr<runtime::Interpreter> interp,
                   runtime::Interpreter::Create(model, io));
  std::vector<float> lo(sg.outputs.size(), 0.0f), hi(sg.outputs.size(), 0.0f);
  for (int sample = 0; sample < 8; ++sample) {
    std::vector<ir::HostTensor> inputs;
    for (int32_t in : sg.inputs) {
      const ir::Tensor& t = sg.tensors[in];
      const calibration::TensorStats* s = stat_of(in);
      ir::HostTensor h(t.type,
                       std::vector<int64_t>(t.shape.begin(), t.shape.end()));
      for (float& v : h.Flat<float>()) {
        v = s != nullptr ? static_cast<float>(g.U(s->min, s->max)) : 0.0f;
      }
      inputs.push_back(std::move(h));
    }
    RETURN_IF_ERROR(interp->Run(inputs));
    for (int k = 0; k < interp->num_outputs(); ++k) {
      const ir::HostTensor out = interp->OutputHost(k);
      for (float v : out.Flat<float>()) {
        lo[k] = std::min(lo[k], v);
        hi[k] = std::max(hi[k], v);
      }
    }
  }
  for (size_t k = 0; k < sg.outputs.size(); ++k) {
    if (calibration::TensorStats* s = stat_of(sg.outputs[k]); s != nullptr) {
      const float top = std::max(-lo[k], hi[k]) / 127.0f;
      const int e =
          top > 0.0f ? static_cast<int>(std::ceil(std::log2(top))) : -8;
      std::tie(s->min, s->max) = Gen::Pow2Range(std::ldexp(1.0f, e));
    }
  }
  return absl::OkStatus();
}

// Random inputs of the quantized model's input types.
std::vector<ir::HostTensor> RandomInputs(Gen& g, const ir::Model& model) {
  const ir::Subgraph& sg = model.subgraphs[0];
  std::vector<ir::HostTensor> out;
  for (int32_t in : sg.inputs) {
    const ir::Tensor& t = sg.tensors[in];
    std::vector<int64_t> shape(t.shape.begin(), t.shape.end());
    ir::HostTensor h(t.type, shape);
    switch (t.type) {
      case ir::DataType::kInt8:
        for (int8_t& v : h.Flat<int8_t>())
          v = static_cast<int8_t>(g.I(-128, 127));
        break;
      case ir::DataType::kInt16:
        for (int16_t& v : h.Flat<int16_t>())
          v = static_cast<int16_t>(g.I(-32768, 32767));
        break;
      default:  // float32: an input the quantizer left float
        for (float& v : h.Flat<float>()) v = static_cast<float>(g.U(-4, 4));
        break;
    }
    out.push_back(std::move(h));
  }
  return out;
}

absl::Status WriteNpy(const ir::HostTensor& t, const std::string& path) {
  ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, formats::WriteNpy(t));
  return WriteFileAtomic(path, absl::Span<const uint8_t>(bytes));
}

// The ops whose int8 forms XNNPACK and TFLite's builtin kernels round
// differently, each reproduced bit-exactly by one --arithmetic.
bool RoundsByPath(ir::OpKind kind) {
  return kind == ir::OpKind::kConv2D || kind == ir::OpKind::kDepthwiseConv2D ||
         kind == ir::OpKind::kFullyConnected || kind == ir::OpKind::kAdd;
}

// For a single int8 op of RoundsByPath: the fast-path prediction in `line`
// and qforge's outputs under --arithmetic xnnpack.
absl::Status FastPathPrediction(const ir::Model& model,
                                const std::vector<ir::HostTensor>& inputs,
                                const std::string& dir, const std::string& id,
                                nlohmann::json* line) {
  const ir::Subgraph& sg = model.subgraphs[0];
  const ir::Operator* op = nullptr;
  for (const ir::Operator& o : sg.operators) {
    if (!RoundsByPath(o.kind)) continue;
    if (op != nullptr) return absl::OkStatus();  // not a single op
    op = &o;
  }
  if (op == nullptr || op->outputs.empty() ||
      sg.tensors[op->outputs[0]].type != ir::DataType::kInt8) {
    return absl::OkStatus();
  }
  const std::string refusal = runtime::fast_path::XnnpackRefusal(
      runtime::legality::FormOf(model, sg, *op));
  runtime::InterpreterOptions io;
  io.threads = 1;
  io.numerics.arithmetic = numerics::Arithmetic::kXnnpack;
  ASSIGN_OR_RETURN(std::unique_ptr<runtime::Interpreter> interp,
                   runtime::Interpreter::Create(model, io));
  if (!interp->Run(inputs).ok()) return absl::OkStatus();
  for (int k = 0; k < interp->num_outputs(); ++k) {
    RETURN_IF_ERROR(
        WriteNpy(interp->OutputHost(k),
                 absl::StrCat(dir, "/", id, "_xnn_out_", k, ".npy")));
  }
  (*line)["xnnpack"] = refusal.empty();
  if (!refusal.empty()) (*line)["xnnpack_refusal"] = refusal;
  return absl::OkStatus();
}

absl::StatusOr<nlohmann::json> OneCase(Gen& g, const OpRow& row,
                                       quantizer::Scheme scheme,
                                       const std::string& dir,
                                       const std::string& id) {
  Case c;
  c.op = row.name;
  g.set_plain(row.plain);
  row.build(g, c);
  nlohmann::json line = {{"case", id},
                         {"op", row.name},
                         {"scheme", quantizer::SchemeName(scheme)}};
  calibration::StatsFile stats = RandomStats(g, c.m.model());
  if (row.plain) RETURN_IF_ERROR(CalibrateOutputs(g, c.m.model(), &stats));
  nlohmann::json ranges = nlohmann::json::array();
  for (const calibration::TensorStats& s : stats.tensors) {
    ranges.push_back({s.name, s.min, s.max});
  }
  line["ranges"] = ranges;
  quantizer::QuantizeOptions options;
  options.scheme = scheme;
  const ir::DataType q = scheme == quantizer::Scheme::kInt16x8
                             ? ir::DataType::kInt16
                             : ir::DataType::kInt8;
  options.input_type = q;
  options.output_type = q;
  absl::StatusOr<quantizer::QuantizeResult> r =
      quantizer::Quantize(c.m.model(), &stats, options);
  if (!r.ok()) {
    line["status"] = "refused";
    line["detail"] = absl::StrCat("quantize: ", r.status().message());
    return line;
  }
  nlohmann::json kept = nlohmann::json::array();
  for (const quantizer::KeptFloat& k : r->kept_float) {
    kept.push_back(absl::StrCat(k.op_name, ": ", k.reason));
  }
  line["kept_float"] = kept;
  const std::vector<ir::HostTensor> inputs = RandomInputs(g, r->model);
  runtime::InterpreterOptions io;
  io.threads = 1;
  absl::StatusOr<std::unique_ptr<runtime::Interpreter>> interp =
      runtime::Interpreter::Create(r->model, io);
  absl::Status run = interp.ok() ? (*interp)->Run(inputs) : interp.status();
  RETURN_IF_ERROR(
      formats::WriteTfliteFile(r->model, dir + "/" + id + ".tflite", {}));
  for (size_t k = 0; k < inputs.size(); ++k) {
    RETURN_IF_ERROR(
        WriteNpy(inputs[k], absl::StrCat(dir, "/", id, "_in_", k, ".npy")));
  }
  if (!run.ok()) {
    line["status"] = "refused";
    line["detail"] = absl::StrCat("qforge run: ", run.message());
    return line;
  }
  for (int k = 0; k < (*interp)->num_outputs(); ++k) {
    RETURN_IF_ERROR(WriteNpy((*interp)->OutputHost(k),
                             absl::StrCat(dir, "/", id, "_out_", k, ".npy")));
  }
  line["status"] = "ok";
  RETURN_IF_ERROR(FastPathPrediction(r->model, inputs, dir, id, &line));
  return line;
}

}  // namespace
}  // namespace qforge

int main(int argc, char** argv) {
  using namespace qforge;
  std::string dir, scheme_name = "int8";
  int cases = 100;
  uint32_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--scheme" && has_value) {
      scheme_name = argv[++i];
    } else if (a == "--cases" && has_value) {
      cases = std::atoi(argv[++i]);
    } else if (a == "--seed" && has_value) {
      seed = static_cast<uint32_t>(std::atoll(argv[++i]));
    } else if (dir.empty() && a[0] != '-') {
      dir = a;
    } else {
      std::fprintf(stderr,
                   "usage: op_property_cases OUT_DIR --scheme int8|int16x8 "
                   "--cases N [--seed S]\n");
      return 1;
    }
  }
  absl::StatusOr<quantizer::Scheme> scheme =
      quantizer::ParseScheme(scheme_name);
  if (dir.empty() || !scheme.ok() || cases < 1) {
    std::fprintf(stderr, "op_property_cases: bad arguments\n");
    return 1;
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "op_property_cases: %s: %s\n", dir.c_str(),
                 ec.message().c_str());
    return 1;
  }
  const std::vector<OpRow> rows = Rows();
  Gen g(seed);
  std::ofstream manifest(dir + "/manifest.jsonl");
  for (int i = 0; i < cases; ++i) {
    const OpRow& row = rows[static_cast<size_t>(i) % rows.size()];
    const std::string id = absl::StrFormat("%05d", i);
    absl::StatusOr<nlohmann::json> line = OneCase(g, row, *scheme, dir, id);
    if (!line.ok()) {
      std::fprintf(stderr, "op_property_cases: case %s (%s): %s\n", id.c_str(),
                   row.name, std::string(line.status().message()).c_str());
      return 2;
    }
    manifest << line->dump() << "\n";
  }
  return 0;
}

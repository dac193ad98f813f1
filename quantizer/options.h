// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// What the quantizer is asked (schemes, per-op precision rules, ranges) and
// what it answers (the model, the form each op took, what stayed float and
// why). Shared by the driver (quantize.h) and the passes it calls (plan,
// rewrite, weight-only passes), so that a pass never includes its driver.
#ifndef QFORGE_QUANTIZER_OPTIONS_H_
#define QFORGE_QUANTIZER_OPTIONS_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "calibration/range.h"
#include "ir/model.h"
#include "runtime/profile.h"

namespace qforge::quantizer {

enum class Scheme { kInt8, kInt16x8, kDynamic, kFloat16, kWeightOnly };

absl::StatusOr<Scheme> ParseScheme(const std::string& text);
std::string SchemeName(Scheme scheme);

// Ops matched by `select` take `precision`: "int8", "int4" (int8 with int4
// weights), "int16" (int16x8) or "float" ("": the precision is left as it
// is). `origin` names the rule in messages ("--int16-op CONV_2D",
// "recipe.json rule 3"). A recipe rule may also give the range method of
// the ops' outputs ("minmax", "percentile:99.9", ...; "": the job's).
struct PrecisionRule {
  PrecisionRule() = default;
  PrecisionRule(std::string select, std::string precision, std::string origin,
                std::string method = "")
      : select(std::move(select)),
        precision(std::move(precision)),
        origin(std::move(origin)),
        method(std::move(method)) {}

  std::string select;
  std::string precision;
  std::string origin;
  std::string method;
};

// Weight rounding from the --data samples, before quantizing
// (quantizer/recover.h; docs/recovery.md): --gptq, --awq, --weight-clip.
struct WeightRounding {
  bool gptq = false;        // GPTQ's error-feedback rounding (gptq.h)
  double gptq_damp = 0.01;  // damping, a fraction of mean diag(H)
  bool awq = false;         // activation-aware input scales (awq.h)
  // --awq-mul: AWQ also through new MULs where no fold is exact (float
  // activations only); implies awq once resolved.
  bool awq_mul = false;
  bool clip_mse = false;  // clip ratio search per channel (weight_grid.h)
  bool Any() const { return gptq || awq || awq_mul || clip_mse; }
};

struct QuantizeOptions {
  Scheme scheme = Scheme::kInt8;
  // Where the model will run: its forms must run there too (and in
  // LiteRT); tflm takes no float op (runtime/profile.h).
  runtime::Runtime runtime = runtime::Runtime::kLitert;
  calibration::RangeSpec range;
  // Types of the model's inputs and outputs: float32 (QUANTIZE/DEQUANTIZE
  // inside the model), int8 / uint8 (int8 scheme), int16 (int16x8).
  ir::DataType input_type = ir::DataType::kFloat32;
  ir::DataType output_type = ir::DataType::kFloat32;
  // Ops kept float: op index ("12"), op type ("CONV_2D"), output tensor
  // name, or a regular expression over tensor names ("re:^head/.*").
  std::vector<std::string> exclude;
  // Per-op precision (docs/recipe.md): applied in order, a later rule
  // overriding an earlier one for the ops both select; `exclude` applies
  // last. Selectors use the `exclude` syntax.
  std::vector<PrecisionRule> rules;
  bool strict = false;         // fail if any op has to stay float
  bool fc_per_tensor = false;  // FULLY_CONNECTED weights per tensor
  // 4: int8-form ops with an int4 weight form (CONV_2D, DEPTHWISE_CONV_2D,
  // FULLY_CONNECTED) take packed int4 weights, unless a rule says "int8".
  int weight_bits = 8;
  // --scheme weight-only / dynamic: scales per block of this many weights
  // along the input axis (0: per channel); quantizer/weight_forms.h.
  int block_size = 0;
  // int8 / int16x8: the ops that stay float keep their weights as float16
  // constants behind DEQUANTIZE (as the float16 scheme) instead of float32.
  bool float16_float_weights = false;
  // int16 activation ranges from statistics are widened by this factor.
  // An int16 step is 256 times finer than an int8 one, so a 2x wider range
  // costs 6 dB of a resolution that int8 weights never use, while values
  // beyond the calibrated range of a few samples no longer clip
  // (docs/quantization.md has the measurement).
  float int16_headroom = 2.0f;
  // Range methods per activation tensor (by name) in place of `range`:
  // what --method auto chose (pipeline/range_search.h).
  std::map<std::string, calibration::RangeSpec> range_overrides;
};

struct KeptFloat {
  int op_index;
  std::string op_name;
  std::string reason;
};

// A change the planner made to an op's quantized form so that the runtime
// runs it faithfully (a clamped sentinel range, a vanishing constant put on
// its operand's grid).
struct Repair {
  int op_index;
  std::string op_name;
  std::string what;
  // The op is a masked-attention ADD whose mask range was clamped (the
  // fast-path plan may then keep it float with the SOFTMAXes it feeds).
  bool mask_clamped = false;
};

struct QuantizeResult {
  ir::Model model;
  int ops_quantized = 0;
  std::vector<KeptFloat> kept_float;
  std::vector<Repair> repairs;
  // The form each op of subgraph 0 took, by the op indices the summary
  // prints (int8 / int16x8 schemes; --save-recipe).
  struct OpChoice {
    std::string precision;  // "int8", "int4", "int16", "float"
    std::string op;         // op type
    std::string output;     // first output's name
  };
  std::vector<OpChoice> op_choices;
  // Standalone activations folded into the op before them
  // (quantizer/fold_activations.h), by the op indices of op_choices.
  struct Folded {
    int op_index;      // the activation
    std::string op;    // its type ("RELU")
    int into_index;    // the producer that now applies it
    std::string into;  // its type ("CONV_2D")
  };
  std::vector<Folded> folded;
};

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_OPTIONS_H_

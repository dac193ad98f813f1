// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// A raw per-anchor detector's head kept float for LiteRT. MediaPipe's
// BlazeFace, palm and pose detectors write score logits for thousands of
// anchors (report/task_kind.h: a boxes [1, N, K >= 4] / scores [1, N, 1]
// output pair whose scores no LOGISTIC makes): most anchors' logits reach
// -1000 and below, so the int8 grid of the score output's range steps by
// several units and rounds every logit near the 0.5 decision (logit 0) to
// 0 itself; no anchor is then above 0.5. The boxes' range holds the boxes
// of anchors that are no detection (palm_detection: -18311..1887 input
// pixels, for boxes tens of pixels wide). The head, the ops that produce
// the two outputs through RESHAPE and CONCATENATION, is small (1x1
// convolutions): kept float, it costs XNNPACK almost nothing and keeps the
// decisions the int8 backbone allows. Only for --runtime litert and the
// int8 scheme (TFLite Micro has no float), not under --strict or
// --keep-integer; ops the user gave a precision, and integer model
// outputs, keep theirs.
#ifndef QFORGE_PIPELINE_DETECTOR_HEAD_H_
#define QFORGE_PIPELINE_DETECTOR_HEAD_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/model.h"
#include "quantizer/options.h"
#include "report/task_kind.h"

namespace qforge::pipeline {

// The reason of the ops the plan keeps float (quantizer::KeptFloat).
inline constexpr char kDetectorHeadFloatReason[] =
    "--runtime litert: detector head (int8 rounds its score logits near the "
    "0.5 decision to it)";

struct DetectorHeadPlan {
  // Rules keeping the ops float ("12" -> "float"), to add to the options'.
  std::vector<quantizer::PrecisionRule> rules;
  std::vector<std::string> ops;  // "op 12 CONV_2D", in op order
};

// The rules for `work` quantized with `options`; `tasks`: --task's
// overrides (an output judged as another kind is no detector's).
absl::StatusOr<DetectorHeadPlan> PlanDetectorHead(
    const ir::Model& work, const quantizer::QuantizeOptions& options,
    const std::vector<report::TaskOverride>& tasks);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_DETECTOR_HEAD_H_

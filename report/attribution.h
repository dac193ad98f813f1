// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Which layer adds the noise. In the quantized run a layer's output noise
// mixes what the layer adds with what it inherits, and an op can amplify
// the relative noise it inherits many times over, even when it runs in
// float: differencing the noise of an op's output and inputs would name
// such an op the worst layer, though raising it gains nothing. So the
// report runs the quantized model once more per sample, giving every
// compared op exact inputs: each compared tensor, as soon as its op has
// written it, is measured against the float value ("own" noise) and then
// overwritten with that float value on the tensor's grid ("rounding": the
// float value itself for an op kept float).
// A layer's introduced noise is its own noise minus its noisiest input's
// rounding, with noise relative to signal through the rank key
// (N = 10^(-rank_db / 10), report.h).
#ifndef QFORGE_REPORT_ATTRIBUTION_H_
#define QFORGE_REPORT_ATTRIBUTION_H_

#include <vector>

#include "ir/model.h"
#include "report/compare_plan.h"
#include "report/metrics.h"
#include "runtime/interpreter.h"

namespace qforge::report {

// The observer of the exact-input run of one sample; adds to `own` and
// `rounding` (one ErrorSums per slot).
class ExactInputs : public runtime::TensorObserver {
 public:
  ExactInputs(const Plan& plan, const CapturedFloats& floats,
              std::vector<ErrorSums>& own, std::vector<ErrorSums>& rounding)
      : plan_(plan), floats_(floats), own_(own), rounding_(rounding) {}
  void Observe(int, int, int, const runtime::RtTensor&) override {}
  bool ReplacesValues() const override { return true; }
  void Replace(int subgraph, int op_index, int tensor_index,
               runtime::RtTensor& tensor) override;

 private:
  const Plan& plan_;
  const CapturedFloats& floats_;
  std::vector<ErrorSums>& own_;
  std::vector<ErrorSums>& rounding_;
};

// Each slot's introduced_db (report.h) from the exact-input run's sums
// over all samples: -10 log10(N_own - max N_rounding of its compared
// inputs); +inf when that is not positive, and when the op only moves
// values (its own sums equal an input's rounding sums: same count, sum of
// f^2 and e^2; the rank key's channel term depends on the layout, so
// RESHAPE or TRANSPOSE would otherwise seem to add or remove noise).
std::vector<double> IntroducedDb(const ir::Subgraph& qsg, const Plan& plan,
                                 const std::vector<ErrorSums>& own,
                                 const std::vector<ErrorSums>& rounding);

}  // namespace qforge::report

#endif  // QFORGE_REPORT_ATTRIBUTION_H_

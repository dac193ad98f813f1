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
// A layer's introduced noise is its own noise minus what its inputs'
// rounding alone gives: the noisiest input's rounding, or more where the
// op amplifies that rounding. The float model runs once more to measure
// the latter ("propagated"): each compared tensor, as soon as its op has
// written it, is measured against the float value and overwritten with
// that value rounded onto the quantized tensor's grid; an op then sees
// rounded inputs and float arithmetic. Noise is relative to signal
// through the rank key (N = 10^(-rank_db / 10), report.h).
//
// Where an op amplifies its input's rounding (a FULLY_CONNECTED head
// whose weights cancel: a small output from large terms), the excess is
// not the op's doing, and raising the op to float leaves it: it is the
// input tensor's grid, fixed by a wider type for that tensor (its producer
// in int16, or float). The excess is charged to the noisiest input's
// layer ("grid" noise), added to what that layer introduces.
#ifndef QFORGE_REPORT_ATTRIBUTION_H_
#define QFORGE_REPORT_ATTRIBUTION_H_

#include <map>
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

// The observer of the float model's rounded run of one sample (after
// the float run that filled `floats`); adds to `propagated` (one ErrorSums
// per slot). Where a float tensor is the twin of several slots (a float
// op's output and the QUANTIZE the quantizer added after it), the
// quantized slot's grid rounds it.
class RoundedFloats : public runtime::TensorObserver {
 public:
  RoundedFloats(const Plan& plan, const CapturedFloats& floats,
                std::vector<ErrorSums>& propagated);
  void Observe(int, int, int, const runtime::RtTensor&) override {}
  bool ReplacesValues() const override { return true; }
  void Replace(int subgraph, int op_index, int tensor_index,
               runtime::RtTensor& tensor) override;

 private:
  const Plan& plan_;
  const CapturedFloats& floats_;
  std::vector<ErrorSums>& propagated_;
  std::map<int, int> slot_of_capture_;
  // Scratch for a tensor's values on its grid, kept across tensors (one
  // observer per sample run).
  std::vector<int32_t> grid_values_;
};

struct Attribution {
  // Per slot (report.h's introduced_db): -10 log10(N_own - N_in +
  // N_grid), N_in the larger of the noisiest compared input's rounding
  // and the propagated noise; +inf when not positive, and when the op only
  // moves values (its own sums equal an input's rounding sums: same count,
  // sum of f^2 and e^2; the rank key's channel term depends on the layout,
  // so RESHAPE or TRANSPOSE would otherwise seem to add or remove noise).
  std::vector<double> introduced_db;
  // Per slot: -10 log10(N_grid), N_grid the most propagated noise beyond
  // the rounding of the slot itself that an op reading it shows (+inf:
  // none), and that op (-1: none).
  std::vector<double> grid_db;
  std::vector<int> grid_reader;
};

// From the sums over all samples. `propagated` may hold no counts (a
// report without the rounded run): then N_in is the inputs' rounding.
Attribution Attribute(const ir::Subgraph& qsg, const Plan& plan,
                      const std::vector<ErrorSums>& own,
                      const std::vector<ErrorSums>& rounding,
                      const std::vector<ErrorSums>& propagated);

}  // namespace qforge::report

#endif  // QFORGE_REPORT_ATTRIBUTION_H_

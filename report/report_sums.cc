// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/report_sums.h"

#include "absl/strings/str_cat.h"

namespace qforge::report {

absl::Status MergeSums(const ReportSums& from, ReportSums& into) {
  if (from.slots.size() != into.slots.size() ||
      from.own.size() != into.own.size() ||
      from.rounding.size() != into.rounding.size() ||
      from.propagated.size() != into.propagated.size() ||
      from.outputs.size() != into.outputs.size() ||
      from.classes.size() != into.classes.size() ||
      from.tasks.size() != into.tasks.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the sums are of different models (", from.slots.size(), " and ",
        into.slots.size(), " compared tensors, ", from.outputs.size(), " and ",
        into.outputs.size(), " outputs)"));
  }
  for (size_t s = 0; s < from.slots.size(); ++s) {
    into.slots[s].Merge(from.slots[s]);
    into.own[s].Merge(from.own[s]);
    into.rounding[s].Merge(from.rounding[s]);
    into.propagated[s].Merge(from.propagated[s]);
  }
  if (from.task_overrides != into.task_overrides ||
      from.labels != into.labels) {
    return absl::InvalidArgumentError(
        "the sums judge the outputs' tasks differently (other --task or "
        "--labels)");
  }
  for (size_t j = 0; j < from.outputs.size(); ++j) {
    into.outputs[j].Merge(from.outputs[j]);
    into.tasks[j].Merge(from.tasks[j]);
    const OutputClasses& f = from.classes[j];
    OutputClasses& t = into.classes[j];
    if (f.first_position >= 0 &&
        (t.first_position < 0 || f.first_position < t.first_position)) {
      t.first_position = f.first_position;
      t.first_classes = f.first_classes;
    }
    for (const auto& [classes, c] : f.counts) {
      ClassCounts& sum = t.counts[classes];
      sum.judged += c.judged;
      sum.top1 += c.top1;
      sum.top5 += c.top5;
    }
  }
  for (const auto& [capture, h] : from.histograms)
    into.histograms[capture].Merge(h);
  return absl::OkStatus();
}

}  // namespace qforge::report

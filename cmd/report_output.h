// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// What `qforge report` and `qforge quantize --report` share: opening the
// --data samples for a pair of models and building the report with
// progress on stderr, and the --min-sqnr check.
#ifndef QFORGE_CMD_REPORT_OUTPUT_H_
#define QFORGE_CMD_REPORT_OUTPUT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "cmd/data_flags.h"
#include "ir/model.h"
#include "report/report.h"

namespace qforge::cmd {

struct ReportRun {
  std::string float_label, quant_label;  // as the report names the models
  int threads = 0;
  bool quiet = false;
  // Print the data layer's notes (wav remainders); off when the caller
  // opened the same data already and printed them.
  bool data_notes = true;
  // Files the command will write: refused if one is a data file.
  std::vector<std::string> outputs;
  numerics::Modes numerics;  // of the quantized model's interpreters
};

// The data are opened for the float model; when that fails and the
// quantized model takes integer inputs, for the quantized model (integer
// data of the input's type, taken as is).
absl::StatusOr<report::Report> MakeReport(const ir::Model& float_model,
                                          const ir::Model& quant_model,
                                          const DataFlags& data,
                                          const ReportRun& run);

// AccuracyBoundError (exit code 4) naming the outputs below `min_sqnr`.
absl::Status CheckMinSqnr(const report::Report& report, double min_sqnr);

}  // namespace qforge::cmd

#endif  // QFORGE_CMD_REPORT_OUTPUT_H_

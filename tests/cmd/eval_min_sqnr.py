#!/usr/bin/env python3
# Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
"""An evaluator for `qforge quantize --eval-cmd` (tests/cmd/eval_cmd_test.cc).

  eval_min_sqnr.py QFORGE FLOAT MODEL DATA_FLAGS...

Scores MODEL by the smallest SQNR (dB) of its outputs against the float
model FLOAT on the samples of DATA_FLAGS (`qforge report --format json`),
and prints it alone on its last stdout line; exact outputs (null in the
report) score 1000. With EVAL_LOG set, also appends "SHA256 SCORE" of each
model scored to that file, so a test can tell which candidate was written.
"""
import hashlib
import json
import os
import subprocess
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    qforge, float_model, model = sys.argv[1:4]
    run = subprocess.run(
        [qforge, "report", float_model, model, "--format", "json", "-q"]
        + sys.argv[4:],
        capture_output=True, text=True)
    if run.returncode != 0:
        sys.stderr.write(run.stderr)
        sys.exit(run.returncode)
    report = json.loads(run.stdout)
    sqnr = report["min_output_sqnr_db"]
    score = f"{1000.0 if sqnr is None else float(sqnr):.4f}"
    if os.environ.get("EVAL_LOG"):
        with open(model, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        with open(os.environ["EVAL_LOG"], "a") as log:
            log.write(f"{digest} {score}\n")
    print(f"outputs compared: {len(report['outputs'])}")
    print(score)


if __name__ == "__main__":
    main()

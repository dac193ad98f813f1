// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Measured with LiteRT.js 2.5.3 (tests/interop/weight_forms_litert.sh, the
// probes in docs/weight-forms.md) and read from TFLite's kernels:
// dequantize.cc (affine scales only), conv.cc / depthwise_conv.cc (hybrid
// filters int8 only), embedding_lookup.cc (EvalHybrid: int8 / int4 rows;
// EvalBlockwise: int4 with float16 scales per block), and the XNNPACK
// delegate's FULLY_CONNECTED (float input, qc4w or qb4w filter: dynamically
// quantized int8 input, qd8).
#include "runtime/legality_weights.h"

#include "absl/strings/str_cat.h"

namespace qforge::runtime::legality {

std::string WeightFormRefusal(ir::OpKind kind, const WeightForm& form) {
  const bool blocks = form.block_size > 0;
  if (form.compute == WeightCompute::kDequantize) {
    if (blocks) {
      return "LiteRT's DEQUANTIZE reads affine (per-tensor / per-channel) "
             "scales only: a BlockwiseQuantization input comes out as zeros";
    }
    return "";  // int8 and int4, per tensor or per channel (dequantize.cc)
  }
  // The op's own kernel reads the integer weights: a property of one
  // kernel each, so these name the op.
  const bool fc = kind == ir::OpKind::kFullyConnected;
  const bool lookup = kind == ir::OpKind::kEmbeddingLookup;
  if (fc || lookup) {
    if (blocks && form.bits != 4) {
      return fc ? "blockwise FULLY_CONNECTED weights are int4 only (XNNPACK "
                  "qb4w; TFLite's builtin kernel has no blockwise form)"
                : "EMBEDDING_LOOKUP's blockwise tables are int4 (or int2) "
                  "only (embedding_lookup.cc EvalBlockwise)";
    }
    return "";
  }
  if (kind == ir::OpKind::kConv2D || kind == ir::OpKind::kDepthwiseConv2D) {
    if (form.bits == 4) {
      return absl::StrCat(
          "LiteRT's hybrid ", ir::GetOpInfo(kind).name,
          " takes int8 filters only (\"Type FLOAT32 with filter type INT4 "
          "not currently supported\")");
    }
    return blocks ? "no blockwise hybrid convolution in LiteRT" : "";
  }
  return absl::StrCat("LiteRT has no kernel for ", ir::GetOpInfo(kind).name,
                      " that reads integer weights beside float inputs");
}

}  // namespace qforge::runtime::legality

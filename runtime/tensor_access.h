// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// A tensor's memory: its size, its allocation, and whether its bytes may be
// read or handed out: the
// interpreter's checks between a file's shapes and any memcpy, so that
// nothing reads out of bounds whatever the model says (docs/robustness.md).
#ifndef QFORGE_RUNTIME_TENSOR_ACCESS_H_
#define QFORGE_RUNTIME_TENSOR_ACCESS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/model.h"
#include "runtime/aligned_buffer.h"
#include "runtime/tensor.h"

namespace qforge::runtime {

// Bytes of `t`'s data for its current shape. Fails on an unknown (-1) or
// overflowing shape, and past `limit` bytes (when > 0), naming the tensor:
// shapes come from the file or from kernels' prepare, and must not reach an
// allocation or a memcpy unchecked. Unimplemented for types qforge cannot
// hold densely.
absl::StatusOr<size_t> TensorBytes(const RtTensor& t, int64_t limit = 0);

// An op may read input `k` (`t`) of op `index` in `subgraph`: its shape is
// known, and its data is there and large enough.
absl::Status CheckReadable(const ir::Operator& op, int subgraph, int index,
                           size_t k, const RtTensor& t);

// Gives `rt` the buffer's memory for `bytes` (rt.bytes = the buffer's
// capacity); ResourceExhausted naming the tensor when allocation fails.
absl::Status Reserve(AlignedBuffer& buffer, RtTensor& rt, size_t bytes);

// Turns the int4 constant `rt` (`packed`: two values a byte, low nibble
// first) into int8 held in `buffer`, as TFLite's kernels unpack int4
// weights in Prepare: every integer kernel then reads int8. Fails, naming
// the tensor, when the shape is unknown or needs more bytes than given.
absl::Status WidenInt4(AlignedBuffer& buffer, RtTensor& rt,
                       absl::Span<const uint8_t> packed);

// Output `k` of `subgraph` (`t`) holds a value once its ops ran.
absl::Status CheckOutputWritten(int subgraph, size_t k, const RtTensor& t);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_TENSOR_ACCESS_H_

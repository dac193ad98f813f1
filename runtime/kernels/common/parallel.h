// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The parallel loop of the kernels whose outputs are cut into independent
// pieces (elementwise, integer, data movement).
#ifndef QFORGE_RUNTIME_KERNELS_COMMON_PARALLEL_H_
#define QFORGE_RUNTIME_KERNELS_COMMON_PARALLEL_H_

#include <algorithm>
#include <cstdint>

#include "runtime/kernel.h"

namespace qforge::runtime {

// Runs fn(begin, end) over [0, n) in chunks of `chunk` items; fn must only
// write the outputs of its items. The chunk boundaries depend on n and
// chunk alone, whatever the thread count, so every item takes the same code
// path and results are bit-identical.
template <typename Fn>
void ParallelChunks(const OpContext& ctx, int64_t n, int64_t chunk,
                    const Fn& fn) {
  if (n <= 0) return;
  chunk = std::max<int64_t>(chunk, 1);
  const int64_t tasks = (n + chunk - 1) / chunk;
  if (tasks == 1) {
    fn(int64_t{0}, n);
    return;
  }
  if (ctx.pool().num_threads() <= 1) {
    for (int64_t t = 0; t < tasks; ++t) {
      fn(t * chunk, std::min(n, (t + 1) * chunk));
    }
    return;
  }
  ctx.pool().ParallelFor(tasks, [&fn, n, chunk](int64_t t) {
    fn(t * chunk, std::min(n, (t + 1) * chunk));
  });
}

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_COMMON_PARALLEL_H_

// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// 64-byte aligned heap memory for the interpreter's tensors and arenas
// (the alignment the vector kernels and the memory plan assume).
#ifndef QFORGE_RUNTIME_ALIGNED_BUFFER_H_
#define QFORGE_RUNTIME_ALIGNED_BUFFER_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace qforge::runtime {

inline constexpr size_t kAlignment = 64;

inline size_t AlignUp(size_t n) {
  return (n + kAlignment - 1) / kAlignment * kAlignment;
}

// 64-byte aligned heap memory whose content is not preserved on growth.
class AlignedBuffer {
 public:
  // nullptr when the allocation fails (the buffer is then empty).
  uint8_t* Reserve(size_t bytes) {
    if (bytes > capacity_) {
      ptr_.reset();
      capacity_ = 0;
      if (bytes > SIZE_MAX - kAlignment) return nullptr;
      const size_t want = AlignUp(std::max<size_t>(bytes, 1));
      ptr_.reset(static_cast<uint8_t*>(std::aligned_alloc(kAlignment, want)));
      if (ptr_ != nullptr) capacity_ = want;
    }
    return ptr_.get();
  }
  uint8_t* data() const { return ptr_.get(); }
  size_t capacity() const { return capacity_; }

 private:
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t, Free> ptr_;
  size_t capacity_ = 0;
};

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_ALIGNED_BUFFER_H_

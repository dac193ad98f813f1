// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// A constant buffer's bytes: owned, or a read-only view of memory an owner
// keeps alive (the mapped model file, base/mapped_file.h, or an adopted
// typed vector). Reading never
// copies; the first write to a view copies it into owned storage. Copying a
// Bytes shares a view and copies owned bytes, so copying a model loaded
// from a file costs no weight bytes.
#ifndef QFORGE_IR_BYTES_H_
#define QFORGE_IR_BYTES_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/types/span.h"

namespace qforge::ir {

class Bytes {
 public:
  Bytes() = default;
  // Owned bytes (implicit, so `buffer.data = std::vector<uint8_t>{...}`).
  Bytes(std::vector<uint8_t> owned)  // NOLINT(google-explicit-constructor)
      : owned_(std::move(owned)) {}
  Bytes(std::initializer_list<uint8_t> bytes) : owned_(bytes) {}
  template <typename It>
  Bytes(It first, It last) : owned_(first, last) {}

  // A view of [data, data + size), valid while `owner` lives.
  static Bytes View(const uint8_t* data, size_t size,
                    std::shared_ptr<const void> owner) {
    Bytes b;
    b.view_ = data;
    b.view_size_ = size;
    b.owner_ = std::move(owner);
    return b;
  }

  // Takes a vector of any trivially copyable type as the bytes, without a
  // copy (a quantized weight tensor goes from its int8 vector to the model
  // as is).
  template <typename T>
  static Bytes Adopt(std::vector<T>&& values) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (values.empty()) return Bytes();
    auto owner = std::make_shared<std::vector<T>>(std::move(values));
    return View(reinterpret_cast<const uint8_t*>(owner->data()),
                owner->size() * sizeof(T), owner);
  }

  bool is_view() const { return owner_ != nullptr; }
  size_t size() const { return is_view() ? view_size_ : owned_.size(); }
  bool empty() const { return size() == 0; }
  const uint8_t* data() const { return is_view() ? view_ : owned_.data(); }
  const uint8_t* begin() const { return data(); }
  const uint8_t* end() const { return data() + size(); }
  uint8_t operator[](size_t i) const { return data()[i]; }
  operator absl::Span<const uint8_t>() const {  // NOLINT
    return {data(), size()};
  }
  std::vector<uint8_t> ToVector() const { return {begin(), end()}; }

  // Writable access: a view is copied into owned storage first.
  std::vector<uint8_t>& mutable_vector() {
    if (is_view()) {
      owned_.assign(view_, view_ + view_size_);
      view_ = nullptr;
      view_size_ = 0;
      owner_.reset();
    }
    return owned_;
  }
  uint8_t* mutable_data() { return mutable_vector().data(); }
  void resize(size_t n) { mutable_vector().resize(n); }
  void clear() { *this = Bytes(); }
  template <typename It>
  void assign(It first, It last) {
    *this = Bytes(first, last);
  }

  friend bool operator==(const Bytes& a, const Bytes& b) {
    return a.size() == b.size() &&
           (a.size() == 0 || std::memcmp(a.data(), b.data(), a.size()) == 0);
  }
  friend bool operator!=(const Bytes& a, const Bytes& b) { return !(a == b); }

 private:
  std::vector<uint8_t> owned_;
  const uint8_t* view_ = nullptr;
  size_t view_size_ = 0;
  std::shared_ptr<const void> owner_;
};

}  // namespace qforge::ir

#endif  // QFORGE_IR_BYTES_H_

// Zero-filled memory straight from the OS: an anonymous mapping (calloc where there is none).
// Its pages are mapped on first touch, so a large table that a short text barely touches costs
// only the pages it touches, where a std::vector would write the whole table at allocation.
// No Node headers.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

namespace simhash_zh {

// `bytes` of zeros (at least one byte is reserved); `populate`: map every page now, for a table
// that is about to be written whole. Throws std::bad_alloc.
void* map_zeroed(size_t bytes, bool populate);
// Frees what map_zeroed(bytes, ...) returned (nullptr: nothing).
void unmap_zeroed(void* memory, size_t bytes);

// A fixed-size array of T whose initial state is all-zero bytes (no constructor runs).
template <class T>
class ZeroedArray {
  static_assert(std::is_trivially_copyable<T>::value && std::is_trivially_destructible<T>::value,
                "a ZeroedArray element starts as zero bytes and is freed without a destructor");

 public:
  ZeroedArray() = default;
  // `populate`: map every page now (see map_zeroed).
  explicit ZeroedArray(size_t count, bool populate = false)
      : data_(static_cast<T*>(map_zeroed(count * sizeof(T), populate))), size_(count) {}
  ~ZeroedArray() { unmap_zeroed(data_, size_ * sizeof(T)); }
  ZeroedArray(ZeroedArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  ZeroedArray& operator=(ZeroedArray&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  ZeroedArray(const ZeroedArray&) = delete;
  ZeroedArray& operator=(const ZeroedArray&) = delete;

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  // The bytes reserved (resident only once touched).
  size_t bytes() const { return size_ * sizeof(T); }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  const T* begin() const { return data_; }
  T* end() { return data_ + size_; }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace simhash_zh

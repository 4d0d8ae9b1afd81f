// The interface every fingerprint pipeline (preset) implements.
#pragma once

#include <cstddef>
#include <string_view>

#include "feature_list.h"
#include "fingerprint.h"

namespace simhash_zh {

class Fingerprinter {
 public:
  virtual ~Fingerprinter() = default;
  virtual int bits() const = 0;
  // Thread-safe: a Fingerprinter is immutable once built.
  virtual Fingerprint fingerprint(std::string_view utf8) const = 0;
  virtual FeatureList features(std::string_view utf8) const = 0;
  // Heap bytes held now (scratch included), for the host's garbage collector; thread-safe.
  virtual size_t memory_bytes() const { return 0; }

  // out[i] = fingerprint(text_at(context, i)) for i < count; a view stays valid until the
  // next call. Pipelines with scratch state take it once per batch instead of per text.
  using TextAt = std::string_view (*)(void* context, size_t index);
  virtual void fingerprint_batch(size_t count, TextAt text_at, void* context, Fingerprint* out) const {
    for (size_t i = 0; i < count; ++i) out[i] = fingerprint(text_at(context, i));
  }
};

// Per-bit signed accumulators with 32-bit two's-complement wrap-around, as
// the seeds' `int` arrays behave on every platform they run on.
class WrappingAccumulator {
 public:
  explicit WrappingAccumulator(int bits) : bits_(bits) {
    for (auto& v : sums_) v = 0;
  }
  void add(Fingerprint hash, uint32_t weight) {
    const int low = bits_ < 64 ? bits_ : 64;
    add_bits(hash.lo, weight, sums_, low);
    if (bits_ > 64) add_bits(hash.hi, weight, sums_ + 64, bits_ - 64);
  }
  int32_t sum(int i) const { return static_cast<int32_t>(sums_[i]); }
  int bits() const { return bits_; }

 private:
  // sums[i] += weight where bit i of `word` is set, -= weight where it is clear (mod 2^32), as
  // arithmetic rather than a branch: the compiler vectorizes it with or without a profile.
  static void add_bits(uint64_t word, uint32_t weight, uint32_t* sums, int count) {
    for (int i = 0; i < count; ++i) {
      const uint32_t bit = static_cast<uint32_t>((word >> i) & 1U);
      sums[i] += 2 * bit * weight - weight;
    }
  }

  int bits_;
  uint32_t sums_[128];
};

}  // namespace simhash_zh

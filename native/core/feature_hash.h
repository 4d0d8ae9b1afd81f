// The default pipeline's feature hash: MurmurHash3_x86_128 (seed 0) of the
// feature's UTF-32LE encoding, i.e. of its code points as 32-bit words, with its
// high words h3 and h4 remixed (fmix of each xor a constant of its own): for a key
// of one or two code points (every character feature, most Chinese words)
// MurmurHash3_x86_128 gives h3 == h4, which made two of the MinHash sketch's four
// offers one, and at 128 bits SimHash's bits 96-127 agree with bits 64-95 in 89%
// of places. A 64-bit SimHash uses the low 64 bits (h2:h1, unchanged).
// lib/js/feature-hash.ts is its twin.
#pragma once

#include <cstddef>
#include <cstdint>

#include "fingerprint.h"

namespace simhash_zh {

namespace murmur {

inline uint32_t rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

constexpr uint32_t fmix(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bU;
  h ^= h >> 13;
  h *= 0xc2b2ae35U;
  h ^= h >> 16;
  return h;
}

}  // namespace murmur

// MurmurHash3_x86_128 fed one code point at a time, for a feature too long to gather first (a
// run of 100 MB of ASCII is one word): the same hash as feature_hash() of the same code points.
class FeatureHasher {
 public:
  void add(uint32_t cp) {
    block_[count_ & 3] = cp;
    if ((++count_ & 3) == 0) mix(block_[0], block_[1], block_[2], block_[3]);
  }
  Fingerprint finish() const {
    FeatureHasher last = *this;
    return last.tail_and_final(block_, count_);
  }
  // The hash of `count` code points given at once.
  static Fingerprint of(const uint32_t* cps, size_t count) {
    FeatureHasher h;
    const size_t blocks = count / 4;
    for (size_t b = 0; b < blocks; ++b) h.mix(cps[4 * b], cps[4 * b + 1], cps[4 * b + 2], cps[4 * b + 3]);
    return h.tail_and_final(cps + blocks * 4, count);
  }

 private:
  // The two halves of 2^64 / φ: any two distinct constants would do.
  static constexpr uint32_t kHighMix3 = 0x9E3779B9U, kHighMix4 = 0x7F4A7C15U;
  static constexpr uint32_t c1 = 0x239b961bU, c2 = 0xab0e9789U, c3 = 0x38b34ae5U, c4 = 0xa1e38b93U;

  void mix(uint32_t k1, uint32_t k2, uint32_t k3, uint32_t k4) {
    using murmur::rotl;
    k1 *= c1; k1 = rotl(k1, 15); k1 *= c2; h1_ ^= k1;
    h1_ = rotl(h1_, 19); h1_ += h2_; h1_ = h1_ * 5 + 0x561ccd1bU;
    k2 *= c2; k2 = rotl(k2, 16); k2 *= c3; h2_ ^= k2;
    h2_ = rotl(h2_, 17); h2_ += h3_; h2_ = h2_ * 5 + 0x0bcaa747U;
    k3 *= c3; k3 = rotl(k3, 17); k3 *= c4; h3_ ^= k3;
    h3_ = rotl(h3_, 15); h3_ += h4_; h3_ = h3_ * 5 + 0x96cd1c35U;
    k4 *= c4; k4 = rotl(k4, 18); k4 *= c1; h4_ ^= k4;
    h4_ = rotl(h4_, 13); h4_ += h1_; h4_ = h4_ * 5 + 0x32ac3b17U;
  }

  // The last count % 4 code points (at tail) and the finalization, for `count` code points in all.
  Fingerprint tail_and_final(const uint32_t* tail, size_t count) {
    using murmur::rotl;
    switch (count & 3) {
      case 3: {
        uint32_t k3 = tail[2];
        k3 *= c3; k3 = rotl(k3, 17); k3 *= c4; h3_ ^= k3;
      }
        [[fallthrough]];
      case 2: {
        uint32_t k2 = tail[1];
        k2 *= c2; k2 = rotl(k2, 16); k2 *= c3; h2_ ^= k2;
      }
        [[fallthrough]];
      case 1: {
        uint32_t k1 = tail[0];
        k1 *= c1; k1 = rotl(k1, 15); k1 *= c2; h1_ ^= k1;
      }
    }
    const uint32_t length = static_cast<uint32_t>(count * 4);
    h1_ ^= length; h2_ ^= length; h3_ ^= length; h4_ ^= length;
    h1_ += h2_; h1_ += h3_; h1_ += h4_;
    h2_ += h1_; h3_ += h1_; h4_ += h1_;
    h1_ = murmur::fmix(h1_); h2_ = murmur::fmix(h2_); h3_ = murmur::fmix(h3_); h4_ = murmur::fmix(h4_);
    h1_ += h2_; h1_ += h3_; h1_ += h4_;
    h2_ += h1_; h3_ += h1_; h4_ += h1_;
    // Of a key of one or two code points MurmurHash3_x86_128 gives h3 == h4 (and h2 == h3
    // for one): remixed apart, so that no two of the sketch's four words are copies.
    h3_ = murmur::fmix(h3_ ^ kHighMix3);
    h4_ = murmur::fmix(h4_ ^ kHighMix4);
    return Fingerprint{(static_cast<uint64_t>(h2_) << 32) | h1_, (static_cast<uint64_t>(h4_) << 32) | h3_};
  }

  uint32_t h1_ = 0, h2_ = 0, h3_ = 0, h4_ = 0;
  uint32_t block_[4] = {};
  size_t count_ = 0;
};

// Hashes `count` code points.
inline Fingerprint feature_hash(const uint32_t* cps, size_t count) { return FeatureHasher::of(cps, count); }

}  // namespace simhash_zh

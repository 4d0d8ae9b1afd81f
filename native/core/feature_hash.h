// The default pipeline's feature hash: MurmurHash3_x86_128 (seed 0) of the
// feature's UTF-32LE encoding, i.e. of its code points as 32-bit words. A
// 64-bit fingerprint uses the low 64 bits. lib/js/feature-hash.ts is its twin.
#pragma once

#include <cstddef>
#include <cstdint>

#include "fingerprint.h"

namespace simhash_zh {

namespace murmur {

inline uint32_t rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

inline uint32_t fmix(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bU;
  h ^= h >> 13;
  h *= 0xc2b2ae35U;
  h ^= h >> 16;
  return h;
}

}  // namespace murmur

// Hashes `count` code points.
inline Fingerprint feature_hash(const uint32_t* cps, size_t count) {
  using murmur::rotl;
  const uint32_t c1 = 0x239b961bU, c2 = 0xab0e9789U, c3 = 0x38b34ae5U, c4 = 0xa1e38b93U;
  uint32_t h1 = 0, h2 = 0, h3 = 0, h4 = 0;
  const size_t blocks = count / 4;
  for (size_t b = 0; b < blocks; ++b) {
    uint32_t k1 = cps[4 * b], k2 = cps[4 * b + 1], k3 = cps[4 * b + 2], k4 = cps[4 * b + 3];
    k1 *= c1; k1 = rotl(k1, 15); k1 *= c2; h1 ^= k1;
    h1 = rotl(h1, 19); h1 += h2; h1 = h1 * 5 + 0x561ccd1bU;
    k2 *= c2; k2 = rotl(k2, 16); k2 *= c3; h2 ^= k2;
    h2 = rotl(h2, 17); h2 += h3; h2 = h2 * 5 + 0x0bcaa747U;
    k3 *= c3; k3 = rotl(k3, 17); k3 *= c4; h3 ^= k3;
    h3 = rotl(h3, 15); h3 += h4; h3 = h3 * 5 + 0x96cd1c35U;
    k4 *= c4; k4 = rotl(k4, 18); k4 *= c1; h4 ^= k4;
    h4 = rotl(h4, 13); h4 += h1; h4 = h4 * 5 + 0x32ac3b17U;
  }
  const uint32_t* tail = cps + blocks * 4;
  switch (count & 3) {
    case 3: {
      uint32_t k3 = tail[2];
      k3 *= c3; k3 = rotl(k3, 17); k3 *= c4; h3 ^= k3;
    }
      [[fallthrough]];
    case 2: {
      uint32_t k2 = tail[1];
      k2 *= c2; k2 = rotl(k2, 16); k2 *= c3; h2 ^= k2;
    }
      [[fallthrough]];
    case 1: {
      uint32_t k1 = tail[0];
      k1 *= c1; k1 = rotl(k1, 15); k1 *= c2; h1 ^= k1;
    }
  }
  const uint32_t length = static_cast<uint32_t>(count * 4);
  h1 ^= length; h2 ^= length; h3 ^= length; h4 ^= length;
  h1 += h2; h1 += h3; h1 += h4;
  h2 += h1; h3 += h1; h4 += h1;
  h1 = murmur::fmix(h1); h2 = murmur::fmix(h2); h3 = murmur::fmix(h3); h4 = murmur::fmix(h4);
  h1 += h2; h1 += h3; h1 += h4;
  h2 += h1; h3 += h1; h4 += h1;
  return Fingerprint{(static_cast<uint64_t>(h2) << 32) | h1, (static_cast<uint64_t>(h4) << 32) | h3};
}

}  // namespace simhash_zh

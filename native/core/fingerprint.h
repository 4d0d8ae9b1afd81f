// Fingerprint value type and Hamming distance. No Node headers: this core builds alone.
#pragma once

#include <cstdint>
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

namespace simhash_zh {

// A 64- or 128-bit fingerprint. At 64 bits `hi` is always 0.
struct Fingerprint {
  uint64_t lo = 0;
  uint64_t hi = 0;
};

inline int popcount64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_popcountll(x);
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
  return static_cast<int>(__popcnt64(x));
#else
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
#endif
}

// Index of the lowest set bit of a non-zero x.
inline int lowest_bit(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctzll(x);
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
  unsigned long index;
  _BitScanForward64(&index, x);
  return static_cast<int>(index);
#else
  return popcount64((x & (~x + 1)) - 1);
#endif
}

// Index of the highest set bit of a non-zero x.
inline int highest_bit(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return 63 - __builtin_clzll(x);
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
  unsigned long index;
  _BitScanReverse64(&index, x);
  return static_cast<int>(index);
#else
  int index = 0;
  while (x >>= 1) ++index;
  return index;
#endif
}

inline int hamming_distance(Fingerprint a, Fingerprint b) {
  return popcount64(a.lo ^ b.lo) + popcount64(a.hi ^ b.hi);
}

}  // namespace simhash_zh

// What the C++ test binaries share (core_test.cc, alloc_fault_test.cc): the pass/fail tally, a
// seeded PRNG, random fingerprint sets and a segmentation helper. Core only: no Node.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "fingerprint.h"
#include "segmenter.h"

namespace simhash_zh_test {

inline int passed = 0;
inline int failed = 0;

inline void check(bool ok, const char* what) {
  if (ok) {
    ++passed;
  } else {
    ++failed;
    std::printf("FAIL: %s\n", what);
  }
}

struct Rng {  // xorshift64*
  uint64_t s;
  uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 0x2545F4914F6CDD1DULL;
  }
};

inline simhash_zh::Fingerprint flip_bits(simhash_zh::Fingerprint fp, int flips, int bits, Rng& rng) {
  for (int i = 0; i < flips; ++i) {
    const int b = static_cast<int>(rng.next() % static_cast<uint64_t>(bits));
    if (b < 64) fp.lo ^= uint64_t{1} << b;
    else fp.hi ^= uint64_t{1} << (b - 64);
  }
  return fp;
}

// Random, clustered, exact-duplicate and one-bucket fingerprints (kind 0..3).
inline std::vector<simhash_zh::Fingerprint> make_set(int kind, size_t n, int bits, Rng& rng) {
  std::vector<simhash_zh::Fingerprint> out;
  const uint64_t hi_mask = bits == 128 ? ~0ULL : 0;
  std::vector<simhash_zh::Fingerprint> centers;
  for (int i = 0; i < 8; ++i) centers.push_back({rng.next(), rng.next() & hi_mask});
  for (size_t i = 0; i < n; ++i) {
    simhash_zh::Fingerprint fp{rng.next(), rng.next() & hi_mask};
    if (kind == 1) fp = flip_bits(centers[rng.next() % 8], static_cast<int>(rng.next() % 7), bits, rng);
    if (kind == 2) fp = centers[rng.next() % 3];
    if (kind == 3) {  // all share every bit but the lowest 12: one bucket in every table
      fp = centers[0];
      fp.lo = (fp.lo & ~0xfffULL) | (rng.next() & 0xfff);
    }
    out.push_back(fp);
  }
  return out;
}

// The words of `text` as strings.
inline std::vector<std::string> seg_words(simhash_zh::Segmenter& seg, const std::string& text, int flags) {
  std::vector<std::string> words;
  seg.segment(text, flags, [&](size_t start, size_t end, int32_t) { words.push_back(text.substr(start, end - start)); });
  return words;
}

}  // namespace simhash_zh_test

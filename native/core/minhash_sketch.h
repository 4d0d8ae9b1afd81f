// The default pipeline's sketch (`sketch: 'minhash'`): a weighted one-permutation MinHash
// with densification, one bit per bin. lib/js/minhash-sketch.ts is its twin.
//
// Each of the 64 (128) bits is a bin. A feature's 128-bit hash is four 32-bit words; each
// word places the feature in one bin (its top 6 or 7 bits) with a rank (its low 21 bits).
// A bin keeps the feature of the smallest rank / weight (compared as rank x weight
// products, exact integers below 2^53; ties go to the smaller hash), and its bit is one
// hashed bit of that feature and the bin's index. An empty bin takes the feature of the
// first full bin along a fixed stride of its own (odd, so the walk meets every bin).
//
// Why not the signed sum of SimHash: a bit differs with probability (1 - J) / 2, J the
// weighted Jaccard similarity of the two texts, where SimHash's grows with the square root
// of the change (θ/π): a copy with a small edit sits far fewer bits away, unrelated texts
// as far (32 of 64 bits).
#pragma once

#include <cstdint>

#include "feature_hash.h"
#include "fingerprint.h"

namespace simhash_zh {

// The largest base weight (unit x occurrences) the race tells apart: the race weight is
// min(base, 2^16 - 1)^2 < 2^32, and rank (< 2^21) x weight < 2^53.
constexpr int64_t kMaxRaceBase = 65535;

// A feature's weight in the race: base^2 (a text's main words win most bins), 0 for base <= 0.
inline int64_t race_weight(int64_t base) {
  if (base <= 0) return 0;
  if (base > kMaxRaceBase) base = kMaxRaceBase;
  return base * base;
}

class MinHashSketch {
 public:
  explicit MinHashSketch(int bits) : bins_(bits), shift_(bits == 128 ? 25 : 26) {
    for (int i = 0; i < bins_; ++i) weight_[i] = 0;
  }

  // Offers a feature of race weight > 0 to the bins its four hash words pick.
  void add(const Fingerprint& hash, uint64_t weight) {
    offer(static_cast<uint32_t>(hash.lo), hash, weight);
    offer(static_cast<uint32_t>(hash.lo >> 32), hash, weight);
    offer(static_cast<uint32_t>(hash.hi), hash, weight);
    offer(static_cast<uint32_t>(hash.hi >> 32), hash, weight);
  }

  // The fingerprint: 0 when no feature was offered.
  Fingerprint finish() const {
    Fingerprint result;
    bool any = false;
    for (int i = 0; i < bins_ && !any; ++i) any = weight_[i] != 0;
    if (!any) return result;
    const uint32_t mask = static_cast<uint32_t>(bins_ - 1);
    for (int i = 0; i < bins_; ++i) {
      uint32_t source = static_cast<uint32_t>(i);
      if (weight_[i] == 0) {
        const uint32_t stride = (murmur::fmix(source + kGolden) | 1U) & mask;
        do source = (source + stride) & mask; while (weight_[source] == 0);
      }
      const Fingerprint& h = hash_[source];
      uint32_t t = murmur::fmix(static_cast<uint32_t>(h.lo) ^ (static_cast<uint32_t>(i + 1) * kGolden));
      t = murmur::fmix(t ^ static_cast<uint32_t>(h.lo >> 32));
      if (t >> 31) {
        if (i < 64) {
          result.lo |= uint64_t{1} << i;
        } else {
          result.hi |= uint64_t{1} << (i - 64);
        }
      }
    }
    return result;
  }

 private:
  static constexpr uint32_t kGolden = 0x9E3779B9U;
  static constexpr uint32_t kRankMask = (1U << 21) - 1;

  void offer(uint32_t word, const Fingerprint& hash, uint64_t weight) {
    const uint32_t bin = word >> shift_;
    const uint64_t rank = word & kRankMask;
    const uint64_t held = weight_[bin];
    if (held != 0) {
      // rank / weight < rank_ / held, as products (exact: both below 2^53).
      const uint64_t mine = rank * held;
      const uint64_t theirs = rank_[bin] * weight;
      if (mine > theirs) return;
      if (mine == theirs) {
        const Fingerprint& other = hash_[bin];
        if (hash.lo > other.lo || (hash.lo == other.lo && hash.hi >= other.hi)) return;
      }
    }
    weight_[bin] = weight;
    rank_[bin] = rank;
    hash_[bin] = hash;
  }

  int bins_;
  int shift_;
  uint64_t weight_[128];  // 0: an empty bin
  uint64_t rank_[128];
  Fingerprint hash_[128];
};

}  // namespace simhash_zh

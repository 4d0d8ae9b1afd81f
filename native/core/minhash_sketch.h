// The default pipeline's sketch (`sketch: 'minhash'`): a weighted one-permutation MinHash
// with densification, one bit per bin. lib/js/minhash-sketch.ts is its twin.
//
// Each of the 64 (128) bits is a bin. A feature's 128-bit hash is four 32-bit words; each
// word places the feature in one bin (its top 6 or 7 bits) with a rank (its low 21 bits).
// A bin keeps the feature of the smallest rank / weight (compared as rank x weight
// products, exact integers below 2^53; ties go to the smaller hash), and its bit is set when
// bits 21 and 22 of the word that placed the winner are both 0 (bits neither the bin nor the
// rank uses). An empty bin takes the feature of the nearest full bin to its right or, for
// half the bins (a fixed choice), to its left, circularly; its bit is set when the top two
// bits of fmix(h1 ^ (index + 1) x φ) are 0, h1 that feature's first hash word: a bit of its
// own, not a copy of the full bin's.
//
// Why not the signed sum of SimHash: a bit differs with probability about (1 - J) x 3/8, J
// the probability Jaccard similarity of the two texts' weighted features, where SimHash's
// grows with the square root of the change (θ/π): a copy with a small edit sits far fewer
// bits away, unrelated texts about as far (24 of 64 bits).
//
// Why a bit is 1 with probability 1/4, not 1/2: two different holders give different bits
// with probability 2 x 1/4 x 3/4 = 3/8 instead of 1/2, so a copy sits 3/4 as many bits away;
// unrelated texts come closer too, but by less than their spread, so more copies fall within
// a small k while unrelated texts stay well outside it (bench/quality: short texts' F1 at
// k = 3 from 0.88 to 0.91). An index's buckets are a little fuller (a key bit matches by
// chance with probability 5/8, not 1/2), which its 48-bit keys at k = 3 do not feel.
#pragma once

#include <algorithm>
#include <cstdint>

#include "feature_hash.h"
#include "fingerprint.h"

// A branch the compiler should lay out as not taken (and not compute eagerly).
#if defined(__GNUC__) || defined(__clang__)
#define SIMHASH_ZH_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define SIMHASH_ZH_UNLIKELY(x) (x)
#endif

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

namespace minhash_detail {

constexpr uint32_t kGolden = 0x9E3779B9U;

// Which way each empty bin looks for a full one: bit i set (the top bit of fmix(i + φ)): left.
struct Directions {
  uint64_t left[2] = {0, 0};
  constexpr Directions() {
    for (uint32_t i = 0; i < 128; ++i) left[i >> 6] |= uint64_t{murmur::fmix(i + kGolden) >> 31} << (i & 63);
  }
};
constexpr Directions kDirections{};

}  // namespace minhash_detail

class MinHashSketch {
 public:
  // Empties the sketch for a text of `bits` (64 or 128) bits.
  void reset(int bits) {
    bins_ = bits;
    shift_ = bits == 128 ? 25 : 26;
    full_[0] = full_[1] = 0;
    // An empty bin holds weight 0 and the largest rank: every offer beats it (its product is
    // 0, the holder's positive) and none ties it, so no offer asks whether its bin is full.
    std::fill(held_, held_ + bits, uint64_t{kRankMask});
  }

  // Offers feature `index` (race weight > 0) to the bins its four hash words pick; hash_of(i)
  // gives the hash of feature i (here, for ties, and for finish). kMostLose: the
  // caller expects most offers to lose (a text with many features, each bin's holder already
  // hard to beat), so a branch that leaves early is predicted well; otherwise (few features,
  // outcomes a coin toss) the holder is replaced without branching. Same result either way.
  template <bool kMostLose, class HashOf>
  void add(uint32_t index, uint64_t weight, const HashOf& hash_of) {
    const Fingerprint& hash = hash_of(index);
    const uint32_t words[4] = {static_cast<uint32_t>(hash.lo), static_cast<uint32_t>(hash.lo >> 32),
                               static_cast<uint32_t>(hash.hi), static_cast<uint32_t>(hash.hi >> 32)};
    if (kMostLose) {
      // One branch for the usual case, all four offers losing to their bins' holders (then
      // offering them one by one changes nothing); ties and empty bins go on to offer().
      bool may_win = false;
      for (uint32_t word : words) {
        const uint64_t held = held_[word >> shift_];
        may_win |= (word & kRankMask) * (held >> 32) <= (held & kRankMask) * weight;
      }
      if (!may_win) return;
    }
    for (uint32_t word : words) offer<kMostLose>(word, hash, weight, index, hash_of);
  }

  // The fingerprint: 0 when no feature was offered. hash_of as for add().
  template <class HashOf>
  Fingerprint finish(const HashOf& hash_of) const {
    Fingerprint result;
    if ((full_[0] | full_[1]) == 0) return result;
    uint64_t out[2] = {0, 0};
    const int words = bins_ / 64;
    for (int w = 0; w < words; ++w) {
      // A full bin's bit: bits 21 and 22 of the word that placed its holder both 0.
      for (uint64_t full = full_[w]; full != 0; full &= full - 1) {
        const int i = w * 64 + lowest_bit(full);
        out[w] |= uint64_t{((held_[i] >> 21) & 3U) == 0} << (i & 63);
      }
      for (uint64_t empty = ~full_[w]; empty != 0; empty &= empty - 1) {
        const int i = w * 64 + lowest_bit(empty);
        const bool left = (minhash_detail::kDirections.left[w] >> (i & 63)) & 1;
        const int source = left ? full_left_of(i) : full_right_of(i);
        const uint32_t h1 = static_cast<uint32_t>(hash_of(holder_[source]).lo);
        const uint32_t t = murmur::fmix(h1 ^ (static_cast<uint32_t>(i + 1) * kGolden));
        out[w] |= uint64_t{(t >> 30) == 0} << (i & 63);
      }
    }
    result.lo = out[0];
    result.hi = out[1];
    return result;
  }

 private:
  static constexpr uint32_t kGolden = minhash_detail::kGolden;
  static constexpr uint32_t kRankMask = (1U << 21) - 1;

  // The nearest full bin after (before) the empty bin i, circularly; some bin is full.
  int full_right_of(int i) const {
    const int words = bins_ / 64;
    int w = i >> 6;
    uint64_t m = full_[w] & (~uint64_t{0} << (i & 63));
    for (int step = 0; m == 0 && step < words; ++step) {
      w = (w + 1) % words;
      m = full_[w];
    }
    return w * 64 + lowest_bit(m);
  }
  int full_left_of(int i) const {
    const int words = bins_ / 64;
    int w = i >> 6;
    uint64_t m = full_[w] & ((uint64_t{1} << (i & 63)) - 1);
    for (int step = 0; m == 0 && step < words; ++step) {
      w = (w + words - 1) % words;
      m = full_[w];
    }
    return w * 64 + highest_bit(m);
  }

  // Apart from kMostLose's early exit, no branch on the outcome, which follows the hash: both
  // fields are stored, the old value where the feature loses. Ties (equal products, never
  // with an empty bin) are rare: a branch. After any offer the bin is full (an empty bin
  // loses to nothing; an offer that lost, lost to a holder).
  template <bool kMostLose, class HashOf>
  void offer(uint32_t word, const Fingerprint& hash, uint64_t weight, uint32_t index, const HashOf& hash_of) {
    const uint32_t bin = word >> shift_;
    const uint64_t held = held_[bin];
    // rank / weight < the holder's, as products (exact: both below 2^53).
    const uint64_t mine = (word & kRankMask) * (held >> 32);
    const uint64_t theirs = (held & kRankMask) * weight;
    full_[bin >> 6] |= uint64_t{1} << (bin & 63);
    if (kMostLose && mine > theirs) return;
    bool wins = mine < theirs;
    if (SIMHASH_ZH_UNLIKELY(mine == theirs)) {
      const Fingerprint& theirs_hash = hash_of(holder_[bin]);
      wins = hash.lo < theirs_hash.lo || (hash.lo == theirs_hash.lo && hash.hi < theirs_hash.hi);
    }
    const uint64_t keep = uint64_t{wins} - 1;  // all ones where the holder stays
    held_[bin] = (held & keep) | (((weight << 32) | word) & ~keep);
    holder_[bin] = (holder_[bin] & static_cast<uint32_t>(keep)) | (index & ~static_cast<uint32_t>(keep));
  }

  int bins_ = 64;
  int shift_ = 26;
  uint64_t full_[2] = {0, 0};  // bin i is full: bit i
  // A bin's holder: its race weight (< 2^32) << 32 | the hash word that placed it (its rank
  // and its bit); and its index (for its hash), meaningful where the bin is full.
  uint64_t held_[128] = {};
  uint32_t holder_[128] = {};
};

}  // namespace simhash_zh

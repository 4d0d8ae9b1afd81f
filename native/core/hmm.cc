#include "hmm.h"

#include "dictionary.h"

namespace simhash_zh {
namespace {

constexpr int64_t kPoison = int64_t{1} << 40;
// Allowed previous states of B, E, M, S.
constexpr uint8_t kPrev[8] = {kStateE, kStateS, kStateB, kStateM, kStateM, kStateB, kStateS, kStateE};

inline int64_t add(int64_t score, int32_t cost) {
  if (cost == kHmmMissing) return score >= kPoison ? score + kPoison : kPoison;
  return score >= kPoison ? score : score + cost;
}

}  // namespace

void Viterbi::decode(const uint32_t* cps, size_t count) {
  if (back_.size() < count * 4) back_.resize(count * 8);
  if (states_.size() < count) states_.resize(count * 2);
  const int32_t* model = model_;
  auto emit = [model](uint32_t cp, int state) { return model[22 + (cp - kHmmFirstCp) * 4 + state]; };
  int64_t v[4];
  int64_t next[4];
  for (int y = 0; y < 4; y++) v[y] = add(add(0, model[y]), emit(cps[0], y));
  uint8_t* back = back_.data();
  for (size_t t = 1; t < count; t++) {
    const uint32_t cp = cps[t];
    for (int y = 0; y < 4; y++) {
      const int32_t em = emit(cp, y);
      const int a = kPrev[2 * y];
      const int b = kPrev[2 * y + 1];
      const int64_t ca = add(add(v[a], model[4 + a * 4 + y]), em);
      const int64_t cb = add(add(v[b], model[4 + b * 4 + y]), em);
      if (ca < cb || (ca == cb && a > b)) {
        next[y] = ca;
        back[t * 4 + y] = static_cast<uint8_t>(a);
      } else {
        next[y] = cb;
        back[t * 4 + y] = static_cast<uint8_t>(b);
      }
    }
    // Shift the scores so they stay small; no comparison changes.
    int64_t min = next[0];
    for (int y = 1; y < 4; y++) {
      if (next[y] < min) min = next[y];
    }
    if (min < kPoison) {
      for (int y = 0; y < 4; y++) v[y] = next[y] < kPoison ? next[y] - min : next[y];
    } else {
      const int64_t shift = min - kPoison;
      for (int y = 0; y < 4; y++) v[y] = next[y] - shift;
    }
  }
  uint8_t state = v[kStateS] <= v[kStateE] ? kStateS : kStateE;
  uint8_t* states = states_.data();
  for (size_t t = count - 1; t > 0; t--) {
    states[t] = state;
    state = back[t * 4 + state];
  }
  states[0] = state;
}

}  // namespace simhash_zh

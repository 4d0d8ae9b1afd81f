// BMES Viterbi over the dictionary's integer HMM costs, reproducing jieba-rs's
// decisions exactly (lib/js/hmm.ts is the same code in TypeScript): jieba
// writes an impossible probability as -3.14e100 and adding an ordinary
// log-probability to it changes nothing, so a path score is either finite or
// "k times impossible" where only k counts; ties go to the later state
// (B < E < M < S), as Rust's max_by over (prob, state) does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "heap_bytes.h"

namespace simhash_zh {

enum HmmState : uint8_t { kStateB = 0, kStateE = 1, kStateM = 2, kStateS = 3 };

inline bool is_hmm_han(uint32_t cp) { return cp >= 0x4e00 && cp <= 0x9fd5; }

class Viterbi {
 public:
  // `model`: the dictionary's HMM section (it must outlive this object).
  explicit Viterbi(const int32_t* model) : model_(model) {}
  // Heap bytes held by the scratch buffers.
  size_t memory_bytes() const { return vector_heap_bytes(back_) + vector_heap_bytes(states_); }
  // Decodes cps[0, count), count >= 2, every cp in [U+4E00, U+9FD5].
  void decode(const uint32_t* cps, size_t count);
  // The best state of each character after decode().
  const uint8_t* states() const { return states_.data(); }

 private:
  const int32_t* model_;
  std::vector<uint8_t> back_;
  std::vector<uint8_t> states_;
};

}  // namespace simhash_zh

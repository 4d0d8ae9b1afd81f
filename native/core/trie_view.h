// The two ways the segmenter's hot loops read the dictionary's trie, behind one interface so
// that the walk is written once (Segmenter::walk_block is a template over them). Both give
// the same steps and entries for the same file: the packed one is a copy of the file's slots
// in half the bytes, made at load when the numbers fit (Dictionary::packed_trie).
#pragma once

#include <cstdint>

#include "dictionary.h"

namespace simhash_zh {

// The file's 16-byte slots, with their filter of the children's ids.
struct WideTrie {
  const TrieNode* slots;

  // The root's child by alphabet id c, or -1.
  int32_t root_child(int32_t c) const {
    const int32_t t = slots[0].base + c;
    return c != 0 && slots[t].check == 0 ? t : -1;
  }
  bool step(int32_t& s, int32_t c) const { return trie_step(slots, s, c); }
  int32_t entry(int32_t s) const { return slots[s].entry; }
  // The slot a step from s by c would load, when it would load one (nullptr otherwise).
  const void* step_target(int32_t s, int32_t c) const {
    const TrieNode& node = slots[s];
    return c != 0 && node.may_have_child(c) ? slots + node.base + c : nullptr;
  }
};

// 8-byte slots: check + 1 in bits 0-20, base in bits 21-41, entry + 1 in bits 42-63. A walk
// touches half the cache lines of the file's slots. There is no room for the child filter,
// so every step loads its target; measured, the density wins (a fingerprint of 围城
// 3.5-7% faster in alternating core_bench builds).
struct PackedTrie {
  static constexpr uint32_t kIndexBits = 21;
  static constexpr uint64_t kIndexMask = (uint64_t{1} << kIndexBits) - 1;
  // The largest slot count and entry count that fit.
  static constexpr uint64_t kMaxSlots = kIndexMask;
  static constexpr uint64_t kMaxEntries = (uint64_t{1} << (64 - 2 * kIndexBits)) - 2;

  const uint64_t* slots;

  static uint64_t pack(const TrieNode& node) {
    return static_cast<uint64_t>(node.check + 1) | static_cast<uint64_t>(node.base) << kIndexBits |
           static_cast<uint64_t>(node.entry + 1) << (2 * kIndexBits);
  }
  static int32_t check_of(uint64_t slot) { return static_cast<int32_t>(slot & kIndexMask) - 1; }
  static int32_t base_of(uint64_t slot) { return static_cast<int32_t>((slot >> kIndexBits) & kIndexMask); }

  int32_t root_child(int32_t c) const {
    const int32_t t = base_of(slots[0]) + c;
    return c != 0 && check_of(slots[t]) == 0 ? t : -1;
  }
  bool step(int32_t& s, int32_t c) const {
    if (c == 0) return false;
    const int32_t t = base_of(slots[s]) + c;
    if (check_of(slots[t]) != s) return false;
    s = t;
    return true;
  }
  int32_t entry(int32_t s) const { return static_cast<int32_t>(slots[s] >> (2 * kIndexBits)) - 1; }
  const void* step_target(int32_t s, int32_t c) const { return c != 0 ? slots + base_of(slots[s]) + c : nullptr; }
};

}  // namespace simhash_zh

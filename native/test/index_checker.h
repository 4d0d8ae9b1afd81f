// A plain list of (id, fingerprint) that SimHashIndex is checked against, shared by the core test
// (core_test.cc) and the index fuzz target (native/fuzz/index_ops.cc). Core only: no Node.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "fingerprint.h"
#include "simhash_index.h"

namespace simhash_zh_test {

// A match as (distance, id): what the index and the reference are compared by.
using Matches = std::vector<std::pair<int, uint64_t>>;

// What SimHashIndex should hold and answer, by brute force over an insertion-ordered list.
struct ReferenceIndex {
  std::vector<std::pair<uint64_t, simhash_zh::Fingerprint>> entries;  // insertion order

  // Adds, or replaces (the replacement goes last, as in the index).
  void add(uint64_t id, simhash_zh::Fingerprint fp) {
    remove(id);
    entries.push_back({id, fp});
  }
  bool remove(uint64_t id) {
    for (size_t i = 0; i < entries.size(); ++i) {
      if (entries[i].first == id) {
        entries.erase(entries.begin() + static_cast<long>(i));
        return true;
      }
    }
    return false;
  }
  bool has(uint64_t id) const {
    for (const auto& e : entries) {
      if (e.first == id) return true;
    }
    return false;
  }
  // Entries within k of q, by distance, then insertion order: the order SimHashIndex::query keeps.
  Matches query(simhash_zh::Fingerprint q, int k) const {
    Matches out;
    for (int d = 0; d <= k; ++d) {
      for (const auto& e : entries) {
        if (simhash_zh::hamming_distance(e.second, q) == d) out.push_back({d, e.first});
      }
    }
    return out;
  }
};

inline Matches as_matches(const simhash_zh::SimHashIndex& index, const std::vector<simhash_zh::IndexMatch>& found) {
  Matches out;
  for (const auto& m : found) out.push_back({static_cast<int>(m.distance), index.id_at(m.slot)});
  return out;
}

inline Matches index_query(const simhash_zh::SimHashIndex& index, simhash_zh::Fingerprint q, int k) {
  std::vector<simhash_zh::IndexMatch> found;
  index.query(q, k, found);
  return as_matches(index, found);
}

inline Matches index_brute_force_query(const simhash_zh::SimHashIndex& index, simhash_zh::Fingerprint q, int k) {
  std::vector<simhash_zh::IndexMatch> found;
  index.brute_force_query(q, k, found);
  return as_matches(index, found);
}

}  // namespace simhash_zh_test

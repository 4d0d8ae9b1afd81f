// Batch near-duplicate removal and clustering over fingerprints, on a SimHashIndex. No Node headers.
//
// Both start by grouping exact duplicates (equal fingerprints), index one representative per group
// (its first item) and query each representative, so a batch of a million copies of one text costs one
// query, not a million results per query.
#pragma once

#include <cstddef>
#include <cstdint>

namespace simhash_zh {

constexpr uint32_t kDedupKept = 0xffffffffU;

// Items are taken in order and the first one wins: item i is dropped when some earlier kept item lies
// within max_distance bits; then of[i] is the nearest such kept item (ties: the earliest) and
// distance[i] its distance. Kept items get of[i] = kDedupKept and distance[i] = 0.
// `words` holds bits/64 words per item, low word first; n <= kMaxIndexEntries. Throws
// std::invalid_argument on an unsupported layout.
void dedup_fingerprints(int bits, int max_distance, int tables, const uint64_t* words, size_t n,
                        uint32_t* of, uint8_t* distance);

// Connected components of the graph joining items within max_distance bits (union-find):
// label[i] = the smallest item index in i's component.
void cluster_fingerprints(int bits, int max_distance, int tables, const uint64_t* words, size_t n,
                          uint32_t* label);

}  // namespace simhash_zh

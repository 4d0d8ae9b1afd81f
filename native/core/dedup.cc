#include "dedup.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "simhash_index.h"

namespace simhash_zh {

namespace {

// Exact-duplicate groups, numbered in order of their first item.
struct Groups {
  std::vector<uint32_t> of_item;  // group of each item
  std::vector<uint32_t> first;    // first item of each group
};

Groups group_exact(const uint64_t* words, size_t n, int w) {
  // Open addressing over the fingerprints, cells holding group numbers (-1: empty).
  size_t size = 16;
  while (size < 2 * n) size *= 2;
  const size_t mask = size - 1;
  std::vector<int64_t> cells(size, -1);
  Groups g;
  g.of_item.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t lo = words[i * w], hi = w == 2 ? words[i * w + 1] : 0;
    uint64_t h = (lo ^ (hi * 0x9e3779b97f4a7c15ULL)) * 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 31;
    for (size_t c = h & mask;; c = (c + 1) & mask) {
      if (cells[c] < 0) {
        cells[c] = static_cast<int64_t>(g.first.size());
        g.of_item[i] = static_cast<uint32_t>(g.first.size());
        g.first.push_back(static_cast<uint32_t>(i));
        break;
      }
      const size_t f = g.first[static_cast<size_t>(cells[c])];
      if (words[f * w] == lo && (w == 1 || words[f * w + 1] == hi)) {
        g.of_item[i] = static_cast<uint32_t>(cells[c]);
        break;
      }
    }
  }
  return g;
}

// An index over the groups: id = group number, added in group order (so slot order = item order).
SimHashIndex index_groups(int bits, int max_distance, int tables, const uint64_t* words, const Groups& g) {
  const int w = bits / 64;
  SimHashIndex index(bits, max_distance, tables);
  std::vector<uint64_t> ids(g.first.size()), fps(g.first.size() * w);
  for (size_t k = 0; k < g.first.size(); ++k) {
    ids[k] = k;
    for (int j = 0; j < w; ++j) fps[k * w + j] = words[size_t{g.first[k]} * w + j];
  }
  index.add_many(ids.data(), fps.data(), ids.size());
  return index;
}

void check_layout(int bits, int max_distance, int tables) {
  IndexLayout layout;
  if (!make_index_layout(bits, max_distance, tables, layout)) throw std::invalid_argument("unsupported index layout");
}

constexpr size_t kChunk = 4096;

}  // namespace

void dedup_fingerprints(int bits, int max_distance, int tables, const uint64_t* words, size_t n,
                        uint32_t* of, uint8_t* distance) {
  const int w = bits / 64;
  check_layout(bits, max_distance, tables);
  const Groups g = group_exact(words, n, w);
  const SimHashIndex index = index_groups(bits, max_distance, tables, words, g);
  std::vector<uint8_t> kept(g.first.size(), 0);
  // The index does not change, so the queries run ahead in pipelined chunks; the kept flags are
  // read afterwards, in item order.
  std::vector<IndexMatch> matches;
  std::vector<uint64_t> offsets;
  for (size_t chunk = 0; chunk < n; chunk += kChunk) {
    const size_t count = std::min(kChunk, n - chunk);
    index.query_many(words + chunk * w, count, max_distance, offsets, matches);
    for (size_t k = 0; k < count; ++k) {
      const size_t i = chunk + k;
      const uint32_t group = g.of_item[i];
      of[i] = kDedupKept;
      distance[i] = 0;
      if (kept[group]) {  // an exact copy of a kept item
        of[i] = g.first[group];
        continue;
      }
      // Every kept group was decided at its first item, which comes before i.
      for (uint64_t r = offsets[k]; r < offsets[k + 1]; ++r) {
        const uint64_t h = index.id_at(matches[r].slot);
        if (kept[h]) {
          of[i] = g.first[h];
          distance[i] = static_cast<uint8_t>(matches[r].distance);
          break;
        }
      }
      if (of[i] == kDedupKept && g.first[group] == i) kept[group] = 1;
    }
  }
}

void cluster_fingerprints(int bits, int max_distance, int tables, const uint64_t* words, size_t n,
                          uint32_t* label) {
  const int w = bits / 64;
  check_layout(bits, max_distance, tables);
  const Groups g = group_exact(words, n, w);
  const SimHashIndex index = index_groups(bits, max_distance, tables, words, g);
  const size_t groups = g.first.size();
  std::vector<uint32_t> parent(groups);
  std::iota(parent.begin(), parent.end(), 0U);
  auto find = [&](uint32_t x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];  // path halving
      x = parent[x];
    }
    return x;
  };
  std::vector<IndexMatch> matches;
  std::vector<uint64_t> offsets;
  std::vector<uint64_t> batch;
  for (size_t chunk = 0; chunk < groups; chunk += kChunk) {
    const size_t count = std::min(kChunk, groups - chunk);
    batch.clear();
    for (size_t k = chunk; k < chunk + count; ++k) {
      for (int j = 0; j < w; ++j) batch.push_back(words[size_t{g.first[k]} * w + j]);
    }
    index.query_many(batch.data(), count, max_distance, offsets, matches);
    for (size_t k = chunk; k < chunk + count; ++k) {
      for (uint64_t r = offsets[k - chunk]; r < offsets[k - chunk + 1]; ++r) {
        const uint64_t h = index.id_at(matches[r].slot);
        if (h >= k) continue;
        const uint32_t a = find(static_cast<uint32_t>(k)), b = find(static_cast<uint32_t>(h));
        if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the root is the smallest group
      }
    }
  }
  // The root of a component is its smallest group, whose first item is the component's smallest item.
  for (size_t i = 0; i < n; ++i) label[i] = g.first[find(g.of_item[i])];
}

}  // namespace simhash_zh

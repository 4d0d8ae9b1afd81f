#include "simhash_index.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#include <immintrin.h>
#endif

namespace simhash_zh {

namespace {

constexpr int kMaxTables = kMaxIndexTables;
constexpr int kMaxDirBits = 24;

uint64_t binomial(int n, int k) {
  uint64_t result = 1;
  for (int i = 1; i <= k; ++i) result = result * static_cast<uint64_t>(n - k + i) / static_cast<uint64_t>(i);
  return result;
}

// Number of blocks for (bits, k, tables), or 0 when unsupported.
int blocks_for(int bits, int max_distance, int tables) {
  if (bits != 64 && bits != 128) return 0;
  if (max_distance < 0 || max_distance > max_supported_distance(bits)) return 0;
  if (max_distance == 0) return tables == 1 ? 1 : 0;
  for (int blocks = max_distance + 1; blocks <= std::min(max_distance + 4, bits); ++blocks) {
    if (binomial(blocks, max_distance) == static_cast<uint64_t>(tables)) return blocks;
  }
  return 0;
}

inline int floor_log2(uint64_t x) {
  int r = 0;
  while (x >>= 1) ++r;
  return r;
}

// Directory bits for a segment of m entries: about 2-4 entries per cell, never more bits than the
// key has, at most kMaxDirBits.
int dir_bits_for(size_t m, int key_bits) {
  int d = floor_log2(m == 0 ? 1 : m) - 1;
  d = std::min(d, std::min(key_bits, kMaxDirBits));
  return std::max(d, 1);
}

uint32_t frag_key_mask_for(int key_bits, int dir_bits) {
  const int inside = key_bits - dir_bits;
  if (inside <= 0) return 0;
  if (inside >= 32) return 0xffffffffU;
  return ~uint32_t{0} << (32 - inside);
}

inline int popcount32_portable(uint32_t x) {
  x = x - ((x >> 1) & 0x55555555U);
  x = (x & 0x33333333U) + ((x >> 2) & 0x33333333U);
  return static_cast<int>((((x + (x >> 4)) & 0x0f0f0f0fU) * 0x01010101U) >> 24);
}

// The fragment filter: writes to `hits` the offsets i < count whose fragment differs from `qfrag`
// in no key bit (`key_mask`) and in at most k bits; returns how many. The same answer on every
// path; the AVX2 one just takes 8 fragments at a time.
using FilterFn = size_t (*)(const uint32_t* frag, size_t count, uint32_t qfrag, uint32_t key_mask, int k,
                            uint32_t* hits);

size_t filter_portable(const uint32_t* frag, size_t count, uint32_t qfrag, uint32_t key_mask, int k,
                       uint32_t* hits) {
  size_t n = 0;
  for (size_t i = 0; i < count; ++i) {
    const uint32_t x = frag[i] ^ qfrag;
    hits[n] = static_cast<uint32_t>(i);
    n += static_cast<size_t>(((x & key_mask) == 0) & (popcount32_portable(x) <= k));
  }
  return n;
}

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define SIMHASH_ZH_INDEX_AVX2 1
__attribute__((target("avx2,popcnt"))) size_t filter_avx2(const uint32_t* frag, size_t count, uint32_t qfrag,
                                                          uint32_t key_mask, int k, uint32_t* hits) {
  const __m256i q = _mm256_set1_epi32(static_cast<int>(qfrag));
  const __m256i km = _mm256_set1_epi32(static_cast<int>(key_mask));
  const __m256i kv = _mm256_set1_epi32(k);
  const __m256i nibble = _mm256_set1_epi8(0x0f);
  const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                       0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
  const __m256i ones8 = _mm256_set1_epi8(1);
  const __m256i ones16 = _mm256_set1_epi16(1);
  const __m256i zero = _mm256_setzero_si256();
  size_t n = 0, i = 0;
  for (; i + 8 <= count; i += 8) {
    const __m256i x = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(frag + i)), q);
    const __m256i lo = _mm256_and_si256(x, nibble);
    const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble);
    const __m256i c8 = _mm256_add_epi8(_mm256_shuffle_epi8(lut, lo), _mm256_shuffle_epi8(lut, hi));
    const __m256i c32 = _mm256_madd_epi16(_mm256_maddubs_epi16(c8, ones8), ones16);
    const __m256i key_ok = _mm256_cmpeq_epi32(_mm256_and_si256(x, km), zero);
    const __m256i ok = _mm256_andnot_si256(_mm256_cmpgt_epi32(c32, kv), key_ok);
    unsigned mask = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(ok)));
    while (mask != 0) {
      hits[n++] = static_cast<uint32_t>(i + static_cast<size_t>(__builtin_ctz(mask)));
      mask &= mask - 1;
    }
  }
  for (; i < count; ++i) {
    const uint32_t x = frag[i] ^ qfrag;
    hits[n] = static_cast<uint32_t>(i);
    n += static_cast<size_t>(((x & key_mask) == 0) & (__builtin_popcount(x) <= k));
  }
  return n;
}
#endif

FilterFn pick_filter() {
#ifdef SIMHASH_ZH_INDEX_AVX2
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt")) return filter_avx2;
#endif
  return filter_portable;
}

// Chosen once from the CPU's features (no JS state: safe for every environment and thread).
const FilterFn kFilter = pick_filter();
constexpr size_t kFilterChunk = 256;

inline void prefetch(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

inline bool is_zero_masked(Fingerprint diff, Fingerprint mask) {
  return ((diff.lo & mask.lo) | (diff.hi & mask.hi)) == 0;
}

}  // namespace

std::vector<int> supported_table_counts(int bits, int max_distance) {
  std::vector<int> out;
  if (bits != 64 && bits != 128) return out;
  if (max_distance < 0 || max_distance > max_supported_distance(bits)) return out;
  if (max_distance == 0) return {1};
  for (int blocks = max_distance + 1; blocks <= std::min(max_distance + 4, bits); ++blocks) {
    const uint64_t tables = binomial(blocks, max_distance);
    if (tables > static_cast<uint64_t>(kMaxTables)) break;
    out.push_back(static_cast<int>(tables));
  }
  return out;
}

bool make_index_layout(int bits, int max_distance, int tables, IndexLayout& out) {
  if (tables < 1 || tables > kMaxTables) return false;
  const int blocks = blocks_for(bits, max_distance, tables);
  if (blocks == 0) return false;

  // Block i covers bits [low[i], low[i] + len[i]); block 0 is the most significant.
  std::vector<int> low(blocks), len(blocks);
  int top = bits;
  for (int i = 0; i < blocks; ++i) {
    len[i] = bits / blocks + (i < bits % blocks ? 1 : 0);
    top -= len[i];
    low[i] = top;
  }

  IndexLayout layout;
  layout.bits = bits;
  layout.max_distance = max_distance;
  layout.blocks = blocks;

  // Every choice of (blocks - k) key blocks, in lexicographic order.
  const int key_blocks = blocks - max_distance;
  std::vector<int> choice(key_blocks);
  for (int i = 0; i < key_blocks; ++i) choice[i] = i;
  while (true) {
    IndexLayout::Table table;
    std::vector<bool> is_key(blocks, false);
    for (int b : choice) is_key[b] = true;
    std::vector<int> order(choice);
    for (int b = 0; b < blocks; ++b) {
      if (!is_key[b]) order.push_back(b);
    }
    int pos = 0;
    table.position.assign(static_cast<size_t>(bits), 0);
    {
      int p = 0;
      for (int b : order) {
        for (int bit = low[b] + len[b] - 1; bit >= low[b]; --bit) table.position[static_cast<size_t>(bit)] = static_cast<uint8_t>(p++);
      }
    }
    for (int b : order) {
      if (is_key[b]) {
        table.key_bits += len[b];
        for (int bit = low[b]; bit < low[b] + len[b]; ++bit) {
          if (bit < 64) table.key_mask.lo |= uint64_t{1} << bit;
          else table.key_mask.hi |= uint64_t{1} << (bit - 64);
        }
      }
      if (pos >= 64) continue;
      // The top `take` bits of the block, cut at 64-bit word boundaries, high part first.
      const int take = std::min(len[b], 64 - pos);
      int hi_end = low[b] + len[b];
      const int lo_end = hi_end - take;
      while (hi_end > lo_end) {
        const int word = (hi_end - 1) / 64;
        const int start = std::max(lo_end, word * 64);
        IndexLayout::Piece piece;
        piece.word = static_cast<uint8_t>(word);
        piece.shift = static_cast<uint8_t>(start - word * 64);
        piece.len = static_cast<uint8_t>(hi_end - start);
        piece.dest = static_cast<uint8_t>(pos);
        table.pieces.push_back(piece);
        pos += hi_end - start;
        hi_end = start;
      }
    }
    layout.tables.push_back(std::move(table));
    // Next combination.
    int i = key_blocks - 1;
    while (i >= 0 && choice[i] == blocks - key_blocks + i) --i;
    if (i < 0) break;
    ++choice[i];
    for (int j = i + 1; j < key_blocks; ++j) choice[j] = choice[j - 1] + 1;
  }
  if (static_cast<int>(layout.tables.size()) != tables) return false;
  out = std::move(layout);
  return true;
}

// ---- IdMap -------------------------------------------------------------------------------------

uint64_t SimHashIndex::IdMap::hash(uint64_t id) {
  // splitmix64's finalizer.
  id ^= id >> 30;
  id *= 0xbf58476d1ce4e5b9ULL;
  id ^= id >> 27;
  id *= 0x94d049bb133111ebULL;
  id ^= id >> 31;
  return id;
}

void SimHashIndex::IdMap::reserve(size_t live, const std::vector<uint64_t>& ids) {
  // Load factor at most 3/4.
  if (live * 4 + 4 <= tags_.size() * 3) return;  // the usual case: room already
  size_t capacity = 16;
  while (capacity * 3 < live * 4 + 4) capacity *= 2;
  if (capacity > tags_.size()) rehash(capacity, ids);
}

void SimHashIndex::IdMap::place(uint64_t h, uint32_t slot) {
  const size_t mask = tags_.size() - 1;
  size_t i = h & mask;
  while (tags_[i] != 0) i = (i + 1) & mask;
  tags_[i] = tag_of(h);
  slots_[i] = slot;
}

void SimHashIndex::IdMap::rehash(size_t capacity, const std::vector<uint64_t>& ids) {
  // Both new arrays exist before the old ones go: a failed allocation leaves the map as it was.
  std::vector<uint8_t> new_tags(capacity, 0);
  std::vector<uint32_t> new_slots(capacity, 0);
  std::vector<uint8_t> old_tags = std::exchange(tags_, std::move(new_tags));
  std::vector<uint32_t> old_slots = std::exchange(slots_, std::move(new_slots));
  for (size_t i = 0; i < old_tags.size(); ++i) {
    if (old_tags[i] != 0) place(hash(ids[old_slots[i]]), old_slots[i]);
  }
}

void SimHashIndex::IdMap::prefetch(uint64_t id) const {
#if defined(__GNUC__) || defined(__clang__)
  if (tags_.empty()) return;
  const size_t i = hash(id) & (tags_.size() - 1);
  __builtin_prefetch(tags_.data() + i);
  __builtin_prefetch(slots_.data() + i);
#else
  (void)id;
#endif
}

uint32_t SimHashIndex::IdMap::find(uint64_t id, const std::vector<uint64_t>& ids) const {
  if (tags_.empty()) return kNoSlot;
  const uint64_t h = hash(id);
  const uint8_t tag = tag_of(h);
  const size_t mask = tags_.size() - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    const uint8_t t = tags_[i];
    if (t == 0) return kNoSlot;
    if (t == tag && ids[slots_[i]] == id) return slots_[i];
  }
}

void SimHashIndex::IdMap::insert(uint64_t id, uint32_t slot, const std::vector<uint64_t>& ids) {
  if (tags_.empty() || (used_ + 1) * 4 > tags_.size() * 3) rehash(tags_.empty() ? 16 : tags_.size() * 2, ids);
  place(hash(id), slot);
  ++used_;
}

void SimHashIndex::IdMap::erase(uint64_t id, const std::vector<uint64_t>& ids) {
  if (tags_.empty()) return;
  const uint64_t h = hash(id);
  const uint8_t tag = tag_of(h);
  const size_t mask = tags_.size() - 1;
  size_t i = h & mask;
  while (true) {
    if (tags_[i] == 0) return;
    if (tags_[i] == tag && ids[slots_[i]] == id) break;
    i = (i + 1) & mask;
  }
  // Backward-shift deletion: no tombstones.
  tags_[i] = 0;
  --used_;
  size_t j = i;
  while (true) {
    j = (j + 1) & mask;
    if (tags_[j] == 0) return;
    const size_t home = hash(ids[slots_[j]]) & mask;
    // Move cell j into the hole at i when its home is not in (i, j] (cyclically).
    const bool in_range = i <= j ? (home > i && home <= j) : (home > i || home <= j);
    if (!in_range) {
      tags_[i] = tags_[j];
      slots_[i] = slots_[j];
      tags_[j] = 0;
      i = j;
    }
  }
}

// ---- SimHashIndex ------------------------------------------------------------------------------

SimHashIndex::SimHashIndex(int bits, int max_distance, int tables) {
  if (!make_index_layout(bits, max_distance, tables, layout_)) {
    throw std::invalid_argument("unsupported index layout");
  }
  words_ = bits / 64;
}

void SimHashIndex::append(uint64_t id, Fingerprint fp) {
  const uint32_t slot = slot_count();
  if ((slot & 63) == 0) dead_bits_.push_back(0);
  ids_.push_back(id);
  fps_.push_back(fp.lo);
  if (words_ == 2) fps_.push_back(fp.hi);
  ids_map_.insert(id, slot, ids_);
  ++live_;
}

void SimHashIndex::kill(uint32_t slot) {
  ids_map_.erase(ids_[slot], ids_);
  ids_[slot] = kDeadId;
  dead_bits_[slot >> 6] |= uint64_t{1} << (slot & 63);
  --live_;
  ++dead_;
}

bool SimHashIndex::add(uint64_t id, Fingerprint fp) {
  reserve_for(1);  // append() then allocates nothing: a failed allocation changes nothing
  const uint32_t old = find_slot(id);
  if (old != kNoSlot) kill(old);
  append(id, fp);
  after_append();
  if (old != kNoSlot) after_remove();
  return old != kNoSlot;
}

void SimHashIndex::reserve_for(size_t count) {
  if (count > kMaxIndexEntries - slot_count()) {
    compact();
    if (count > kMaxIndexEntries - slot_count()) throw std::length_error("the index holds at most 4294967294 entries");
  }
  // Exact for a first bulk load, geometric for repeated batches.
  // Each vector is checked on its own: one whose reserve failed last time is grown now.
  const size_t needed = ids_.size() + count;
  const size_t grown = std::max(needed, ids_.capacity() + ids_.capacity() / 2);
  if (ids_.capacity() < needed) ids_.reserve(grown);
  if (fps_.capacity() < needed * words_) fps_.reserve(grown * words_);
  if (dead_bits_.capacity() < (needed + 63) / 64) dead_bits_.reserve((grown + 63) / 64);
  ids_map_.reserve(live_ + count, ids_);
}

bool SimHashIndex::remove(uint64_t id) {
  const uint32_t slot = find_slot(id);
  if (slot == kNoSlot) return false;
  kill(slot);
  after_remove();
  return true;
}

bool SimHashIndex::get(uint64_t id, Fingerprint& fp) const {
  const uint32_t slot = find_slot(id);
  if (slot == kNoSlot) return false;
  fp = fingerprint_at(slot);
  return true;
}

void SimHashIndex::after_append() {
  if (slot_count() - tail_begin_ < kTailLimit) return;
  // Room first: the tail may only shrink once its segment is in place.
  segments_.reserve(segments_.size() + 1);
  Segment seg = build_segment(tail_begin_, slot_count());
  tail_begin_ = slot_count();
  if (seg.count > 0) segments_.push_back(std::move(seg));
  while (segments_.size() >= 2) {
    const Segment& last = segments_[segments_.size() - 1];
    const Segment& prev = segments_[segments_.size() - 2];
    if (uint64_t{prev.count} > 2 * uint64_t{last.count}) break;
    Segment merged = build_segment(prev.begin, last.end);
    segments_.pop_back();
    segments_.pop_back();
    if (merged.count > 0) segments_.push_back(std::move(merged));
  }
}

void SimHashIndex::after_remove() {
  if (dead_ > live_ && dead_ >= kTailLimit) compact();
}

void SimHashIndex::compact() {
  // Everything new is built aside, then swapped in: a failed allocation leaves the index as it was.
  std::vector<uint64_t> ids, fps;
  ids.reserve(live_);
  fps.reserve(live_ * words_);
  for (uint32_t s = 0; s < slot_count(); ++s) {
    if (ids_[s] == kDeadId) continue;
    ids.push_back(ids_[s]);
    fps.push_back(fps_[size_t{s} * words_]);
    if (words_ == 2) fps.push_back(fps_[2 * size_t{s} + 1]);
  }
  std::vector<uint64_t> dead_bits((ids.size() + 63) / 64, 0);
  IdMap ids_map;
  ids_map.reserve(ids.size(), ids);
  for (uint32_t s = 0; s < ids.size(); ++s) ids_map.insert(ids[s], s, ids);
  ids_.swap(ids);
  fps_.swap(fps);
  dead_bits_.swap(dead_bits);
  std::swap(ids_map_, ids_map);
  segments_.clear();
  tail_begin_ = 0;
  dead_ = 0;
  after_append();
}

SimHashIndex::Segment SimHashIndex::build_segment(uint32_t begin, uint32_t end) const {
  Segment seg;
  seg.begin = begin;
  seg.end = end;
  // The live slots of the range: begin + i when none is dead (the usual bulk case).
  std::vector<uint32_t> live;
  size_t m = end - begin;
  bool any_dead = false;
  for (uint32_t w = begin >> 6; w <= (end - 1) >> 6 && end > begin; ++w) any_dead = any_dead || dead_bits_[w] != 0;
  if (any_dead) {
    for (uint32_t s = begin; s < end; ++s) {
      if (!is_dead(s)) live.push_back(s);
    }
    m = live.size();
  }
  auto slot_at = [&](size_t i) { return any_dead ? live[i] : begin + static_cast<uint32_t>(i); };
  seg.count = static_cast<uint32_t>(m);
  if (m == 0) return seg;

  // Per table: a stable counting sort of the entries by directory cell. Large directories take two
  // passes (by the low, then the high half of the cell bits) so every pass writes to at most 4096
  // places at a time instead of millions: far fewer cache and TLB misses.
  struct Staged {
    uint32_t cell, frag, slot;
  };
  std::vector<Staged> staged;
  std::vector<uint32_t> cursor;
  const size_t table_count = layout_.tables.size();
  seg.tables.resize(table_count);
  for (size_t t = 0; t < table_count; ++t) {
    SegmentTable& st = seg.tables[t];
    st.dir_bits = dir_bits_for(m, layout_.tables[t].key_bits);
    st.frag_key_mask = frag_key_mask_for(layout_.tables[t].key_bits, st.dir_bits);
    st.dir.assign((size_t{1} << st.dir_bits) + 1, 0);
    for (size_t u = 0; u < t; ++u) {
      uint32_t mask = 0;
      bool visible = true;
      for (int bit = 0; bit < layout_.bits && visible; ++bit) {
        const uint64_t word = bit < 64 ? layout_.tables[u].key_mask.lo : layout_.tables[u].key_mask.hi;
        if (((word >> (bit & 63)) & 1) == 0) continue;
        const int p = layout_.tables[t].position[static_cast<size_t>(bit)];
        if (p < st.dir_bits) continue;  // equal for every entry of the cell
        if (p >= st.dir_bits + 32) visible = false;
        else mask |= uint32_t{1} << (31 - (p - st.dir_bits));
      }
      if (visible) st.earlier_key_masks.push_back(mask);
    }
  }
  // One pass over the fingerprints counts the cells of every table.
  for (size_t i = 0; i < m; ++i) {
    const Fingerprint fp = fingerprint_at(slot_at(i));
    for (size_t t = 0; t < table_count; ++t) {
      SegmentTable& st = seg.tables[t];
      ++st.dir[(layout_.head(layout_.tables[t], fp) >> (64 - st.dir_bits)) + 1];
    }
  }
  for (size_t t = 0; t < table_count; ++t) {
    const IndexLayout::Table& lt = layout_.tables[t];
    SegmentTable& st = seg.tables[t];
    const int d = st.dir_bits;
    const size_t cells = size_t{1} << d;
    st.frag.resize(m);
    st.slot.resize(m);
    auto head_at = [&](size_t i) { return layout_.head(lt, fingerprint_at(slot_at(i))); };
    for (size_t c = 0; c < cells; ++c) st.dir[c + 1] += st.dir[c];
    cursor.assign(st.dir.begin(), st.dir.end() - 1);
    if (d < 14) {
      for (size_t i = 0; i < m; ++i) {
        const uint64_t h = head_at(i);
        const uint32_t p = cursor[h >> (64 - d)]++;
        st.frag[p] = static_cast<uint32_t>(h >> (32 - d));
        st.slot[p] = slot_at(i);
      }
      continue;
    }
    const int low_bits = d / 2;
    const uint32_t low_mask = (uint32_t{1} << low_bits) - 1;
    std::vector<uint32_t> low_start(size_t{1} << low_bits, 0);
    for (size_t c = 0; c < cells; ++c) low_start[c & low_mask] += st.dir[c + 1] - st.dir[c];
    uint32_t sum = 0;
    for (uint32_t& x : low_start) {
      const uint32_t n = x;
      x = sum;
      sum += n;
    }
    staged.resize(m);
    for (size_t i = 0; i < m; ++i) {
      const uint64_t h = head_at(i);
      const uint32_t cell = static_cast<uint32_t>(h >> (64 - d));
      staged[low_start[cell & low_mask]++] = Staged{cell, static_cast<uint32_t>(h >> (32 - d)), slot_at(i)};
    }
    // Entries of one cell arrive in their original order, so the result is the stable sort.
    for (const Staged& e : staged) {
      const uint32_t p = cursor[e.cell]++;
      st.frag[p] = e.frag;
      st.slot[p] = e.slot;
    }
  }
  return seg;
}

void SimHashIndex::plan_heads(Fingerprint q, QueryScratch& s) const {
  s.q = q;
  const size_t table_count = layout_.tables.size();
  for (size_t t = 0; t < table_count; ++t) s.heads[t] = layout_.head(layout_.tables[t], q);
  for (const Segment& seg : segments_) {
    for (size_t t = 0; t < table_count; ++t) {
      const SegmentTable& st = seg.tables[t];
      prefetch(st.dir.data() + (s.heads[t] >> (64 - st.dir_bits)));
    }
  }
}

void SimHashIndex::plan_cells(QueryScratch& s) const {
  const size_t table_count = layout_.tables.size();
  s.begins.resize(segments_.size() * table_count);
  s.ends.resize(segments_.size() * table_count);
  size_t k = 0;
  for (const Segment& seg : segments_) {
    for (size_t t = 0; t < table_count; ++t, ++k) {
      const SegmentTable& st = seg.tables[t];
      const uint64_t cell = s.heads[t] >> (64 - st.dir_bits);
      s.begins[k] = st.dir[cell];
      s.ends[k] = st.dir[cell + 1];
      const uint32_t* frag = st.frag.data();
      const uint32_t stop = std::min(s.ends[k], s.begins[k] + 1024);
      for (uint32_t i = s.begins[k]; i < stop; i += 16) prefetch(frag + i);
    }
  }
}

void SimHashIndex::scan(const QueryScratch& s, int max_distance, std::vector<IndexMatch>& out) const {
  const Fingerprint q = s.q;
  const size_t table_count = layout_.tables.size();
  uint32_t hits[kFilterChunk];
  size_t k = 0;
  for (const Segment& seg : segments_) {
    for (size_t t = 0; t < table_count; ++t, ++k) {
      const SegmentTable& st = seg.tables[t];
      const uint32_t qfrag = static_cast<uint32_t>(s.heads[t] >> (32 - st.dir_bits));
      const Fingerprint key_mask = layout_.tables[t].key_mask;
      for (uint32_t chunk = s.begins[k]; chunk < s.ends[k]; chunk += kFilterChunk) {
        const size_t count = std::min<size_t>(kFilterChunk, s.ends[k] - chunk);
        const size_t found = kFilter(st.frag.data() + chunk, count, qfrag, st.frag_key_mask, max_distance, hits);
        const uint32_t* frag = st.frag.data() + chunk;
        for (size_t h = 0; h < found; ++h) {
          const uint32_t x = frag[hits[h]] ^ qfrag;
          bool seen = false;
          for (uint32_t mask : st.earlier_key_masks) seen = seen || (x & mask) == 0;
          if (seen) continue;
          const uint32_t slot = st.slot[chunk + hits[h]];
          if (is_dead(slot)) continue;
          const Fingerprint fp = fingerprint_at(slot);
          const Fingerprint diff{fp.lo ^ q.lo, fp.hi ^ q.hi};
          const int distance = popcount64(diff.lo) + popcount64(diff.hi);
          if (distance > max_distance || !is_zero_masked(diff, key_mask)) continue;
          // Reported by the first table whose key it shares with the query.
          bool earlier = false;
          for (size_t u = 0; u < t && !earlier; ++u) earlier = is_zero_masked(diff, layout_.tables[u].key_mask);
          if (!earlier) out.push_back(IndexMatch{static_cast<uint32_t>(distance), slot});
        }
      }
    }
  }
  for (uint32_t slot = tail_begin_; slot < slot_count(); ++slot) {
    if (is_dead(slot)) continue;
    const int distance = hamming_distance(fingerprint_at(slot), q);
    if (distance <= max_distance) out.push_back(IndexMatch{static_cast<uint32_t>(distance), slot});
  }
}

namespace {
bool match_less(const IndexMatch& a, const IndexMatch& b) {
  return a.distance != b.distance ? a.distance < b.distance : a.slot < b.slot;
}
}  // namespace

void SimHashIndex::query(Fingerprint q, int max_distance, std::vector<IndexMatch>& out,
                         QueryScratch& scratch) const {
  out.clear();
  if (max_distance < 0) return;
  max_distance = std::min(max_distance, layout_.max_distance);
  plan_heads(q, scratch);
  plan_cells(scratch);
  scan(scratch, max_distance, out);
  if (out.size() > 1) std::sort(out.begin(), out.end(), match_less);
}

void SimHashIndex::query_many(const uint64_t* words, size_t n, int max_distance, std::vector<uint64_t>& offsets,
                              std::vector<IndexMatch>& out) const {
  out.clear();
  offsets.assign(n + 1, 0);
  if (max_distance < 0 || n == 0) return;
  max_distance = std::min(max_distance, layout_.max_distance);
  auto fp_at = [&](size_t i) { return Fingerprint{words[i * words_], words_ == 2 ? words[i * words_ + 1] : 0}; };
  // Query i is scanned while i + 1 has its cells read and i + 2 its directory entries fetched.
  QueryScratch stages[3];
  plan_heads(fp_at(0), stages[0]);
  plan_cells(stages[0]);
  if (n > 1) plan_heads(fp_at(1), stages[1]);
  for (size_t i = 0; i < n; ++i) {
    if (i + 2 < n) plan_heads(fp_at(i + 2), stages[(i + 2) % 3]);
    if (i + 1 < n) plan_cells(stages[(i + 1) % 3]);
    const size_t start = out.size();
    scan(stages[i % 3], max_distance, out);
    if (out.size() - start > 1) std::sort(out.begin() + static_cast<std::ptrdiff_t>(start), out.end(), match_less);
    offsets[i + 1] = out.size();
  }
}

void SimHashIndex::brute_force_query(Fingerprint q, int max_distance, std::vector<IndexMatch>& out) const {
  out.clear();
  if (max_distance < 0) return;
  const uint32_t n = slot_count();
  for (uint32_t s = 0; s < n; ++s) {
    const int distance = hamming_distance(fingerprint_at(s), q);
    if (distance <= max_distance && ids_[s] != kDeadId) {
      out.push_back(IndexMatch{static_cast<uint32_t>(distance), s});
    }
  }
  if (out.size() > 1) std::sort(out.begin(), out.end(), match_less);
}

size_t SimHashIndex::memory_bytes() const {
  size_t bytes = sizeof(*this) + fps_.capacity() * 8 + ids_.capacity() * 8 + dead_bits_.capacity() * 8 +
                 ids_map_.bytes() +
                 segments_.capacity() * sizeof(Segment);
  for (const Segment& seg : segments_) {
    bytes += seg.tables.capacity() * sizeof(SegmentTable);
    for (const SegmentTable& st : seg.tables) {
      bytes += (st.dir.capacity() + st.frag.capacity() + st.slot.capacity()) * sizeof(uint32_t);
    }
  }
  return bytes;
}

}  // namespace simhash_zh

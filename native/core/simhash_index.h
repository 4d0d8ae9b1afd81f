// Near-duplicate index over 64- or 128-bit fingerprints: Manku, Jain and Das Sarma,
// "Detecting Near-Duplicates for Web Crawling" (WWW 2007). No Node headers.
//
// Layout. The f fingerprint bits are cut into B blocks (block 0 holds the most significant bits;
// sizes differ by at most one bit). Two fingerprints within k bits differ in at most k blocks, so
// they agree exactly on at least B - k blocks (pigeonhole). The index keeps one table per choice of
// B - k blocks, C(B, k) tables in all (B = k + 1 by default: k + 1 tables). A table orders its
// entries by a permuted fingerprint whose leading bits are its key blocks; a query only looks at the
// entries whose key equals its own, in every table, so nothing within k bits is missed.
//
// Each table stores, per entry, 8 bytes: the entry's slot (uint32) and a 32-bit fragment of the
// permuted fingerprint (the 32 bits after the directory bits). The directory maps the leading
// `dir_bits` key bits to a cell. A query compares fragments first (key bits beyond the directory must
// match and the fragment may differ in at most k bits), and only then reads the full fingerprint.
// A match found in table t is reported only when no earlier table shares its key with the query, so
// every match is reported once without a per-query set.
//
// Updates. Entries live in slots numbered in insertion order, never reused until a compaction (which
// keeps the order). New slots form an unsorted tail that queries scan linearly; once the tail reaches
// kTailLimit slots it becomes a sorted segment, and segments merge like a binary counter (a segment is
// merged into the one before it while that one is at most twice its size), so there are O(log n)
// segments and each entry is rebuilt O(log n) times. A bulk add of n entries builds one segment.
// Removed slots stay in the tables, marked dead, until a merge or a compaction drops them.
//
// Speed. The fragment filter takes 8 fragments per step with AVX2 where the CPU has it (chosen at
// load; the portable loop gives the same answers). A candidate whose fragment already shows that an
// earlier table shares its key is skipped without reading its slot. query_many runs three queries in
// flight (directory cells fetched two queries ahead, fragments one ahead). Ids map to slots through
// an open-addressing table with a tag byte per cell, so a probe rarely touches the ids array.
// Memory with the default layout at 64 bits: 8 bytes per table, 8 for the fingerprint, 8 for the id,
// ~6-12 for the id map: about 57 bytes per entry at k = 3.
//
// All decisions use integer arithmetic; results are sorted by (distance, insertion order), so the
// answers never depend on the layout, the segments, the CPU or the platform.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fingerprint.h"

namespace simhash_zh {

// Ids are non-negative integers up to 2^53 - 1 (JavaScript's safe integers).
constexpr uint64_t kMaxIndexId = (uint64_t{1} << 53) - 1;
// Slots are uint32 and 0xffffffff is reserved.
constexpr uint64_t kMaxIndexEntries = 0xfffffffeULL;
// The most tables a layout may have (supported_table_counts stops there).
constexpr int kMaxIndexTables = 64;

// The table layout for (bits, max_distance, tables); see the file comment.
struct IndexLayout {
  struct Piece {  // bits [shift, shift + len) of word `word`, placed at stream bit `dest`
    uint8_t word, shift, len, dest;
  };
  struct Table {
    std::vector<Piece> pieces;  // the first 64 bits of the permuted stream
    Fingerprint key_mask;       // the key blocks, in fingerprint bit positions
    int key_bits = 0;
    std::vector<uint8_t> position;  // stream position (0 = first) of each fingerprint bit
  };
  int bits = 64;
  int max_distance = 3;
  int blocks = 4;
  std::vector<Table> tables;

  // The leading 64 bits of table t's permuted fingerprint.
  uint64_t head(const Table& table, Fingerprint fp) const {
    const uint64_t words[2] = {fp.lo, fp.hi};
    uint64_t head = 0;
    for (const Piece& p : table.pieces) {
      const uint64_t mask = p.len == 64 ? ~uint64_t{0} : (uint64_t{1} << p.len) - 1;
      head |= ((words[p.word] >> p.shift) & mask) << (64 - p.dest - p.len);
    }
    return head;
  }
};

// The largest max_distance for a width: 8 at 64 bits, 16 at 128.
inline int max_supported_distance(int bits) { return bits / 8; }

// The table counts supported for (bits, max_distance): C(B, k) for B = k+1 .. min(k+4, bits)
// (just 1 when k = 0), ascending. Empty when bits or max_distance is out of range.
std::vector<int> supported_table_counts(int bits, int max_distance);

// Builds the layout; returns false (and leaves `out` alone) when the parameters are unsupported.
bool make_index_layout(int bits, int max_distance, int tables, IndexLayout& out);

struct IndexMatch {
  uint32_t distance;
  uint32_t slot;
};

class SimHashIndex {
 public:
  static constexpr uint32_t kTailLimit = 128;

  // Throws std::invalid_argument when the layout is unsupported (callers validate first).
  SimHashIndex(int bits, int max_distance, int tables);

  int bits() const { return layout_.bits; }
  int max_distance() const { return layout_.max_distance; }
  int table_count() const { return static_cast<int>(layout_.tables.size()); }
  size_t size() const { return live_; }

  // Adds or replaces `id` (id <= kMaxIndexId, fp within `bits`; checked by the caller). A replaced id
  // moves to the end of the insertion order, exactly as remove(id) then add(id, fp). Returns whether
  // it replaced an entry. Throws std::length_error beyond kMaxIndexEntries slots.
  bool add(uint64_t id, Fingerprint fp);
  // add() for each pair in order; `words` holds bits/64 words per fingerprint, low word first.
  void add_many(const uint64_t* ids, const uint64_t* words, size_t count) {
    add_many_by([ids](size_t i) { return ids[i]; }, words, count);
  }
  // add_many() with the ids produced by id_at(i) (every one <= kMaxIndexId), so a caller holding
  // them in another form needs no copy.
  template <typename IdAt>
  void add_many_by(IdAt&& id_at, const uint64_t* words, size_t count);
  bool remove(uint64_t id);
  bool has(uint64_t id) const { return find_slot(id) != kNoSlot; }
  // The fingerprint stored for `id`; false when absent.
  bool get(uint64_t id, Fingerprint& fp) const;

  // Reusable per-caller state for queries (keeps the hot loop free of allocation).
  struct QueryScratch {
    Fingerprint q;
    uint64_t heads[kMaxIndexTables];
    std::vector<uint32_t> begins, ends;  // per (segment, table)
  };

  // Every live entry within `max_distance` (<= this->max_distance()) bits of `q`, sorted by
  // distance then insertion order, written into `out` (cleared first; reuse it across queries).
  void query(Fingerprint q, int max_distance, std::vector<IndexMatch>& out, QueryScratch& scratch) const;
  void query(Fingerprint q, int max_distance, std::vector<IndexMatch>& out) const {
    QueryScratch scratch;
    query(q, max_distance, out, scratch);
  }
  // query() for n fingerprints (`words`: bits/64 words each), pipelined so that the memory accesses
  // of the next queries overlap the current one. Matches of query i are
  // out[offsets[i] .. offsets[i + 1]); offsets gets n + 1 entries.
  void query_many(const uint64_t* words, size_t n, int max_distance, std::vector<uint64_t>& offsets,
                  std::vector<IndexMatch>& out) const;
  uint64_t id_at(uint32_t slot) const { return ids_[slot]; }

  // Same answers as query(), by a linear scan (for tests and benchmarks).
  void brute_force_query(Fingerprint q, int max_distance, std::vector<IndexMatch>& out) const;

  // Live entries in insertion order.
  template <typename F>
  void for_each(F&& f) const {
    for (uint32_t s = 0; s < slot_count(); ++s) {
      if (ids_[s] != kDeadId) f(ids_[s], fingerprint_at(s));
    }
  }

  // Bytes held by the index (capacities, not sizes).
  size_t memory_bytes() const;
  size_t segment_count() const { return segments_.size(); }

 private:
  static constexpr uint32_t kNoSlot = 0xffffffffU;
  static constexpr uint64_t kDeadId = ~uint64_t{0};

  struct SegmentTable {
    int dir_bits = 1;
    uint32_t frag_key_mask = 0;     // key bits inside the fragment
    // For each earlier table whose key lies entirely in this table's directory and fragment bits: its
    // key bits in fragment space. A candidate whose fragment agrees with the query there was
    // reported by that earlier table, so it is skipped without touching its slot or fingerprint.
    std::vector<uint32_t> earlier_key_masks;
    std::vector<uint32_t> dir;      // 2^dir_bits + 1 offsets
    std::vector<uint32_t> frag;     // fragments, grouped by cell, slot order within a cell
    std::vector<uint32_t> slot;
  };
  struct Segment {
    uint32_t begin = 0, end = 0;    // slot range
    uint32_t count = 0;             // entries stored (live when built)
    std::vector<SegmentTable> tables;
  };

  // Open addressing (linear probing, backward-shift deletion) from id to slot; ids live in ids_.
  // A parallel byte per cell holds 0 (empty) or a 1..255 tag from the id's hash, so probing reads
  // one byte array and follows ids_ only on a tag match (about 1 in 255 foreign cells).
  class IdMap {
   public:
    void reserve(size_t live, const std::vector<uint64_t>& ids);
    uint32_t find(uint64_t id, const std::vector<uint64_t>& ids) const;
    // Inserts an id known to be absent.
    void insert(uint64_t id, uint32_t slot, const std::vector<uint64_t>& ids);
    void erase(uint64_t id, const std::vector<uint64_t>& ids);
    void clear() { tags_.clear(); slots_.clear(); used_ = 0; }
    void prefetch(uint64_t id) const;
    size_t bytes() const { return tags_.capacity() + slots_.capacity() * sizeof(uint32_t); }

   private:
    static uint64_t hash(uint64_t id);
    static uint8_t tag_of(uint64_t h) { return static_cast<uint8_t>(1 + (h >> 56) % 255); }
    void rehash(size_t capacity, const std::vector<uint64_t>& ids);
    void place(uint64_t h, uint32_t slot);
    std::vector<uint8_t> tags_;
    std::vector<uint32_t> slots_;
    size_t used_ = 0;
  };

  uint32_t slot_count() const { return static_cast<uint32_t>(ids_.size()); }
  Fingerprint fingerprint_at(uint32_t slot) const {
    return words_ == 2 ? Fingerprint{fps_[2 * size_t{slot}], fps_[2 * size_t{slot} + 1]}
                       : Fingerprint{fps_[slot], 0};
  }
  uint32_t find_slot(uint64_t id) const { return ids_map_.find(id, ids_); }
  void append(uint64_t id, Fingerprint fp);
  // Room for `count` more slots (compacting first if needed); throws std::length_error.
  void reserve_for(size_t count);
  void kill(uint32_t slot);
  void after_append();
  void after_remove();
  Segment build_segment(uint32_t begin, uint32_t end) const;
  void compact();
  // The three query stages: heads (prefetch the directory cells), cells (read them, prefetch the
  // fragments), scan (filter, verify, append unsorted).
  void plan_heads(Fingerprint q, QueryScratch& s) const;
  void plan_cells(QueryScratch& s) const;
  void scan(const QueryScratch& s, int max_distance, std::vector<IndexMatch>& out) const;
  bool is_dead(uint32_t slot) const { return (dead_bits_[slot >> 6] >> (slot & 63)) & 1; }

  IndexLayout layout_;
  int words_;
  std::vector<uint64_t> fps_;   // words_ per slot
  std::vector<uint64_t> ids_;   // kDeadId once removed
  std::vector<uint64_t> dead_bits_;  // one bit per slot: small enough to stay in cache
  IdMap ids_map_;
  std::vector<Segment> segments_;
  uint32_t tail_begin_ = 0;     // slots [tail_begin_, slot_count()) are in no segment
  size_t live_ = 0;
  size_t dead_ = 0;
};

template <typename IdAt>
void SimHashIndex::add_many_by(IdAt&& id_at, const uint64_t* words, size_t count) {
  if (count == 0) return;
  reserve_for(count);
  constexpr size_t kAhead = 64;
  bool removed = false;
  for (size_t i = 0; i < count; ++i) {
    if (i + kAhead < count) ids_map_.prefetch(id_at(i + kAhead));
    const uint64_t id = id_at(i);
    const uint32_t old = find_slot(id);
    if (old != kNoSlot) {
      kill(old);
      removed = true;
    }
    append(id, Fingerprint{words[i * words_], words_ == 2 ? words[i * words_ + 1] : 0});
  }
  after_append();
  if (removed) after_remove();
}

}  // namespace simhash_zh

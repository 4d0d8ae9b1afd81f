// The binary jieba dictionary (dict/jieba.dict), read in place. The layout is
// documented in lib/dictionary.ts, which reads the same file for the TS
// engine with the same checks. No Node headers: this core builds alone.
//
// A Dictionary is immutable once loaded: share it (std::shared_ptr<const
// Dictionary>) between threads and segmenters freely.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "zeroed_memory.h"

namespace simhash_zh {

enum class DictError { kOk = 0, kIo, kCorrupt, kVersion };

struct DictStatus {
  DictError code = DictError::kOk;
  std::string message;
};

// Stable JS error code for a DictError ("SIMHASH_ZH_DICT_CORRUPT", ...).
const char* dict_error_code(DictError code);

constexpr uint32_t kDictFormatVersion = 2;
constexpr uint32_t kDictHeaderSize = 96;
constexpr int32_t kLogScale = 1 << 20;
constexpr int32_t kIdfScale = 1 << 20;
constexpr int32_t kHmmScale = 1 << 20;
constexpr int32_t kHmmMissing = 0x7fffffff;
constexpr uint32_t kHmmFirstCp = 0x4e00;
constexpr uint32_t kHmmLastCp = 0x9fd5;
constexpr uint8_t kFlagStop = 1;
constexpr uint64_t kMaxFreq = 0xffffffffULL;
// The largest IDF x kIdfScale a valid file holds (real IDFs are below 32).
constexpr int32_t kMaxIdf = (1 << 30) - 1;

// What the hot loops read about one entry, side by side: segmenting reads the
// cost, weighting then finds the IDF and the stop flag in the same cache line
// (the file keeps them in separate arrays, a cache miss each).
struct EntryFacts {
  int32_t log_freq;      // -1: not a segmentation word
  int32_t idf_and_stop;  // IDF x kIdfScale (-1: none) times 2, plus 1 for a default stop word
  int32_t idf() const { return idf_and_stop >> 1; }  // arithmetic shift: -1 stays -1
  bool stop() const { return (idf_and_stop & 1) != 0; }
};

// Deterministic arithmetic shared with the TS engine (lib/dictionary.ts): only
// IEEE-754 +, -, *, / in a fixed order, so both get the same bits.
double det_ln(double x);
// round(kLogScale * ln(x)) for an integer x >= 1; 0 below 1.
int32_t det_log_scaled(double x);
// The largest f >= 1 with det_log_scaled(f) <= target, or 0 if none.
double det_exp_floor(double target);
// CRC-32 (zlib's: reflected 0xEDB88320): the file checksum.
uint32_t crc32(const uint8_t* data, size_t length);

// One trie slot, as the file stores it (16 bytes; the section is 64-byte aligned, so a slot
// never straddles a cache line). `children` has bit (id & 31) set for the alphabet id of
// every child (checked at load): most steps below the root fail, and a walk whose next id
// has its bit clear stops without loading the child's slot, a cache miss each.
struct TrieNode {
  int32_t base;
  int32_t check;
  int32_t entry;
  uint32_t children;
  bool may_have_child(int32_t id) const { return ((children >> (id & 31)) & 1u) != 0; }
};

static_assert(sizeof(TrieNode) == 16, "a trie slot is 16 bytes in the file");

// Moves `s` to its child by alphabet id `c` and returns true, or returns false when it has
// none (id 0, outside the alphabet, never has one).
inline bool trie_step(const TrieNode* trie, int32_t& s, int32_t c) {
  if (c == 0 || !trie[s].may_have_child(c)) return false;
  const int32_t t = trie[s].base + c;
  if (trie[t].check != s) return false;
  s = t;
  return true;
}

// Frees a facts table (dictionary.cc allocates it).
struct EntryFactsRelease {
  size_t bytes = 0;
  void operator()(EntryFacts* facts) const;
};

class Dictionary {
 public:
  // Copies and validates `size` bytes. Returns nullptr and fills `status` on failure.
  // `pack_trie`: make the packed copy of the trie when it fits (false only to test the walk
  // over the file's own slots, which serves a dictionary too large to pack).
  static std::shared_ptr<const Dictionary> from_bytes(const void* data, size_t size, DictStatus* status,
                                                      bool pack_trie = true);
  // Maps (or reads) and validates a file.
  static std::shared_ptr<const Dictionary> from_file(const std::string& path, DictStatus* status,
                                                     bool pack_trie = true);
  // from_file through a process-wide cache: one mapping per file (path, size and
  // modification time), shared by every caller while any holds it.
  static std::shared_ptr<const Dictionary> shared(const std::string& path, DictStatus* status);

  ~Dictionary();
  Dictionary(const Dictionary&) = delete;
  Dictionary& operator=(const Dictionary&) = delete;

  // Alphabet id of a code point, 0 when no word contains it.
  int32_t char_id(uint32_t cp) const {
    if (cp < 0x10000) return bmp_[cp];
    return char_id_supp(cp);
  }
  // Alphabet ids run 1..alphabet_size(), the most frequent characters of the words first.
  uint32_t alphabet_size() const { return alphabet_size_; }
  // Alphabet ids of U+0000..U+FFFF.
  const int32_t* bmp() const { return bmp_; }
  // One node per trie slot; slot 0 is the root.
  const TrieNode* trie() const { return trie_; }
  uint32_t trie_slots() const { return trie_slots_; }
  // The trie in 8-byte slots (PackedTrie, trie_view.h), or nullptr when its slot or entry
  // numbers do not fit them (a dictionary several times jieba's size).
  const uint64_t* packed_trie() const { return packed_.empty() ? nullptr : packed_.begin(); }
  uint32_t entry_count() const { return entry_count_; }
  // One EntryFacts per entry.
  const EntryFacts* entry_facts() const { return facts_.get(); }
  const uint32_t* freqs() const { return freq_; }
  int32_t log_freq(int32_t entry) const { return facts_[entry].log_freq; }
  uint32_t freq(int32_t entry) const { return freq_[entry]; }
  // IDF x kIdfScale, -1 when the entry has none.
  int32_t idf(int32_t entry) const { return has_entry(entry) ? facts_[entry].idf() : -1; }
  int32_t idf_median() const { return idf_median_; }
  bool is_default_stop(int32_t entry) const { return has_entry(entry) && facts_[entry].stop(); }
  double total_freq() const { return total_freq_; }
  int32_t log_total() const { return log_total_; }
  uint32_t max_word_chars() const { return max_word_chars_; }
  // Bit c (< 128) of [c >> 5]: a segmentation word of two or more characters starts with ASCII
  // character c. Worked out on the first call (a pass over the trie), from any thread.
  const uint32_t* ascii_word_starts() const;
  // [start x4, trans x16, firstCp, count, emit x count*4] as costs (kHmmMissing: impossible).
  const int32_t* hmm() const { return hmm_; }
  size_t byte_size() const { return size_; }

 private:
  Dictionary() = default;
  bool validate(DictStatus* status, bool pack_trie);
  void find_ascii_word_starts() const;
  int32_t char_id_supp(uint32_t cp) const;
  bool has_entry(int32_t entry) const { return entry >= 0 && static_cast<uint32_t>(entry) < entry_count_; }

  // Storage: an owned copy or a read-only mapping.
  std::unique_ptr<uint64_t[]> owned_;
  void* mapping_ = nullptr;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;

  const int32_t* bmp_ = nullptr;
  const uint32_t* supp_ = nullptr;
  uint32_t supp_count_ = 0;
  const TrieNode* trie_ = nullptr;
  uint32_t trie_slots_ = 0;
  ZeroedArray<uint64_t> packed_;
  // Built at load into memory mapped in one call (map_zeroed, zeroed_memory.h).
  std::unique_ptr<EntryFacts[], EntryFactsRelease> facts_;
  const uint32_t* freq_ = nullptr;
  const int32_t* hmm_ = nullptr;
  uint32_t entry_count_ = 0;
  uint32_t alphabet_size_ = 0;
  uint32_t max_word_chars_ = 0;
  double total_freq_ = 0;
  int32_t log_total_ = 0;
  int32_t idf_median_ = 0;
  mutable std::once_flag ascii_once_;
  mutable uint32_t ascii_starts_word_[4] = {};
};

}  // namespace simhash_zh

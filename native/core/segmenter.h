// jieba-compatible word segmentation (jieba-rs 0.10 `cut`) over the binary
// dictionary, in integer arithmetic. lib/js/segmenter.ts is the same algorithm
// in TypeScript; both give the same words for every input.
//
// A Segmenter holds a shared, immutable Dictionary, the words added to it with
// add_word, and scratch buffers: use one per thread (copies share the
// dictionary). Segmenting allocates nothing per word.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "dictionary.h"
#include "hmm.h"
#include "trie_view.h"
#include "utf8.h"

namespace simhash_zh {

enum SegmentFlags : int {
  kSegmentHmm = 1,      // decode runs of unknown characters with the HMM
  kSegmentLongest = 2,  // forward maximum matching instead of the best route
  kSegmentEntries = 4,  // report each word's dictionary entry (else -1)
};

// One word: byte offsets into the input, and its dictionary entry or -1.
struct WordSpan {
  size_t start;
  size_t end;
  int32_t entry;
};

class Segmenter {
 public:
  // A dictionary block is cut here at the latest when no word boundary came first.
  static constexpr size_t kWindowCap = size_t{1} << 16;
  // The HMM decodes at most this many characters at once.
  static constexpr size_t kViterbiCap = size_t{1} << 16;

  explicit Segmenter(std::shared_ptr<const Dictionary> dict);
  // A copy shares the dictionary and has the same added words and stop words
  // (e.g. one segmenter per thread from a configured one); scratch is its own.
  Segmenter(const Segmenter& other);
  Segmenter& operator=(const Segmenter&) = delete;

  // Calls f(start, end, entry) for each word of `utf8` (byte offsets; `entry`
  // is the word's dictionary entry, e.g. for entry_idf(), or -1). Words are
  // contiguous and cover the input. An invalid UTF-8 byte reads as one U+FFFD.
  template <class F>
  void for_each_word(std::string_view utf8, bool hmm, F&& f) {
    segment(utf8, (hmm ? kSegmentHmm : 0) | kSegmentEntries, std::forward<F>(f));
  }

  template <class F>
  void segment(std::string_view utf8, int flags, F&& f) {
    using Fn = std::remove_reference_t<F>;
    run(
        utf8, flags,
        [](void* ctx, const WordSpan* words, size_t count) {
          if constexpr (std::is_trivially_copyable_v<Fn> && std::is_invocable_v<const Fn&, size_t, size_t, int32_t>) {
            // A visitor that cannot change itself, copied to a local whose address never escapes:
            // the compiler keeps its fields in registers across the stores of each call.
            const Fn fn = *static_cast<const Fn*>(ctx);
            for (size_t i = 0; i < count; i++) fn(words[i].start, words[i].end, words[i].entry);
          } else {
            Fn& fn = *static_cast<Fn*>(ctx);
            for (size_t i = 0; i < count; i++) fn(words[i].start, words[i].end, words[i].entry);
          }
        },
        const_cast<void*>(static_cast<const void*>(std::addressof(f))));
  }

  // The non-template core: hands the words to `flush` in batches.
  using Flush = void (*)(void* ctx, const WordSpan* words, size_t count);
  void run(std::string_view utf8, int flags, Flush flush, void* ctx);
  // From inside a visitor or flush: end the current run early (no more words are reported).
  void request_stop() { stop_ = true; }

  // Adds a word or sets its frequency (0 removes it); freq < 0 asks for jieba's
  // suggested frequency (just enough to keep the word whole). Frequencies are
  // capped at kMaxFreq. Returns the frequency used, or -1 when called while
  // segmenting (from a visitor), which is not allowed.
  double add_word(std::string_view word, double freq);

  // Any entry of the dictionary (word, IDF-only or stop-only) or of add_word; -1 if none.
  int32_t entry_of(std::string_view word);
  // Frequency of an entry, 0 when it is not a segmentation word.
  double entry_freq(int32_t entry) const;
  // IDF x kIdfScale, or -1.
  int32_t entry_idf(int32_t entry) const {
    return entry >= 0 && entry < base_entries_ ? facts_[entry].idf() : -1;
  }

  // Replaces the default stop words (cppjieba's list) with `words`.
  void set_stop_words(const std::vector<std::string>& words);
  // Whether `word` (whose entry is `entry`, as for_each_word reports it) is a stop word.
  bool is_stop(std::string_view word, int32_t entry) const {
    if (has_stop_set_) return is_custom_stop(word);
    return entry >= 0 && entry < base_entries_ && facts_[entry].stop();
  }
  bool is_stop_word(std::string_view word);

  // Heap bytes this segmenter holds beyond the shared dictionary (scratch, added words, copies).
  size_t memory_bytes() const;

  const Dictionary& dictionary() const { return *dict_; }
  const std::shared_ptr<const Dictionary>& shared_dictionary() const { return dict_; }

 private:
  bool is_custom_stop(std::string_view word) const;
  // The code point at byte `pos` of the input (utf8.h's rule: an invalid byte is one U+FFFD).
  uint32_t decode(size_t pos, size_t* next) const {
    *next = pos;
    return decode_utf8(p_, n_, *next);
  }
  int32_t char_id(uint32_t cp) const { return dict_->char_id(cp); }
  int32_t entry_log_freq(int32_t entry) const {
    return entry < base_entries_ ? facts_[entry].log_freq : ov_log_freq_[entry - base_entries_];
  }
  int32_t lookup(size_t start, size_t end) const;
  int32_t single_entry(uint32_t cp) const;
  void emit(size_t start, size_t end, int32_t entry);
  // Makes sure window character k is decoded; false when the block ends first.
  // Most calls past the decoded part come at a block's end: answer those without a call.
  bool ensure(size_t k) { return k < have_ || (!block_done_ && decode_more(k)); }
  bool decode_more(size_t k);
  void compact(size_t& from, size_t& i, size_t& reach);
  void grow_window(size_t size);
  void grow_edges();
  size_t block(size_t start, bool hmm, bool longest);
  // Calls f with the view of the trie that every walk reads: the packed copy when the
  // dictionary has one (trie_view.h), else the file's slots.
  template <class F>
  decltype(auto) with_trie(F&& f) const {
    return packed_ ? f(PackedTrie{packed_}) : f(WideTrie{trie_});
  }
  template <class Trie>
  size_t walk_block(Trie trie, size_t start, bool hmm, bool longest);
  template <class Trie>
  void first_steps(Trie trie, size_t h);
  void window(size_t from, size_t m, bool hmm, bool longest);
  void route_word(size_t start, size_t end, int32_t entry, bool joins, bool hmm);
  void flush_ascii(size_t end);
  void flush_run(size_t end);
  void hmm_cut(size_t start, size_t end);
  void viterbi_cut(size_t count);
  void skip_split(size_t start, size_t end);
  double suggest_freq(std::string_view word);
  // Makes the changed frequencies this segmenter's own (copied on the first change, or when shared).
  void own_freqs();
  // Fills ascii_lone_ (on the first ASCII character a block starts a window with).
  void prepare_lone();
  // Recomputes ascii_lone_[c] from the dictionary and the added words, once it is filled.
  void refresh_lone(uint32_t c);

  std::shared_ptr<const Dictionary> dict_;
  const TrieNode* trie_;
  const uint64_t* packed_;  // the dictionary's packed trie (trie_view.h), or nullptr
  const int32_t* bmp_;
  int32_t base_entries_;
  // Entry facts and frequencies: the dictionary's until add_word changes one, then a copy
  // (about 4 MB for jieba's dictionary) that copies of this segmenter share until one of them
  // changes a frequency again (copy on write).
  struct ChangedFreqs {
    std::vector<EntryFacts> facts;
    std::vector<uint32_t> freq;
  };
  const EntryFacts* facts_;
  const uint32_t* freq_;
  std::shared_ptr<ChangedFreqs> changed_;
  double total_;
  int32_t log_total_;
  uint32_t max_word_chars_;
  // Words added with add_word: a trie keyed by (node, code point).
  std::unordered_map<uint64_t, int32_t> ov_child_;
  std::vector<int32_t> ov_entry_{-1};
  std::vector<int32_t> ov_log_freq_;
  std::vector<uint32_t> ov_freq_;
  // ASCII characters no word of two or more characters starts with (in lowercased text nearly
  // all: jieba's words that start with ASCII are mostly capitalized, 'T恤'): ascii_lone_[c] is
  // the entry of c as a word, or kNotLone. Blocks meet them in runs (English words, numbers),
  // each character a window of its own.
  static constexpr int32_t kNotLone = INT32_MIN;
  bool lone_ready_ = false;
  int32_t ascii_lone_[128];
  bool ascii_starts_added_[128] = {};  // an added word of two or more characters starts with c
  // Custom stop words: immutable once set, shared by copies; the views point into `words`.
  struct StopSet {
    std::vector<std::string> words;
    std::unordered_set<std::string_view> lookup;
  };
  bool has_stop_set_ = false;
  std::shared_ptr<const StopSet> stop_set_;

  // The input being segmented.
  const unsigned char* p_ = nullptr;
  size_t n_ = 0;
  bool want_entries_ = false;
  bool stop_ = false;
  Flush flush_ = nullptr;
  void* ctx_ = nullptr;
  static constexpr size_t kBatch = 256;
  WordSpan batch_[kBatch];
  size_t batch_count_ = 0;

  // Window scratch (indices relative to the block start, minus compactions).
  std::vector<uint32_t> w_cp_;
  std::vector<int32_t> w_id_;
  std::vector<int32_t> w_step_;  // the root's child for w_id_[k] (the walk's first step), or -1
  std::vector<size_t> w_off_;
  std::vector<int32_t> s_entry_;
  std::vector<uint32_t> e_start_;
  std::vector<uint32_t> e_end_;
  std::vector<int32_t> e_entry_;
  std::vector<int32_t> e_lf_;
  std::vector<int64_t> r_score_;
  std::vector<uint32_t> r_end_;
  std::vector<int32_t> r_entry_;
  size_t have_ = 0;
  bool block_done_ = false;
  size_t dec_pos_ = 0;
  // Pending run of single-character steps (HMM) or ASCII alphanumerics (no HMM).
  size_t p_start_ = 0;
  bool p_active_ = false;
  int32_t p_entry_ = -1;
  size_t p_count_ = 0;
  // HMM scratch.
  Viterbi viterbi_;
  std::vector<uint32_t> v_cp_;
  std::vector<size_t> v_off_;
};

}  // namespace simhash_zh

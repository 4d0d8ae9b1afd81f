#include "pipeline.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <thread>
#include <unordered_map>

#include "char_class.h"
#include "feature_hash.h"
#include "heap_bytes.h"
#include "minhash_sketch.h"
#include "url.h"
#include "utf8.h"
#include "zeroed_memory.h"

namespace simhash_zh {
namespace {

// The marker that starts a character feature's hashed sequence: outside
// Unicode, so no word can hash the same way.
constexpr uint32_t kCharMarker = 0x110000;
constexpr int64_t kMaxBase = int64_t{1} << 34;
constexpr int64_t kMaxWeight = int64_t{1} << 26;
// IDF x 64: the dictionary stores IDF x 2^20.
constexpr int kIdfShift = 14;
// Words longer than this (in bytes) are hashed without gathering their code points.
constexpr size_t kGatherBytes = 4096;

struct Entry {
  Fingerprint hash;
  uint32_t count;
  int64_t unit;       // base weight of one occurrence
  uint8_t kind;
  uint32_t first;     // where to find its text: a byte offset into the normalized text
  uint32_t length;    // ... and its byte length
};

// The weight of a feature from its base weight: base^1.5 (base * isqrt(base)),
// capped at 2^26 so that sums stay exact in both engines.
inline int64_t emphasize(int64_t base) {
  if (base <= 0) return 0;
  if (base > kMaxBase) base = kMaxBase;
  int64_t root = static_cast<int64_t>(std::sqrt(static_cast<double>(base)));
  while (root * root > base) --root;
  while ((root + 1) * (root + 1) <= base) ++root;
  const int64_t weight = base * root;
  return weight > kMaxWeight ? kMaxWeight : weight;
}

// How many occurrences of an ASCII character feature (a Latin letter or digit) count: how
// often a letter occurs says nothing about a text's topic, and counted in full the letters
// of English words, URLs and ids outweigh every word (lib/js/pipeline.ts: the same rule).
constexpr uint32_t kMaxAsciiCharCount = 2;

// Whether a word is made only of ASCII digits (the normalized text has folded full-width ones).
inline bool is_number(std::string_view word) {
  for (const char c : word) {
    if (!is_ascii_digit(static_cast<unsigned char>(c))) return false;
  }
  return !word.empty();
}

// A feature's base weight: unit x occurrences, or a fixed unit when uniform.
inline int64_t base_weight(const Entry& entry, Weighting weighting) {
  if (weighting == Weighting::kUniform) return 64;
  uint32_t count = entry.count;
  // In the normalized UTF-8 a one-byte character feature is ASCII.
  if (entry.kind == kFeatureChar && entry.length == 1 && count > kMaxAsciiCharCount) count = kMaxAsciiCharCount;
  return entry.unit * static_cast<int64_t>(count);
}

// A feature's weight as the sketch uses it (and tokens() reports it).
inline int64_t feature_weight(const Entry& entry, const PipelineOptions& options) {
  const int64_t base = base_weight(entry, options.weighting);
  return options.sketch == Sketch::kMinHash ? race_weight(base) : emphasize(base);
}

// Adds `weight` to row q's bin of nibble q of `word`, for the 16 nibbles (a fixed count: unrolled).
inline void add_nibbles(int64_t (*histogram)[16], uint64_t word, int64_t weight) {
  for (int q = 0; q < 16; ++q) histogram[q][(word >> (4 * q)) & 15U] += weight;
}

}  // namespace

struct DefaultPipeline::Scratch {
  explicit Scratch(const Segmenter& prototype) : segmenter(prototype) {}
  // The thread that released it last: acquire() gives a thread its own scratch back, whose
  // caches are still in that core's cache.
  std::thread::id last_thread;
  Segmenter segmenter;
  MinHashSketch sketch;
  std::string normalized;
  std::vector<uint32_t> cps;
  std::vector<Entry> entries;
  // Open addressing over the word features of `entries`: text_serial << 32 | index. A slot
  // stamped with an earlier text is empty, so a new text clears nothing.
  std::vector<uint64_t> slots;
  size_t table_count = 0;
  // Where a feature sits in the current text: entries[at] when text == text_serial. A cached
  // character or word finds its feature here, without hashing.
  struct TextMark {
    uint32_t text = 0;
    uint32_t at = 0;
  };
  uint32_t text_serial = 0;

  // What a character feature needs, per character, computed on first sight and valid for
  // the scratch's life (its words are fixed): the hash, the stop flag and the base weight
  // of one occurrence (of the one-character word's entry). Indexed by the dictionary's
  // alphabet id, which numbers the most frequent characters first: the slots of common text
  // share few cache lines. Characters outside the alphabet go to a map. All-zero bytes are
  // an unknown character (ZeroedArray).
  struct CharSlot {
    Fingerprint hash;
    int32_t unit = 0;  // a character's unit is small (at most IDF x 64, or 4 bytes x 8)
    bool stop = false;
    bool known = false;
    TextMark mark;  // character features do not go through the hash table
  };

  // What a dictionary word contributes, cached by entry. A short word also keeps its
  // character features' plan (alphabet ids and places), so a word seen before is counted
  // without decoding it. Entries are numbered by descending frequency: the first kOwnSlots
  // each have a slot of their own; the rest (rarer words, and punctuation and the other
  // entries without a frequency) share kSharedSlots direct-mapped ones, where a word whose
  // slot another took is worked out again. With one direct-mapped table of 4,096 slots rare
  // words evicted common ones: 18% of 围城's words were worked out again on every pass, now
  // 2.7%, and a fingerprint is 5-7% faster (separate processes alternating the two addons).
  // All-zero bytes are an empty slot (ZeroedArray).
  static constexpr int kPlannedChars = 4;
  static constexpr uint8_t kNoPlan = 0xff;
  struct WordSlot {
    uint32_t tag = 0;  // the entry cached here plus one; 0: none
    bool skip = false;      // no word character, or a stop word
    uint8_t chars = kNoPlan;  // character features in the plan, or kNoPlan: decode the word
    uint8_t char_at[kPlannedChars] = {};   // byte offset of each in the word
    uint8_t char_len[kPlannedChars] = {};  // and its byte length
    uint32_t char_id[kPlannedChars] = {};  // and its alphabet id (by_alphabet_id)
    int64_t unit = 0;
    TextMark mark;
    Fingerprint hash;
  };
  // Both caches are zero pages until touched: a scratch that meets one short text (an
  // instance made for one call) holds a few of their pages, not all of them.
  static constexpr size_t kOwnSlots = 65536;
  static constexpr size_t kSharedSlots = 4096;
  ZeroedArray<WordSlot> word_cache;
  WordSlot unlisted;  // a word without an entry, worked out each time
  WordSlot& word_slot(int32_t entry) {
    if (word_cache.empty()) word_cache = ZeroedArray<WordSlot>(kOwnSlots + kSharedSlots);
    const size_t e = static_cast<size_t>(entry);
    return word_cache[e < kOwnSlots ? e : kOwnSlots + (e & (kSharedSlots - 1))];
  }
  static bool caches(const WordSlot& word, int32_t entry) { return word.tag == static_cast<uint32_t>(entry) + 1; }
  // Words without an entry (runs of Latin letters and digits, the HMM's words, characters the
  // dictionary lacks) cached by their bytes, direct-mapped: mixed text repeats its English
  // words. A word longer than the key is worked out each time, in `unlisted`.
  static constexpr size_t kUnlistedSlots = 1024;
  static constexpr size_t kUnlistedKeyBytes = 15;
  struct UnlistedSlot {
    uint8_t length;  // of the key; 0: empty
    char key[kUnlistedKeyBytes];
    WordSlot word;
  };
  ZeroedArray<UnlistedSlot> unlisted_cache;
  // The slot for the word `text` without an entry; `cached`: it holds the word's facts already.
  WordSlot& unlisted_slot(std::string_view text, bool& cached) {
    cached = false;
    if (text.size() > kUnlistedKeyBytes) return unlisted;
    if (unlisted_cache.empty()) unlisted_cache = ZeroedArray<UnlistedSlot>(kUnlistedSlots);
    uint32_t h = 2166136261U;  // FNV-1a
    for (const char c : text) h = (h ^ static_cast<uint8_t>(c)) * 16777619U;
    UnlistedSlot& slot = unlisted_cache[(h ^ (h >> 16)) & (kUnlistedSlots - 1)];
    if (slot.length == text.size() && std::memcmp(slot.key, text.data(), text.size()) == 0) {
      cached = true;
    } else {
      slot.length = static_cast<uint8_t>(text.size());
      std::memcpy(slot.key, text.data(), text.size());
    }
    return slot.word;
  }
  ZeroedArray<CharSlot> by_alphabet_id;
  std::unordered_map<uint32_t, CharSlot> outside_alphabet;  // nodes: references stay valid
  // The end of the URL or e-mail address counted last in the current text: words before it
  // are its pieces.
  size_t address_end = 0;

  CharSlot& alphabet_slot(uint32_t id) { return by_alphabet_id[id]; }

  template <class UnitWeight>
  CharSlot& char_slot(uint32_t cp, std::string_view ch, bool use_stop_words, UnitWeight&& unit_weight) {
    const Dictionary& dictionary = segmenter.dictionary();
    const int32_t id = dictionary.char_id(cp);
    CharSlot* slot;
    if (id > 0) {
      if (by_alphabet_id.empty()) by_alphabet_id = ZeroedArray<CharSlot>(dictionary.alphabet_size() + 1);
      slot = &by_alphabet_id[static_cast<size_t>(id)];
    } else {
      slot = &outside_alphabet[cp];
    }
    if (!slot->known) {
      const uint32_t marked[2] = {kCharMarker, cp};
      slot->hash = feature_hash(marked, 2);
      const int32_t entry = segmenter.entry_of(ch);
      slot->stop = use_stop_words && segmenter.is_stop(ch, entry);
      slot->unit = static_cast<int32_t>(unit_weight(entry, ch.size()));
      slot->known = true;
    }
    return *slot;
  }

  // Fills `word`'s plan: the character features of its bytes [start, end) of `text`, in
  // order, each with the alphabet id of its slot. No plan when a character is outside the
  // alphabet or the word has more than kPlannedChars of them.
  template <class UnitWeight>
  void plan_chars(WordSlot& word, std::string_view text, size_t start, size_t end, bool use_stop_words,
                  UnitWeight&& unit_weight) {
    if (end - start > 0xff) return;
    const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
    const Dictionary& dictionary = segmenter.dictionary();
    uint8_t count = 0;
    for (size_t offset = start, next; offset < end; offset = next) {
      next = offset;
      const uint32_t cp = decode_valid_utf8(bytes, next);
      if (!is_word_code_point(cp)) continue;
      const int32_t id = dictionary.char_id(cp);
      if (id <= 0) return;
      const CharSlot& slot = char_slot(cp, text.substr(offset, next - offset), use_stop_words, unit_weight);
      // A one-character word's character counts even when it is a stop word on its own: the
      // word passed the stop test. (The same rule as collect()'s loop for words without a
      // plan; a shared visitor cost 0.7% more instructions per pass, the compiler inlining less.)
      if (slot.stop && !(offset == start && next == end)) continue;
      if (count == kPlannedChars) return;
      word.char_at[count] = static_cast<uint8_t>(offset - start);
      word.char_len[count] = static_cast<uint8_t>(next - offset);
      word.char_id[count] = static_cast<uint32_t>(id);
      ++count;
    }
    word.chars = count;
  }

  // Heap bytes held now.
  size_t memory_bytes() const {
    const auto bytes = [](const auto& v) { return vector_heap_bytes(v); };
    return sizeof(Scratch) + segmenter.memory_bytes() + bytes(normalized) + bytes(cps) + bytes(entries) +
           bytes(slots) + word_cache.bytes() + unlisted_cache.bytes() + by_alphabet_id.bytes() + map_heap_bytes(outside_alphabet);
  }
  void reset() {
    entries.clear();
    address_end = 0;
    if (++text_serial == 0) {
      // Wrapped: no slot may claim the new text.
      for (CharSlot& slot : by_alphabet_id) slot.mark.text = 0;
      for (auto& item : outside_alphabet) item.second.mark.text = 0;
      for (WordSlot& slot : word_cache) slot.mark.text = 0;
      for (UnlistedSlot& slot : unlisted_cache) slot.word.mark.text = 0;
      text_serial = 1;
    }
    table_count = 0;
    if (text_serial == 1 || slots.size() > 65536) slots.assign(64, 0);  // after a wrap; or a huge text's table
  }

  void grow() {
    slots.assign(slots.size() * 2, 0);
    const size_t mask = slots.size() - 1;
    const uint64_t stamp = static_cast<uint64_t>(text_serial) << 32;
    for (size_t i = 0; i < entries.size(); ++i) {
      if (entries[i].kind != kFeatureWord) continue;
      size_t at = static_cast<size_t>(entries[i].hash.lo) & mask;
      while ((slots[at] >> 32) == text_serial) at = (at + 1) & mask;
      slots[at] = stamp | i;
    }
  }

  // Counts one more occurrence of the feature `mark` holds, if it holds one of this text.
  bool count_again(const TextMark& mark) {
    if (mark.text != text_serial) return false;
    ++entries[mark.at].count;
    return true;
  }

  // Counts one occurrence of a character feature.
  void add_char(CharSlot& slot, int64_t unit, size_t first, size_t length) {
    if (count_again(slot.mark)) return;
    slot.mark = TextMark{text_serial, static_cast<uint32_t>(entries.size())};
    entries.push_back(Entry{slot.hash, 1, unit, kFeatureChar, static_cast<uint32_t>(first), static_cast<uint32_t>(length)});
  }

  // Whether the word [start, end) of the normalized text begins a URL or an e-mail address
  // (url.h); if so, counts it as one word feature, weighted as a word without an entry, and
  // notes its end. Kept out of line: rare, and the per-word visitor runs faster without it.
  template <class UnitWeight>
  [[gnu::noinline]] bool take_address(size_t start, size_t end, UnitWeight& unit_weight) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(normalized.data());
    const size_t after = address_end_after(bytes, normalized.size(), start, end);
    if (after == 0) return false;
    // Its bytes are its code points: hashed as a word of that text.
    FeatureHasher hasher;
    for (size_t i = start; i < after; ++i) hasher.add(bytes[i]);
    add_word_hash(hasher.finish(), unit_weight(-1, after - start), start, after - start);
    address_end = after;
    return true;
  }

  // Counts one occurrence of a word feature.
  void add_word(WordSlot& word, size_t first, size_t length) {
    if (count_again(word.mark)) return;
    word.mark = TextMark{text_serial, add_word_hash(word.hash, word.unit, first, length)};
  }

  // Counts one occurrence of a word feature by its hash; returns its index in `entries`.
  uint32_t add_word_hash(Fingerprint hash, int64_t unit, size_t first, size_t length) {
    if ((table_count + 1) * 2 > slots.size()) grow();
    const size_t mask = slots.size() - 1;
    size_t at = static_cast<size_t>(hash.lo) & mask;
    for (;;) {
      const uint64_t slot = slots[at];
      if ((slot >> 32) != text_serial) break;
      Entry& entry = entries[static_cast<uint32_t>(slot)];
      if (entry.hash.lo == hash.lo && entry.hash.hi == hash.hi) {
        ++entry.count;
        return static_cast<uint32_t>(slot);
      }
      at = (at + 1) & mask;
    }
    slots[at] = static_cast<uint64_t>(text_serial) << 32 | entries.size();
    ++table_count;
    entries.push_back(Entry{hash, 1, unit, kFeatureWord, static_cast<uint32_t>(first), static_cast<uint32_t>(length)});
    return static_cast<uint32_t>(entries.size() - 1);
  }
};

DefaultPipeline::DefaultPipeline(std::shared_ptr<const Dictionary> dictionary, PipelineOptions options)
    : dictionary_(std::move(dictionary)), options_(std::move(options)), prototype_(dictionary_) {
  median_idf_ = dictionary_->idf_median() >> kIdfShift;
  for (const auto& [word, freq] : options_.user_words) prototype_.add_word(word, freq);
  if (options_.custom_stop_words) prototype_.set_stop_words(options_.stop_words);
  release(acquire());  // the first scratch is ready before the first text
}

DefaultPipeline::~DefaultPipeline() = default;

std::unique_ptr<DefaultPipeline::Scratch> DefaultPipeline::acquire() const {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!pool_.empty()) {
      const std::thread::id self = std::this_thread::get_id();
      size_t at = pool_.size() - 1;
      for (size_t k = 0; k < pool_.size(); ++k) {
        if (pool_[k]->last_thread == self) at = k;
      }
      auto scratch = std::move(pool_[at]);
      pool_[at] = std::move(pool_.back());
      pool_.pop_back();
      return scratch;
    }
  }
  return std::make_unique<Scratch>(prototype_);
}

void DefaultPipeline::release(std::unique_ptr<Scratch> scratch) const {
  scratch->last_thread = std::this_thread::get_id();
  std::lock_guard<std::mutex> lock(mutex_);
  pool_.push_back(std::move(scratch));
}

size_t DefaultPipeline::memory_bytes() const {
  // The pooled scratch: one in use by another thread is counted once it is back.
  std::lock_guard<std::mutex> lock(mutex_);
  size_t total = sizeof(*this) + prototype_.memory_bytes();
  for (const auto& scratch : pool_) total += scratch->memory_bytes();
  return total;
}

void DefaultPipeline::collect(std::string_view utf8, Scratch& s) const {
  normalize(utf8, options_.normalize, s.normalized);
  s.reset();
  const auto* bytes = reinterpret_cast<const unsigned char*>(s.normalized.data());
  const bool want_words = options_.features != FeatureSet::kChars;
  const bool want_chars = options_.features != FeatureSet::kWords;
  auto unit_weight = [&](int32_t entry, size_t byte_length) -> int64_t {
    switch (options_.weighting) {
      case Weighting::kTfIdf: {
        // The segmenter's facts table: the line its route just read holds the IDF too.
        const int32_t idf = s.segmenter.entry_idf(entry);
        return idf >= 0 ? (idf >> kIdfShift) : median_idf_;
      }
      case Weighting::kTf:
        return 64;
      case Weighting::kLength:
        return static_cast<int64_t>(byte_length) * 8;
      case Weighting::kUniform:
        return 64;
    }
    return 64;
  };
  // Each word is counted as the segmenter reports it: the facts its route just read are
  // still in cache (counting after the whole text was segmented missed them).
  const char* const chars = s.normalized.data();
  const bool whole_urls = want_words && options_.whole_urls && may_hold_address(s.normalized);
  // The values the loop reads are captured by value: the segmenter copies this (trivially
  // copyable, const) visitor into a local for each batch, where they stay in registers.
  s.segmenter.for_each_word(s.normalized, options_.hmm, [this, &s, &unit_weight, bytes, chars, want_words, want_chars, whole_urls](size_t start, size_t end, int32_t entry) {
    // Only in a text that may hold a URL or an e-mail address. Both and their pieces are ASCII,
    // and their first word is followed by ':', '.', '@' or a local-part character (the
    // normalized string's terminator reads as none of them).
    if (whole_urls && bytes[start] < 0x80) {
      if (start < s.address_end) return;  // a piece of the address counted whole
      if (may_follow_address_start(bytes[end]) && s.take_address(start, end, unit_weight)) return;
    }
    const std::string_view text(chars + start, end - start);
    // What the word contributes is fixed by its entry: a dictionary word seen before skips
    // the decoding, stop test, weighting and hashing; so does a short word without an entry
    // (its facts follow from its bytes).
    bool cached;
    Scratch::WordSlot* word;
    if (entry >= 0) {
      word = &s.word_slot(entry);
      cached = Scratch::caches(*word, entry);
    } else {
      word = &s.unlisted_slot(text, cached);
    }
    if (!cached) {
      // A long word (a run of ASCII can be the whole text) is hashed as it is decoded: gathered,
      // its code points would take four bytes per byte.
      const bool gather = end - start <= kGatherBytes;
      // Decodes the word, handing each code point to `take`; whether any is a word character.
      auto decode_word = [bytes, start, end](auto&& take) {
        bool any = false;
        for (size_t i = start; i < end;) {
          const uint32_t cp = decode_valid_utf8(bytes, i);
          take(cp);
          any = any || is_word_code_point(cp);
        }
        return any;
      };
      bool has_word_char;
      Fingerprint long_hash;
      if (gather) {
        s.cps.clear();
        has_word_char = decode_word([&](uint32_t cp) { s.cps.push_back(cp); });
      } else {
        FeatureHasher hasher;
        has_word_char = decode_word([&](uint32_t cp) { hasher.add(cp); });
        long_hash = hasher.finish();
      }
      word->tag = static_cast<uint32_t>(entry) + 1;
      word->mark = Scratch::TextMark{};
      word->skip = !has_word_char || (options_.drop_numbers && is_number(text)) ||
                   (options_.use_stop_words && s.segmenter.is_stop(text, entry));
      word->unit = unit_weight(entry, text.size());
      if (want_words && !word->skip) word->hash = gather ? feature_hash(s.cps.data(), s.cps.size()) : long_hash;
      word->chars = Scratch::kNoPlan;
      if (want_chars && !word->skip && word != &s.unlisted) {
        s.plan_chars(*word, s.normalized, start, end, options_.use_stop_words, unit_weight);
      }
    }
    if (word->skip) return;
    const bool one_char = valid_utf8_length(bytes[start]) == end - start;
    // With character features, a one-character word is its character feature alone: both
    // would be the same text counted twice, and a typo that splits a word into single
    // characters would change twice as many features.
    if (want_words && !(want_chars && one_char)) s.add_word(*word, start, text.size());
    if (!want_chars) return;
    if (word->chars != Scratch::kNoPlan) {
      // A one-character word counts its character at the word's weight (it passed the stop test).
      for (int k = 0; k < word->chars; ++k) {
        Scratch::CharSlot& slot = s.alphabet_slot(word->char_id[k]);
        s.add_char(slot, one_char ? word->unit : slot.unit, start + word->char_at[k], word->char_len[k]);
      }
      return;
    }
    for (size_t offset = start, next; offset < end; offset = next) {
      next = offset;
      const uint32_t cp = decode_valid_utf8(bytes, next);
      if (!is_word_code_point(cp)) continue;
      const std::string_view ch(chars + offset, next - offset);
      Scratch::CharSlot& slot = s.char_slot(cp, ch, options_.use_stop_words, unit_weight);
      if (one_char) {
        // A one-character word: it passed the stop-word check, and its weight is the word's.
        s.add_char(slot, word->unit, offset, ch.size());
      } else if (!slot.stop) {
        s.add_char(slot, slot.unit, offset, ch.size());
      }
    }
  });
}

Fingerprint DefaultPipeline::fingerprint(std::string_view utf8) const {
  auto scratch = acquire();
  const Fingerprint result = fingerprint_with(utf8, *scratch);
  release(std::move(scratch));
  return result;
}

void DefaultPipeline::fingerprint_batch(size_t count, TextAt text_at, void* context, Fingerprint* out) const {
  auto scratch = acquire();
  for (size_t i = 0; i < count; ++i) out[i] = fingerprint_with(text_at(context, i), *scratch);
  release(std::move(scratch));
}

Fingerprint DefaultPipeline::fingerprint_with(std::string_view utf8, Scratch& s) const {
  collect(utf8, s);
  return options_.sketch == Sketch::kMinHash ? minhash_of(s) : simhash_of(s);
}

Fingerprint DefaultPipeline::minhash_of(Scratch& s) const {
  MinHashSketch& sketch = s.sketch;
  sketch.reset(options_.bits);
  const Entry* entries = s.entries.data();
  const auto hash_of = [entries](uint32_t index) -> const Fingerprint& { return entries[index].hash; };
  // With a few hundred features per bin count most offers lose: let a branch skip them.
  const bool most_lose = s.entries.size() > static_cast<size_t>(4 * options_.bits);
  for (uint32_t i = 0; i < s.entries.size(); ++i) {
    const int64_t weight = feature_weight(entries[i], options_);
    if (weight <= 0) continue;
    if (most_lose) {
      sketch.add<true>(i, static_cast<uint64_t>(weight), hash_of);
    } else {
      sketch.add<false>(i, static_cast<uint64_t>(weight), hash_of);
    }
  }
  return sketch.finish(hash_of);
}

Fingerprint DefaultPipeline::simhash_of(const Scratch& s) const {
  // sum_i = sum over features of (bit ? w : -w) = 2 * set_sum_i - total. set_sum comes from a
  // histogram of each 4-bit nibble's value: 16 additions per 64-bit feature instead of one per
  // set bit. Exact in int64 (weights <= 2^26, fewer than 2^27 features); lib/js/pipeline.ts
  // computes the same integers.
  int64_t histogram[32][16];
  const int bits = options_.bits;
  const int nibbles = bits / 4;
  std::fill(&histogram[0][0], &histogram[0][0] + nibbles * 16, int64_t{0});
  int64_t total = 0;
  for (const Entry& entry : s.entries) {
    const int64_t weight = feature_weight(entry, options_);
    total += weight;
    add_nibbles(histogram, entry.hash.lo, weight);
    if (bits == 128) add_nibbles(histogram + 16, entry.hash.hi, weight);
  }
  int64_t set_sums[128];
  for (int q = 0; q < nibbles; ++q) {
    const int64_t* h = histogram[q];
    set_sums[q * 4] = h[1] + h[3] + h[5] + h[7] + h[9] + h[11] + h[13] + h[15];
    set_sums[q * 4 + 1] = h[2] + h[3] + h[6] + h[7] + h[10] + h[11] + h[14] + h[15];
    set_sums[q * 4 + 2] = h[4] + h[5] + h[6] + h[7] + h[12] + h[13] + h[14] + h[15];
    set_sums[q * 4 + 3] = h[8] + h[9] + h[10] + h[11] + h[12] + h[13] + h[14] + h[15];
  }
  Fingerprint result;
  for (int i = 0; i < bits; ++i) {
    if (2 * set_sums[i] > total) {
      if (i < 64) {
        result.lo |= 1ULL << i;
      } else {
        result.hi |= 1ULL << (i - 64);
      }
    }
  }
  return result;
}

FeatureList DefaultPipeline::features(std::string_view utf8) const {
  auto scratch = acquire();
  collect(utf8, *scratch);
  FeatureList list;
  for (const Entry& entry : scratch->entries) {
    const int64_t weight = feature_weight(entry, options_);
    Fingerprint hash = entry.hash;
    if (options_.bits == 64) hash.hi = 0;
    list.add(std::string_view(scratch->normalized.data() + entry.first, entry.length),
             static_cast<double>(weight), hash, entry.kind);
  }
  release(std::move(scratch));
  return list;
}

}  // namespace simhash_zh

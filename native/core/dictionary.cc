#include "dictionary.h"

#include "trie_view.h"

#include "zeroed_memory.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <tuple>

#if !defined(_WIN32)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace simhash_zh {

const char* dict_error_code(DictError code) {
  switch (code) {
    case DictError::kOk:
      return "";
    case DictError::kIo:
      return "SIMHASH_ZH_DICT_IO";
    case DictError::kVersion:
      return "SIMHASH_ZH_DICT_VERSION";
    case DictError::kCorrupt:
      break;
  }
  return "SIMHASH_ZH_DICT_CORRUPT";
}

// ---------------------------------------------------------------------------
// Deterministic arithmetic (mirrors lib/dictionary.ts line by line).

double det_ln(double x) {
  const double kLn2 = 0.6931471805599453;
  const double kSqrt2 = 1.4142135623730951;
  int k = 0;
  while (x >= 2) {
    x = x * 0.5;
    k++;
  }
  if (x > kSqrt2) {
    x = x * 0.5;
    k++;
  }
  const double s = (x - 1) / (x + 1);
  const double s2 = s * s;
  double p = 1.0 / 29;
  for (int i = 13; i >= 0; i--) {
    const double term = 1.0 / (2 * i + 1);
    p = p * s2;
    p = p + term;
  }
  const double a = k * kLn2;
  const double b = 2 * s;
  const double c = b * p;
  return a + c;
}

int32_t det_log_scaled(double x) {
  if (!(x >= 1)) return 0;
  const double scaled = det_ln(x) * kLogScale;
  return static_cast<int32_t>(std::floor(scaled + 0.5));
}

double det_exp_floor(double target) {
  if (target < 0) return 0;
  double lo = 1;
  double hi = 9007199254740992.0;  // 2^53
  while (lo < hi) {
    const double mid = lo + std::floor((hi - lo + 1) / 2);
    if (det_log_scaled(mid) <= target) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

namespace {

inline uint32_t read_u32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

inline int32_t read_i32(const uint8_t* p) { return static_cast<int32_t>(read_u32(p)); }

// Slicing-by-16 tables for CRC-32, built at compile time.
struct CrcTables {
  uint32_t t[16][256];
  constexpr CrcTables() : t() {
    for (uint32_t i = 0; i < 256; i++) {
      uint32_t c = i;
      for (int k = 0; k < 8; k++) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
      t[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++) {
      for (int k = 1; k < 16; k++) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xff];
    }
  }
};
constexpr CrcTables kCrc;

}  // namespace

namespace {

uint32_t crc32_tables(uint32_t c, const uint8_t* p, size_t length) {
  const auto& t = kCrc.t;
  while (length >= 16) {
    const uint32_t a = read_u32(p) ^ c;
    const uint32_t b = read_u32(p + 4);
    const uint32_t d = read_u32(p + 8);
    const uint32_t e = read_u32(p + 12);
    c = t[15][a & 0xff] ^ t[14][(a >> 8) & 0xff] ^ t[13][(a >> 16) & 0xff] ^ t[12][a >> 24] ^
        t[11][b & 0xff] ^ t[10][(b >> 8) & 0xff] ^ t[9][(b >> 16) & 0xff] ^ t[8][b >> 24] ^
        t[7][d & 0xff] ^ t[6][(d >> 8) & 0xff] ^ t[5][(d >> 16) & 0xff] ^ t[4][d >> 24] ^
        t[3][e & 0xff] ^ t[2][(e >> 8) & 0xff] ^ t[1][(e >> 16) & 0xff] ^ t[0][e >> 24];
    p += 16;
    length -= 16;
  }
  while (length-- > 0) c = t[0][(c ^ *p++) & 0xff] ^ (c >> 8);
  return c;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SIMHASH_ZH_CRC_CLMUL 1
// CRC-32 by carry-less multiplication (folding 4 x 128 bits, then Barrett
// reduction), as in Intel's "Fast CRC Computation Using PCLMULQDQ" and Linux's
// crc32-pclmul. `length` >= 64 and a multiple of 16; returns the raw state.
__attribute__((target("pclmul,sse2"))) inline __m128i clmul_fold(__m128i x, __m128i k, __m128i next) {
  const __m128i lo = _mm_clmulepi64_si128(x, k, 0x00);
  const __m128i hi = _mm_clmulepi64_si128(x, k, 0x11);
  return _mm_xor_si128(_mm_xor_si128(lo, hi), next);
}

inline __m128i load128(const uint8_t* q) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(q)); }

__attribute__((target("pclmul,sse2"))) uint32_t crc32_clmul(uint32_t crc, const uint8_t* p, size_t length) {
  const __m128i k1k2 = _mm_set_epi64x(0x1c6e41596LL, 0x154442bd4LL);
  const __m128i k3k4 = _mm_set_epi64x(0x0ccaa009eLL, 0x1751997d0LL);
  const __m128i k5 = _mm_set_epi64x(0, 0x163cd6124LL);
  const __m128i poly = _mm_set_epi64x(0x1f7011641LL, 0x1db710641LL);
  const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
  __m128i x1 = _mm_xor_si128(load128(p), _mm_cvtsi32_si128(static_cast<int>(crc)));
  __m128i x2 = load128(p + 16);
  __m128i x3 = load128(p + 32);
  __m128i x4 = load128(p + 48);
  p += 64;
  length -= 64;
  while (length >= 64) {
    x1 = clmul_fold(x1, k1k2, load128(p));
    x2 = clmul_fold(x2, k1k2, load128(p + 16));
    x3 = clmul_fold(x3, k1k2, load128(p + 32));
    x4 = clmul_fold(x4, k1k2, load128(p + 48));
    p += 64;
    length -= 64;
  }
  x1 = clmul_fold(x1, k3k4, x2);
  x1 = clmul_fold(x1, k3k4, x3);
  x1 = clmul_fold(x1, k3k4, x4);
  while (length >= 16) {
    x1 = clmul_fold(x1, k3k4, load128(p));
    p += 16;
    length -= 16;
  }
  // 128 -> 64 bits, then 64 -> 32.
  x1 = _mm_xor_si128(_mm_clmulepi64_si128(k3k4, x1, 0x01), _mm_srli_si128(x1, 8));
  const __m128i x2b = _mm_srli_si128(x1, 4);
  x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, mask32), k5, 0x00), x2b);
  // Barrett reduction.
  const __m128i t = x1;
  x1 = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, mask32), poly, 0x10), mask32);
  x1 = _mm_xor_si128(_mm_clmulepi64_si128(x1, poly, 0x00), t);
  return static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_srli_si128(x1, 4)));
}

bool has_clmul() {
  static const bool yes = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse2");
  return yes;
}
#endif

}  // namespace

uint32_t crc32(const uint8_t* p, size_t length) {
  uint32_t c = 0xffffffffu;
#if defined(SIMHASH_ZH_CRC_CLMUL)
  if (length >= 64 && has_clmul()) {
    const size_t body = length & ~size_t{15};
    c = crc32_clmul(c, p, body);
    p += body;
    length -= body;
  }
#endif
  return crc32_tables(c, p, length) ^ 0xffffffffu;
}

// ---------------------------------------------------------------------------
// Loading.

namespace {

enum Section : uint32_t {
  kCharmapBmp = 1,
  kCharmapSupp = 2,
  kTrie = 3,
  kEntryLogFreq = 4,
  kEntryFreq = 5,
  kEntryIdf = 6,
  kEntryFlags = 7,
  kHmm = 8,
  kStopWords = 9,
};

bool fail(DictStatus* status, DictError code, std::string message) {
  if (status) {
    status->code = code;
    status->message = std::move(message);
  }
  return false;
}

bool corrupt(DictStatus* status, const std::string& message) {
  return fail(status, DictError::kCorrupt, "corrupt dictionary: " + message);
}

bool host_is_little_endian() {
  const uint32_t one = 1;
  uint8_t first;
  std::memcpy(&first, &one, 1);
  return first == 1;
}

}  // namespace

void EntryFactsRelease::operator()(EntryFacts* facts) const { unmap_zeroed(facts, bytes); }

Dictionary::~Dictionary() {
#if !defined(_WIN32)
  if (mapping_ != nullptr) munmap(mapping_, size_);
#endif
}

int32_t Dictionary::char_id_supp(uint32_t cp) const {
  uint32_t lo = 0;
  uint32_t hi = supp_count_;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    const uint32_t at = supp_[mid * 2];
    if (at == cp) return static_cast<int32_t>(supp_[mid * 2 + 1]);
    if (at < cp) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return 0;
}

// Finds the ASCII characters that start a segmentation word of two or more characters: the
// segmenter takes the others in a block as words of their own without walking the trie (in
// lowercased text nearly all: jieba's words of ASCII letters are capitalized, and the English
// stop words below them are not segmentation words). Each such word's first character is found
// by climbing from its slot to the root's child, a few milliseconds for jieba's dictionary: done
// once, when a segmenter first meets an ASCII character. The climb is bounded (a file's parent
// links are checked to be in range, not to be acyclic); a climb that hits the bound marks every
// character, which only turns the shortcut off.
void Dictionary::find_ascii_word_starts() const {
  const TrieNode* trie = trie_;
  const int64_t base0 = trie[0].base;
  // The root's children by ASCII ids (at most 128 slots), hashed: slot -> its characters' bits.
  constexpr uint32_t kTable = 256;
  int32_t table_slot[kTable];
  uint32_t table_chars[kTable][4] = {};
  std::fill(std::begin(table_slot), std::end(table_slot), -1);
  const auto home = [](int32_t slot) { return (static_cast<uint32_t>(slot) * 2654435761u) >> 24; };
  for (uint32_t c = 0; c < 128; c++) {
    const int32_t id = bmp_[c];
    const int64_t slot = base0 + id;
    if (id <= 0 || slot <= 0 || slot >= static_cast<int64_t>(trie_slots_) || trie[slot].check != 0) continue;
    uint32_t at = home(static_cast<int32_t>(slot));
    while (table_slot[at] != -1 && table_slot[at] != slot) at = (at + 1) & (kTable - 1);
    table_slot[at] = static_cast<int32_t>(slot);
    table_chars[at][c >> 5] |= 1u << (c & 31);
  }
  uint32_t mask[4] = {};
  const uint32_t max_climb = std::min<uint32_t>(max_word_chars_, 255) + 1;
  for (uint32_t t = 1; t < trie_slots_; t++) {
    const int32_t entry = trie[t].entry;
    int32_t s = trie[t].check;
    if (entry < 0 || s <= 0 || facts_[entry].log_freq < 0) continue;  // one character, or not a word
    for (uint32_t steps = 0; trie[s].check != 0; steps++) {
      s = trie[s].check;
      if (s <= 0 || steps >= max_climb) {
        std::fill(std::begin(ascii_starts_word_), std::end(ascii_starts_word_), ~0u);
        return;
      }
    }
    for (uint32_t at = home(s); table_slot[at] != -1; at = (at + 1) & (kTable - 1)) {
      if (table_slot[at] != s) continue;
      for (int k = 0; k < 4; k++) mask[k] |= table_chars[at][k];
      break;
    }
  }
  std::copy(std::begin(mask), std::end(mask), ascii_starts_word_);
}

const uint32_t* Dictionary::ascii_word_starts() const {
  std::call_once(ascii_once_, [this] { find_ascii_word_starts(); });
  return ascii_starts_word_;
}

bool Dictionary::validate(DictStatus* status, bool pack_trie) {
  const uint8_t* d = data_;
  const size_t n = size_;
  if (!host_is_little_endian()) {
    return fail(status, DictError::kVersion, "the dictionary format is little-endian; this host is big-endian");
  }
  if (n < kDictHeaderSize) {
    return corrupt(status, "file is truncated (" + std::to_string(n) + " bytes, header needs " +
                               std::to_string(kDictHeaderSize) + ")");
  }
  if (std::memcmp(d, "SHZHDICT", 8) != 0) return corrupt(status, "bad magic (not a simhash-zh dictionary)");
  const uint32_t version = read_u32(d + 8);
  if (version != kDictFormatVersion) {
    return fail(status, DictError::kVersion,
                "dictionary format version " + std::to_string(version) +
                    " is not supported (this build reads version " + std::to_string(kDictFormatVersion) +
                    "); rebuild it with `npm run build:dict`");
  }
  const uint32_t file_size = read_u32(d + 16);
  if (file_size != n) {
    return corrupt(status, file_size > n ? "file is truncated (" + std::to_string(n) + " of " +
                                               std::to_string(file_size) + " bytes)"
                                         : "file has " + std::to_string(n - file_size) + " trailing bytes");
  }
  if (crc32(d + 16, n - 16) != read_u32(d + 12)) return corrupt(status, "checksum mismatch");
  const uint32_t header_size = read_u32(d + 20);
  const uint32_t section_count = read_u32(d + 24);
  if (header_size != kDictHeaderSize || section_count > 64 ||
      kDictHeaderSize + static_cast<uint64_t>(section_count) * 16 > n) {
    return corrupt(status, "bad header");
  }
  if (read_i32(d + 32) != kLogScale || read_i32(d + 36) != kIdfScale || read_i32(d + 76) != kHmmScale) {
    return corrupt(status, "unsupported scales");
  }
  total_freq_ = static_cast<double>(read_u32(d + 40)) + static_cast<double>(read_u32(d + 44)) * 4294967296.0;
  log_total_ = read_i32(d + 48);
  max_word_chars_ = read_u32(d + 52);
  entry_count_ = read_u32(d + 56);
  alphabet_size_ = read_u32(d + 64);
  trie_slots_ = read_u32(d + 68);
  idf_median_ = read_i32(d + 72);
  if (total_freq_ > 9007199254740992.0 || log_total_ != det_log_scaled(total_freq_) ||
      entry_count_ > 0x7fffffffu || alphabet_size_ > 0x10ffffu) {
    return corrupt(status, "bad header values");
  }

  struct Found {
    bool present = false;
    uint32_t offset = 0, byte_length = 0, count = 0;
  };
  Found sections[10];
  const uint64_t table_end = kDictHeaderSize + static_cast<uint64_t>(section_count) * 16;
  for (uint32_t i = 0; i < section_count; i++) {
    const uint8_t* e = d + kDictHeaderSize + i * 16;
    const uint32_t id = read_u32(e);
    const uint32_t offset = read_u32(e + 4);
    const uint32_t byte_length = read_u32(e + 8);
    const uint32_t count = read_u32(e + 12);
    if (offset % 8 != 0 || offset < table_end || offset > n || byte_length > n - offset) {
      return corrupt(status, "section " + std::to_string(id) + " lies outside the file");
    }
    if (id >= 10) continue;  // unknown sections are ignored
    if (sections[id].present) return corrupt(status, "section " + std::to_string(id) + " appears twice");
    sections[id] = Found{true, offset, byte_length, count};
  }
  // Returns the section's start after checking its size; nullptr on failure.
  auto section = [&](uint32_t id, uint64_t item_bytes, int64_t expect_count) -> const uint8_t* {
    const Found& s = sections[id];
    if (!s.present) {
      corrupt(status, "section " + std::to_string(id) + " is missing");
      return nullptr;
    }
    if (s.byte_length < s.count * item_bytes || (expect_count >= 0 && s.count != expect_count)) {
      corrupt(status, "section " + std::to_string(id) + " has the wrong size");
      return nullptr;
    }
    return d + s.offset;
  };

  const uint8_t* p = section(kCharmapBmp, 4, 0x10000);
  if (!p) return false;
  bmp_ = reinterpret_cast<const int32_t*>(p);
  for (uint32_t i = 0; i < 0x10000; i++) {
    if (bmp_[i] < 0 || static_cast<uint32_t>(bmp_[i]) > alphabet_size_) {
      return corrupt(status, "character map holds an id out of range");
    }
  }
  p = section(kCharmapSupp, 8, -1);
  if (!p) return false;
  supp_ = reinterpret_cast<const uint32_t*>(p);
  supp_count_ = sections[kCharmapSupp].count;
  uint32_t last_cp = 0xffff;
  for (uint32_t i = 0; i < supp_count_; i++) {
    const uint32_t cp = supp_[2 * i];
    const uint32_t id = supp_[2 * i + 1];
    if (cp <= last_cp || cp > 0x10ffff || id < 1 || id > alphabet_size_) {
      return corrupt(status, "supplementary character map is invalid");
    }
    last_cp = cp;
  }

  p = section(kTrie, sizeof(TrieNode), trie_slots_);
  if (!p) return false;
  trie_ = reinterpret_cast<const TrieNode*>(p);
  if (trie_slots_ < 1 || trie_slots_ > 0x7fffffffu) return corrupt(status, "trie is empty");
  const int64_t base_limit = static_cast<int64_t>(trie_slots_) - alphabet_size_ - 1;
  for (uint32_t t = 0; t < trie_slots_; t++) {
    const TrieNode& node = trie_[t];
    // Every base + id stays inside the array: the hot loops do not bounds-check.
    if (node.base < 0 || node.base > base_limit || node.check < -1 || node.check >= static_cast<int64_t>(trie_slots_) ||
        node.entry < -1 || node.entry >= static_cast<int64_t>(entry_count_)) {
      return corrupt(status, "trie slot out of range");
    }
    // Every child has its bit in its parent's filter: the walks then find the same words as
    // without it. (A bit set for no child only costs a load.) The parent is a slot of the
    // array (checked just above); its base, if not yet checked, only enters the arithmetic,
    // done unsigned so that any value wraps instead of overflowing (only bits 0-4 count).
    const int32_t parent = node.check;
    if (t > 0 && parent >= 0 && !trie_[parent].may_have_child(static_cast<int32_t>(t - static_cast<uint32_t>(trie_[parent].base)))) {
      return corrupt(status, "trie slot " + std::to_string(t) + " is missing from its parent's child filter");
    }
  }
  // Every field is in range (checked just above).
  if (pack_trie && trie_slots_ <= PackedTrie::kMaxSlots && entry_count_ <= PackedTrie::kMaxEntries) {
    packed_ = ZeroedArray<uint64_t>(trie_slots_, true);  // written whole just below
    uint64_t* packed = packed_.begin();
    for (uint32_t t = 0; t < trie_slots_; t++) packed[t] = PackedTrie::pack(trie_[t]);
  }
  p = section(kEntryLogFreq, 4, entry_count_);
  if (!p) return false;
  const auto* log_freq = reinterpret_cast<const int32_t*>(p);
  p = section(kEntryFreq, 4, entry_count_);
  if (!p) return false;
  freq_ = reinterpret_cast<const uint32_t*>(p);
  p = section(kEntryIdf, 4, entry_count_);
  if (!p) return false;
  const auto* idf = reinterpret_cast<const int32_t*>(p);
  p = section(kEntryFlags, 1, entry_count_);
  if (!p) return false;
  const uint8_t* flags = p;
  // The table is written whole just below: its pages are mapped in one call.
  const size_t facts_bytes = (entry_count_ == 0 ? 1 : entry_count_) * sizeof(EntryFacts);
  auto* facts = static_cast<EntryFacts*>(map_zeroed(facts_bytes, true));
  facts_ = std::unique_ptr<EntryFacts[], EntryFactsRelease>(facts, EntryFactsRelease{facts_bytes});
  for (uint32_t e = 0; e < entry_count_; e++) {
    if (log_freq[e] < -1 || idf[e] < -1 || idf[e] > kMaxIdf) {
      return corrupt(status, "entry " + std::to_string(e) + " is invalid");
    }
    facts_[e] = EntryFacts{log_freq[e], idf[e] * 2 + ((flags[e] & kFlagStop) != 0 ? 1 : 0)};
  }

  p = section(kHmm, 4, -1);
  if (!p) return false;
  const uint32_t hmm_count = sections[kHmm].count;
  if (hmm_count < 22) return corrupt(status, "HMM section is truncated");
  hmm_ = reinterpret_cast<const int32_t*>(p);
  if (hmm_[20] != static_cast<int32_t>(kHmmFirstCp) || hmm_[21] != static_cast<int32_t>(kHmmLastCp - kHmmFirstCp + 1) ||
      hmm_count != 22 + static_cast<uint32_t>(hmm_[21]) * 4) {
    return corrupt(status, "HMM section has the wrong shape");
  }
  for (uint32_t i = 0; i < hmm_count; i++) {
    if (i != 20 && i != 21 && hmm_[i] < 0) return corrupt(status, "HMM cost out of range");
  }

  p = section(kStopWords, 1, -1);
  if (!p) return false;
  // The stop-word strings are only read by the TS side; check their offsets all the same.
  const Found& sw = sections[kStopWords];
  if (sw.byte_length < (static_cast<uint64_t>(sw.count) + 1) * 4) return corrupt(status, "string list is truncated");
  const uint64_t text_length = sw.byte_length - (static_cast<uint64_t>(sw.count) + 1) * 4;
  uint32_t prev = read_u32(p);
  if (prev != 0) return corrupt(status, "string list offsets are invalid");
  for (uint32_t i = 1; i <= sw.count; i++) {
    const uint32_t next = read_u32(p + i * 4);
    if (next < prev || next > text_length) return corrupt(status, "string list offsets are invalid");
    prev = next;
  }
  return true;
}

std::shared_ptr<const Dictionary> Dictionary::from_bytes(const void* data, size_t size, DictStatus* status,
                                                        bool pack_trie) {
  std::shared_ptr<Dictionary> dict(new Dictionary());
  dict->owned_.reset(new uint64_t[(size + 7) / 8 + 1]);
  if (size > 0) std::memcpy(dict->owned_.get(), data, size);  // data may be null when size is 0
  dict->data_ = reinterpret_cast<const uint8_t*>(dict->owned_.get());
  dict->size_ = size;
  if (!dict->validate(status, pack_trie)) return nullptr;
  return dict;
}

std::shared_ptr<const Dictionary> Dictionary::from_file(const std::string& path, DictStatus* status,
                                                       bool pack_trie) {
#if !defined(_WIN32)
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    fail(status, DictError::kIo, "cannot read dictionary " + path + ": " + std::strerror(errno));
    return nullptr;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    fail(status, DictError::kIo, "cannot read dictionary " + path + ": not a regular file");
    return nullptr;
  }
  const size_t size = static_cast<size_t>(st.st_size);
  if (size < kDictHeaderSize) {
    ::close(fd);
    corrupt(status, "file is truncated (" + std::to_string(size) + " bytes, header needs " +
                        std::to_string(kDictHeaderSize) + ")");
    return nullptr;
  }
  int flags = MAP_PRIVATE;
#if defined(MAP_POPULATE)
  flags |= MAP_POPULATE;  // every page is read by the checksum anyway: map them in one go
#endif
  void* mapping = ::mmap(nullptr, size, PROT_READ, flags, fd, 0);
  ::close(fd);
  if (mapping == MAP_FAILED) {
    fail(status, DictError::kIo, "cannot map dictionary " + path + ": " + std::strerror(errno));
    return nullptr;
  }
  std::shared_ptr<Dictionary> dict(new Dictionary());
  dict->mapping_ = mapping;
  dict->data_ = static_cast<const uint8_t*>(mapping);
  dict->size_ = size;
  if (!dict->validate(status, pack_trie)) return nullptr;
  return dict;
#else
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) {
    fail(status, DictError::kIo, "cannot read dictionary " + path);
    return nullptr;
  }
  const std::streamsize size = in.tellg();
  in.seekg(0);
  std::shared_ptr<Dictionary> dict(new Dictionary());
  dict->owned_.reset(new uint64_t[static_cast<size_t>(size) / 8 + 1]);
  if (!in.read(reinterpret_cast<char*>(dict->owned_.get()), size)) {
    fail(status, DictError::kIo, "cannot read dictionary " + path);
    return nullptr;
  }
  dict->data_ = reinterpret_cast<const uint8_t*>(dict->owned_.get());
  dict->size_ = static_cast<size_t>(size);
  if (!dict->validate(status, pack_trie)) return nullptr;
  return dict;
#endif
}

std::shared_ptr<const Dictionary> Dictionary::shared(const std::string& path, DictStatus* status) {
  using Key = std::tuple<std::string, int64_t, int64_t, int64_t>;
  Key key{path, 0, 0, 0};
#if !defined(_WIN32)
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    key = Key{path, static_cast<int64_t>(st.st_size), static_cast<int64_t>(st.st_mtime),
              static_cast<int64_t>(st.st_ino)};
  }
#endif
  static std::mutex mutex;
  static std::map<Key, std::weak_ptr<const Dictionary>>* cache = new std::map<Key, std::weak_ptr<const Dictionary>>();
  std::lock_guard<std::mutex> lock(mutex);
  auto found = cache->find(key);
  if (found != cache->end()) {
    if (auto dict = found->second.lock()) return dict;
  }
  for (auto it = cache->begin(); it != cache->end();) {
    it = it->second.expired() ? cache->erase(it) : std::next(it);
  }
  auto dict = from_file(path, status);
  if (dict) (*cache)[key] = dict;
  return dict;
}

}  // namespace simhash_zh

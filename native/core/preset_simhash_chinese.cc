#include "preset_simhash_chinese.h"

#include <string>

namespace simhash_zh {
namespace {

// std::isspace || std::ispunct in the "C" locale. Bytes >= 0x80 reach glibc
// as negative chars, which its tables classify as neither: they are kept.
bool is_dropped_byte(unsigned char c) {
  if (c == ' ' || (c >= '\t' && c <= '\r')) return true;
  return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) ||
         (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

// The seed's 18 stop words; only the one-character ones (3 UTF-8 bytes) can
// ever match, because its segmenter only produces 3-byte groups.
bool is_stop_word(const unsigned char* p) {
  static const unsigned char kStopWords[][3] = {
      {0xe7, 0x9a, 0x84}, {0xe4, 0xba, 0x86}, {0xe6, 0x98, 0xaf}, {0xe6, 0x88, 0x91},
      {0xe4, 0xbd, 0xa0}, {0xe4, 0xbb, 0x96}, {0xe5, 0xae, 0x83}, {0xe5, 0x92, 0x8c},
      {0xe4, 0xb8, 0x8e}, {0xe5, 0x8f, 0x8a}, {0xe5, 0xb0, 0xb1}, {0xe9, 0x83, 0xbd},
      {0xe8, 0x80, 0x8c}, {0xe4, 0xb8, 0x94}};
  for (const auto& word : kStopWords) {
    if (p[0] == word[0] && p[1] == word[1] && p[2] == word[2]) return true;
  }
  return false;
}

std::string clean(std::string_view text) {
  std::string cleaned;
  cleaned.reserve(text.size());
  for (char c : text) {
    if (!is_dropped_byte(static_cast<unsigned char>(c))) cleaned.push_back(c);
  }
  return cleaned;
}

// Calls emit(pointer, length) for each word of the seed's segmenter: a byte
// > 0x80 with two more bytes after it starts a 3-byte group (stop words
// skipped); every other byte is a word of its own.
template <typename Emit>
void segment(const std::string& text, Emit emit) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const size_t length = text.size();
  size_t index = 0;
  while (index < length) {
    if (bytes[index] > 0x80 && index + 2 < length) {
      if (!is_stop_word(bytes + index)) emit(bytes + index, 3);
      index += 3;
      continue;
    }
    emit(bytes + index, 1);
    ++index;
  }
}

}  // namespace

uint64_t SimHashChinesePreset::word_hash(const unsigned char* bytes, size_t length) {
  uint64_t hash = 14695981039346656037ULL;
  for (size_t i = 0; i < length; ++i) {
    hash ^= static_cast<uint64_t>(static_cast<int64_t>(static_cast<signed char>(bytes[i])));
    hash *= 1099511628211ULL;
  }
  return hash;
}

Fingerprint SimHashChinesePreset::fingerprint(std::string_view utf8) const {
  WrappingAccumulator sums(64);
  segment(clean(utf8), [&](const unsigned char* word, size_t length) {
    sums.add(Fingerprint{word_hash(word, length), 0}, static_cast<uint32_t>(length * 8));
  });
  Fingerprint result;
  for (int i = 0; i < 64; ++i) {
    if (sums.sum(i) > 0) result.lo |= 1ULL << i;
  }
  return result;
}

FeatureList SimHashChinesePreset::features(std::string_view utf8) const {
  FeatureList list;
  segment(clean(utf8), [&](const unsigned char* word, size_t length) {
    list.add(std::string_view(reinterpret_cast<const char*>(word), length),
             static_cast<double>(length * 8), Fingerprint{word_hash(word, length), 0});
  });
  return list;
}

}  // namespace simhash_zh

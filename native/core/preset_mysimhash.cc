#include "preset_mysimhash.h"

#include <string>

#include "utf16.h"

namespace simhash_zh {
namespace {

// The seed's separator regex as its ordered alternatives. Java tries them in
// this order at each position, so e.g. "/" always wins over "/html" and "<"
// over "<script": the later ones never match, exactly as in the seed.
const char16_t* const kSeparators[] = {
    u"=", u".", u"。", u"，", u"\"", u"'", u"[", u"]", u"！", u"!", u"?", u"/", u"\n", u"\r",
    u" ", u"<html", u"/html", u"<h1", u"</h1>", u"<h2", u"/h2", u"<h3", u"/h3", u"<ul",
    u"/ul", u"<br", u"/br", u"<head", u"/head", u"<li", u"/li", u"<div", u"/div", u"<a",
    u"/a", u"<p", u"/p", u"<body", u"/body", u"-_-", u")", u"(", u",", u"{", u"}", u";",
    u":", u"--", u"<", u">", u"<script", u"/scirpt", u"<title", u"/title", u"<pre",
    u"</pre>", u"<meta", u"</meta>", u"<header", u"</header>", u"<span", u"/span", u"_",
    u"#", u"&", u"%", u"-"};

bool may_start_separator(char16_t c) {
  switch (c) {
    case u'=': case u'.': case u'。': case u'，': case u'"': case u'\'': case u'[':
    case u']': case u'！': case u'!': case u'?': case u'/': case u'\n': case u'\r':
    case u' ': case u'<': case u'-': case u')': case u'(': case u',': case u'{':
    case u'}': case u';': case u':': case u'>': case u'_': case u'#': case u'&':
    case u'%':
      return true;
    default:
      return false;
  }
}

// Length of the separator matching at text[at], or 0.
size_t separator_at(const std::u16string& text, size_t at) {
  if (!may_start_separator(text[at])) return 0;
  for (const char16_t* separator : kSeparators) {
    size_t k = 0;
    while (separator[k] != 0 && at + k < text.size() && text[at + k] == separator[k]) ++k;
    if (separator[k] == 0) return k;
  }
  return 0;
}

bool is_chinese_unit(char16_t c) {
  return (c >= 0x4e00 && c <= 0x9fa5) || (c >= 0xff00 && c <= 0xffef) ||
         (c >= 0x2e80 && c <= 0x2eff) || (c >= 0x3000 && c <= 0x303f) ||
         (c >= 0x31c0 && c <= 0x31ef);
}

// Calls emit(units, length) for every word the seed counts: the pieces
// between separators, where a piece containing any "Chinese" unit is split
// into its single UTF-16 units.
template <typename Emit>
void for_each_word(const std::u16string& text, Emit emit) {
  auto emit_piece = [&](size_t begin, size_t end) {
    if (begin == end) return;
    bool chinese = false;
    for (size_t i = begin; i < end && !chinese; ++i) chinese = is_chinese_unit(text[i]);
    if (!chinese) {
      emit(text.data() + begin, end - begin);
      return;
    }
    for (size_t i = begin; i < end; ++i) emit(text.data() + i, 1);
  };
  size_t piece_begin = 0;
  size_t at = 0;
  while (at < text.size()) {
    const size_t separator = separator_at(text, at);
    if (separator == 0) {
      ++at;
      continue;
    }
    emit_piece(piece_begin, at);
    at += separator;
    piece_begin = at;
  }
  emit_piece(piece_begin, text.size());
}

}  // namespace

Fingerprint MySimHashPreset::word_hash(const char16_t* units, size_t length, int bits) {
  if (length == 0) return Fingerprint{};
  if (bits == 64) {
    uint64_t x = static_cast<uint64_t>(units[0]) << 7;
    for (size_t i = 0; i < length; ++i) x = (x * 1000003ULL) ^ units[i];
    return Fingerprint{x ^ static_cast<uint64_t>(length), 0};
  }
  // 128 bits as four 32-bit limbs, least significant first.
  uint32_t limb[4] = {static_cast<uint32_t>(units[0]) << 7, 0, 0, 0};
  for (size_t i = 0; i < length; ++i) {
    uint64_t carry = 0;
    for (auto& part : limb) {
      const uint64_t product = static_cast<uint64_t>(part) * 1000003ULL + carry;
      part = static_cast<uint32_t>(product);
      carry = product >> 32;
    }
    limb[0] ^= units[i];
  }
  const uint64_t len = static_cast<uint64_t>(length);
  limb[0] ^= static_cast<uint32_t>(len);
  limb[1] ^= static_cast<uint32_t>(len >> 32);
  return Fingerprint{(static_cast<uint64_t>(limb[1]) << 32) | limb[0],
                     (static_cast<uint64_t>(limb[3]) << 32) | limb[2]};
}

Fingerprint MySimHashPreset::fingerprint(std::string_view utf8) const {
  std::u16string text;
  utf8_to_utf16(utf8, text);
  // Summing the term frequency per distinct word equals adding 1 per
  // occurrence, so no frequency map is needed.
  WrappingAccumulator sums(bits_);
  for_each_word(text, [&](const char16_t* word, size_t length) {
    sums.add(word_hash(word, length, bits_), 1);
  });
  Fingerprint result;
  for (int i = 0; i < bits_; ++i) {
    if (sums.sum(i) >= 0) {
      if (i < 64) {
        result.lo |= 1ULL << i;
      } else {
        result.hi |= 1ULL << (i - 64);
      }
    }
  }
  return result;
}

FeatureList MySimHashPreset::features(std::string_view utf8) const {
  std::u16string text;
  utf8_to_utf16(utf8, text);
  FeatureList list(/*utf16=*/true);
  for_each_word(text, [&](const char16_t* word, size_t length) {
    list.add(utf16le_bytes(word, length), 1, word_hash(word, length, bits_));
  });
  return list;
}

}  // namespace simhash_zh

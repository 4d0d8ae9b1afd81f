// Which code points carry words. A feature made only of non-word code points
// (whitespace, punctuation, symbols, emoji, U+FFFD) is dropped by the default
// pipeline. lib/js/char-class.ts is its twin.
#pragma once

#include <cstdint>

namespace simhash_zh {

inline bool is_ascii_digit(uint32_t c) { return c >= '0' && c <= '9'; }

// [0-9A-Za-z]
inline bool is_ascii_alnum(uint32_t c) {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

inline bool is_word_code_point(uint32_t c) {
  if (c < 0x80) return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
  if (c >= 0x3400 && c <= 0x9fff) return true;                     // CJK ideographs: the common case first
  if (c <= 0xbf || c == 0xd7 || c == 0xf7) return false;           // C1, Latin-1 symbols
  if (c >= 0x2000 && c <= 0x2bff) return false;                    // punctuation .. symbols
  if (c >= 0x2e00 && c <= 0x2e7f) return false;                    // supplemental punctuation
  if (c >= 0x3000 && c <= 0x303f) return c >= 0x3005 && c <= 0x3007;  // CJK punctuation; 々〆〇
  if (c >= 0xfe10 && c <= 0xfe1f) return false;                    // vertical forms
  if (c >= 0xfe30 && c <= 0xfe6f) return false;                    // CJK compatibility, small forms
  if (c >= 0xff00 && c <= 0xff0f) return false;                    // full-width punctuation
  if (c >= 0xff1a && c <= 0xff20) return false;
  if (c >= 0xff3b && c <= 0xff40) return false;
  if (c >= 0xff5b && c <= 0xff65) return false;
  if (c >= 0xfff0 && c <= 0xffff) return false;                    // specials, U+FFFD
  if (c >= 0x1f000 && c <= 0x1faff) return false;                  // emoji and pictographs
  if (c >= 0xe0000 && c <= 0xe007f) return false;                  // tag characters
  return true;
}

}  // namespace simhash_zh

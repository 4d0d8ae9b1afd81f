// Minimal UTF-8 decoding/encoding shared by the default pipeline.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace simhash_zh {

// Decodes one code point at p[i] (i < n) and advances i. A byte that does not
// start a valid sequence decodes to U+FFFD and advances by one, the same rule
// as utf8_to_utf16. Text from JavaScript is always valid UTF-8.
inline uint32_t decode_utf8(const unsigned char* p, size_t n, size_t& i) {
  const unsigned char b = p[i];
  auto cont = [&](size_t at) { return at < n && (p[at] & 0xc0) == 0x80; };
  if (b < 0x80) {
    i += 1;
    return b;
  }
  // Most CJK first: a lead of E3..EF other than ED (surrogates) is never overlong nor a surrogate.
  // x ^ 0x80 is below 0x40 exactly for a continuation byte: one test covers both.
  if (static_cast<unsigned>(b - 0xe3) <= 0xef - 0xe3 && b != 0xed && i + 2 < n) {
    const uint32_t c1 = p[i + 1] ^ 0x80u;
    const uint32_t c2 = p[i + 2] ^ 0x80u;
    if ((c1 | c2) < 0x40) {
      i += 3;
      return ((b & 0x0fu) << 12) | (c1 << 6) | c2;
    }
  }
  if (b >= 0xc2 && b <= 0xdf && cont(i + 1)) {
    const uint32_t cp = ((b & 0x1fu) << 6) | (p[i + 1] & 0x3fu);
    i += 2;
    return cp;
  }
  if (b >= 0xe0 && b <= 0xef && cont(i + 1) && cont(i + 2)) {
    const uint32_t cp = ((b & 0x0fu) << 12) | ((p[i + 1] & 0x3fu) << 6) | (p[i + 2] & 0x3fu);
    if (cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff)) {
      i += 3;
      return cp;
    }
  } else if (b >= 0xf0 && b <= 0xf4 && cont(i + 1) && cont(i + 2) && cont(i + 3)) {
    const uint32_t cp = ((b & 0x07u) << 18) | ((p[i + 1] & 0x3fu) << 12) |
                        ((p[i + 2] & 0x3fu) << 6) | (p[i + 3] & 0x3fu);
    if (cp >= 0x10000 && cp <= 0x10ffff) {
      i += 4;
      return cp;
    }
  }
  i += 1;
  return 0xfffd;
}

// Decodes one code point of text known to be valid UTF-8 (e.g. normalize()'s output) and
// advances i: no checks, so only for such text.
inline uint32_t decode_valid_utf8(const unsigned char* p, size_t& i) {
  const uint32_t b = p[i];
  if (b < 0x80) {
    i += 1;
    return b;
  }
  if (b < 0xe0) {
    const uint32_t cp = ((b & 0x1fu) << 6) | (p[i + 1] & 0x3fu);
    i += 2;
    return cp;
  }
  if (b < 0xf0) {
    const uint32_t cp = ((b & 0x0fu) << 12) | ((p[i + 1] & 0x3fu) << 6) | (p[i + 2] & 0x3fu);
    i += 3;
    return cp;
  }
  const uint32_t cp = ((b & 0x07u) << 18) | ((p[i + 1] & 0x3fu) << 12) | ((p[i + 2] & 0x3fu) << 6) | (p[i + 3] & 0x3fu);
  i += 4;
  return cp;
}

// The byte length of the valid UTF-8 sequence that starts with `lead`.
inline size_t valid_utf8_length(unsigned char lead) {
  return lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
}

// Writes the UTF-8 bytes of code point cp (at most 4) to out; returns how many.
inline size_t encode_utf8(uint32_t cp, unsigned char* out) {
  if (cp < 0x80) {
    out[0] = static_cast<unsigned char>(cp);
    return 1;
  }
  if (cp < 0x800) {
    out[0] = static_cast<unsigned char>(0xc0 | (cp >> 6));
    out[1] = static_cast<unsigned char>(0x80 | (cp & 0x3f));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = static_cast<unsigned char>(0xe0 | (cp >> 12));
    out[1] = static_cast<unsigned char>(0x80 | ((cp >> 6) & 0x3f));
    out[2] = static_cast<unsigned char>(0x80 | (cp & 0x3f));
    return 3;
  }
  out[0] = static_cast<unsigned char>(0xf0 | (cp >> 18));
  out[1] = static_cast<unsigned char>(0x80 | ((cp >> 12) & 0x3f));
  out[2] = static_cast<unsigned char>(0x80 | ((cp >> 6) & 0x3f));
  out[3] = static_cast<unsigned char>(0x80 | (cp & 0x3f));
  return 4;
}

inline void append_utf8(std::string& out, uint32_t cp) {
  unsigned char bytes[4];
  out.append(reinterpret_cast<const char*>(bytes), encode_utf8(cp, bytes));
}

}  // namespace simhash_zh

// Helpers shared by the libFuzzer targets in this folder (built by scripts/fuzz.js with
// clang -fsanitize=fuzzer,address,undefined). A broken invariant aborts, which libFuzzer
// reports as a crash and saves the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fingerprint.h"

namespace simhash_zh_fuzz {

inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
    std::abort();
  }
}

inline bool same(simhash_zh::Fingerprint a, simhash_zh::Fingerprint b) { return a.lo == b.lo && a.hi == b.hi; }

// Strict UTF-8 validity (no surrogates, no overlongs, at most U+10FFFF).
inline bool valid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char b = p[i];
    size_t len;
    uint32_t cp;
    if (b < 0x80) { ++i; continue; }
    if (b >= 0xc2 && b <= 0xdf) { len = 2; cp = b & 0x1fu; }
    else if (b >= 0xe0 && b <= 0xef) { len = 3; cp = b & 0x0fu; }
    else if (b >= 0xf0 && b <= 0xf4) { len = 4; cp = b & 0x07u; }
    else return false;
    if (i + len > n) return false;
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (p[i + k] & 0x3fu);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff))) {
      return false;
    }
    i += len;
  }
  return true;
}

// Reads the input front to back; past the end it yields zeros.
struct Reader {
  const uint8_t* data;
  size_t size;
  size_t pos = 0;
  bool done() const { return pos >= size; }
  uint8_t u8() { return pos < size ? data[pos++] : 0; }
  uint64_t u64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t{u8()} << (8 * i);
    return v;
  }
};

}  // namespace simhash_zh_fuzz

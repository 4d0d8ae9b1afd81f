#include "utf16.h"

#include <cstdint>
#include <cstring>

#include "utf8.h"

namespace simhash_zh {

void utf8_to_utf16(std::string_view utf8, std::u16string& out) {
  out.clear();
  out.reserve(utf8.size());
  const auto* p = reinterpret_cast<const unsigned char*>(utf8.data());
  size_t i = 0;
  while (i < utf8.size()) {
    const uint32_t cp = decode_utf8(p, utf8.size(), i);
    if (cp < 0x10000) {
      out.push_back(static_cast<char16_t>(cp));
    } else {
      out.push_back(static_cast<char16_t>(0xd800 + ((cp - 0x10000) >> 10)));
      out.push_back(static_cast<char16_t>(0xdc00 + ((cp - 0x10000) & 0x3ff)));
    }
  }
}

namespace {

// Whether every unit of a 4-unit group (read as one 64-bit word) is ASCII.
inline bool all_ascii(uint64_t four) { return (four & 0xff80ff80ff80ff80ULL) == 0; }

// A unit that is three bytes of UTF-8 on its own (U+0800..U+FFFF, not a surrogate): CJK text.
inline bool three_bytes(uint32_t unit) { return unit >= 0x800 && (unit < 0xd800 || unit > 0xdfff); }

inline uint64_t load_units(const char16_t* units) {
  uint64_t word;
  std::memcpy(&word, units, sizeof word);
  return word;  // unit k is bits 16k..16k+15: the fast paths are compiled for little-endian hosts only
}

// The 3 UTF-8 bytes of `unit`, in the low 24 bits in memory order (little-endian).
inline uint32_t three_byte_code(uint32_t unit) {
  return (0xe0u | (unit >> 12)) | ((0x80u | ((unit >> 6) & 0x3fu)) << 8) | ((0x80u | (unit & 0x3fu)) << 16);
}

}  // namespace

std::string_view utf16_to_utf8(const char16_t* units, size_t count, std::string& buffer) {
  // At most 3 bytes per unit (a pair is 4 bytes for 2 units), plus 8 bytes of slack for the
  // fast paths' whole-word stores: write through a pointer.
  if (buffer.size() < count * 3 + 8) buffer.resize(count * 3 + 8);
  auto* o = reinterpret_cast<unsigned char*>(buffer.data());
  size_t n = 0;
  size_t i = 0;
  while (i < count) {
    // Runs of ASCII and of CJK (3-byte units), 4 units at a time: one or two 64-bit
    // stores instead of a store per byte. The result is the same bytes as the loop below.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    {
      while (i + 4 <= count && all_ascii(load_units(units + i))) {
        const uint64_t four = load_units(units + i);
        const uint32_t bytes = static_cast<uint32_t>((four & 0xff) | ((four >> 8) & 0xff00) |
                                                     ((four >> 16) & 0xff0000) | ((four >> 24) & 0xff000000));
        std::memcpy(o + n, &bytes, 4);
        n += 4;
        i += 4;
      }
      while (i + 4 <= count && three_bytes(units[i]) && three_bytes(units[i + 1]) && three_bytes(units[i + 2]) &&
             three_bytes(units[i + 3])) {
        const uint64_t first =
            three_byte_code(units[i]) | (static_cast<uint64_t>(three_byte_code(units[i + 1])) << 24);
        const uint64_t second =
            three_byte_code(units[i + 2]) | (static_cast<uint64_t>(three_byte_code(units[i + 3])) << 24);
        std::memcpy(o + n, &first, 8);  // 6 bytes wanted; the 2 past them are overwritten next
        std::memcpy(o + n + 6, &second, 8);
        n += 12;
        i += 4;
      }
      if (i >= count) break;
    }
#endif
    uint32_t cp = units[i];
    if (cp < 0x80) {
      o[n++] = static_cast<unsigned char>(cp);
      ++i;
      continue;
    }
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < count && units[i + 1] >= 0xdc00 && units[i + 1] <= 0xdfff) {
      cp = 0x10000 + ((cp - 0xd800) << 10) + (units[i + 1] - 0xdc00);
      ++i;
    } else if (cp >= 0xd800 && cp <= 0xdfff) {
      cp = 0xfffd;  // a lone surrogate
    }
    n += encode_utf8(cp, o + n);
    ++i;
  }
  return std::string_view(buffer.data(), n);
}

std::string utf16le_bytes(const char16_t* units, size_t count) {
  std::string bytes;
  bytes.reserve(count * 2);
  for (size_t i = 0; i < count; ++i) {
    bytes.push_back(static_cast<char>(units[i] & 0xff));
    bytes.push_back(static_cast<char>(units[i] >> 8));
  }
  return bytes;
}

}  // namespace simhash_zh

#include "utf16.h"

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

std::string_view utf16_to_utf8(const char16_t* units, size_t count, std::string& buffer) {
  // At most 3 bytes per unit (a pair is 4 bytes for 2 units): write through a pointer.
  if (buffer.size() < count * 3) buffer.resize(count * 3);
  auto* o = reinterpret_cast<unsigned char*>(buffer.data());
  size_t n = 0;
  for (size_t i = 0; i < count; ++i) {
    uint32_t cp = units[i];
    if (cp < 0x80) {
      o[n++] = static_cast<unsigned char>(cp);
      continue;
    }
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < count && units[i + 1] >= 0xdc00 && units[i + 1] <= 0xdfff) {
      cp = 0x10000 + ((cp - 0xd800) << 10) + (units[i + 1] - 0xdc00);
      ++i;
    } else if (cp >= 0xd800 && cp <= 0xdfff) {
      cp = 0xfffd;  // a lone surrogate
    }
    n += encode_utf8(cp, o + n);
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

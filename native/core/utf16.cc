#include "utf16.h"

namespace simhash_zh {

void utf8_to_utf16(std::string_view utf8, std::u16string& out) {
  out.clear();
  out.reserve(utf8.size());
  const auto* p = reinterpret_cast<const unsigned char*>(utf8.data());
  const size_t n = utf8.size();
  size_t i = 0;
  auto continuation = [&](size_t at) { return at < n && (p[at] & 0xc0) == 0x80; };
  while (i < n) {
    const unsigned char b = p[i];
    if (b < 0x80) {
      out.push_back(b);
      i += 1;
    } else if (b >= 0xc2 && b <= 0xdf && continuation(i + 1)) {
      out.push_back(static_cast<char16_t>(((b & 0x1f) << 6) | (p[i + 1] & 0x3f)));
      i += 2;
    } else if (b >= 0xe0 && b <= 0xef && continuation(i + 1) && continuation(i + 2)) {
      const uint32_t cp = ((b & 0x0f) << 12) | ((p[i + 1] & 0x3f) << 6) | (p[i + 2] & 0x3f);
      if (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)) {
        out.push_back(0xfffd);
        i += 1;
      } else {
        out.push_back(static_cast<char16_t>(cp));
        i += 3;
      }
    } else if (b >= 0xf0 && b <= 0xf4 && continuation(i + 1) && continuation(i + 2) &&
               continuation(i + 3)) {
      const uint32_t cp = ((b & 0x07) << 18) | ((p[i + 1] & 0x3f) << 12) |
                          ((p[i + 2] & 0x3f) << 6) | (p[i + 3] & 0x3f);
      if (cp < 0x10000 || cp > 0x10ffff) {
        out.push_back(0xfffd);
        i += 1;
      } else {
        out.push_back(static_cast<char16_t>(0xd800 + ((cp - 0x10000) >> 10)));
        out.push_back(static_cast<char16_t>(0xdc00 + ((cp - 0x10000) & 0x3ff)));
        i += 4;
      }
    } else {
      out.push_back(0xfffd);
      i += 1;
    }
  }
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

// libFuzzer target: the UTF-8 <-> UTF-16 conversions the addon and the mysimhash preset use.
#include <string>

#include "fuzz_util.h"
#include "utf16.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simhash_zh_fuzz;
  // Bytes as UTF-8: decoding never yields a lone surrogate, so encoding and decoding again is exact.
  std::u16string units;
  simhash_zh::utf8_to_utf16(std::string_view(reinterpret_cast<const char*>(data), size), units);
  require(units.size() <= size, "at most one unit per byte");
  std::string buffer;
  const std::string utf8(simhash_zh::utf16_to_utf8(units.data(), units.size(), buffer));
  require(valid_utf8(utf8), "utf16_to_utf8 writes valid UTF-8");
  std::u16string back;
  simhash_zh::utf8_to_utf16(utf8, back);
  require(back == units, "decoded UTF-16 round-trips through UTF-8");
  if (valid_utf8(std::string_view(reinterpret_cast<const char*>(data), size))) {
    require(utf8 == std::string(reinterpret_cast<const char*>(data), size), "valid UTF-8 round-trips");
  }
  // Bytes as UTF-16 code units (lone surrogates included, as JavaScript strings hold them).
  const size_t count = size / 2;
  std::u16string raw(count, u'\0');
  for (size_t i = 0; i < count; ++i) raw[i] = static_cast<char16_t>(data[2 * i] | (data[2 * i + 1] << 8));
  // `buffer` is already in use: the conversion must not depend on what it held.
  require(valid_utf8(simhash_zh::utf16_to_utf8(raw.data(), raw.size(), buffer)),
          "utf16_to_utf8 of any units is valid UTF-8");
  require(simhash_zh::utf16le_bytes(raw.data(), raw.size()) ==
              std::string(reinterpret_cast<const char*>(data), count * 2), "utf16le_bytes is the raw layout");
  return 0;
}

// UTF-8 -> UTF-16 code units, for the Java-compatible preset.
#pragma once

#include <string>
#include <string_view>

namespace simhash_zh {

// Decodes UTF-8 into UTF-16 code units. Text from JavaScript is always valid
// UTF-8 (lone surrogates arrive as U+FFFD); for other input each byte that
// does not start a valid sequence decodes to one U+FFFD.
void utf8_to_utf16(std::string_view utf8, std::u16string& out);

// Encodes UTF-16 as UTF-8; each lone surrogate becomes U+FFFD, exactly as
// N-API's napi_get_value_string_utf8 converts JS strings. Returns the bytes, written to the
// front of `buffer`, which only grows (so a loop over many texts does not clear it each time).
std::string_view utf16_to_utf8(const char16_t* units, size_t count, std::string& buffer);

// Encodes UTF-16 code units as UTF-16LE bytes (the layout tokens() returns).
std::string utf16le_bytes(const char16_t* units, size_t count);

}  // namespace simhash_zh

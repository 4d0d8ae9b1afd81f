// Text normalization of the default pipeline: markup stripping, entity
// decoding, width folding and ASCII lowercasing. Defined on code points so
// the TypeScript engine (lib/js/normalize.ts) reproduces it exactly.
#pragma once

#include <string>
#include <string_view>

namespace simhash_zh {

enum class HtmlMode { kAuto = 0, kOn = 1, kOff = 2 };

struct NormalizeOptions {
  HtmlMode html = HtmlMode::kAuto;
  bool fold_width = true;  // U+FF01..U+FF5E -> ASCII, U+3000 -> space
  bool lowercase = true;   // A-Z -> a-z (after folding)
};

// Writes the normalized text to `out` as UTF-8 (invalid input bytes become U+FFFD).
void normalize(std::string_view utf8, const NormalizeOptions& options, std::string& out);

}  // namespace simhash_zh

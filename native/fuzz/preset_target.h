// The body shared by the preset targets: arbitrary bytes as text (JavaScript only ever passes valid
// UTF-8, so this is a superset of what the addon sees).
#pragma once

#include <cmath>
#include <memory>
#include <string_view>

#include "fuzz_util.h"
#include "presets.h"

namespace simhash_zh_fuzz {

inline int run_preset(const char* name, int bits, const uint8_t* data, size_t size) {
  static const std::unique_ptr<simhash_zh::Fingerprinter> preset = simhash_zh::make_preset(name, bits);
  require(preset != nullptr, "make_preset returns the preset");
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  const simhash_zh::Fingerprint a = preset->fingerprint(text);
  require(same(a, preset->fingerprint(text)), "fingerprint is deterministic");
  require(bits == 128 || a.hi == 0, "a 64-bit fingerprint has hi == 0");

  const simhash_zh::FeatureList features = preset->features(text);
  for (const simhash_zh::Feature& f : features.items()) {
    require(!f.bytes.empty(), "no empty feature");
    require(std::isfinite(f.weight), "feature weights are finite");
    require(bits == 128 || f.hash.hi == 0, "a 64-bit feature hash has hi == 0");
    // (SimHashChinese works on bytes as the seed did, so its features need not be valid UTF-8.)
    if (features.utf16()) require(f.bytes.size() % 2 == 0, "UTF-16LE features have whole code units");
  }
  return 0;
}

}  // namespace simhash_zh_fuzz

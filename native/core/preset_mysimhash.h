// Compatibility preset: the Java class `mysimhash` of the seed article
// (001_d40f3658eda02fcb.txt), reproduced bit for bit at 64 and 128 bits.
#pragma once

#include "fingerprinter.h"

namespace simhash_zh {

class MySimHashPreset final : public Fingerprinter {
 public:
  explicit MySimHashPreset(int bits) : bits_(bits) {}
  int bits() const override { return bits_; }
  Fingerprint fingerprint(std::string_view utf8) const override;
  FeatureList features(std::string_view utf8) const override;

  // The seed's hash(): x = c0 << 7; x = ((x * 1000003) ^ c) & mask for every
  // UTF-16 unit; x ^= length.
  static Fingerprint word_hash(const char16_t* units, size_t length, int bits);

 private:
  int bits_;
};

}  // namespace simhash_zh

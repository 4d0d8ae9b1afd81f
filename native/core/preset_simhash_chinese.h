// Compatibility preset: the `SimHashChinese` C++ class of the seed article
// (000_d4776c7712e71bbf.txt), reproduced bit for bit as it behaves on x86-64
// with g++ (signed char, glibc "C" locale ctype).
#pragma once

#include "fingerprinter.h"

namespace simhash_zh {

class SimHashChinesePreset final : public Fingerprinter {
 public:
  int bits() const override { return 64; }
  Fingerprint fingerprint(std::string_view utf8) const override;
  FeatureList features(std::string_view utf8) const override;

  // The seed's word hash: FNV-1a 64 over *signed* chars (bytes >= 0x80 are
  // sign-extended before the xor).
  static uint64_t word_hash(const unsigned char* bytes, size_t length);
};

}  // namespace simhash_zh

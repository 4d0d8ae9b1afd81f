// The weighted features a fingerprint is made of, as returned by tokens().
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "fingerprint.h"

namespace simhash_zh {

struct Feature {
  std::string bytes;  // UTF-8 (or UTF-16LE code units, see FeatureList::utf16)
  double weight = 0;  // total weight of all occurrences
  Fingerprint hash;
  uint8_t kind = 0;   // 0 word, 1 character (default pipeline)
};

// Features in order of first occurrence; repeated features (same bytes and
// kind) are merged and their weights summed.
class FeatureList {
 public:
  explicit FeatureList(bool utf16 = false) : utf16_(utf16) {}

  void add(std::string_view bytes, double weight, Fingerprint hash, uint8_t kind = 0) {
    std::string key(bytes);
    key.push_back(static_cast<char>(kind));
    auto found = index_.find(key);
    if (found != index_.end()) {
      items_[found->second].weight += weight;
      return;
    }
    index_.emplace(std::move(key), items_.size());
    items_.push_back(Feature{std::string(bytes), weight, hash, kind});
  }

  bool utf16() const { return utf16_; }
  const std::vector<Feature>& items() const { return items_; }

 private:
  bool utf16_;
  std::vector<Feature> items_;
  std::unordered_map<std::string, size_t> index_;
};

}  // namespace simhash_zh

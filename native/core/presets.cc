#include "presets.h"

#include "preset_mysimhash.h"
#include "preset_simhash_chinese.h"

namespace simhash_zh {

std::unique_ptr<Fingerprinter> make_preset(std::string_view name, int bits) {
  if (name == "SimHashChinese" && bits == 64) return std::make_unique<SimHashChinesePreset>();
  if (name == "mysimhash" && (bits == 64 || bits == 128)) {
    return std::make_unique<MySimHashPreset>(bits);
  }
  return nullptr;
}

}  // namespace simhash_zh

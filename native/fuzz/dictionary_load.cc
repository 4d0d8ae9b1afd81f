// libFuzzer target: the binary dictionary loader (Dictionary::from_bytes) on arbitrary bytes, and
// segmentation with whatever it accepts. A file that passes validation must be safe to segment
// with: nothing read from it may index out of bounds.
//
// The first byte picks the mode: bit 0 rewrites the checksum (CRC-32 of bytes 16.., at offset 12) to match and bit 1
// the file size field (offset 16) first, so mutations reach the section and content checks behind
// them; with neither, the bytes are loaded as they are. scripts/fuzz.js seeds this target with a
// small valid dictionary made by lib/js/dict-builder.ts.
#include <cstring>
#include <vector>

#include "dictionary.h"
#include "segment_check.h"

namespace {

void put_u32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

const char* const kTexts[] = {
    "C++ SimHash算法实现 高性能中文文本相似度检测与去重",
    "我们在2024年发布了v1.2.3版本，support for English words",
    "北京大学生活研究所的了是\xf0\x9f\x98\x80\xe4\xb8",
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simhash_zh_fuzz;
  if (size == 0) return 0;
  std::vector<uint8_t> file(data + 1, data + size);
  if (file.size() >= 20) {
    if (data[0] & 2) put_u32(file.data() + 16, static_cast<uint32_t>(file.size()));
    if (data[0] & 1) put_u32(file.data() + 12, simhash_zh::crc32(file.data() + 16, file.size() - 16));
  }
  simhash_zh::DictStatus status;
  auto dict = simhash_zh::Dictionary::from_bytes(file.data(), file.size(), &status);
  if (!dict) {
    require(status.code != simhash_zh::DictError::kOk, "a failed load has an error code");
    require(!status.message.empty(), "a failed load says why");
    require(std::strncmp(simhash_zh::dict_error_code(status.code), "SIMHASH_ZH_DICT_", 16) == 0, "error codes are stable names");
    return 0;
  }
  require(status.code == simhash_zh::DictError::kOk, "a load without error says so");
  simhash_zh::Segmenter segmenter(dict);
  for (const char* text : kTexts) {
    for (int flags = 0; flags < 8; ++flags) check_segments(segmenter, text, flags);
    (void)segmenter.is_stop_word(text);
  }
  segmenter.add_word("相似度检测", -1);
  check_segments(segmenter, kTexts[0], simhash_zh::kSegmentHmm | simhash_zh::kSegmentEntries);
  return 0;
}

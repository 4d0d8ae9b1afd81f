// libFuzzer target: jieba-compatible segmentation (segmenter.h) over the real dictionary
// (dict/jieba.dict, or the file named by SIMHASH_ZH_FUZZ_DICT). The first byte picks the flags
// (HMM, longest match, entries) and whether a word taken from the input is added first
// (add_word); the rest is the text, as arbitrary bytes.
#include <cstdlib>
#include <memory>
#include <string>

#include "dictionary.h"
#include "segment_check.h"

namespace {

std::shared_ptr<const simhash_zh::Dictionary> load() {
  const char* path = std::getenv("SIMHASH_ZH_FUZZ_DICT");
  simhash_zh::DictStatus status;
  auto dict = simhash_zh::Dictionary::from_file(path ? path : "dict/jieba.dict", &status);
  if (!dict) {
    std::fprintf(stderr, "segmenter fuzz target: cannot load the dictionary: %s\n", status.message.c_str());
    std::abort();
  }
  return dict;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simhash_zh_fuzz;
  static const std::shared_ptr<const simhash_zh::Dictionary> dict = load();
  static simhash_zh::Segmenter shared(dict);
  if (size == 0) return 0;
  const int flags = data[0] & 7;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] & 8) {
    // A fresh segmenter with a word from the input (its first up-to-8 bytes) added.
    simhash_zh::Segmenter segmenter(dict);
    const std::string_view word = text.substr(0, (data[0] >> 4) % 9);
    const double freq = segmenter.add_word(word, (data[0] & 0x80) ? -1.0 : 5.0);
    require(freq == freq, "add_word returns a number");
    check_segments(segmenter, text, flags);
    require(segmenter.entry_of(word) >= -1, "entry_of answers");
  } else {
    check_segments(shared, text, flags);
    for (size_t cut = 0; cut < text.size() && cut < 16; cut += 4) (void)shared.is_stop_word(text.substr(cut, 6));
  }
  return 0;
}

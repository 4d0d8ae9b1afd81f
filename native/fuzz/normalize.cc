// libFuzzer target: normalize(). The first byte picks the options, the rest is the text.
// Whatever the bytes, the output is valid UTF-8 (invalid input bytes become U+FFFD).
#include <string>

#include "fuzz_util.h"
#include "normalize.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simhash_zh_fuzz;
  if (size == 0) return 0;
  simhash_zh::NormalizeOptions options;
  options.html = static_cast<simhash_zh::HtmlMode>(data[0] % 3);
  options.fold_width = (data[0] & 4) != 0;
  options.lowercase = (data[0] & 8) != 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::string out = "stale";
  simhash_zh::normalize(text, options, out);
  require(valid_utf8(out), "normalize writes valid UTF-8");
  std::string again;
  simhash_zh::normalize(text, options, again);
  require(out == again, "normalize is deterministic and clears its output");
  return 0;
}

// Tests of the C++ core alone (no Node): built by plain cmake, run by
// `npm run test:core`. Prints "N passed, M failed" and exits non-zero on failure.
#include <cstdio>
#include <string>

#include "fingerprint.h"
#include "preset_mysimhash.h"
#include "preset_simhash_chinese.h"
#include "presets.h"
#include "utf16.h"

namespace {

int passed = 0;
int failed = 0;

void check(bool ok, const char* what) {
  if (ok) {
    ++passed;
  } else {
    ++failed;
    std::printf("FAIL: %s\n", what);
  }
}

std::string hex64(uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

void test_simhash_chinese_seed_demo() {
  simhash_zh::SimHashChinesePreset preset;
  // The seed's text1..3 as its code really prints them (not its article's text).
  check(hex64(preset.fingerprint("C++ SimHash算法实现 高性能中文文本相似度检测与去重").lo) ==
            "44e34ee71fb0789c", "SimHashChinese text1");
  check(hex64(preset.fingerprint("C++ SimHash算法实现 高性能中文文本查重与相似度检测（轻微优化）").lo) ==
            "54424ee71fc46a9c", "SimHashChinese text2");
  check(hex64(preset.fingerprint("Redis缓存高并发优化 后端服务性能调优实战教程").lo) ==
            "3c3946e70f865cb7", "SimHashChinese text3");
  check(preset.fingerprint("").lo == 0, "SimHashChinese empty is 0");
  check(preset.fingerprint(" \t\n!?").lo == 0, "SimHashChinese punctuation only is 0");
  // Every word is a stop word: no words, fingerprint 0.
  check(preset.fingerprint("的了是").lo == 0, "SimHashChinese stop words only");
  // NUL bytes are kept as words (isspace/ispunct are false for them).
  check(preset.fingerprint(std::string("\0", 1)).lo != 0, "SimHashChinese NUL is a word");
}

void test_mysimhash() {
  simhash_zh::MySimHashPreset preset64(64);
  simhash_zh::MySimHashPreset preset128(128);
  // Empty text: every sum is 0 and the rule is >= 0, so all bits are set.
  check(preset64.fingerprint("").lo == ~0ULL, "mysimhash empty is all ones (64)");
  const auto empty128 = preset128.fingerprint("");
  check(empty128.lo == ~0ULL && empty128.hi == ~0ULL, "mysimhash empty is all ones (128)");
  // The 128-bit hash agrees with the 64-bit one on the low 64 bits.
  const std::u16string word = u"simhash";
  const auto h64 = simhash_zh::MySimHashPreset::word_hash(word.data(), word.size(), 64);
  const auto h128 = simhash_zh::MySimHashPreset::word_hash(word.data(), word.size(), 128);
  check(h64.lo == h128.lo && h64.hi == 0, "mysimhash 128-bit hash extends the 64-bit one");
  // One unit 'a' (97): ((97 << 7) * 1000003 ^ 97) ^ 1.
  const char16_t a = u'a';
  check(simhash_zh::MySimHashPreset::word_hash(&a, 1, 64).lo ==
            ((((97ULL << 7) * 1000003ULL) ^ 97ULL) ^ 1ULL), "mysimhash hash of 'a'");
  check(simhash_zh::make_preset("mysimhash", 96) == nullptr, "mysimhash rejects 96 bits");
  check(simhash_zh::make_preset("nope", 64) == nullptr, "unknown preset");
}

void test_utf16() {
  std::u16string out;
  simhash_zh::utf8_to_utf16("a\xe4\xb8\xad\xf0\x9f\x98\x80", out);
  check(out == u"a中😀", "utf8_to_utf16 valid");
  simhash_zh::utf8_to_utf16("\xff\xe4\xb8", out);
  check(out == std::u16string(u"\ufffd\ufffd\ufffd"), "utf8_to_utf16 invalid bytes");
}

void test_hamming() {
  check(simhash_zh::hamming_distance({0, 0}, {~0ULL, ~0ULL}) == 128, "hamming 128");
  check(simhash_zh::popcount64(0x8000000000000001ULL) == 2, "popcount");
}

}  // namespace

int main() {
  test_simhash_chinese_seed_demo();
  test_mysimhash();
  test_utf16();
  test_hamming();
  std::printf("core: %d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

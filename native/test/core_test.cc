// Tests of the C++ core alone (no Node): built by plain cmake, run by
// `npm run test:core`. Prints "N passed, M failed" and exits non-zero on failure.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "dedup.h"
#include "fingerprint.h"
#include "index_checker.h"
#include "index_format.h"
#include "minhash_sketch.h"
#include "preset_mysimhash.h"
#include "preset_simhash_chinese.h"
#include "presets.h"
#include "simhash_index.h"
#include "segmenter.h"
#include "test_support.h"
#include "url.h"
#include "utf16.h"

namespace {

using simhash_zh_test::check;
using simhash_zh_test::seg_words;

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

  // utf16_to_utf8's word-at-a-time runs (ASCII, 3-byte units) give the bytes a unit-by-unit
  // encoder gives, for runs of every length and at every alignment, next to pairs and lone
  // surrogates; the buffer keeps bytes from a longer text before.
  const char16_t pool[] = {u'a', u'Z', u'0', 0x7f, 0x80, 0x7ff, 0x800, 0x4e2d, 0x3002, 0xd7ff,
                           0xe000, 0xffff, 0xd83d, 0xde00, 0xdbff, 0xdc00};
  simhash_zh_test::Rng rng{0x9e3779b97f4a7c15ULL};
  std::string buffer(4096, 'x');
  bool same = true;
  for (int round = 0; round < 20000 && same; ++round) {
    const size_t length = static_cast<size_t>(rng.next() % 40);
    std::u16string units;
    while (units.size() < length) {
      const char16_t unit = pool[rng.next() % (sizeof pool / sizeof pool[0])];
      const size_t run = 1 + static_cast<size_t>(rng.next() % 9);  // runs, so the fast paths engage
      units.append(std::min(run, length - units.size()), unit);
    }
    std::string expected;
    for (size_t i = 0; i < units.size(); ++i) {
      uint32_t cp = units[i];
      const bool high = cp >= 0xd800 && cp <= 0xdbff;
      if (high && i + 1 < units.size() && units[i + 1] >= 0xdc00 && units[i + 1] <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (units[++i] - 0xdc00);
      } else if (cp >= 0xd800 && cp <= 0xdfff) {
        cp = 0xfffd;
      }
      simhash_zh::append_utf8(expected, cp);
    }
    same = simhash_zh::utf16_to_utf8(units.data(), units.size(), buffer) == expected;
  }
  check(same, "utf16_to_utf8 equals a unit-by-unit encoder on random runs");
}

// A word of a text and where the address it begins should end (0: none), for url.h's rules.
struct SpanCase {
  const char* text;
  size_t start, end;  // the word
  size_t want;
};

// url_end_after: where the URL a word begins ends (0: none), by the rules of url.h.
void test_url_spans() {
  const SpanCase cases[] = {
      {"see https://a.cn/x?q=1.", 4, 9, 22},   // trailing '.' is the sentence's
      {"https://", 0, 5, 0},                   // no body
      {"(http://x.org/a_(b)).", 1, 5, 18},     // trailing brackets go too
      {"WWW.Example.com/p", 0, 3, 17},         // www in any case
      {"x.www.y", 2, 5, 0},                    // inside a longer name
      {"x/www.y", 2, 5, 0},                    // inside a path
      {"u@www.y", 2, 5, 0},                    // inside an address
      {":www.a.cn", 1, 4, 9},                  // after a colon (a full-width one folds to it)
      {"(www.a.cn)", 1, 4, 9},                 // in brackets
      {"\xe8\xa7\x81www.a.cn", 3, 6, 11},      // after a Chinese character
      {"wwww.a", 0, 4, 0},                     // not the word www
      {"a+b://c", 2, 3, 7},                    // the scheme is the word before ://
      {"http:/x", 0, 4, 0},
      {"ftp://\xe4\xb8\xad", 0, 3, 0},         // a URL is ASCII
  };
  for (const SpanCase& c : cases) {
    const auto* p = reinterpret_cast<const unsigned char*>(c.text);
    const size_t got = simhash_zh::url_end_after(p, std::strlen(c.text), c.start, c.end);
    check(got == c.want, (std::string("url_end_after: ") + c.text).c_str());
  }
  check(simhash_zh::may_hold_url("a://b") && simhash_zh::may_hold_url("x WwW.y") && !simhash_zh::may_hold_url("www:/ w.ww.") &&
            !simhash_zh::may_hold_url(""),
        "may_hold_url");
}

// email_end_after and address_end_after: where the e-mail address (or URL) a word begins ends.
void test_email_spans() {
  const SpanCase cases[] = {
      {"Zhang.San-01@Mail.Example.COM.", 0, 5, 29},  // the sentence's '.' is not the address's
      {"x_y%z+q@sub-d.example.org!", 0, 1, 25},
      {"a.b@c.cn", 2, 3, 0},                         // after a local-part character
      {"pkg@1.2.3", 0, 3, 0},                        // the last label starts with a digit
      {"foo@bar", 0, 3, 0},                          // one label
      {"a@b..cn", 0, 1, 0},                          // an empty label ends the domain
      {"a@b.cnä¸­", 0, 1, 6},               // ends at a Chinese character
      {"a@", 0, 1, 0},
      {"å¼ @x.cn", 3, 4, 0},                // the word is not ASCII letters and digits ('@' is not)
  };
  for (const SpanCase& c : cases) {
    const auto* p = reinterpret_cast<const unsigned char*>(c.text);
    const size_t got = simhash_zh::email_end_after(p, std::strlen(c.text), c.start, c.end);
    check(got == c.want, (std::string("email_end_after: ") + c.text).c_str());
    check(c.want == 0 || simhash_zh::may_follow_address_start(p[c.end]), (std::string("may_follow_address_start: ") + c.text).c_str());
  }
  const auto* url = reinterpret_cast<const unsigned char*>("https://u@h.com/p");
  check(simhash_zh::address_end_after(url, 17, 0, 5) == 17, "address_end_after: a URL with '@' is the URL");
  const auto* mail = reinterpret_cast<const unsigned char*>("me@x.io");
  check(simhash_zh::address_end_after(mail, 7, 0, 2) == 7, "address_end_after: an e-mail address");
  check(simhash_zh::may_hold_address("x@y") && simhash_zh::may_hold_address("a://b") && !simhash_zh::may_hold_address("abc"),
        "may_hold_address");
}

void test_hamming() {
  check(simhash_zh::hamming_distance({0, 0}, {~0ULL, ~0ULL}) == 128, "hamming 128");
  check(simhash_zh::popcount64(0x8000000000000001ULL) == 2, "popcount");
}


// ---- SimHashIndex, dedup, cluster, file format -------------------------------------------------

using simhash_zh_test::flip_bits;
using simhash_zh_test::index_brute_force_query;
using simhash_zh_test::index_query;
using simhash_zh_test::Matches;
using simhash_zh_test::make_set;
using simhash_zh_test::ReferenceIndex;
using simhash_zh_test::Rng;

void test_index_layouts() {
  check(simhash_zh::supported_table_counts(64, 3) == std::vector<int>({4, 10, 20, 35}), "tables for k=3");
  check(simhash_zh::supported_table_counts(64, 0) == std::vector<int>({1}), "tables for k=0");
  check(simhash_zh::supported_table_counts(64, 9).empty(), "k=9 unsupported at 64 bits");
  check(simhash_zh::supported_table_counts(128, 16) == std::vector<int>({17}), "tables for k=16 at 128");
  simhash_zh::IndexLayout layout;
  check(!simhash_zh::make_index_layout(64, 3, 5, layout), "5 tables unsupported for k=3");
  check(simhash_zh::make_index_layout(64, 3, 10, layout) && layout.blocks == 5, "10 tables = 5 blocks");
  bool ok = true;
  for (const auto& t : layout.tables) ok = ok && simhash_zh::popcount64(t.key_mask.lo) == t.key_bits;
  check(ok && layout.tables[0].key_bits == 26, "key masks");
}

void test_index_brute_force() {
  Rng rng{0x9e3779b97f4a7c15ULL};
  const int configs[][3] = {{64, 3, 4}, {64, 3, 10}, {64, 0, 1}, {64, 1, 2}, {64, 8, 9}, {64, 2, 6},
                            {128, 3, 4}, {128, 6, 7}, {128, 16, 17}, {128, 0, 1}};
  int mismatches = 0, total = 0;
  for (const auto& c : configs) {
    for (int kind = 0; kind < 4; ++kind) {
      for (size_t n : {size_t{0}, size_t{1}, size_t{100}, size_t{3000}}) {
        const auto set = make_set(kind, n, c[0], rng);
        simhash_zh::SimHashIndex index(c[0], c[1], c[2]);
        ReferenceIndex ref;
        // Half in bulk, half one by one (tail, segments, merges).
        std::vector<uint64_t> ids, words;
        for (size_t i = 0; i < n / 2; ++i) {
          ids.push_back(i * 7);
          words.push_back(set[i].lo);
          if (c[0] == 128) words.push_back(set[i].hi);
          ref.add(i * 7, set[i]);
        }
        index.add_many(ids.data(), words.data(), ids.size());
        for (size_t i = n / 2; i < n; ++i) {
          index.add(i * 7, set[i]);
          ref.add(i * 7, set[i]);
        }
        std::vector<uint64_t> batch;
        std::vector<simhash_zh::Fingerprint> queries;
        for (int q = 0; q < 60; ++q) {
          simhash_zh::Fingerprint fp = n > 0 && q % 2 == 0 ? flip_bits(set[rng.next() % n], q % (c[1] + 2), c[0], rng)
                                                           : make_set(kind, 1, c[0], rng)[0];
          queries.push_back(fp);
          batch.push_back(fp.lo);
          if (c[0] == 128) batch.push_back(fp.hi);
        }
        for (int k = 0; k <= c[1]; k += (c[1] > 4 ? 3 : 1)) {
          std::vector<uint64_t> offsets;
          std::vector<simhash_zh::IndexMatch> many;
          index.query_many(batch.data(), queries.size(), k, offsets, many);
          for (size_t q = 0; q < queries.size(); ++q) {
            ++total;
            const auto got = index_query(index, queries[q], k);
            if (got != ref.query(queries[q], k)) ++mismatches;
            if (index_brute_force_query(index, queries[q], k) != got) ++mismatches;
            Matches from_batch;
            for (uint64_t i = offsets[q]; i < offsets[q + 1]; ++i) {
              from_batch.push_back({static_cast<int>(many[i].distance), index.id_at(many[i].slot)});
            }
            if (from_batch != got) ++mismatches;
          }
        }
      }
    }
  }
  check(mismatches == 0, "index queries equal brute force (random, clustered, duplicates, one bucket)");
  std::printf("  index: %d queries compared with brute force\n", total);
}

void test_index_updates() {
  Rng rng{42};
  for (int bits : {64, 128}) {
    simhash_zh::SimHashIndex index(bits, 3, 4);
    ReferenceIndex ref;
    const auto pool = make_set(1, 400, bits, rng);
    int mismatches = 0;
    for (int step = 0; step < 6000; ++step) {
      const uint64_t id = rng.next() % 500;
      const int op = static_cast<int>(rng.next() % 10);
      if (op < 6) {
        const auto fp = pool[rng.next() % pool.size()];
        const bool replaced = index.add(id, fp);
        const bool had = ref.remove(id);
        ref.add(id, fp);
        if (replaced != had) ++mismatches;
      } else if (op < 9) {
        if (index.remove(id) != ref.remove(id)) ++mismatches;
      } else {
        std::vector<uint64_t> ids, words;
        for (int i = 0; i < 300; ++i) {
          ids.push_back(rng.next() % 600);
          const auto fp = pool[rng.next() % pool.size()];
          words.push_back(fp.lo);
          if (bits == 128) words.push_back(fp.hi);
          ref.add(ids.back(), fp);
        }
        index.add_many(ids.data(), words.data(), ids.size());
      }
      if (index.size() != ref.entries.size() || index.has(id) != ref.has(id)) ++mismatches;
      const auto q = flip_bits(pool[rng.next() % pool.size()], static_cast<int>(rng.next() % 4), bits, rng);
      if (index_query(index, q, 3) != ref.query(q, 3)) ++mismatches;
    }
    check(mismatches == 0, bits == 64 ? "add/remove/replace/addMany vs model (64)" : "add/remove/replace/addMany vs model (128)");
  }
}

std::vector<uint8_t> serialize(const simhash_zh::SimHashIndex& index) {
  std::vector<uint8_t> out(simhash_zh::serialized_size(index));
  simhash_zh::serialize_index(index, out.data());
  return out;
}

void test_index_format() {
  const uint8_t check_input[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  check(simhash_zh::crc32(0, check_input, 9) == 0xCBF43926U, "crc32 check value");
  Rng rng{7};
  for (int bits : {64, 128}) {
    simhash_zh::SimHashIndex index(bits, 3, 10);
    const auto set = make_set(1, 50, bits, rng);
    for (size_t i = 0; i < set.size(); ++i) index.add(i * 3 + 1, set[i]);
    index.remove(4);
    const auto bytes = serialize(index);
    auto loaded = simhash_zh::deserialize_index(bytes.data(), bytes.size());
    check(loaded.error == simhash_zh::IndexLoadError::kNone && loaded.index && serialize(*loaded.index) == bytes,
          "serialize round trip");
    bool same = loaded.index && loaded.index->table_count() == 10 && loaded.index->size() == 49;
    for (int q = 0; q < 50 && same; ++q) same = index_query(index, set[q], 3) == index_query(*loaded.index, set[q], 3);
    check(same, "loaded index answers the same");
    // Every truncation is kTruncated; never a crash (the buffer is exactly the prefix).
    bool all_truncated = true;
    for (size_t len = 0; len < bytes.size(); ++len) {
      std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<long>(len));
      all_truncated = all_truncated && simhash_zh::deserialize_index(prefix.data(), len).error ==
                                           simhash_zh::IndexLoadError::kTruncated;
    }
    check(all_truncated, "every truncated prefix is reported as truncated");
    // Every flipped bit is detected: kVersion in the version field, kCorrupt elsewhere.
    bool all_detected = true;
    for (size_t pos = 0; pos < bytes.size(); ++pos) {
      for (int bit = 0; bit < 8; ++bit) {
        auto bad = bytes;
        bad[pos] ^= static_cast<uint8_t>(1 << bit);
        const auto r = simhash_zh::deserialize_index(bad.data(), bad.size());
        const auto want = pos >= 8 && pos < 12 ? simhash_zh::IndexLoadError::kVersion : simhash_zh::IndexLoadError::kCorrupt;
        all_detected = all_detected && r.error == want && !r.index;
      }
    }
    check(all_detected, "every flipped bit is detected");
    auto longer = bytes;
    longer.push_back(0);
    check(simhash_zh::deserialize_index(longer.data(), longer.size()).error == simhash_zh::IndexLoadError::kCorrupt,
          "trailing bytes are corrupt");
    // A repeated id with valid checksums is still corrupt.
    auto dup = bytes;
    std::copy(dup.begin() + 32, dup.begin() + 40, dup.begin() + 40);
    const size_t payload = dup.size() - 36;
    const uint32_t crc = simhash_zh::crc32(0, dup.data() + 32, payload);
    for (int i = 0; i < 4; ++i) dup[32 + payload + i] = static_cast<uint8_t>(crc >> (8 * i));
    check(simhash_zh::deserialize_index(dup.data(), dup.size()).error == simhash_zh::IndexLoadError::kCorrupt,
          "repeated id is corrupt");
  }
  // Random garbage, with and without a valid magic.
  bool no_crash = true;
  const auto empty = serialize(simhash_zh::SimHashIndex(64, 3, 4));
  for (int i = 0; i < 2000; ++i) {
    std::vector<uint8_t> junk(rng.next() % 100);
    for (auto& b : junk) b = static_cast<uint8_t>(rng.next());
    if (i % 2 == 0 && junk.size() >= 8) std::copy(empty.begin(), empty.begin() + 8, junk.begin());
    no_crash = no_crash && simhash_zh::deserialize_index(junk.data(), junk.size()).error != simhash_zh::IndexLoadError::kNone;
  }
  check(no_crash, "random bytes never load");
}

void test_dedup_cluster() {
  Rng rng{99};
  int mismatches = 0;
  for (int bits : {64, 128}) {
    for (int kind = 0; kind < 4; ++kind) {
      const auto set = make_set(kind, 300, bits, rng);
      std::vector<uint64_t> words;
      for (const auto& fp : set) {
        words.push_back(fp.lo);
        if (bits == 128) words.push_back(fp.hi);
      }
      const int k = 3;
      std::vector<uint32_t> of(set.size()), label(set.size());
      std::vector<uint8_t> dist(set.size());
      simhash_zh::dedup_fingerprints(bits, k, 4, words.data(), set.size(), of.data(), dist.data());
      simhash_zh::cluster_fingerprints(bits, k, 4, words.data(), set.size(), label.data());
      // Reference dedup: nearest earlier kept item, ties to the earliest.
      std::vector<size_t> kept;
      for (size_t i = 0; i < set.size(); ++i) {
        int best = 1000;
        size_t best_j = 0;
        for (size_t j : kept) {
          const int d = simhash_zh::hamming_distance(set[i], set[j]);
          if (d <= k && d < best) best = d, best_j = j;
        }
        if (best == 1000) {
          kept.push_back(i);
          if (of[i] != simhash_zh::kDedupKept) ++mismatches;
        } else if (of[i] != best_j || dist[i] != best) {
          ++mismatches;
        }
      }
      // Reference clusters: O(n^2) union-find.
      std::vector<size_t> comp(set.size());
      for (size_t i = 0; i < set.size(); ++i) comp[i] = i;
      for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < set.size(); ++i)
          for (size_t j = 0; j < set.size(); ++j)
            if (simhash_zh::hamming_distance(set[i], set[j]) <= k && comp[j] < comp[i]) comp[i] = comp[j], changed = true;
      }
      for (size_t i = 0; i < set.size(); ++i) mismatches += label[i] != comp[i];
    }
  }
  check(mismatches == 0, "dedup and cluster equal their O(n^2) definitions");
}


// The packed trie (trie_view.h) and the file's own slots walk to the same words and entries.
void test_packed_trie_walk() {
  using simhash_zh::Dictionary;
  simhash_zh::DictStatus status;
  auto packed = Dictionary::from_file("dict/jieba.dict", &status);
  auto wide = Dictionary::from_file("dict/jieba.dict", &status, false);
  if (!packed || !wide) return;  // test_segmenter reports the missing dictionary
  check(packed->packed_trie() != nullptr && wide->packed_trie() == nullptr, "jieba's trie is packed unless asked not to");
  // Pieces of real text, cut at random: many walks that go part way into a word.
  const std::string source =
      "中华人民共和国成立于一九四九年，北京大学和清华大学都是著名的高等学府。我们中出了一个叛徒，"
      "研究生命起源的科学家发现了新的证据。网球拍卖会在上海举行，abc123 和 T恤 都卖完了。"
      "他说：“明天下雨的话，我们就不去长城了。”南京市长江大桥于一九六八年建成通车。";
  std::vector<std::string> chars;
  for (size_t i = 0, next; i < source.size(); i = next) {
    next = i + simhash_zh::valid_utf8_length(static_cast<unsigned char>(source[i]));
    chars.push_back(source.substr(i, next - i));
  }
  simhash_zh::Segmenter a(packed);
  simhash_zh::Segmenter b(wide);
  simhash_zh_test::Rng rng{20261207};
  size_t mismatches = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const size_t pieces = 1 + rng.next() % 12;
    for (size_t k = 0; k < pieces; ++k) {
      const size_t from = rng.next() % chars.size();
      const size_t length = 1 + rng.next() % 8;
      for (size_t c = from; c < from + length && c < chars.size(); ++c) text += chars[c];
    }
    const int flags = static_cast<int>(rng.next() % 3);
    const int mode = flags == 0 ? 0 : flags == 1 ? simhash_zh::kSegmentHmm : simhash_zh::kSegmentLongest;
    std::vector<int64_t> got[2];
    simhash_zh::Segmenter* segs[2] = {&a, &b};
    for (int k = 0; k < 2; ++k) {
      segs[k]->segment(text, mode | simhash_zh::kSegmentEntries, [&](size_t start, size_t end, int32_t entry) {
        got[k].push_back(static_cast<int64_t>(start) << 40 | static_cast<int64_t>(end) << 20 | (entry + 1));
      });
    }
    if (got[0] != got[1]) ++mismatches;
  }
  check(mismatches == 0, "packed and wide tries give the same words and entries");
}

// Segmenter over the binary dictionary (dict/jieba.dict, built by `npm run build:dict`).
void test_segmenter() {
  using simhash_zh::Dictionary;
  using simhash_zh::DictError;
  using simhash_zh::DictStatus;
  check(simhash_zh::det_log_scaled(1) == 0 && simhash_zh::det_log_scaled(2) == 726817, "det_log_scaled");
  check(simhash_zh::det_exp_floor(simhash_zh::det_log_scaled(1000)) == 1000, "det_exp_floor inverts det_log_scaled");
  check(simhash_zh::crc32(reinterpret_cast<const uint8_t*>("123456789"), 9) == 0xcbf43926u, "crc32 check value");
  DictStatus status;
  auto dict = Dictionary::from_file("dict/jieba.dict", &status);
  if (!dict) {
    std::printf("segmenter tests skipped: %s (run `npm run build:dict`)\n", status.message.c_str());
    return;
  }
  simhash_zh::Segmenter seg(dict);
  const std::string s1 = "我们中出了一个叛徒";
  check(seg_words(seg, s1, 0) == std::vector<std::string>{"我们", "中", "出", "了", "一个", "叛徒"}, "cut without HMM");
  check(seg_words(seg, s1, simhash_zh::kSegmentHmm) == std::vector<std::string>{"我们", "中出", "了", "一个", "叛徒"},
        "cut with HMM");
  check(seg_words(seg, "abc网球拍卖会def", 0) == std::vector<std::string>{"abc", "网球", "拍卖会", "def"}, "ASCII runs");
  check(seg_words(seg, "研究生命起源", simhash_zh::kSegmentLongest) ==
            std::vector<std::string>{"研究生", "命", "起源"}, "longest mode");
  bool entries_ok = true;
  const std::string s2 = "中国的科学院和北京大学";
  seg.for_each_word(s2, true, [&](size_t start, size_t end, int32_t entry) {
    entries_ok = entries_ok && entry == seg.entry_of(s2.substr(start, end - start));
  });
  check(entries_ok, "for_each_word reports each word's entry");
  check(seg.entry_idf(seg.entry_of("中国")) > 0 && seg.is_stop_word("的") && !seg.is_stop_word("中国"), "IDF and stop words");
  check(seg.add_word("杭研大厦", 10) == 10 &&
            seg_words(seg, "网易杭研大厦", simhash_zh::kSegmentHmm) == std::vector<std::string>{"网易", "杭研大厦"},
        "add_word");
  {
    simhash_zh::Segmenter copy(seg);  // keeps the added word, shares the dictionary
    check(seg_words(copy, "网易杭研大厦", simhash_zh::kSegmentHmm) == std::vector<std::string>{"网易", "杭研大厦"} &&
              &copy.dictionary() == &seg.dictionary(),
          "a copied segmenter keeps its words");
  }
  {
    // Changed frequencies of dictionary words: copies share one table until one changes again.
    simhash_zh::Segmenter a(dict);
    const int32_t grad = a.entry_of("研究生");
    const int32_t life = a.entry_of("生命");
    const double life_freq = a.entry_freq(life);
    a.add_word("研究生", 1000000);
    const size_t alone = a.memory_bytes();
    simhash_zh::Segmenter b(a);
    const size_t shared = a.memory_bytes() + b.memory_bytes();
    b.add_word("生命", 0);
    const size_t apart = a.memory_bytes() + b.memory_bytes();
    check(a.entry_freq(grad) == 1000000 && b.entry_freq(grad) == 1000000 && a.entry_freq(life) == life_freq &&
              b.entry_freq(life) == 0,
          "changed frequencies are copied on write");
    check(seg_words(a, "研究生命起源", 0) == std::vector<std::string>{"研究生", "命", "起源"} &&
              seg_words(b, "研究生命起源", 0) == std::vector<std::string>{"研究生", "命", "起源"} &&
              seg_words(a, "生命起源", 0) == std::vector<std::string>{"生命", "起源"} &&
              seg_words(b, "生命起源", 0) != std::vector<std::string>{"生命", "起源"},
          "a copy's change leaves the original's words alone");
    check(alone > 4000000 && shared < alone + 1000000 && apart > alone + 4000000, "a shared frequency table is counted once");
  }
  {
    simhash_zh::Segmenter s(dict);
    bool threw = false;
    try {
      s.segment("我们中出了一个叛徒", 0, [](size_t, size_t, int32_t) { throw std::runtime_error("visitor"); });
    } catch (const std::runtime_error&) {
      threw = true;
    }
    check(threw && s.add_word("叛徒们", 10) == 10 &&
              seg_words(s, "我们中出了一个叛徒", 0) == std::vector<std::string>{"我们", "中", "出", "了", "一个", "叛徒"},
          "a run that throws leaves the segmenter idle: add_word and the next run work");
  }
  // A block with no word boundary is cut into windows; the words still cover it.
  std::string laugh;
  for (int i = 0; i < 200000; i++) laugh += "哈";
  size_t covered = 0;
  bool contiguous = true;
  seg.for_each_word(laugh, true, [&](size_t start, size_t end, int32_t) {
    contiguous = contiguous && start == covered;
    covered = end;
  });
  check(contiguous && covered == laugh.size(), "long block covered contiguously");

  // Damaged files: an error, never a crash.
  std::vector<uint8_t> bytes(dict->byte_size());
  {
    std::FILE* f = std::fopen("dict/jieba.dict", "rb");
    check(f != nullptr && std::fread(bytes.data(), 1, bytes.size(), f) == bytes.size(), "read dictionary bytes");
    if (f) std::fclose(f);
  }
  auto load = [](std::vector<uint8_t> b, DictError* code) {
    DictStatus st;
    auto d = Dictionary::from_bytes(b.data(), b.size(), &st);
    *code = st.code;
    return d != nullptr;
  };
  DictError code;
  check(load(bytes, &code), "intact bytes load");
  auto truncated = bytes;
  truncated.resize(bytes.size() - 7);
  check(!load(truncated, &code) && code == DictError::kCorrupt, "truncated -> corrupt");
  auto flipped = bytes;
  flipped[flipped.size() / 2] ^= 1;
  check(!load(flipped, &code) && code == DictError::kCorrupt, "flipped byte -> corrupt");
  auto version = bytes;
  version[8] = static_cast<uint8_t>(simhash_zh::kDictFormatVersion + 1);
  check(!load(version, &code) && code == DictError::kVersion, "other version -> version");
  DictStatus st;
  check(!Dictionary::from_file("dict/does-not-exist.dict", &st) && st.code == DictError::kIo, "missing file -> io");
  // Mutations with a valid checksum must be caught by validation, or load and segment safely.
  uint32_t rng = 12345;
  int loaded = 0;
  for (int i = 0; i < 60; i++) {
    auto m = bytes;
    for (int k = 0; k < 4; k++) {
      rng = rng * 1103515245u + 12345u;
      const size_t at = 16 + (rng >> 3) % 4096;  // header, section table, character map
      m[at] = static_cast<uint8_t>(rng >> 24);
    }
    const uint32_t crc = simhash_zh::crc32(m.data() + 16, m.size() - 16);
    std::memcpy(m.data() + 12, &crc, 4);
    DictStatus ms;
    auto d = Dictionary::from_bytes(m.data(), m.size(), &ms);
    if (d) {
      simhash_zh::Segmenter s(d);
      seg_words(s, "我们中出了一个叛徒，abc 123 杭研大厦", simhash_zh::kSegmentHmm);
      loaded++;
    }
  }
  check(true, "mutated dictionaries never crash");
  (void)loaded;

  // ASCII characters that start a word of two or more characters (jieba: 'c++', '1号店', '4s店',
  // and capitals such as 'T恤'); the segmenter takes every other one as a word of its own.
  const uint32_t* starts = dict->ascii_word_starts();
  auto starts_word = [&](char c) { return ((starts[c >> 5] >> (c & 31)) & 1u) != 0; };
  check(starts_word('c') && starts_word('1') && starts_word('4') && starts_word('T') && !starts_word('a') &&
            !starts_word('x') && !starts_word('0') && !starts_word(' ') && !starts_word('+'),
        "ASCII word starts of jieba's dictionary");
  check(seg_words(seg, "c++和x光 1号店ab", 0) == std::vector<std::string>{"c++", "和", "x", "光", " ", "1号店", "ab"},
        "ASCII characters that start words, and ones that do not");
  {
    simhash_zh::Segmenter used(dict);
    seg_words(used, "xyz", 0);  // the shortcut is set up for 'x'
    used.add_word("x光", 1000);
    check(seg_words(used, "x光", 0) == std::vector<std::string>{"x光"}, "a word added after use starts with 'x'");
  }
  {
    // A parent cycle (a damaged file that passes validation): the climb gives up and marks
    // every character, and the segmenter still works. Find a three-character word: the slot
    // of its last character t, t's parent p and p's parent g, a child of the root.
    using simhash_zh::TrieNode;
    const TrieNode* trie = dict->trie();
    uint32_t t = 1;
    while (t < dict->trie_slots() &&
           !(trie[t].entry >= 0 && trie[t].check > 0 && trie[trie[t].check].check > 0 &&
             trie[trie[trie[t].check].check].check == 0 && dict->log_freq(trie[t].entry) >= 0)) {
      t++;
    }
    check(t < dict->trie_slots(), "a three-character word");
    const int32_t p = trie[t].check;
    const int32_t g = trie[p].check;
    uint32_t trie_offset = 0;
    for (uint32_t k = 0; k < 16; k++) {
      uint32_t id, offset;
      std::memcpy(&id, bytes.data() + simhash_zh::kDictHeaderSize + k * 16, 4);
      std::memcpy(&offset, bytes.data() + simhash_zh::kDictHeaderSize + k * 16 + 4, 4);
      if (id == 3) trie_offset = offset;  // the trie section
    }
    auto cyclic = bytes;
    TrieNode node_g, node_p;
    std::memcpy(&node_g, cyclic.data() + trie_offset + g * sizeof(TrieNode), sizeof(TrieNode));
    std::memcpy(&node_p, cyclic.data() + trie_offset + p * sizeof(TrieNode), sizeof(TrieNode));
    node_g.check = p;  // g's parent is now p, whose parent is g
    node_p.children |= 1u << ((static_cast<uint32_t>(g) - static_cast<uint32_t>(node_p.base)) & 31);
    std::memcpy(cyclic.data() + trie_offset + g * sizeof(TrieNode), &node_g, sizeof(TrieNode));
    std::memcpy(cyclic.data() + trie_offset + p * sizeof(TrieNode), &node_p, sizeof(TrieNode));
    const uint32_t crc = simhash_zh::crc32(cyclic.data() + 16, cyclic.size() - 16);
    std::memcpy(cyclic.data() + 12, &crc, 4);
    DictStatus cs;
    auto d = Dictionary::from_bytes(cyclic.data(), cyclic.size(), &cs);
    check(d != nullptr, "a parent cycle passes validation");
    if (d) {
      const uint32_t* all = d->ascii_word_starts();
      check(all[0] == ~0u && all[1] == ~0u && all[2] == ~0u && all[3] == ~0u, "a parent cycle marks every character");
      simhash_zh::Segmenter s(d);
      check(seg_words(s, "abc网球", 0).size() >= 2, "and the segmenter works");
    }
  }
}
}  // namespace

// Regression (libFuzzer, dictionary_load): an empty buffer with a null pointer is a corrupt
// dictionary, not a memcpy from null.
void test_dictionary_empty_bytes() {
  simhash_zh::DictStatus status;
  check(simhash_zh::Dictionary::from_bytes(nullptr, 0, &status) == nullptr &&
            status.code != simhash_zh::DictError::kOk,
        "an empty dictionary buffer is rejected");
}

// The minhash sketch is a function of the set of (hash, weight) pairs: the order they are
// offered in, including ties (equal rank x weight products), the branching mode and a reused
// sketch change nothing; no feature gives 0.
void test_minhash_sketch() {
  Rng rng{0x5eed};
  bool order_free = true;
  bool modes_agree = true;
  for (int trial = 0; trial < 2000; ++trial) {
    const int bits = (trial & 1) ? 128 : 64;
    std::vector<std::pair<simhash_zh::Fingerprint, uint64_t>> items;
    const int n = 1 + static_cast<int>(rng.next() % 300);
    for (int i = 0; i < n; ++i) {
      simhash_zh::Fingerprint h{rng.next(), rng.next()};
      // Small ranks and weights make ties common.
      if (trial % 3 == 0) h.lo &= 0xFC000003FC000003ULL, h.hi &= 0xFC000003FC000003ULL;
      items.push_back({h, 1 + rng.next() % ((trial % 3 == 0) ? 3 : 4294836225ULL)});
    }
    simhash_zh::MinHashSketch a, b, c;
    const auto hash_of = [&items](uint32_t i) -> const simhash_zh::Fingerprint& { return items[i].first; };
    a.reset(bits);
    for (uint32_t i = 0; i < items.size(); ++i) a.add<false>(i, items[i].second, hash_of);
    const simhash_zh::Fingerprint fa = a.finish(hash_of);
    for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[rng.next() % i]);
    b.reset(bits);
    for (uint32_t i = 0; i < items.size(); ++i) b.add<false>(i, items[i].second, hash_of);
    c.reset(128);
    c.add<true>(0, 7, hash_of);  // reused below: reset must forget it
    c.reset(bits);
    for (uint32_t i = 0; i < items.size(); ++i) c.add<true>(i, items[i].second, hash_of);
    const simhash_zh::Fingerprint fb = b.finish(hash_of), fc = c.finish(hash_of);
    order_free = order_free && fa.lo == fb.lo && fa.hi == fb.hi;
    modes_agree = modes_agree && fa.lo == fc.lo && fa.hi == fc.hi;
    if (bits == 64) order_free = order_free && fa.hi == 0;
  }
  check(order_free, "minhash sketch: independent of the order features are offered in (ties too)");
  check(modes_agree, "minhash sketch: both branching modes and a reused sketch agree");
  simhash_zh::MinHashSketch empty;
  empty.reset(64);
  const auto no_hash = [](uint32_t) -> simhash_zh::Fingerprint { return {}; };
  check(empty.finish(no_hash).lo == 0 && empty.finish(no_hash).hi == 0, "minhash sketch: no feature gives 0");
}

int main() {
  test_minhash_sketch();
  test_dictionary_empty_bytes();
  test_simhash_chinese_seed_demo();
  test_mysimhash();
  test_utf16();
  test_url_spans();
  test_email_spans();
  test_hamming();
  test_index_layouts();
  test_index_brute_force();
  test_index_updates();
  test_index_format();
  test_dedup_cluster();
  test_segmenter();
  test_packed_trie_walk();
  std::printf("core: %d passed, %d failed\n", simhash_zh_test::passed, simhash_zh_test::failed);
  return simhash_zh_test::failed == 0 ? 0 : 1;
}

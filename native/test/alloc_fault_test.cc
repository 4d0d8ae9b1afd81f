// Allocation failure injection for the C++ core, apart from core_test (which runs under valgrind,
// whose allocator this replacement would fight). Updates of a SimHashIndex and calls of a
// Segmenter or a DefaultPipeline that run out of memory part way must leave them consistent: the
// N-API glue turns std::bad_alloc into a JS error and the object lives on. Built by plain cmake,
// run by `npm run test:core`.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "dictionary.h"
#include "index_checker.h"
#include "pipeline.h"
#include "segmenter.h"
#include "simhash_index.h"
#include "test_support.h"

// Allocation failure injection: while alloc_budget >= 0, each allocation spends one and the one
// that finds none left throws std::bad_alloc (as under a memory cap).
namespace {
long alloc_budget = -1;
}  // namespace

// Exported from the executable (CMake ENABLE_EXPORTS), so the standard library's own allocations
// come here too. GCC cannot tell that this operator new allocates with malloc, and warns where
// the matching delete frees.
void* operator new(std::size_t size) {
  if (alloc_budget >= 0 && alloc_budget-- == 0) throw std::bad_alloc();
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace {

using simhash_zh_test::check;
using simhash_zh_test::flip_bits;
using simhash_zh_test::index_query;
using simhash_zh_test::make_set;
using simhash_zh_test::ReferenceIndex;
using simhash_zh_test::Rng;
using simhash_zh_test::seg_words;

// Index updates that run out of memory part way leave an index that answers for what it holds:
// queries equal a brute-force scan of its live entries, and size() and has() agree with them.
void test_index_allocation_failures() {
  Rng rng{7};
  for (int bits : {64, 128}) {
    simhash_zh::SimHashIndex index(bits, 3, 4);
    const auto pool = make_set(1, 300, bits, rng);
    int failures = 0;
    int inconsistent = 0;
    for (int step = 0; step < 3000; ++step) {
      const uint64_t id = rng.next() % 2000;
      const int op = static_cast<int>(rng.next() % 10);
      std::vector<uint64_t> ids, words;
      if (op >= 8) {
        for (int i = 0; i < 150; ++i) {
          ids.push_back(rng.next() % 2000);
          const auto fp = pool[rng.next() % pool.size()];
          words.push_back(fp.lo);
          if (bits == 128) words.push_back(fp.hi);
        }
      }
      const auto fp = pool[rng.next() % pool.size()];
      alloc_budget = rng.next() % 3 == 0 ? static_cast<long>(rng.next() % 6) : -1;
      try {
        if (op < 6) {
          index.add(id, fp);
        } else if (op < 8) {
          index.remove(id);
        } else {
          index.add_many(ids.data(), words.data(), ids.size());
        }
      } catch (const std::bad_alloc&) {
        ++failures;
      }
      alloc_budget = -1;
      ReferenceIndex live;
      index.for_each([&](uint64_t i, simhash_zh::Fingerprint f) { live.entries.push_back({i, f}); });
      if (live.entries.size() != index.size() || index.has(id) != live.has(id)) ++inconsistent;
      const auto q = flip_bits(pool[rng.next() % pool.size()], static_cast<int>(rng.next() % 4), bits, rng);
      if (index_query(index, q, 3) != live.query(q, 3)) ++inconsistent;
    }
    check(failures > 200 && inconsistent == 0,
          bits == 64 ? "index updates that run out of memory leave a consistent index (64)"
                     : "index updates that run out of memory leave a consistent index (128)");
  }
}

// A segmenter whose add_word or run runs out of memory part way (its buffers grow in runs of
// Han text with no boundary, HMM runs included) segments afterwards exactly as one that only saw
// the calls that succeeded.
void test_segmenter_allocation_failures(const std::shared_ptr<const simhash_zh::Dictionary>& dict) {
  const std::string pieces[] = {"我们中出了一个叛徒", "研究生命起源", "北京大学生活", "韩玉赏鉴", "杭研大厦", "哈哈哈", "靓仔靓女"};
  Rng rng{99};
  int failures = 0;
  int differences = 0;
  for (int trial = 0; trial < 150; ++trial) {
    simhash_zh::Segmenter seg(dict);
    simhash_zh::Segmenter shadow(dict);  // gets only the calls that succeeded
    for (int step = 0; step < 6; ++step) {
      std::string text;
      const size_t length = 50 + rng.next() % 1500;
      while (text.size() < length * 3) text += pieces[rng.next() % 7];
      const int flags = static_cast<int>(rng.next() % 2) * simhash_zh::kSegmentHmm;
      const bool add = rng.next() % 3 == 0;
      const std::string word = pieces[rng.next() % 7].substr(0, 3 * (2 + rng.next() % 3));
      const double freq = static_cast<double>(rng.next() % 3 == 0 ? 0 : rng.next() % 100000);
      alloc_budget = static_cast<long>(rng.next() % 12);
      bool threw = false;
      try {
        if (add) {
          seg.add_word(word, freq);
        } else {
          size_t covered = 0;
          seg.segment(text, flags, [&](size_t start, size_t end, int32_t) { covered = start == covered ? end : covered; });
        }
      } catch (const std::bad_alloc&) {
        threw = true;
        ++failures;
      }
      alloc_budget = -1;
      if (add && !threw) shadow.add_word(word, freq);
      if (seg_words(seg, text, flags) != seg_words(shadow, text, flags)) ++differences;
    }
  }
  check(failures > 100 && differences == 0, "a segmenter that runs out of memory part way segments as before");
}

// A pipeline whose calls run out of memory part way answers every later call as before (its
// scratch is dropped with the failed call; the configured segmenter is never written).
void test_pipeline_allocation_failures(const std::shared_ptr<const simhash_zh::Dictionary>& dict) {
  const std::string pieces[] = {"我们中出了一个叛徒，", "研究生命起源", "<p>北京大学生活</p>", "韩玉赏鉴 SimHash", "杭研大厦。", "哈哈哈", "ＡＢＣ１２３"};
  simhash_zh::PipelineOptions options;
  options.user_words = {{"杭研大厦", 100}, {"北京", 10}, {"靓仔", -1}};
  const simhash_zh::DefaultPipeline pipeline(dict, options);
  const simhash_zh::DefaultPipeline fresh(dict, options);
  Rng rng{5};
  int failures = 0;
  int differences = 0;
  for (int step = 0; step < 400; ++step) {
    std::string text;
    const size_t length = rng.next() % 3000;
    while (text.size() < length) text += pieces[rng.next() % 7];
    const int call = static_cast<int>(rng.next() % 3);
    alloc_budget = static_cast<long>(rng.next() % 16);
    try {
      if (call == 0) {
        pipeline.fingerprint(text);
      } else if (call == 1) {
        pipeline.features(text);
      } else {
        const std::string_view texts[2] = {text, pieces[0]};
        simhash_zh::Fingerprint out[2];
        pipeline.fingerprint_batch(
            2, [](void* context, size_t i) { return static_cast<const std::string_view*>(context)[i]; },
            const_cast<std::string_view*>(texts), out);
      }
    } catch (const std::bad_alloc&) {
      ++failures;
    }
    alloc_budget = -1;
    const auto a = pipeline.fingerprint(text);
    const auto b = fresh.fingerprint(text);
    if (a.lo != b.lo || a.hi != b.hi || pipeline.features(text).items().size() != fresh.features(text).items().size()) {
      ++differences;
    }
  }
  check(failures > 100 && differences == 0, "a pipeline that runs out of memory part way answers as before");
}

}  // namespace

int main() {
  test_index_allocation_failures();
  simhash_zh::DictStatus status;
  const auto dict = simhash_zh::Dictionary::from_file("dict/jieba.dict", &status);
  if (dict) {
    test_segmenter_allocation_failures(dict);
    test_pipeline_allocation_failures(dict);
  } else {
    std::printf("segmenter allocation tests skipped: %s (run `npm run build:dict`)\n", status.message.c_str());
  }
  std::printf("allocation faults: %d passed, %d failed\n", simhash_zh_test::passed, simhash_zh_test::failed);
  return simhash_zh_test::failed == 0 ? 0 : 1;
}

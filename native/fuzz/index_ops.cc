// libFuzzer target: SimHashIndex updates and queries (simhash_index.h), checked against a plain
// list (native/test/index_checker.h, shared with the core test). The input is a program: a header
// picks (bits, maxDistance, tables), then each op byte adds, removes, queries (compared with the
// reference, as is brute_force_query), bulk-adds or round-trips the index through its file format.
// Fingerprints are drawn near a few centres so queries have matches, and ids from a small range so
// replacements and removals hit.
#include <memory>
#include <utility>
#include <vector>

#include "../test/index_checker.h"
#include "fuzz_util.h"
#include "index_format.h"
#include "simhash_index.h"

namespace {

using simhash_zh::Fingerprint;
using simhash_zh_fuzz::Reader;
using simhash_zh_fuzz::require;
using simhash_zh_test::ReferenceIndex;

Fingerprint draw(Reader& in, const Fingerprint* centres, int bits) {
  Fingerprint fp = centres[in.u8() % 4];
  const int flips = in.u8() % 12;
  for (int i = 0; i < flips; ++i) {
    const int b = in.u8() % bits;
    if (b < 64) fp.lo ^= uint64_t{1} << b;
    else fp.hi ^= uint64_t{1} << (b - 64);
  }
  return fp;
}

void check_query(const simhash_zh::SimHashIndex& index, const ReferenceIndex& model, Fingerprint q, int k) {
  const auto expect = model.query(q, k);
  require(simhash_zh_test::index_query(index, q, k) == expect, "query equals the reference");
  require(simhash_zh_test::index_brute_force_query(index, q, k) == expect, "brute force equals the reference");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader in{data, size};
  const int bits = (in.u8() & 1) ? 128 : 64;
  const int k = in.u8() % (simhash_zh::max_supported_distance(bits) + 1);
  const std::vector<int> counts = simhash_zh::supported_table_counts(bits, k);
  require(!counts.empty(), "every distance up to max_supported_distance has a layout");
  const int tables = counts[in.u8() % counts.size()];
  if (tables > 64) return 0;  // keep each run fast
  Fingerprint centres[4];
  for (auto& c : centres) c = Fingerprint{in.u64(), bits == 128 ? in.u64() : 0};

  auto index = std::make_unique<simhash_zh::SimHashIndex>(bits, k, tables);
  ReferenceIndex model;
  for (int steps = 0; !in.done() && steps < 2000; ++steps) {
    const uint8_t op = in.u8();
    switch (op % 6) {
      case 0:
      case 1: {  // add (or replace)
        const uint64_t id = in.u8() % 64;
        const Fingerprint fp = draw(in, centres, bits);
        require(index->add(id, fp) == model.has(id), "add reports a replacement");
        model.add(id, fp);
        break;
      }
      case 2: {  // remove
        const uint64_t id = in.u8() % 64;
        require(index->remove(id) == model.remove(id), "remove reports what it removed");
        break;
      }
      case 3:  // query
        check_query(*index, model, draw(in, centres, bits), in.u8() % (k + 1));
        break;
      case 4: {  // bulk add of up to 300 fresh-ish ids (crosses the tail limit)
        const size_t n = in.u8() + 45;
        std::vector<uint64_t> ids(n), words;
        for (size_t i = 0; i < n; ++i) {
          ids[i] = 64 + (in.u8() % 200);
          const Fingerprint fp = draw(in, centres, bits);
          words.push_back(fp.lo);
          if (bits == 128) words.push_back(fp.hi);
          model.add(ids[i], fp);
        }
        index->add_many(ids.data(), words.data(), n);
        break;
      }
      default: {  // file round trip
        std::vector<uint8_t> bytes(simhash_zh::serialized_size(*index));
        simhash_zh::serialize_index(*index, bytes.data());
        auto loaded = simhash_zh::deserialize_index(bytes.data(), bytes.size());
        require(loaded.error == simhash_zh::IndexLoadError::kNone, "a written index loads");
        index = std::move(loaded.index);
        break;
      }
    }
    require(index->size() == model.entries.size(), "size equals the reference");
  }
  size_t i = 0;
  index->for_each([&](uint64_t id, Fingerprint fp) {
    require(i < model.entries.size() && model.entries[i].first == id &&
                simhash_zh_fuzz::same(model.entries[i].second, fp), "entries keep insertion order");
    ++i;
  });
  return 0;
}

// libFuzzer target: the SimHashIndex file reader (index_format.h) on arbitrary bytes.
//
// The first byte picks the mode: even = the rest is the file as is (exercises the header and CRC
// checks); odd = the harness first rewrites both CRC-32 fields to match, so mutations reach the
// field, id and payload checks behind them. A file that loads must serialize back to the same
// bytes and answer queries exactly as a linear scan does.
#include <vector>

#include "fuzz_util.h"
#include "index_format.h"
#include "simhash_index.h"

namespace {

void put_u32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simhash_zh_fuzz;
  if (size == 0) return 0;
  std::vector<uint8_t> file(data + 1, data + size);
  if ((data[0] & 1) && file.size() >= simhash_zh::kIndexHeaderSize + 4) {
    put_u32(file.data() + 28, simhash_zh::crc32(0, file.data(), 28));
    const size_t payload = file.size() - simhash_zh::kIndexHeaderSize - 4;
    put_u32(file.data() + file.size() - 4, simhash_zh::crc32(0, file.data() + simhash_zh::kIndexHeaderSize, payload));
  }
  // nullptr with size 0 is a legal call too.
  simhash_zh::IndexLoadResult result = simhash_zh::deserialize_index(file.empty() ? nullptr : file.data(), file.size());
  if (result.error != simhash_zh::IndexLoadError::kNone) {
    require(result.index == nullptr, "a failed load returns no index");
    require(!result.message.empty(), "a failed load says why");
    return 0;
  }
  require(result.index != nullptr, "a load without error returns an index");
  const simhash_zh::SimHashIndex& index = *result.index;
  require(simhash_zh::serialized_size(index) == file.size(), "serialized size equals the file size");
  std::vector<uint8_t> again(file.size());
  simhash_zh::serialize_index(index, again.data());
  require(again == file, "a loaded file serializes back to the same bytes");

  std::vector<simhash_zh::IndexMatch> fast, slow;
  size_t seen = 0;
  index.for_each([&](uint64_t id, simhash_zh::Fingerprint fp) {
    require(id <= simhash_zh::kMaxIndexId, "ids are safe integers");
    if (seen++ >= 8) return;
    index.query(fp, index.max_distance(), fast);
    index.brute_force_query(fp, index.max_distance(), slow);
    require(fast.size() == slow.size(), "query finds what a linear scan finds");
    for (size_t i = 0; i < fast.size(); ++i) {
      require(fast[i].slot == slow[i].slot && fast[i].distance == slow[i].distance, "query order equals the scan's");
    }
    require(!fast.empty() && fast[0].distance == 0, "an entry finds itself");
  });
  require(seen == index.size(), "for_each visits size() entries");
  return 0;
}

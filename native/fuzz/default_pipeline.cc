// libFuzzer target: the default fingerprint pipeline (pipeline.h: normalize, segment, weight, hash,
// sum) over the real dictionary (dict/jieba.dict, or SIMHASH_ZH_FUZZ_DICT). The first two bytes pick
// the options (width, HTML mode, folding, case, weighting, feature set, HMM, stop words) and whether
// a word from the input is added as a user word; the rest is the text, as arbitrary bytes.
//
// Besides memory safety it checks each sketch against its definition, recomputed here from
// features(): for 'simhash' (the nibble histograms), bit i is set when the features with bit i set
// carry more than half the total weight; for 'minhash' (at 128 bits, where features() carries the
// whole hash), the bins as README describes them.
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include "feature_hash.h"
#include "fuzz_util.h"
#include "pipeline.h"

namespace {

using simhash_zh::Fingerprint;

std::shared_ptr<const simhash_zh::Dictionary> load() {
  const char* path = std::getenv("SIMHASH_ZH_FUZZ_DICT");
  simhash_zh::DictStatus status;
  auto dict = simhash_zh::Dictionary::from_file(path ? path : "dict/jieba.dict", &status);
  if (!dict) {
    std::fprintf(stderr, "default_pipeline fuzz target: cannot load the dictionary: %s\n", status.message.c_str());
    std::abort();
  }
  return dict;
}

simhash_zh::PipelineOptions options_for(uint8_t a, uint8_t b) {
  simhash_zh::PipelineOptions o;
  o.bits = (a & 1) ? 128 : 64;
  o.normalize.html = static_cast<simhash_zh::HtmlMode>((a >> 1) % 3);
  o.normalize.fold_width = (a & 8) != 0;
  o.normalize.lowercase = (a & 16) != 0;
  o.weighting = static_cast<simhash_zh::Weighting>((a >> 5) & 3);
  o.features = static_cast<simhash_zh::FeatureSet>(b % 3);
  o.hmm = (b & 4) != 0;
  o.use_stop_words = (b & 8) != 0;
  o.drop_numbers = (b & 16) != 0;
  o.whole_urls = (b & 32) != 0;
  o.sketch = (a & 128) ? simhash_zh::Sketch::kSimHash : simhash_zh::Sketch::kMinHash;
  return o;
}

// The definition of the fingerprint, from the features and their weights.
Fingerprint from_features(const simhash_zh::FeatureList& features, int bits) {
  double total = 0;
  double set[128] = {0};
  for (const simhash_zh::Feature& f : features.items()) {
    total += f.weight;
    for (int i = 0; i < bits; ++i) {
      const uint64_t word = i < 64 ? f.hash.lo : f.hash.hi;
      if ((word >> (i & 63)) & 1U) set[i] += f.weight;
    }
  }
  Fingerprint fp;
  for (int i = 0; i < bits; ++i) {
    if (2 * set[i] > total) {
      if (i < 64) fp.lo |= uint64_t{1} << i;
      else fp.hi |= uint64_t{1} << (i - 64);
    }
  }
  return fp;
}

// The minhash sketch's definition (README, Hashing), written plainly: needs the full 128-bit
// hashes, so 128-bit fingerprints only.
Fingerprint minhash_from_features(const simhash_zh::FeatureList& features, int bits) {
  struct Holder {
    bool full = false;
    uint64_t rank = 0, weight = 0, lo = 0, hi = 0;
    int bit = 0;
  } bins[128];
  const int shift = bits == 128 ? 25 : 26;
  for (const simhash_zh::Feature& f : features.items()) {
    const uint64_t weight = static_cast<uint64_t>(f.weight);
    const uint32_t words[4] = {static_cast<uint32_t>(f.hash.lo), static_cast<uint32_t>(f.hash.lo >> 32),
                               static_cast<uint32_t>(f.hash.hi), static_cast<uint32_t>(f.hash.hi >> 32)};
    for (uint32_t word : words) {
      Holder& h = bins[word >> shift];
      const uint64_t rank = word & ((1U << 21) - 1);
      const bool smaller_hash = f.hash.lo < h.lo || (f.hash.lo == h.lo && f.hash.hi < h.hi);
      if (!h.full || rank * h.weight < h.rank * weight || (rank * h.weight == h.rank * weight && smaller_hash)) {
        h = Holder{true, rank, weight, f.hash.lo, f.hash.hi, static_cast<int>(((word >> 21) & 3U) == 0)};
      }
    }
  }
  Fingerprint fp;
  bool any = false;
  for (int i = 0; i < bits; ++i) any = any || bins[i].full;
  if (!any) return fp;
  for (int i = 0; i < bits; ++i) {
    int bit = bins[i].bit;
    if (!bins[i].full) {
      const int step = (simhash_zh::murmur::fmix(static_cast<uint32_t>(i) + 0x9E3779B9U) >> 31) ? bits - 1 : 1;
      int source = i;
      do source = (source + step) % bits; while (!bins[source].full);
      bit = static_cast<int>((simhash_zh::murmur::fmix(static_cast<uint32_t>(bins[source].lo) ^ (static_cast<uint32_t>(i + 1) * 0x9E3779B9U)) >> 30) == 0);
    }
    if (bit) {
      if (i < 64) fp.lo |= uint64_t{1} << i;
      else fp.hi |= uint64_t{1} << (i - 64);
    }
  }
  return fp;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simhash_zh_fuzz;
  static const std::shared_ptr<const simhash_zh::Dictionary> dict = load();
  static std::map<int, std::unique_ptr<simhash_zh::DefaultPipeline>> cache;
  if (size < 2) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);
  simhash_zh::PipelineOptions options = options_for(data[0], data[1]);
  std::unique_ptr<simhash_zh::DefaultPipeline> own;
  const simhash_zh::DefaultPipeline* pipeline;
  if (data[1] & 16) {
    // User words and custom stop words taken from the input: a fresh pipeline.
    options.user_words.emplace_back(std::string(text.substr(0, (data[1] >> 5) + 1)), (data[1] & 32) ? -1.0 : 1000.0);
    options.custom_stop_words = true;
    options.stop_words.emplace_back(text.substr(0, 3));
    own = std::make_unique<simhash_zh::DefaultPipeline>(dict, options);
    pipeline = own.get();
  } else {
    const int key = data[0] | ((data[1] & 15) << 8);
    auto& slot = cache[key];
    if (!slot) slot = std::make_unique<simhash_zh::DefaultPipeline>(dict, options);
    pipeline = slot.get();
  }
  const Fingerprint fp = pipeline->fingerprint(text);
  require(same(fp, pipeline->fingerprint(text)), "fingerprint is deterministic");
  require(options.bits == 128 || fp.hi == 0, "a 64-bit fingerprint has hi == 0");
  const simhash_zh::FeatureList features = pipeline->features(text);
  const bool minhash = options.sketch == simhash_zh::Sketch::kMinHash;
  // Weights: (2^16 - 1)^2 at most for the minhash race, 2^26 for SimHash's sums.
  const double max_weight = minhash ? 65535.0 * 65535.0 : 67108864.0;
  for (const simhash_zh::Feature& f : features.items()) {
    require(!f.bytes.empty(), "no empty feature");
    require(f.weight > 0 && std::isfinite(f.weight) && f.weight <= max_weight, "weights are in (0, max]");
    require(valid_utf8(f.bytes), "features are valid UTF-8 (normalized text)");
  }
  if (!minhash) {
    require(same(fp, from_features(features, options.bits)), "fingerprint equals its definition over features()");
  } else if (options.bits == 128) {
    require(same(fp, minhash_from_features(features, options.bits)), "fingerprint equals the minhash definition over features()");
  } else if (features.items().empty()) {
    require(fp.lo == 0 && fp.hi == 0, "no features: fingerprint 0");
  }
  return 0;
}

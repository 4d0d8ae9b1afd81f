// libFuzzer target: the default fingerprint pipeline (pipeline.h: normalize, segment, weight, hash,
// sum) over the real dictionary (dict/jieba.dict, or SIMHASH_ZH_FUZZ_DICT). The first two bytes pick
// the options (width, HTML mode, folding, case, weighting, feature set, HMM, stop words) and whether
// a word from the input is added as a user word; the rest is the text, as arbitrary bytes.
//
// Besides memory safety it checks the optimised per-bit reduction (nibble histograms) against the
// definition: bit i is set when the features with bit i set carry more than half the total weight,
// recomputed here from features().
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

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
  for (const simhash_zh::Feature& f : features.items()) {
    require(!f.bytes.empty(), "no empty feature");
    require(f.weight > 0 && std::isfinite(f.weight) && f.weight <= 67108864.0, "weights are in (0, 2^26]");
    require(valid_utf8(f.bytes), "features are valid UTF-8 (normalized text)");
  }
  require(same(fp, from_features(features, options.bits)), "fingerprint equals its definition over features()");
  return 0;
}

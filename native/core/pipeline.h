// The default fingerprint pipeline: normalize (markup, width, case), segment
// with jieba's algorithm, drop punctuation and stop words, weight the word and
// character features, hash them (MurmurHash3_x86_128 over code points, h3 and h4 remixed) and
// sketch them: a weighted one-permutation MinHash (the default, minhash_sketch.h) or
// SimHash's weights summed per bit in 64-bit integers. lib/js/pipeline.ts is its twin.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "dictionary.h"
#include "fingerprinter.h"
#include "normalize.h"
#include "segmenter.h"

namespace simhash_zh {

enum class Weighting { kTfIdf = 0, kTf = 1, kLength = 2, kUniform = 3 };
enum class FeatureSet { kMixed = 0, kWords = 1, kChars = 2 };
enum class Sketch { kMinHash = 0, kSimHash = 1 };

struct PipelineOptions {
  int bits = 64;
  NormalizeOptions normalize;
  Weighting weighting = Weighting::kTfIdf;
  FeatureSet features = FeatureSet::kMixed;
  Sketch sketch = Sketch::kMinHash;
  bool hmm = false;
  bool drop_numbers = true;          // drop the words made only of ASCII digits
  bool whole_urls = true;            // a URL is one word feature (url.h), not its pieces
  bool use_stop_words = true;        // false: keep every word
  bool custom_stop_words = false;    // true: `stop_words` replaces the default list
  std::vector<std::string> stop_words;
  // Words added to the dictionary, in order (freq < 0: jieba's suggested frequency).
  std::vector<std::pair<std::string, double>> user_words;
};

// Feature kinds, as tokens() reports them.
constexpr uint8_t kFeatureWord = 0;
constexpr uint8_t kFeatureChar = 1;

class DefaultPipeline final : public Fingerprinter {
 public:
  DefaultPipeline(std::shared_ptr<const Dictionary> dictionary, PipelineOptions options);
  ~DefaultPipeline() override;

  int bits() const override { return options_.bits; }
  Fingerprint fingerprint(std::string_view utf8) const override;
  FeatureList features(std::string_view utf8) const override;
  void fingerprint_batch(size_t count, TextAt text_at, void* context, Fingerprint* out) const override;
  size_t memory_bytes() const override;

  struct Scratch;

 private:
  std::unique_ptr<Scratch> acquire() const;
  void release(std::unique_ptr<Scratch> scratch) const;
  void collect(std::string_view utf8, Scratch& s) const;
  Fingerprint fingerprint_with(std::string_view utf8, Scratch& s) const;
  Fingerprint minhash_of(Scratch& s) const;
  Fingerprint simhash_of(const Scratch& s) const;

  std::shared_ptr<const Dictionary> dictionary_;
  PipelineOptions options_;
  int64_t median_idf_;
  // The configured segmenter (user words, stop words): each scratch's is a copy of it, so
  // changed dictionary frequencies are one shared table, not one per thread.
  Segmenter prototype_;
  // One scratch (segmenter, buffers) per concurrent caller: segmenters are not thread-safe.
  mutable std::mutex mutex_;
  mutable std::vector<std::unique_ptr<Scratch>> pool_;
};

}  // namespace simhash_zh

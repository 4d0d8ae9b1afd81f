// The default pipeline in the C++ core alone (no Node, no N-API), stage by stage, on one corpus:
// where the time of a fingerprint goes. Built by CMake as core_bench; run with `node bench/core.js`.
//
//   core_bench DICT CORPUS [ROUNDS] [STAGE]
//
// STAGE (0-4) runs that stage alone, for a profiler (perf record ./core_bench ... 60 2).
//
// Each stage runs over every non-empty line of CORPUS once per round, the stages interleaved;
// each keeps its best round (the machine is shared). MiB/s of the corpus's UTF-8 bytes.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "dictionary.h"
#include "normalize.h"
#include "pipeline.h"
#include "segmenter.h"

namespace {

using simhash_zh::DefaultPipeline;
using simhash_zh::Dictionary;
using simhash_zh::DictStatus;
using simhash_zh::NormalizeOptions;
using simhash_zh::PipelineOptions;
using simhash_zh::Segmenter;

size_t total_bytes(const std::vector<std::string>& lines) {
  size_t bytes = 0;
  for (const std::string& line : lines) bytes += line.size();
  return bytes;
}

template <class F>
double seconds(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: core_bench DICT CORPUS [ROUNDS]\n");
    return 2;
  }
  DictStatus status;
  const auto dictionary = Dictionary::from_file(argv[1], &status);
  if (!dictionary) {
    std::fprintf(stderr, "core_bench: %s\n", status.message.c_str());
    return 1;
  }
  std::ifstream in(argv[2], std::ios::binary);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  if (lines.empty()) {
    std::fprintf(stderr, "core_bench: no text in %s\n", argv[2]);
    return 1;
  }
  const int rounds = argc > 3 ? std::max(1, std::atoi(argv[3])) : 15;
  const size_t bytes = total_bytes(lines);
  // The first lines repeated to the corpus's size: the same code on text whose dictionary
  // working set stays in the cache and whose branches the CPU has learned. The gap bounds what
  // cache and branch misses cost together; it does not tell them apart.
  std::vector<std::string> repeated;
  for (size_t size = 0, i = 0; size < bytes; i = (i + 1) % std::min<size_t>(5, lines.size())) {
    repeated.push_back(lines[i]);
    size += lines[i].size();
  }

  Segmenter segmenter(dictionary);
  const DefaultPipeline pipeline(dictionary, PipelineOptions{});
  const NormalizeOptions normalize_options;
  std::string normalized;
  uint64_t sink = 0;
  const auto count_words = [&](size_t start, size_t end, int32_t entry) { sink += end - start + static_cast<uint64_t>(entry); };
  struct Stage {
    const char* name;
    const std::vector<std::string>* text;
    double best;
  };
  std::vector<Stage> stages = {{"normalize", &lines, 1e30},
                               {"normalize + segment (entries reported)", &lines, 1e30},
                               {"full default pipeline (fingerprint)", &lines, 1e30},
                               {"segment only, whole corpus", &lines, 1e30},
                               {"segment only, first 5 lines repeated", &repeated, 1e30}};
  const int only = argc > 4 ? std::atoi(argv[4]) : -1;
  for (int round = 0; round < rounds; ++round) {
    for (size_t s = 0; s < stages.size(); ++s) {
      if (only >= 0 && static_cast<size_t>(only) != s) continue;
      const double t = seconds([&] {
        for (const std::string& line : *stages[s].text) {
          switch (s) {
            case 0:
              simhash_zh::normalize(line, normalize_options, normalized);
              sink += normalized.size();
              break;
            case 1:
              simhash_zh::normalize(line, normalize_options, normalized);
              segmenter.for_each_word(normalized, false, count_words);
              break;
            case 2:
              sink += pipeline.fingerprint(line).lo;
              break;
            default:
              segmenter.for_each_word(line, false, count_words);
              break;
          }
        }
      });
      if (t < stages[s].best) stages[s].best = t;
    }
  }
  const double mib = 1024.0 * 1024.0;
  std::printf("core_bench: %zu lines, %.2f MiB of UTF-8 from %s; best of %d interleaved rounds\n", lines.size(),
              bytes / mib, argv[2], rounds);
  for (const Stage& stage : stages) {
    std::printf("  %-42s %8.1f MiB/s  %7.2f ms\n", stage.name, total_bytes(*stage.text) / mib / stage.best, stage.best * 1e3);
  }
  if (only >= 0) return sink == 42 ? 3 : 0;
  const double full = stages[2].best;
  std::printf("  share of the pipeline: normalize %.0f%%, segmentation %.0f%%, features and hashing %.0f%%\n",
              100 * stages[0].best / full, 100 * (stages[1].best - stages[0].best) / full,
              100 * (full - stages[1].best) / full);
  std::printf("  segmentation of text seen over and over (cache warm, branches learned): %.1fx faster\n", stages[3].best / stages[4].best);
  return sink == 42 ? 3 : 0;  // uses the sink, so nothing above is optimized away
}

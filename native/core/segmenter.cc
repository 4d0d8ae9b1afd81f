// Mirrors lib/js/segmenter.ts step by step: keep the two in sync.
#include "segmenter.h"

#include <algorithm>
#include <cstring>

#include "char_class.h"
#include "heap_bytes.h"

namespace simhash_zh {
namespace {

constexpr uint64_t kOverlayKey = 0x110000;
constexpr int32_t kLookup = -2;  // emit(): look the entry up when entries are wanted

// jieba-rs RE_HAN_DEFAULT: CJK ideographs, ASCII letters and digits, `+#&._%-`.
// Bit c of kAsciiHan[c >> 5]: ASCII c is in RE_HAN_DEFAULT (`0-9A-Za-z+#&._%-`).
constexpr uint32_t kAsciiHan[4] = {0, 0x03ff6868u, 0x87fffffeu, 0x07fffffeu};

inline bool is_han_default(uint32_t cp) {
  if (cp < 0x80) return (kAsciiHan[cp >> 5] >> (cp & 31)) & 1;
  if (cp < 0x3400) return false;
  if (cp <= 0x9fff) return cp >= 0x4e00 || cp <= 0x4dbf;
  if (cp < 0x20000) return cp >= 0xf900 && cp <= 0xfaff;
  return cp <= 0x2a6df || (cp >= 0x2a700 && cp <= 0x2ebef) || (cp >= 0x2f800 && cp <= 0x2fa1f);
}

// Grows `v` geometrically (as push_back would) so that its next push_back cannot throw.
template <class T>
void room_for_one_more(std::vector<T>& v) {
  if (v.size() == v.capacity()) v.reserve(v.empty() ? 16 : v.capacity() * 2);
}

}  // namespace

Segmenter::Segmenter(std::shared_ptr<const Dictionary> dict)
    : dict_(std::move(dict)),
      trie_(dict_->trie()),
      packed_(dict_->packed_trie()),
      bmp_(dict_->bmp()),
      base_entries_(static_cast<int32_t>(dict_->entry_count())),
      facts_(dict_->entry_facts()),
      freq_(dict_->freqs()),
      total_(dict_->total_freq()),
      log_total_(dict_->log_total()),
      max_word_chars_(dict_->max_word_chars()),
      viterbi_(dict_->hmm()) {
  grow_window(256);
  e_end_.resize(1024);
  e_entry_.resize(1024);
  e_lf_.resize(1024);
  v_cp_.resize(256);
  v_off_.resize(257);
}

Segmenter::Segmenter(const Segmenter& other) : Segmenter(other.dict_) {
  changed_ = other.changed_;
  if (changed_) {
    facts_ = changed_->facts.data();
    freq_ = changed_->freq.data();
  }
  total_ = other.total_;
  log_total_ = other.log_total_;
  max_word_chars_ = other.max_word_chars_;
  ov_child_ = other.ov_child_;
  ov_entry_ = other.ov_entry_;
  ov_log_freq_ = other.ov_log_freq_;
  ov_freq_ = other.ov_freq_;
  has_stop_set_ = other.has_stop_set_;
  stop_set_ = other.stop_set_;
  lone_ready_ = other.lone_ready_;
  std::copy(std::begin(other.ascii_lone_), std::end(other.ascii_lone_), ascii_lone_);
  std::copy(std::begin(other.ascii_starts_added_), std::end(other.ascii_starts_added_), ascii_starts_added_);
}

void Segmenter::prepare_lone() {
  lone_ready_ = true;
  for (uint32_t c = 0; c < 128; c++) refresh_lone(c);
}

void Segmenter::refresh_lone(uint32_t c) {
  if (!lone_ready_) return;  // prepare_lone() does every character
  const uint32_t* starts = dict_->ascii_word_starts();
  const bool starts_word = ascii_starts_added_[c] || ((starts[c >> 5] >> (c & 31)) & 1u) != 0;
  ascii_lone_[c] = starts_word ? kNotLone : single_entry(c);
}

// ---------------------------------------------------------------------------
// ---------------------------------------------------------------------------
// Dictionary access (base + this segmenter's additions).

int32_t Segmenter::lookup(size_t start, size_t end) const {
  size_t next = start;
  const int32_t found = with_trie([&](auto trie) {
    int32_t s = 0;
    size_t pos = start;
    while (pos < end) {
      if (!trie.step(s, char_id(decode(pos, &next)))) return -1;
      pos = next;
    }
    return trie.entry(s);
  });
  if (found >= 0) return found;
  if (ov_child_.empty()) return -1;
  int32_t node = 0;
  size_t pos = start;
  while (pos < end) {
    const uint32_t cp = decode(pos, &next);
    auto child = ov_child_.find(static_cast<uint64_t>(node) * kOverlayKey + cp);
    if (child == ov_child_.end()) return -1;
    node = child->second;
    pos = next;
  }
  return ov_entry_[node];
}

// The entry of a one-character word, as lookup() would find it.
int32_t Segmenter::single_entry(uint32_t cp) const {
  const int32_t found = with_trie([&](auto trie) {
    int32_t s = 0;
    return trie.step(s, char_id(cp)) ? trie.entry(s) : -1;
  });
  if (found >= 0) return found;
  if (ov_child_.empty()) return -1;
  auto child = ov_child_.find(cp);  // node 0 * kOverlayKey + cp
  return child == ov_child_.end() ? -1 : ov_entry_[child->second];
}

void Segmenter::emit(size_t start, size_t end, int32_t entry) {
  if (stop_) return;
  if (entry == kLookup) entry = want_entries_ ? lookup(start, end) : -1;
  batch_[batch_count_++] = WordSpan{start, end, entry};
  if (batch_count_ == kBatch) {
    flush_(ctx_, batch_, batch_count_);
    batch_count_ = 0;
  }
}

// ---------------------------------------------------------------------------
// Segmentation.

void Segmenter::run(std::string_view utf8, int flags, Flush flush, void* ctx) {
  // Ends the run however it ends: after an exception (a failed allocation, a throwing flush)
  // the segmenter is idle again, so add_word and the next run work.
  struct Idle {
    Segmenter* self;
    ~Idle() {
      self->batch_count_ = 0;
      self->stop_ = false;
      self->p_ = nullptr;
      self->n_ = 0;
    }
  } idle{this};
  p_ = reinterpret_cast<const unsigned char*>(utf8.data());
  n_ = utf8.size();
  flush_ = flush;
  ctx_ = ctx;
  batch_count_ = 0;
  stop_ = false;
  want_entries_ = (flags & kSegmentEntries) != 0;
  const bool hmm = (flags & kSegmentHmm) != 0;
  const bool longest = (flags & kSegmentLongest) != 0;
  const size_t n = n_;
  size_t pos = 0;
  while (pos < n && !stop_) {
    size_t next;
    const uint32_t cp = decode(pos, &next);
    if (is_han_default(cp)) {
      pos = block(pos, hmm, longest);
      continue;
    }
    size_t end = next;
    int32_t entry = -1;
    if (cp == 0x0d && end < n && p_[end] == 0x0a) {
      end++;
      if (want_entries_) entry = kLookup;
    } else if (want_entries_) {
      entry = single_entry(cp);
    }
    emit(pos, end, entry);
    pos = end;
  }
  if (batch_count_ > 0 && !stop_) flush_(ctx_, batch_, batch_count_);
}

// Decodes the block's characters up to window index k and a few past it, in
// one tight loop (the walks look ahead character by character).
bool Segmenter::decode_more(size_t k) {
  if (block_done_) return false;
  const size_t want = k + 32;
  if (want + 1 >= w_cp_.size()) grow_window(want + 2);
  uint32_t* w_cp = w_cp_.data();
  int32_t* w_id = w_id_.data();
  size_t* w_off = w_off_.data();
  const int32_t* bmp = bmp_;
  size_t h = have_;
  size_t pos = dec_pos_;
  const size_t n = n_;
  const unsigned char* p = p_;
  while (h <= want) {
    if (pos >= n) {
      block_done_ = true;
      break;
    }
    size_t next = pos;
    const uint32_t cp = decode_utf8(p, n, next);
    if (!is_han_default(cp)) {
      block_done_ = true;
      break;
    }
    w_cp[h] = cp;
    w_id[h] = cp < 0x10000 ? bmp[cp] : dict_->char_id(cp);
    w_off[h] = pos;
    pos = next;
    h++;
  }
  w_off[h] = pos;
  with_trie([&](auto trie) { first_steps(trie, h); });
  have_ = h;
  dec_pos_ = pos;
  return k < h;
}

// The first step of every walk of the characters decoded since have_, up to h.
template <class Trie>
void Segmenter::first_steps(Trie trie, size_t h) {
  const int32_t* w_id = w_id_.data();
  int32_t* w_step = w_step_.data();
  // From the root, whose children sit in a few hot lines.
  for (size_t q = have_; q < h; q++) w_step[q] = trie.root_child(w_id[q]);
#if (defined(__GNUC__) || defined(__clang__)) && !defined(SIMHASH_ZH_NO_PREFETCH)
  // The second step of a walk usually misses the cache: start loading it for every new pair
  // of characters now, all at once, so the loads overlap (the TS engine touches them).
  for (size_t q = have_ > 0 ? have_ - 1 : 0; q + 1 < h; q++) {
    if (w_step[q] < 0) continue;
    if (const void* target = trie.step_target(w_step[q], w_id[q + 1])) __builtin_prefetch(target);
  }
#endif
}

size_t Segmenter::memory_bytes() const {
  const auto bytes = [](const auto& v) { return vector_heap_bytes(v); };
  size_t total = bytes(ov_entry_) + bytes(ov_log_freq_) + bytes(ov_freq_);
  // Changed frequencies shared by n copies: each counts its n-th, so a sum over them is right.
  if (changed_) total += (bytes(changed_->facts) + bytes(changed_->freq)) / static_cast<size_t>(changed_.use_count());
  total += map_heap_bytes(ov_child_);
  total += bytes(w_cp_) + bytes(w_id_) + bytes(w_step_) + bytes(w_off_) + bytes(s_entry_) + bytes(e_start_) + bytes(e_end_) +
           bytes(e_entry_) + bytes(e_lf_) + bytes(r_score_) + bytes(r_end_) + bytes(r_entry_);
  total += viterbi_.memory_bytes() + bytes(v_cp_) + bytes(v_off_);
  return total;
}

// The grow functions resize the vector whose size is the capacity last: if an allocation fails,
// the capacity is unchanged and every vector still holds at least that much.
void Segmenter::grow_edges() {
  const size_t cap = e_end_.size() * 2;
  e_entry_.resize(cap);
  e_lf_.resize(cap);
  e_end_.resize(cap);
}

void Segmenter::grow_window(size_t size) {
  const size_t cap = std::max(size, w_cp_.size() * 2);
  w_id_.resize(cap);
  w_step_.resize(cap);
  s_entry_.resize(cap);
  w_off_.resize(cap + 1);
  e_start_.resize(cap + 1);
  r_score_.resize(cap + 1);
  r_end_.resize(cap + 1);
  r_entry_.resize(cap + 1);
  w_cp_.resize(cap);
}

size_t Segmenter::block(size_t start, bool hmm, bool longest) {
  return with_trie([&](auto trie) { return walk_block(trie, start, hmm, longest); });
}

template <class Trie>
size_t Segmenter::walk_block(Trie trie, size_t start, bool hmm, bool longest) {
  have_ = 0;
  block_done_ = false;
  dec_pos_ = start;
  p_active_ = false;
  p_count_ = 0;
  const bool overlay = !ov_child_.empty();
  size_t from = 0;
  size_t i = 0;
  uint32_t edges = 0;
  size_t reach = 0;
  // The edge arrays as locals (kept in registers): only add_edge grows them.
  uint32_t* e_end = e_end_.data();
  int32_t* e_entry = e_entry_.data();
  int32_t* e_lf = e_lf_.data();
  size_t e_cap = e_end_.size();
  auto add_edge = [&](uint32_t count, size_t end, int32_t entry, int32_t lf) {
    if (count >= e_cap) {
      grow_edges();
      e_end = e_end_.data();
      e_entry = e_entry_.data();
      e_lf = e_lf_.data();
      e_cap = e_end_.size();
    }
    e_end[count] = static_cast<uint32_t>(end);
    e_entry[count] = entry;
    e_lf[count] = lf;
    return count + 1;
  };
  const EntryFacts* facts = facts_;
  // A window of one character with one way through it, `entry`: window() would do this.
  auto lone_window = [&](int32_t entry) {
    route_word(w_off_[i], w_off_[i + 1], entry, hmm || is_ascii_alnum(w_cp_[i]), hmm);
    i++;
    from = i;
    edges = 0;
    reach = i;
    if (from >= 4096) compact(from, i, reach);
  };
  for (;;) {
    if (!ensure(i) || stop_) {
      e_start_[i] = edges;
      if (i > from) window(from, i, hmm, longest);
      break;
    }
    if (i == from && w_cp_[i] < 0x80) {
      if (!lone_ready_) prepare_lone();
      if (ascii_lone_[w_cp_[i]] != kNotLone) {
        // No word of two or more characters starts here, and none from before reaches past i.
        lone_window(ascii_lone_[w_cp_[i]]);
        continue;
      }
    }
    // The DAG: every dictionary word starting at i. The window arrays are read through
    // locals, reloaded after ensure() decodes more (the only place they change).
    e_start_[i] = edges;
    const uint32_t first = edges;
    int32_t single = -1;
    int32_t s = w_step_[i];
    if (s >= 0) {
      single = trie.entry(s);
      // The dictionary's entries (checked at load).
      if (single >= 0 && facts[single].log_freq >= 0) edges = add_edge(edges, i + 1, single, facts[single].log_freq);
      size_t have = have_;
      const int32_t* w_id = w_id_.data();
      for (size_t j = i + 1;; j++) {
        if (j >= have) {
          if (!ensure(j)) break;
          have = have_;
          w_id = w_id_.data();
        }
        if (!trie.step(s, w_id[j])) break;
        const int32_t e = trie.entry(s);
        if (e >= 0) {
          const int32_t lf = facts[e].log_freq;
          if (lf >= 0) edges = add_edge(edges, j + 1, e, lf);
        }
      }
    }
    // The base walk's last edge (or, when it found none, the fallback below).
    uint32_t base_last = edges > first ? edges - 1 : first;
    if (overlay) {
      int32_t node = 0;
      size_t j = i;
      while (ensure(j)) {
        auto child = ov_child_.find(static_cast<uint64_t>(node) * kOverlayKey + w_cp_[j]);
        if (child == ov_child_.end()) break;
        node = child->second;
        const int32_t e = ov_entry_[node];
        if (e >= 0) {
          if (j == i) single = e;
          const int32_t lf = ov_log_freq_[e - base_entries_];
          if (lf >= 0) edges = add_edge(edges, j + 1, e, lf);
        }
        j++;
      }
    }
    s_entry_[i] = single;
    if (edges == first) edges = add_edge(edges, i + 1, single, 0);
    if (i == from && edges == first + 1 && e_end[first] == i + 1) {
      lone_window(e_entry[first]);
      continue;
    }
    // Each walk adds its edges by increasing end: its last edge reaches farthest.
    if (e_end[base_last] > reach) reach = e_end[base_last];
    if (edges - 1 != base_last && e_end[edges - 1] > reach) reach = e_end[edges - 1];
    i++;
    if (reach <= i || i - from >= kWindowCap) {
      e_start_[i] = edges;
      window(from, i, hmm, longest);
      from = i;
      edges = 0;
      reach = i;
      if (from >= 4096) compact(from, i, reach);
    }
  }
  const size_t end = dec_pos_;
  if (hmm) {
    flush_run(end);
  } else {
    flush_ascii(end);
  }
  return end;
}

// Moves the characters decoded past a cut at `from` (== i == reach) to the front.
void Segmenter::compact(size_t& from, size_t& i, size_t& reach) {
  const size_t keep = have_ - from;
  std::memmove(w_cp_.data(), w_cp_.data() + from, keep * sizeof(uint32_t));
  std::memmove(w_id_.data(), w_id_.data() + from, keep * sizeof(int32_t));
  std::memmove(w_step_.data(), w_step_.data() + from, keep * sizeof(int32_t));
  std::memmove(w_off_.data(), w_off_.data() + from, (keep + 1) * sizeof(size_t));
  have_ = keep;
  i = 0;
  from = 0;
  reach = 0;
}

void Segmenter::window(size_t from, size_t m, bool hmm, bool longest) {
  const uint32_t* e_start = e_start_.data();
  const uint32_t* e_end = e_end_.data();
  const int32_t* e_lf = e_lf_.data();
  const int32_t* e_entry = e_entry_.data();
  int64_t* r_score = r_score_.data();
  uint32_t* r_end = r_end_.data();
  int32_t* r_entry = r_entry_.data();
  const int64_t log_total = log_total_;
  r_score[m] = 0;
  for (size_t x = m; x-- > from;) {
    int64_t best = INT64_MIN;
    int64_t best_end = -1;
    int32_t best_entry = -1;
    const uint32_t to = e_start[x + 1];
    for (uint32_t k = e_start[x]; k < to; k++) {
      const uint32_t y = e_end[k];
      if (y > m) continue;
      if (longest) {
        if (static_cast<int64_t>(y) > best_end) {
          best_end = y;
          best_entry = e_entry[k];
        }
        continue;
      }
      const int64_t score = e_lf[k] - log_total + r_score[y];
      if (best_end < 0 || score > best || (score == best && static_cast<int64_t>(y) > best_end)) {
        best = score;
        best_end = y;
        best_entry = e_entry[k];
      }
    }
    if (best_end < 0) {
      best_end = static_cast<int64_t>(x) + 1;
      best = -log_total + r_score[x + 1];
      best_entry = s_entry_[x];
    }
    r_score[x] = best;
    r_end[x] = static_cast<uint32_t>(best_end);
    r_entry[x] = best_entry;
  }
  const size_t* w_off = w_off_.data();
  size_t x = from;
  while (x < m) {
    const size_t y = r_end[x];
    route_word(w_off[x], w_off[y], r_entry[x], y == x + 1 && (hmm || is_ascii_alnum(w_cp_[x])), hmm);
    x = y;
  }
}

// One word of a route, bytes [start, end): a one-character step that joins the pending run
// (`joins`: with the HMM, any; without, an ASCII letter or digit), or a word of its own, after
// the run is flushed.
void Segmenter::route_word(size_t start, size_t end, int32_t entry, bool joins, bool hmm) {
  if (joins) {
    if (!p_active_) {
      p_active_ = true;
      p_start_ = start;
      p_entry_ = entry;
    }
    p_count_++;
    return;
  }
  if (hmm) {
    flush_run(start);
  } else {
    flush_ascii(start);
  }
  emit(start, end, entry);
}

void Segmenter::flush_ascii(size_t end) {
  if (!p_active_) return;
  emit(p_start_, end, p_count_ == 1 ? p_entry_ : kLookup);
  p_active_ = false;
  p_count_ = 0;
}

void Segmenter::flush_run(size_t end) {
  if (!p_active_) return;
  const size_t start = p_start_;
  const size_t count = p_count_;
  p_active_ = false;
  p_count_ = 0;
  if (count == 1) {
    emit(start, end, p_entry_);
    return;
  }
  if (count <= max_word_chars_) {
    const int32_t e = lookup(start, end);
    if (e >= 0 && entry_log_freq(e) >= 0) {
      for (size_t pos = start; pos < end;) {
        size_t next;
        decode(pos, &next);
        emit(pos, next, kLookup);
        pos = next;
      }
      return;
    }
  }
  hmm_cut(start, end);
}

void Segmenter::hmm_cut(size_t start, size_t end) {
  size_t pos = start;
  while (pos < end) {
    size_t next;
    uint32_t cp = decode(pos, &next);
    if (!is_hmm_han(cp)) {
      size_t q = next;
      while (q < end) {
        cp = decode(q, &next);
        if (is_hmm_han(cp)) break;
        q = next;
      }
      skip_split(pos, q);
      pos = q;
      continue;
    }
    size_t count = 0;
    size_t q = pos;
    while (q < end && count < kViterbiCap) {
      cp = decode(q, &next);
      if (!is_hmm_han(cp)) break;
      if (count + 1 >= v_cp_.size()) {  // v_cp_ last, as in grow_window
        v_off_.resize(v_cp_.size() * 2 + 1);
        v_cp_.resize(v_cp_.size() * 2);
      }
      v_cp_[count] = cp;
      v_off_[count] = q;
      count++;
      q = next;
    }
    v_off_[count] = q;
    if (count == 1) {
      emit(pos, q, kLookup);
    } else {
      viterbi_cut(count);
    }
    pos = q;
  }
}

void Segmenter::viterbi_cut(size_t count) {
  viterbi_.decode(v_cp_.data(), count);
  const uint8_t* states = viterbi_.states();
  const size_t* off = v_off_.data();
  size_t begin = 0;
  size_t next = 0;
  for (size_t i = 0; i < count; i++) {
    const uint8_t state = states[i];
    if (state == kStateB) {
      begin = i;
    } else if (state == kStateE) {
      emit(off[begin], off[i + 1], kLookup);
      next = i + 1;
    } else if (state == kStateS) {
      emit(off[i], off[i + 1], kLookup);
      next = i + 1;
    }
  }
  if (next < count) emit(off[next], off[count], kLookup);
}

// jieba's finalseg re_skip split, `([a-zA-Z0-9]+(?:.\d+)?%?)` (jieba-rs 0.10: any char for `.`).
void Segmenter::skip_split(size_t start, size_t end) {
  const unsigned char* b = p_;
  size_t cur = start;
  while (cur < end) {
    size_t a = cur;
    while (a < end && !is_ascii_alnum(b[a])) {
      size_t next;
      decode(a, &next);
      a = next;
    }
    if (a >= end) {
      emit(cur, end, kLookup);
      return;
    }
    if (a > cur) emit(cur, a, kLookup);
    size_t m = a + 1;
    while (m < end && is_ascii_alnum(b[m])) m++;
    if (m < end) {
      size_t d0;
      decode(m, &d0);
      size_t d = d0;
      while (d < end && b[d] >= 0x30 && b[d] <= 0x39) d++;
      if (d > d0) m = d;
    }
    if (m < end && b[m] == 0x25) m++;
    emit(a, m, kLookup);
    cur = m;
  }
}

// ---------------------------------------------------------------------------
// Words and stop words.

int32_t Segmenter::entry_of(std::string_view word) {
  if (word.empty()) return -1;
  // May run inside a visitor of for_each_word: keep the input being segmented.
  const unsigned char* saved_p = p_;
  const size_t saved_n = n_;
  p_ = reinterpret_cast<const unsigned char*>(word.data());
  n_ = word.size();
  const int32_t e = lookup(0, n_);
  p_ = saved_p;
  n_ = saved_n;
  return e;
}

double Segmenter::entry_freq(int32_t entry) const {
  if (entry < 0) return 0;
  if (entry < base_entries_) return freq_[entry];
  const size_t k = static_cast<size_t>(entry - base_entries_);
  return k < ov_freq_.size() ? ov_freq_[k] : 0;
}

void Segmenter::own_freqs() {
  if (changed_ && changed_.use_count() == 1) return;
  auto copy = std::make_shared<ChangedFreqs>();
  copy->facts.assign(facts_, facts_ + base_entries_);
  copy->freq.assign(freq_, freq_ + base_entries_);
  changed_ = std::move(copy);
  facts_ = changed_->facts.data();
  freq_ = changed_->freq.data();
}

double Segmenter::add_word(std::string_view word, double freq) {
  if (p_ != nullptr) return -1;  // not while segmenting (e.g. from a visitor)
  if (freq < 0) freq = suggest_freq(word);
  const double f = std::min(freq, static_cast<double>(kMaxFreq));
  const int32_t lf = f > 0 ? det_log_scaled(f) : -1;
  const int32_t entry = entry_of(word);
  // Code points of the word, decoded as everywhere else.
  std::vector<uint32_t> cps;
  p_ = reinterpret_cast<const unsigned char*>(word.data());
  n_ = word.size();
  for (size_t pos = 0; pos < n_;) {
    size_t next;
    cps.push_back(decode(pos, &next));
    pos = next;
  }
  p_ = nullptr;
  n_ = 0;
  if (entry >= 0 && entry < base_entries_) {
    own_freqs();
    total_ += f - changed_->freq[entry];
    changed_->freq[entry] = static_cast<uint32_t>(f);
    changed_->facts[entry].log_freq = lf;
  } else if (entry >= 0) {
    const size_t k = static_cast<size_t>(entry - base_entries_);
    total_ += f - ov_freq_[k];
    ov_freq_[k] = static_cast<uint32_t>(f);
    ov_log_freq_[k] = lf;
  } else {
    // Room first, so that once the word's node names its entry, the entry exists.
    room_for_one_more(ov_freq_);
    room_for_one_more(ov_log_freq_);
    int32_t node = 0;
    for (uint32_t cp : cps) {
      const uint64_t key = static_cast<uint64_t>(node) * kOverlayKey + cp;
      auto found = ov_child_.find(key);
      if (found == ov_child_.end()) {
        const int32_t child = static_cast<int32_t>(ov_entry_.size());
        ov_entry_.push_back(-1);
        ov_child_.emplace(key, child);
        node = child;
      } else {
        node = found->second;
      }
    }
    ov_entry_[node] = base_entries_ + static_cast<int32_t>(ov_freq_.size());
    ov_freq_.push_back(static_cast<uint32_t>(f));
    ov_log_freq_.push_back(lf);
    total_ += f;
  }
  if (f > 0 && cps.size() > max_word_chars_) max_word_chars_ = static_cast<uint32_t>(cps.size());
  if (!cps.empty() && cps[0] < 0x80) {
    if (cps.size() >= 2) ascii_starts_added_[cps[0]] = true;
    refresh_lone(cps[0]);
  }
  log_total_ = det_log_scaled(total_);
  return f;
}

double Segmenter::suggest_freq(std::string_view word) {
  struct Acc {
    Segmenter* self;
    int64_t target;
  } acc{this, log_total_};
  segment(word, kSegmentEntries, [&acc](size_t, size_t, int32_t e) {
    const int32_t lf = e >= 0 ? acc.self->entry_log_freq(e) : -1;
    acc.target += (lf >= 0 ? lf : 0) - static_cast<int64_t>(acc.self->log_total_);
  });
  const double current = entry_freq(entry_of(word));
  return std::max(det_exp_floor(static_cast<double>(acc.target)) + 1, current > 0 ? current : 1.0);
}

void Segmenter::set_stop_words(const std::vector<std::string>& words) {
  auto set = std::make_shared<StopSet>();
  set->words = words;
  for (const std::string& word : set->words) set->lookup.insert(word);
  stop_set_ = std::move(set);
  has_stop_set_ = true;
}

bool Segmenter::is_custom_stop(std::string_view word) const { return stop_set_->lookup.count(word) != 0; }

bool Segmenter::is_stop_word(std::string_view word) { return is_stop(word, has_stop_set_ ? -1 : entry_of(word)); }

}  // namespace simhash_zh

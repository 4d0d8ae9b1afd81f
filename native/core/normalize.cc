#include "normalize.h"

#include <cstdint>
#include <cstring>

#include "char_class.h"
#include "utf8.h"

namespace simhash_zh {
namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

// The input as bytes. All markup syntax is ASCII, and a UTF-8 sequence holds no ASCII byte, so
// scanning bytes finds the same markup as scanning code points (lib/js/normalize.ts scans
// UTF-16 units for the same reason).
struct Text {
  const unsigned char* p;
  size_t n;
  size_t size() const { return n; }
  uint32_t operator[](size_t i) const { return p[i]; }
};

bool is_alpha(uint32_t c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
bool is_hex(uint32_t c) { return is_ascii_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }
bool is_space(uint32_t c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
uint32_t lower(uint32_t c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

// Case-insensitive match of the ASCII word at t[i].
bool matches(const Text& t, size_t i, std::string_view word) {
  if (i + word.size() > t.size()) return false;
  for (size_t k = 0; k < word.size(); ++k) {
    if (lower(t[i + k]) != static_cast<unsigned char>(word[k])) return false;
  }
  return true;
}

size_t find(const Text& t, size_t from, std::string_view word) {
  for (size_t i = from; i + word.size() <= t.size(); ++i) {
    if (matches(t, i, word)) return i;
  }
  return kNone;
}

// t[i] == '<': does a tag (or comment, doctype, processing instruction) start here?
bool is_tag_start(const Text& t, size_t i) {
  if (i + 1 >= t.size()) return false;
  const uint32_t c = t[i + 1];
  if (is_alpha(c) || c == '!' || c == '?') return true;
  return c == '/' && i + 2 < t.size() && is_alpha(t[i + 2]);
}

// Index just past the '>' closing the tag at t[i], honouring quoted values;
// kNone if unclosed. A '<' ends the search (even inside quotes), so scanning
// stays linear on text full of unclosed '<'.
size_t tag_end(const Text& t, size_t i) {
  uint32_t quote = 0;
  for (size_t j = i + 1; j < t.size(); ++j) {
    const uint32_t c = t[j];
    if (c == '<') return kNone;
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      return j + 1;
    }
  }
  return kNone;
}

// The end of the tag name (ASCII letters and digits) that starts at t[j].
size_t tag_name_end(const Text& t, size_t j) {
  while (j < t.size() && (is_alpha(t[j]) || is_ascii_digit(t[j]))) ++j;
  return j;
}

// Whether t[j, end) is one of `names` (case-insensitive).
template <size_t N>
bool is_tag_name(const Text& t, size_t j, size_t end, const std::string_view (&names)[N]) {
  for (std::string_view name : names) {
    if (end - j == name.size() && matches(t, j, name)) return true;
  }
  return false;
}

// Inline tags join their neighbours; every other tag separates words.
bool is_inline_tag(const Text& t, size_t i) {
  size_t j = i + 1;
  if (j < t.size() && t[j] == '/') ++j;
  static const std::string_view kInline[] = {
      "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "em", "font", "i", "kbd", "mark", "q",
      "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "tt", "u", "var", "wbr"};
  return is_tag_name(t, j, tag_name_end(t, j), kInline);
}

struct Markup {
  size_t end = kNone;       // index just past the markup, kNone when none starts here
  bool separates = false;  // replaced by a space (true) or by nothing (false)
};

// Markup starting at t[i] == '<': a comment, a script/style element with its
// body, or a tag.
Markup markup_at(const Text& t, size_t i) {
  if (!is_tag_start(t, i)) return {};
  if (matches(t, i, "<!--")) {
    const size_t close = find(t, i + 4, "-->");
    return {close == kNone ? t.size() : close + 3, true};
  }
  for (std::string_view raw : {std::string_view("script"), std::string_view("style")}) {
    const size_t after = i + 1 + raw.size();
    if (matches(t, i + 1, raw) && after < t.size() &&
        (is_space(t[after]) || t[after] == '>' || t[after] == '/')) {
      const size_t open_end = tag_end(t, i);
      if (open_end == kNone) return {};
      const std::string closing = std::string("</") + std::string(raw);
      const size_t close = find(t, open_end, closing);
      if (close == kNone) return {t.size(), true};
      const size_t close_end = tag_end(t, close);
      return {close_end == kNone ? t.size() : close_end, true};
    }
  }
  const size_t end = tag_end(t, i);
  if (end == kNone) return {};
  return {end, !is_inline_tag(t, i)};
}

struct Entity {
  size_t end = kNone;
  uint32_t code_point = 0;
};

struct NamedEntity {
  std::string_view name;
  uint32_t code_point;
};

const NamedEntity kNamedEntities[] = {
    {"amp", '&'},       {"lt", '<'},         {"gt", '>'},         {"quot", '"'},
    {"apos", '\''},     {"nbsp", 0xa0},      {"copy", 0xa9},      {"reg", 0xae},
    {"trade", 0x2122},  {"middot", 0xb7},    {"hellip", 0x2026},  {"mdash", 0x2014},
    {"ndash", 0x2013},  {"lsquo", 0x2018},   {"rsquo", 0x2019},   {"ldquo", 0x201c},
    {"rdquo", 0x201d},  {"laquo", 0xab},     {"raquo", 0xbb},     {"times", 0xd7},
    {"divide", 0xf7},   {"yen", 0xa5},       {"emsp", 0x2003},    {"ensp", 0x2002},
    {"thinsp", 0x2009}, {"bull", 0x2022},    {"deg", 0xb0}};

// An entity reference at t[i] == '&': &name; (from the table), &#123; or &#x1F600;.
Entity entity_at(const Text& t, size_t i) {
  size_t j = i + 1;
  if (j < t.size() && t[j] == '#') {
    ++j;
    const bool hex = j < t.size() && (t[j] | 0x20) == 'x';
    if (hex) ++j;
    const size_t digits_start = j;
    uint32_t value = 0;
    while (j < t.size() && (hex ? is_hex(t[j]) : is_ascii_digit(t[j])) && j - digits_start < (hex ? 6u : 7u)) {
      const uint32_t c = t[j];
      value = value * (hex ? 16 : 10) + (is_ascii_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
      ++j;
    }
    if (j == digits_start || j >= t.size() || t[j] != ';') return {};
    if (value == 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) value = 0xfffd;
    return {j + 1, value};
  }
  const size_t name_start = j;
  while (j < t.size() && j - name_start < 32 && (is_alpha(t[j]) || is_ascii_digit(t[j]))) ++j;
  if (j == name_start || j >= t.size() || t[j] != ';') return {};
  for (const auto& entity : kNamedEntities) {
    if (entity.name.size() != j - name_start) continue;
    bool same = true;
    for (size_t k = 0; k < entity.name.size() && same; ++k) {
      same = t[name_start + k] == static_cast<unsigned char>(entity.name[k]);
    }
    if (same) return {j + 1, entity.code_point};
  }
  return {};
}

// Elements that HTML often writes bare (void, or closed implicitly): one such tag marks a
// text as HTML. lib/js/normalize.ts holds the same list.
const std::string_view kBareHtmlTags[] = {
    "b", "blockquote", "body", "br", "center", "dd", "div", "dt", "em", "font", "h1", "h2", "h3", "h4",
    "h5", "h6", "head", "hr", "html", "i", "li", "nobr", "ol", "p", "pre", "script", "span", "strong",
    "style", "sub", "sup", "table", "tbody", "td", "th", "tr", "u", "ul", "wbr"};

// Whether the markup at t[i] == '<' marks the text as HTML (html: 'auto'): a comment, doctype
// or processing instruction, a closing tag, a tag with an attribute (a '=' before its '>'), or a
// bare tag of kBareHtmlTags. Any other bare tag is text: technical text writes placeholders so
// (`<file>`, `<n>`, `<input>`, `List<String>`), and stripping them would drop their words.
// `end` is markup_at's: past the tag's '>' (for a script or style element past its body, whose
// bare name is in the list either way).
bool marks_html(const Text& t, size_t i, size_t end) {
  const uint32_t c = t[i + 1];
  if (c == '!' || c == '?' || c == '/') return true;
  const size_t name_stop = tag_name_end(t, i + 1);  // before the '>' at end - 1
  for (size_t j = name_stop; j < end; ++j) {
    if (t[j] == '=') return true;
  }
  const uint32_t after = t[name_stop];
  if (!is_space(after) && after != '>' && after != '/') return false;
  return is_tag_name(t, i + 1, name_stop, kBareHtmlTags);
}

bool looks_like_html(const Text& t) {
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '<') {
      const Markup markup = markup_at(t, i);
      if (markup.end != kNone && marks_html(t, i, markup.end)) return true;
    }
    if (t[i] == '&' && entity_at(t, i).end != kNone) return true;
  }
  return false;
}

// Width folding of one code point; lowercasing is one pass over the output at the end.
uint32_t fold_width(uint32_t c, const NormalizeOptions& options) {
  if (options.fold_width) {
    if (c >= 0xff01 && c <= 0xff5e) c -= 0xfee0;
    if (c == 0x3000) c = ' ';
  }
  return c;
}

// append_text's room past the text it writes: for the 8-byte stores of ASCII runs.
constexpr size_t kSlack = 8;

// Appends bytes [from, to) of the input (to at an ASCII byte or the end, so no sequence is cut)
// width-folded and with invalid bytes as U+FFFD. Written through a pointer into room for the
// whole range: folding only shortens a character, so the room lasts until an invalid byte (one
// byte in, the three of U+FFFD out), which makes more. (Appending each unchanged run to the
// string was a call per Chinese punctuation mark, nearly all of them folded or copied.)
void append_text(const unsigned char* p, size_t n, size_t from, size_t to, const NormalizeOptions& options,
                 std::string& out) {
  size_t at = out.size();
  out.resize(at + (to - from) + kSlack);
  auto* o = reinterpret_cast<unsigned char*>(out.data()) + at;
  size_t i = from;
  while (i < to) {
    const unsigned char b = p[i];
    if (b < 0x80) {
      // ASCII text: then eight bytes at a time (memcpy: an unaligned load and store).
      *o++ = b;
      ++i;
      uint64_t word;
      while (i + 8 <= to && (std::memcpy(&word, p + i, 8), (word & 0x8080808080808080ULL) == 0)) {
        std::memcpy(o, &word, 8);
        o += 8;
        i += 8;
      }
      continue;
    }
    // U+4000..U+9FFF (most of CJK): valid whenever both continuation bytes are, and never folded.
    // (x ^ 0x80 is below 0x40 exactly for a continuation byte: one test covers both.)
    if (b >= 0xe4 && b <= 0xe9 && i + 2 < to && ((p[i + 1] ^ 0x80u) | (p[i + 2] ^ 0x80u)) < 0x40) {
      o[0] = b;
      o[1] = p[i + 1];
      o[2] = p[i + 2];
      o += 3;
      i += 3;
      continue;
    }
    const size_t start = i;
    const uint32_t cp = decode_utf8(p, n, i);
    // An invalid byte decodes to U+FFFD without being EF BF BD: it is rewritten, two bytes longer.
    if (cp == 0xfffd && !(i - start == 3 && p[start] == 0xef && p[start + 1] == 0xbf)) {
      at = static_cast<size_t>(o - reinterpret_cast<unsigned char*>(out.data()));
      out.resize(at + 3 + (to - i) + kSlack);
      o = reinterpret_cast<unsigned char*>(out.data()) + at;
      o += encode_utf8(0xfffd, o);
      continue;
    }
    const uint32_t folded = fold_width(cp, options);
    if (folded != cp) {
      o += encode_utf8(folded, o);  // ASCII: shorter than the full-width form
    } else {
      std::memcpy(o, p + start, i - start);
      o += i - start;
    }
  }
  out.resize(static_cast<size_t>(o - reinterpret_cast<unsigned char*>(out.data())));
}

// The next '<' or '&' at or after `from` (where markup may start), or n.
size_t next_markup_byte(const unsigned char* p, size_t n, size_t from) {
  for (size_t i = from; i < n; ++i) {
    if (p[i] == '<' || p[i] == '&') return i;
  }
  return n;
}

void append_markup_free(const Text& t, const NormalizeOptions& options, std::string& out) {
  const unsigned char* p = t.p;
  const size_t n = t.n;
  size_t i = 0;
  while (i < n) {
    const size_t special = next_markup_byte(p, n, i);
    append_text(p, n, i, special, options, out);
    i = special;
    if (i == n) break;
    if (p[i] == '<') {
      const Markup markup = markup_at(t, i);
      if (markup.end != kNone) {
        if (markup.separates) out.push_back(' ');
        i = markup.end;
        continue;
      }
    } else {
      const Entity entity = entity_at(t, i);
      if (entity.end != kNone) {
        append_utf8(out, fold_width(entity.code_point, options));
        i = entity.end;
        continue;
      }
    }
    out.push_back(static_cast<char>(p[i]));
    ++i;
  }
}

}  // namespace

void normalize(std::string_view utf8, const NormalizeOptions& options, std::string& out) {
  out.clear();
  out.reserve(utf8.size() + kSlack);  // append_text's room: the text and its slack
  const Text t{reinterpret_cast<const unsigned char*>(utf8.data()), utf8.size()};
  const bool may_have_markup = options.html != HtmlMode::kOff &&
                               (utf8.find('<') != std::string_view::npos ||
                                utf8.find('&') != std::string_view::npos);
  const bool html = may_have_markup && (options.html == HtmlMode::kOn || looks_like_html(t));
  if (html) {
    append_markup_free(t, options, out);
  } else {
    append_text(t.p, t.n, 0, t.n, options, out);
  }
  if (options.lowercase) {
    // After folding: every ASCII capital of the output (one byte, never inside a sequence).
    // Branch-free, so that the compiler vectorizes it: CJK text pays a fraction of an instruction per byte.
    auto* bytes = reinterpret_cast<unsigned char*>(out.data());
    const size_t size = out.size();
    for (size_t i = 0; i < size; ++i) {
      const unsigned char c = bytes[i];
      bytes[i] = static_cast<unsigned char>(c | (static_cast<unsigned char>(c - 'A') < 26 ? 0x20 : 0));
    }
  }
}

}  // namespace simhash_zh

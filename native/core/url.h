// Where a URL or an e-mail address starts and ends, so that the default pipeline can count it
// as one feature (`whole_urls`): an address's scheme, host, path or user pieces would otherwise
// be a dozen word and letter features, and a link or an address added to a short text would
// outweigh the text. lib/js/url.ts is its twin.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "char_class.h"

namespace simhash_zh {

// RFC 3986's characters (unreserved, reserved and '%').
inline bool is_url_byte(unsigned c) {
  if (is_ascii_alnum(c)) return true;
  switch (c) {
    case '-': case '.': case '_': case '~': case ':': case '/': case '?': case '#': case '[': case ']':
    case '@': case '!': case '$': case '&': case '\'': case '(': case ')': case '*': case '+': case ',':
    case ';': case '=': case '%':
      return true;
    default:
      return false;
  }
}

// A character after which "www." would be inside a longer name or path (`a.www.b`, `x/www.y`,
// `user@www.host`), not the start of a URL: letters, digits and "-._/@". Any other, such as the
// ':' or ',' a full-width colon or comma folds to, or a bracket, may precede a URL
// ("官网：www.example.com").
inline bool continues_name_before_www(unsigned c) {
  return is_ascii_alnum(c) || c == '-' || c == '.' || c == '_' || c == '/' || c == '@';
}

// Punctuation that ends a sentence or a bracket around a URL rather than the URL.
inline bool is_url_trailing_byte(unsigned c) {
  switch (c) {
    case '.': case ',': case ':': case ';': case '!': case '?': case '\'': case '(': case ')': case '[': case ']':
      return true;
    default:
      return false;
  }
}

// Whether `text` may hold a URL: it has "://" or a '.' after "www" (any case). A text without
// either skips the per-word tests.
inline bool may_hold_url(std::string_view text) {
  if (text.find("://") != std::string_view::npos) return true;
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  for (size_t at = 3; at < n;) {
    const void* dot = std::memchr(p + at, '.', n - at);
    if (dot == nullptr) return false;
    const size_t d = static_cast<size_t>(static_cast<const unsigned char*>(dot) - p);
    if ((p[d - 3] | 0x20) == 'w' && (p[d - 2] | 0x20) == 'w' && (p[d - 1] | 0x20) == 'w') return true;
    at = d + 1;
  }
  return false;
}

// Where the URL that the word [start, end) of the normalized text `p` (n bytes) begins ends,
// or 0 when it begins none. A URL begins at a word of ASCII letters and digits followed by
// "://" (its scheme), or at the word "www" (any case) followed by '.' and not preceded by a
// character that continues a name (continues_name_before_www); it runs over the URL characters
// after that, less trailing punctuation, and needs at least one of them.
inline size_t url_end_after(const unsigned char* p, size_t n, size_t start, size_t end) {
  size_t body;
  if (end + 3 <= n && p[end] == ':' && p[end + 1] == '/' && p[end + 2] == '/') {
    body = end + 3;
  } else if (end - start == 3 && (p[start] | 0x20) == 'w' && (p[start + 1] | 0x20) == 'w' && (p[start + 2] | 0x20) == 'w' &&
             end < n && p[end] == '.' && (start == 0 || !continues_name_before_www(p[start - 1]))) {
    body = end + 1;
  } else {
    return 0;
  }
  for (size_t i = start; i < end; ++i) {
    if (!is_ascii_alnum(p[i])) return 0;
  }
  size_t k = body;
  while (k < n && is_url_byte(p[k])) ++k;
  while (k > body && is_url_trailing_byte(p[k - 1])) --k;
  return k > body ? k : 0;
}

// The characters of an e-mail address's local part that this rule takes (RFC 5322's dot-atom
// less the rarely written ones).
inline bool is_email_local_byte(unsigned c) {
  return is_ascii_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
}

// Where the e-mail address that the word [start, end) of `p` (n bytes) begins ends, or 0 when it
// begins none. An address begins at a word of ASCII letters and digits not preceded by a
// local-part character; its local part runs over those characters to an '@', and its domain is
// two or more labels of letters, digits and '-' joined by single dots, the last one starting
// with a letter (so `pkg@1.2.3` is none); a dot after the last label is not the address's.
inline size_t email_end_after(const unsigned char* p, size_t n, size_t start, size_t end) {
  if (start > 0 && is_email_local_byte(p[start - 1])) return 0;
  for (size_t i = start; i < end; ++i) {
    if (!is_ascii_alnum(p[i])) return 0;
  }
  size_t at = end;
  while (at < n && is_email_local_byte(p[at])) ++at;
  if (at >= n || p[at] != '@') return 0;
  size_t k = at + 1;
  size_t labels = 0;
  size_t last_label = 0;
  size_t domain_end = 0;
  for (;;) {
    const size_t label = k;
    while (k < n && (is_ascii_alnum(p[k]) || p[k] == '-')) ++k;
    if (k == label) break;
    ++labels;
    last_label = label;
    domain_end = k;
    if (k >= n || p[k] != '.') break;
    ++k;
  }
  if (labels < 2) return 0;
  const unsigned tld = p[last_label] | 0x20U;
  return tld >= 'a' && tld <= 'z' ? domain_end : 0;
}

// Whether `text` may hold a URL or an e-mail address (may_hold_url, or an '@').
inline bool may_hold_address(std::string_view text) {
  return text.find('@') != std::string_view::npos || may_hold_url(text);
}

// Whether byte c may follow the first word of a URL or an e-mail address: ':' or '.' (a URL),
// '@' or a local-part character (an address; a letter or digit where the segmenter split a run
// of them). address_end_after is 0 after any other byte: a cheap test before it.
inline bool may_follow_address_start(unsigned c) { return c == ':' || c == '@' || is_email_local_byte(c); }

// Where the URL (url_end_after) or else the e-mail address (email_end_after) that the word
// [start, end) begins ends, or 0 when it begins neither.
inline size_t address_end_after(const unsigned char* p, size_t n, size_t start, size_t end) {
  const size_t url = url_end_after(p, n, start, end);
  return url != 0 ? url : email_end_after(p, n, start, end);
}

}  // namespace simhash_zh

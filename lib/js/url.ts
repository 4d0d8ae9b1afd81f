// Where a URL or an e-mail address starts and ends, so that the default pipeline can count it as
// one feature (`wholeUrls`): an address's scheme, host, path or user pieces would otherwise be a
// dozen word and letter features, and a link or an address added to a short text would outweigh
// the text. native/core/url.h is its twin (on UTF-8 bytes; an address is ASCII, so the offsets
// agree in kind).
import { isAsciiAlnum } from './char-class';

/** RFC 3986's characters (unreserved, reserved and '%'), by code unit below 128. */
const URL_CHAR = new Uint8Array(128);
/** Punctuation that ends a sentence or a bracket around a URL rather than the URL. */
const URL_TRAILING = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  URL_CHAR[c] = isAsciiAlnum(c) || "-._~:/?#[]@!$&'()*+,;=%".includes(ch) ? 1 : 0;
  URL_TRAILING[c] = ".,:;!?'()[]".includes(ch) ? 1 : 0;
}

const isUrlChar = (c: number): boolean => c < 128 && URL_CHAR[c] === 1;

/**
 * A character after which "www." would be inside a longer name or path (`a.www.b`, `x/www.y`,
 * `user@www.host`), not the start of a URL: letters, digits and "-._/@". Any other, such as the
 * ':' or ',' a full-width colon or comma folds to, or a bracket, may precede a URL.
 */
const continuesNameBeforeWww = (c: number): boolean =>
  isAsciiAlnum(c) || c === 0x2d || c === 0x2e || c === 0x5f || c === 0x2f || c === 0x40;

const WWW_DOT = /www\./i;

/** Whether `text` may hold a URL: it has "://" or "www." (any case). A text without either skips the per-word tests. */
export function mayHoldUrl(text: string): boolean {
  return text.includes('://') || WWW_DOT.test(text);
}

/**
 * Where the URL that the word [start, end) of the normalized `text` begins ends, or 0 when it
 * begins none. A URL begins at a word of ASCII letters and digits followed by "://" (its
 * scheme), or at the word "www" (any case) followed by '.' and not preceded by a character that
 * continues a name (continuesNameBeforeWww: "官网：www.example.com" is a URL, `a.www.b` is not);
 * it runs over the URL characters after that, less trailing punctuation, and needs at least one.
 */
export function urlEndAfter(text: string, start: number, end: number): number {
  const n = text.length;
  let body: number;
  if (end + 3 <= n && text.charCodeAt(end) === 0x3a && text.charCodeAt(end + 1) === 0x2f && text.charCodeAt(end + 2) === 0x2f) {
    body = end + 3;
  } else if (end - start === 3 && (text.charCodeAt(start) | 0x20) === 0x77 && (text.charCodeAt(start + 1) | 0x20) === 0x77 &&
    (text.charCodeAt(start + 2) | 0x20) === 0x77 && end < n && text.charCodeAt(end) === 0x2e &&
    (start === 0 || !continuesNameBeforeWww(text.charCodeAt(start - 1)))) {
    body = end + 1;
  } else {
    return 0;
  }
  for (let i = start; i < end; i++) if (!isAsciiAlnum(text.charCodeAt(i))) return 0;
  let k = body;
  while (k < n && isUrlChar(text.charCodeAt(k))) k++;
  while (k > body && URL_TRAILING[text.charCodeAt(k - 1)] === 1) k--;
  return k > body ? k : 0;
}

/** The characters of an e-mail address's local part that this rule takes (RFC 5322's dot-atom less the rarely written ones). */
const isEmailLocalChar = (c: number): boolean =>
  isAsciiAlnum(c) || c === 0x2e || c === 0x5f || c === 0x25 || c === 0x2b || c === 0x2d;

/**
 * Where the e-mail address that the word [start, end) of `text` begins ends, or 0 when it begins
 * none. An address begins at a word of ASCII letters and digits not preceded by a local-part
 * character; its local part runs over those characters to an '@', and its domain is two or more
 * labels of letters, digits and '-' joined by single dots, the last one starting with a letter
 * (so `pkg@1.2.3` is none); a dot after the last label is not the address's.
 */
export function emailEndAfter(text: string, start: number, end: number): number {
  if (start > 0 && isEmailLocalChar(text.charCodeAt(start - 1))) return 0;
  for (let i = start; i < end; i++) if (!isAsciiAlnum(text.charCodeAt(i))) return 0;
  const n = text.length;
  let at = end;
  while (at < n && isEmailLocalChar(text.charCodeAt(at))) at++;
  if (at >= n || text.charCodeAt(at) !== 0x40) return 0;
  let k = at + 1;
  let labels = 0;
  let lastLabel = 0;
  let domainEnd = 0;
  for (;;) {
    const label = k;
    while (k < n && (isAsciiAlnum(text.charCodeAt(k)) || text.charCodeAt(k) === 0x2d)) k++;
    if (k === label) break;
    labels++;
    lastLabel = label;
    domainEnd = k;
    if (k >= n || text.charCodeAt(k) !== 0x2e) break;
    k++;
  }
  if (labels < 2) return 0;
  const tld = text.charCodeAt(lastLabel) | 0x20;
  return tld >= 0x61 && tld <= 0x7a ? domainEnd : 0;
}

/** Whether `text` may hold a URL or an e-mail address (mayHoldUrl, or an '@'). */
export function mayHoldAddress(text: string): boolean {
  return text.includes('@') || mayHoldUrl(text);
}

/** Where the URL (urlEndAfter) or else the e-mail address (emailEndAfter) that the word [start, end) begins ends, or 0. */
export function addressEndAfter(text: string, start: number, end: number): number {
  return urlEndAfter(text, start, end) || emailEndAfter(text, start, end);
}

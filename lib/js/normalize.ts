// TS engine of the default pipeline's normalization; native/core/normalize.cc
// is the reference. All markup syntax is ASCII, so scanning UTF-16 units here
// matches scanning code points there.
import { isAsciiDigit } from './char-class';
import { wellFormed } from './text';

export type HtmlMode = 'auto' | boolean;

export interface NormalizeOptions {
  html: HtmlMode;
  foldWidth: boolean;
  lowercase: boolean;
}

const NONE = -1;
const LT = 0x3c;
const GT = 0x3e;
const AMP = 0x26;

const isAlpha = (c: number): boolean => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
const isHex = (c: number): boolean => isAsciiDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
const isSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d);
const lower = (c: number): number => (c >= 0x41 && c <= 0x5a ? c + 32 : c);

function matches(t: string, i: number, word: string): boolean {
  if (i + word.length > t.length) return false;
  for (let k = 0; k < word.length; k++) if (lower(t.charCodeAt(i + k)) !== word.charCodeAt(k)) return false;
  return true;
}

function find(t: string, from: number, word: string): number {
  for (let i = from; i + word.length <= t.length; i++) if (matches(t, i, word)) return i;
  return NONE;
}

function isTagStart(t: string, i: number): boolean {
  if (i + 1 >= t.length) return false;
  const c = t.charCodeAt(i + 1);
  if (isAlpha(c) || c === 0x21 || c === 0x3f) return true;
  return c === 0x2f && i + 2 < t.length && isAlpha(t.charCodeAt(i + 2));
}

/** Index just past the closing '>' (quotes honoured, a '<' ends the search); NONE if unclosed. */
function tagEnd(t: string, i: number): number {
  let quote = 0;
  for (let j = i + 1; j < t.length; j++) {
    const c = t.charCodeAt(j);
    if (c === LT) return NONE;
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) {
      quote = c;
    } else if (c === GT) {
      return j + 1;
    }
  }
  return NONE;
}

const INLINE_TAGS = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'big', 'cite', 'code', 'em', 'font', 'i', 'kbd', 'mark', 'q',
  's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'tt', 'u', 'var', 'wbr']);

/** The end of the tag name (ASCII letters and digits) that starts at t[j]. */
function tagNameEnd(t: string, j: number): number {
  while (j < t.length && (isAlpha(t.charCodeAt(j)) || isAsciiDigit(t.charCodeAt(j)))) j++;
  return j;
}

/** t[j, end) lowercased, or '' when longer than maxLength (no name of the list it is looked up in is). */
function lowerTagName(t: string, j: number, end: number, maxLength: number): string {
  if (end - j > maxLength) return '';
  let name = '';
  for (let k = j; k < end; k++) name += String.fromCharCode(lower(t.charCodeAt(k)));
  return name;
}

function isInlineTag(t: string, i: number): boolean {
  let j = i + 1;
  if (j < t.length && t.charCodeAt(j) === 0x2f) j++;
  return INLINE_TAGS.has(lowerTagName(t, j, tagNameEnd(t, j), 6));
}

/** [end, separates] of the markup at t[i] === '<', or [NONE, false]. */
function markupAt(t: string, i: number): [number, boolean] {
  if (!isTagStart(t, i)) return [NONE, false];
  if (matches(t, i, '<!--')) {
    const close = find(t, i + 4, '-->');
    return [close === NONE ? t.length : close + 3, true];
  }
  for (const raw of ['script', 'style']) {
    const after = i + 1 + raw.length;
    if (matches(t, i + 1, raw) && after < t.length) {
      const c = t.charCodeAt(after);
      if (isSpace(c) || c === GT || c === 0x2f) {
        const openEnd = tagEnd(t, i);
        if (openEnd === NONE) return [NONE, false];
        const close = find(t, openEnd, '</' + raw);
        if (close === NONE) return [t.length, true];
        const closeEnd = tagEnd(t, close);
        return [closeEnd === NONE ? t.length : closeEnd, true];
      }
    }
  }
  const end = tagEnd(t, i);
  if (end === NONE) return [NONE, false];
  return [end, !isInlineTag(t, i)];
}

const NAMED_ENTITIES = new Map<string, number>([
  ['amp', 0x26], ['lt', 0x3c], ['gt', 0x3e], ['quot', 0x22], ['apos', 0x27], ['nbsp', 0xa0], ['copy', 0xa9],
  ['reg', 0xae], ['trade', 0x2122], ['middot', 0xb7], ['hellip', 0x2026], ['mdash', 0x2014], ['ndash', 0x2013],
  ['lsquo', 0x2018], ['rsquo', 0x2019], ['ldquo', 0x201c], ['rdquo', 0x201d], ['laquo', 0xab], ['raquo', 0xbb],
  ['times', 0xd7], ['divide', 0xf7], ['yen', 0xa5], ['emsp', 0x2003], ['ensp', 0x2002], ['thinsp', 0x2009],
  ['bull', 0x2022], ['deg', 0xb0],
]);

/** [end, codePoint] of the entity reference at t[i] === '&', or [NONE, 0]. */
function entityAt(t: string, i: number): [number, number] {
  let j = i + 1;
  if (j < t.length && t.charCodeAt(j) === 0x23) {
    j++;
    const hex = j < t.length && (t.charCodeAt(j) | 0x20) === 0x78;
    if (hex) j++;
    const digitsStart = j;
    const maxDigits = hex ? 6 : 7;
    let value = 0;
    while (j < t.length && (hex ? isHex(t.charCodeAt(j)) : isAsciiDigit(t.charCodeAt(j))) && j - digitsStart < maxDigits) {
      const c = t.charCodeAt(j);
      value = value * (hex ? 16 : 10) + (isAsciiDigit(c) ? c - 0x30 : (c | 0x20) - 0x61 + 10);
      j++;
    }
    if (j === digitsStart || j >= t.length || t.charCodeAt(j) !== 0x3b) return [NONE, 0];
    if (value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) value = 0xfffd;
    return [j + 1, value];
  }
  const nameStart = j;
  while (j < t.length && j - nameStart < 32 && (isAlpha(t.charCodeAt(j)) || isAsciiDigit(t.charCodeAt(j)))) j++;
  if (j === nameStart || j >= t.length || t.charCodeAt(j) !== 0x3b) return [NONE, 0];
  const codePoint = NAMED_ENTITIES.get(t.slice(nameStart, j));
  return codePoint === undefined ? [NONE, 0] : [j + 1, codePoint];
}

/** Elements that HTML often writes bare (void, or closed implicitly); native/core/normalize.cc holds the same list. */
const BARE_HTML_TAGS = new Set(['b', 'blockquote', 'body', 'br', 'center', 'dd', 'div', 'dt', 'em', 'font', 'h1', 'h2', 'h3',
  'h4', 'h5', 'h6', 'head', 'hr', 'html', 'i', 'li', 'nobr', 'ol', 'p', 'pre', 'script', 'span', 'strong', 'style', 'sub',
  'sup', 'table', 'tbody', 'td', 'th', 'tr', 'u', 'ul', 'wbr']);

/**
 * Whether the markup at t[i] === '<' marks the text as HTML (html: 'auto'): a comment, doctype or
 * processing instruction, a closing tag, a tag with an attribute (a '=' before its '>'), or a bare
 * tag of BARE_HTML_TAGS. Any other bare tag is text (placeholders: `<file>`, `<n>`, `List<String>`).
 */
function marksHtml(t: string, i: number, end: number): boolean {
  const c = t.charCodeAt(i + 1);
  if (c === 0x21 || c === 0x3f || c === 0x2f) return true;
  // end is markupAt's: past the tag's '>' (a script or style element: past its body; its bare name is listed either way).
  const nameStop = tagNameEnd(t, i + 1);
  for (let j = nameStop; j < end; j++) if (t.charCodeAt(j) === 0x3d) return true;
  const after = t.charCodeAt(nameStop);
  if (!isSpace(after) && after !== GT && after !== 0x2f) return false;
  return BARE_HTML_TAGS.has(lowerTagName(t, i + 1, nameStop, 10));
}

function looksLikeHtml(t: string): boolean {
  for (let i = t.indexOf('<'); i !== -1; i = t.indexOf('<', i + 1)) {
    const end = markupAt(t, i)[0];
    if (end !== NONE && marksHtml(t, i, end)) return true;
  }
  for (let i = t.indexOf('&'); i !== -1; i = t.indexOf('&', i + 1)) if (entityAt(t, i)[0] !== NONE) return true;
  return false;
}

/** Width folding (full-width ASCII, the ideographic space) and ASCII lowercasing of one unit. */
function foldUnit(c: number, foldWidth: boolean, lowercase: boolean): number {
  if (foldWidth) {
    if (c >= 0xff01 && c <= 0xff5e) c -= 0xfee0;
    else if (c === 0x3000) c = 0x20;
  }
  return lowercase ? lower(c) : c;
}

/** foldUnit of every unit of t into out; returns t.length. */
function fold(t: string, out: Uint16Array, foldWidth: boolean, lowercase: boolean): number {
  const n = t.length;
  for (let i = 0; i < n; i++) out[i] = foldUnit(t.charCodeAt(i), foldWidth, lowercase);
  return n;
}

/** One scratch buffer for every call: the output is copied into a string at the end. */
let scratch = new Uint16Array(1024);
const NEEDS_FOLD = /[\uff01-\uff5e\u3000]/;
const NEEDS_LOWER = /[A-Z]/;

/** Normalizes `text`; the result is never longer than the input (in UTF-16 units). */
export function normalize(text: string, options: NormalizeOptions): string {
  const t = wellFormed(text);
  const mayHaveMarkup = options.html !== false && (t.includes('<') || t.includes('&'));
  if (!mayHaveMarkup) {
    // Nothing to strip: only folding and lowercasing, often nothing at all.
    if (!(options.foldWidth && NEEDS_FOLD.test(t))) {
      if (!(options.lowercase && NEEDS_LOWER.test(t))) return t;
      return t.replace(/[A-Z]+/g, (run) => run.toLowerCase());
    }
  }
  const html = options.html === true || (options.html === 'auto' && mayHaveMarkup && looksLikeHtml(t));
  if (scratch.length < t.length) scratch = new Uint16Array(Math.max(t.length, scratch.length * 2));
  const out = scratch;
  if (!html) return Buffer.from(out.buffer, 0, fold(t, out, options.foldWidth, options.lowercase) * 2).toString('utf16le');
  let n = 0;
  const push = (c: number): void => {
    out[n++] = foldUnit(c, options.foldWidth, options.lowercase);
  };
  let i = 0;
  while (i < t.length) {
    const c = t.charCodeAt(i);
    if (html && c === LT) {
      const [end, separates] = markupAt(t, i);
      if (end !== NONE) {
        if (separates) out[n++] = 0x20;
        i = end;
        continue;
      }
    } else if (html && c === AMP) {
      const [end, codePoint] = entityAt(t, i);
      if (end !== NONE) {
        if (codePoint >= 0x10000) {
          out[n++] = 0xd800 + ((codePoint - 0x10000) >> 10);
          out[n++] = 0xdc00 + ((codePoint - 0x10000) & 0x3ff);
        } else {
          push(codePoint);
        }
        i = end;
        continue;
      }
    }
    push(c);
    i++;
  }
  return Buffer.from(out.buffer, 0, n * 2).toString('utf16le');
}

'use strict';
// fast-check arbitraries for text the engines must agree on: arbitrary UTF-16
// (lone surrogates included), Chinese, mixed scripts, markup, URLs, NUL, emoji.
const fc = require('fast-check');

const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const cjk = fc.integer({ min: 0x4e00, max: 0x9fff }).map((c) => String.fromCharCode(c));
const common = fc.constantFrom(...'的了是我你他和与及就都而且中文本相似度检测去重算法实现高性能北京大学生活研究所'.split(''));
const ascii = fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c));
const word = fc.constantFrom('SimHash', 'hello', 'C++', '3.14', 'iPhone15', 'e-mail', 'foo_bar', 'x86-64', '2024年');
const markup = fc.constantFrom('<html>', '</html>', '<p>', '</p>', '<script>', '</script>', '<br/>', '&amp;', '&nbsp;', '-_-', '--', '/', '<header>', '</pre>');
// Pieces of URLs and e-mail addresses (the default pipeline counts each whole): schemes, www, '@', their punctuation.
const url = fc.constantFrom('https://', 'http://', 'ftp:', '://', 'www.', 'WWW.', 'www', 'a.com/x?q=1&r=2', '/s/', '#top', ').', '%E4', '[::1]:80', 'svn+ssh://',
  '@', 'a.b@', '@x.cn', 'me+tag@Mail.Example.org', '_%-', '@1.2', '-x.', '：www.', '（www.', '/www.');
const punctuation = fc.constantFrom(...'，。！？、；：“”‘’（）《》【】…—,.!?;:\'"()[]{}\t\n\r \u3000\u00a0'.split(''));
const other = fc.constantFrom('é', 'ß', 'Ω', 'ж', '\u0080', '\u00bf', '\u0800', '\ue000', '\ufffd', 'Ａ', 'ｚ', '０', '😀', '👍🏽', '👨‍👩‍👧', '𠀀', '𪚥', '\0', '\u007f', '\u2e80', '\u31c0', '\uff00');

const unit = fc.oneof(
  { arbitrary: common, weight: 6 },
  { arbitrary: cjk, weight: 3 },
  { arbitrary: ascii, weight: 3 },
  { arbitrary: word, weight: 2 },
  { arbitrary: punctuation, weight: 3 },
  { arbitrary: markup, weight: 1 },
  { arbitrary: url, weight: 1 },
  { arbitrary: other, weight: 2 },
  { arbitrary: loneSurrogate, weight: 1 },
  { arbitrary: codeUnit, weight: 1 },
);

/** Mixed text, up to maxLength units. */
const mixedText = (maxLength = 80) => fc.string({ unit, maxLength });

/** Any UTF-16 string, lone surrogates included. */
const anyUtf16 = (maxLength = 60) => fc.string({ unit: codeUnit, maxLength });

/** Any well-formed string over all code points. */
const anyUnicode = (maxLength = 60) => fc.string({ unit: 'binary', maxLength });

const anyText = (maxLength) => fc.oneof(mixedText(maxLength), anyUtf16(maxLength), anyUnicode(maxLength));

module.exports = { mixedText, anyUtf16, anyUnicode, anyText };

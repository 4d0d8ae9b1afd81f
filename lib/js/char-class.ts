// Twin of native/core/char_class.h: which code points carry words.
export const isAsciiDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** `[a-zA-Z0-9]` */
export function isAsciiAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

export function isWordCodePoint(c: number): boolean {
  if (c < 0x80) return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
  if (c <= 0xbf || c === 0xd7 || c === 0xf7) return false;
  if (c >= 0x2000 && c <= 0x2bff) return false;
  if (c >= 0x2e00 && c <= 0x2e7f) return false;
  if (c >= 0x3000 && c <= 0x303f) return c >= 0x3005 && c <= 0x3007;
  if (c >= 0xfe10 && c <= 0xfe1f) return false;
  if (c >= 0xfe30 && c <= 0xfe6f) return false;
  if (c >= 0xff00 && c <= 0xff0f) return false;
  if (c >= 0xff1a && c <= 0xff20) return false;
  if (c >= 0xff3b && c <= 0xff40) return false;
  if (c >= 0xff5b && c <= 0xff65) return false;
  if (c >= 0xfff0 && c <= 0xffff) return false;
  if (c >= 0x1f000 && c <= 0x1faff) return false;
  if (c >= 0xe0000 && c <= 0xe007f) return false;
  return true;
}

/**
 * isWordCodePoint of U+0000..U+FFFF as a table (1: carries words), filled range by range (a call
 * per code point would cost ~5 ms at require); test/pipeline.test.js checks it against the function.
 */
export const WORD_BMP: Uint8Array = (() => {
  const t = new Uint8Array(0x10000).fill(1);
  for (let c = 0; c < 0x80; c++) t[c] = (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) ? 1 : 0;
  t.fill(0, 0x80, 0xc0);
  t[0xd7] = 0;
  t[0xf7] = 0;
  t.fill(0, 0x2000, 0x2c00);
  t.fill(0, 0x2e00, 0x2e80);
  t.fill(0, 0x3000, 0x3040);
  t.fill(1, 0x3005, 0x3008);
  t.fill(0, 0xfe10, 0xfe20);
  t.fill(0, 0xfe30, 0xfe70);
  t.fill(0, 0xff00, 0xff10);
  t.fill(0, 0xff1a, 0xff21);
  t.fill(0, 0xff3b, 0xff41);
  t.fill(0, 0xff5b, 0xff66);
  t.fill(0, 0xfff0, 0x10000);
  return t;
})();

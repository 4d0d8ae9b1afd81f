// Twin of native/core/char_class.h: which code points carry words.
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

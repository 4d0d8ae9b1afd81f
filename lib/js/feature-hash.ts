// MurmurHash3_x86_128 (seed 0) over code points as 32-bit words (UTF-32LE), h3 and h4
// remixed (native/core/feature_hash.h says why), the twin of that file. Writes [h1, h2, h3, h4] into `out`:
// the 128-bit value is h4:h3:h2:h1; a 64-bit SimHash uses h2:h1.
const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;
/** The two halves of 2^64 / φ: any two distinct constants would do. */
const HIGH_MIX_3 = 0x9e3779b9 | 0;
const HIGH_MIX_4 = 0x7f4a7c15;

const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r));

/** MurmurHash3's 32-bit finalizer (a signed 32-bit result). */
export function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Hashes cps[start, end). */
export function featureHash(cps: Uint32Array, start: number, end: number, out: Uint32Array): void {
  let h1 = 0;
  let h2 = 0;
  let h3 = 0;
  let h4 = 0;
  const count = end - start;
  const blocksEnd = start + (count & ~3);
  let i = start;
  for (; i < blocksEnd; i += 4) {
    let k1 = cps[i]!;
    let k2 = cps[i + 1]!;
    let k3 = cps[i + 2]!;
    let k4 = cps[i + 3]!;
    k1 = Math.imul(rotl(Math.imul(k1, C1), 15), C2); h1 ^= k1;
    h1 = (Math.imul(rotl(h1, 19) + h2 | 0, 5) + 0x561ccd1b) | 0;
    k2 = Math.imul(rotl(Math.imul(k2, C2), 16), C3); h2 ^= k2;
    h2 = (Math.imul(rotl(h2, 17) + h3 | 0, 5) + 0x0bcaa747) | 0;
    k3 = Math.imul(rotl(Math.imul(k3, C3), 17), C4); h3 ^= k3;
    h3 = (Math.imul(rotl(h3, 15) + h4 | 0, 5) + 0x96cd1c35) | 0;
    k4 = Math.imul(rotl(Math.imul(k4, C4), 18), C1); h4 ^= k4;
    h4 = (Math.imul(rotl(h4, 13) + h1 | 0, 5) + 0x32ac3b17) | 0;
  }
  const tail = count & 3;
  if (tail >= 3) h3 ^= Math.imul(rotl(Math.imul(cps[i + 2]!, C3), 17), C4);
  if (tail >= 2) h2 ^= Math.imul(rotl(Math.imul(cps[i + 1]!, C2), 16), C3);
  if (tail >= 1) h1 ^= Math.imul(rotl(Math.imul(cps[i]!, C1), 15), C2);
  const length = count * 4;
  h1 ^= length; h2 ^= length; h3 ^= length; h4 ^= length;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0; h3 = (h3 + h1) | 0; h4 = (h4 + h1) | 0;
  h1 = fmix(h1); h2 = fmix(h2); h3 = fmix(h3); h4 = fmix(h4);
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0; h3 = (h3 + h1) | 0; h4 = (h4 + h1) | 0;
  // Of a key of one or two code points MurmurHash3_x86_128 gives h3 === h4 (and h2 === h3
  // for one): remixed apart, so that no two of the sketch's four words are copies.
  h3 = fmix(h3 ^ HIGH_MIX_3);
  h4 = fmix(h4 ^ HIGH_MIX_4);
  out[0] = h1; out[1] = h2; out[2] = h3; out[3] = h4;
}

'use strict';
// Seeded, platform-independent randomness for the quality benchmark.
// Every decision draws from a stream named by its purpose (e.g. the set, the
// base's index and the variant kind), so adding a kind or changing the number
// of bases does not reshuffle the variants of the other bases.

/** FNV-1a 32 over the UTF-16 units of a string, then a murmur3 finalizer. */
function hashString(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** sfc32 seeded from four 32-bit words; returns a generator of floats in [0, 1). */
function sfc32(a, b, c, d) {
  return function next() {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** A random stream for `seed` and a purpose path, e.g. rngFor(1, 'documents', 17, 'typo'). */
function rngFor(seed, ...path) {
  const key = [String(seed), ...path.map(String)].join('\u0000');
  const next = sfc32(hashString('a' + key), hashString('b' + key), hashString('c' + key), hashString('d' + key));
  for (let i = 0; i < 12; i++) next(); // warm-up, as sfc32's authors recommend
  return new Rng(next);
}

class Rng {
  constructor(next) {
    this.next = next;
  }
  /** Integer in [0, n). */
  int(n) {
    return Math.floor(this.next() * n);
  }
  /** Integer in [lo, hi]. */
  range(lo, hi) {
    return lo + this.int(hi - lo + 1);
  }
  chance(p) {
    return this.next() < p;
  }
  pick(array) {
    return array[this.int(array.length)];
  }
  /** Fisher–Yates on a copy. */
  shuffled(array) {
    const out = array.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = out[i];
      out[i] = out[j];
      out[j] = tmp;
    }
    return out;
  }
  /** `count` distinct elements, in random order. */
  sample(array, count) {
    return this.shuffled(array).slice(0, Math.min(count, array.length));
  }
  /** Zero-padded decimal digits. */
  digits(count) {
    let s = '';
    for (let i = 0; i < count; i++) s += String(this.int(10));
    return s;
  }
  /** Lowercase hex digits. */
  hex(count) {
    let s = '';
    for (let i = 0; i < count; i++) s += '0123456789abcdef'[this.int(16)];
    return s;
  }
}

module.exports = { rngFor, hashString, Rng };

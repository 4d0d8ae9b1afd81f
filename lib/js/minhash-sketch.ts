// The default pipeline's sketch (`sketch: 'minhash'`): a weighted one-permutation MinHash
// with densification, one bit per bin (1 with probability 1/4), the twin of native/core/minhash_sketch.h (which says
// why). Products of a rank (< 2^21) and a race weight (< 2^32) are exact in doubles.
import { fmix } from './feature-hash';

const GOLDEN = 0x9e3779b9;
const RANK_MASK = (1 << 21) - 1;
/** The largest base weight the race tells apart: the race weight is min(base, 2^16 - 1)^2. */
const MAX_RACE_BASE = 65535;

/** A feature's weight in the race: base^2, 0 for base <= 0. */
export function raceWeight(base: number): number {
  if (base <= 0) return 0;
  if (base > MAX_RACE_BASE) base = MAX_RACE_BASE;
  return base * base;
}

/** Which way each empty bin looks for a full one: 1 (the top bit of fmix(i + φ) set): left. */
const LEFT = Uint8Array.from({ length: 128 }, (_, i) => fmix((i + GOLDEN) >>> 0) >>> 31);

const lowestBit = (x: number): number => 31 - Math.clz32(x & -x);
const highestBit = (x: number): number => 31 - Math.clz32(x);

/** Unsigned 64-bit order of (hi, lo) word pairs: whether a < b. */
const below64 = (aHi: number, aLo: number, bHi: number, bLo: number): boolean =>
  aHi >>> 0 !== bHi >>> 0 ? aHi >>> 0 < bHi >>> 0 : aLo >>> 0 < bLo >>> 0;

export class MinHashSketch {
  private bins = 64;
  private shift = 26;
  /** Bin i is full: bit i % 32 of full[i >> 5]. */
  private readonly full = new Int32Array(4);
  /**
   * A bin's holder: its race weight, the hash word that placed it (its rank and its bit) and
   * where its hash starts in src. An empty bin holds weight 0 and the largest rank: every
   * offer beats it (its product is 0, the holder's positive) and none ties it, so no offer
   * asks whether its bin is full (as native/core/minhash_sketch.h).
   */
  private readonly weights = new Float64Array(128);
  private readonly words = new Int32Array(128);
  private readonly holders = new Int32Array(128);
  /** The features' hashes, four words each, as FeatureTable stores them. */
  private src: Int32Array = new Int32Array(0);

  /** Empties the sketch for a text of `bits` bits whose features' hashes are in src. */
  reset(bits: number, src: Int32Array): void {
    this.bins = bits;
    this.shift = bits === 128 ? 25 : 26;
    this.src = src;
    const full = this.full;
    full[0] = 0;
    full[1] = 0;
    full[2] = 0;
    full[3] = 0;
    this.weights.fill(0, 0, bits);
    this.words.fill(RANK_MASK, 0, bits);
  }

  /** Offers the feature whose hash is src[at, at + 4), of race weight > 0, to its four bins. */
  add(at: number, weight: number): void {
    const src = this.src;
    const shift = this.shift;
    const full = this.full;
    const weights = this.weights;
    const words = this.words;
    for (let r = 0; r < 4; r++) {
      const word = src[at + r]!;
      const bin = word >>> shift;
      const rank = word & RANK_MASK;
      full[bin >>> 5] |= 1 << (bin & 31);
      // rank / weight < the holder's, as products (exact: both below 2^53).
      const mine = rank * weights[bin]!;
      const theirs = (words[bin]! & RANK_MASK) * weight;
      if (mine > theirs || (mine === theirs && !this.smallerHash(at, this.holders[bin]!))) continue;
      weights[bin] = weight;
      words[bin] = word;
      this.holders[bin] = at;
    }
  }

  /** Whether the hash src[at, at + 4) is below the one at src[other, other + 4): low 64 bits (h2:h1), then high (h4:h3), unsigned. */
  private smallerHash(at: number, other: number): boolean {
    const src = this.src;
    const h1 = src[at]!, h2 = src[at + 1]!;
    if (h1 === src[other] && h2 === src[other + 1]) return below64(src[at + 3]!, src[at + 2]!, src[other + 3]!, src[other + 2]!);
    return below64(h2, h1, src[other + 1]!, src[other]!);
  }

  /** The nearest full bin after (before) the empty bin i, circularly; some bin is full. */
  private fullRightOf(i: number): number {
    const words = this.bins >>> 5;
    let w = i >>> 5;
    let m = this.full[w]! & (-1 << (i & 31));
    for (let step = 0; m === 0 && step < words; step++) {
      w = (w + 1) % words;
      m = this.full[w]!;
    }
    return (w << 5) + lowestBit(m);
  }

  private fullLeftOf(i: number): number {
    const words = this.bins >>> 5;
    let w = i >>> 5;
    let m = this.full[w]! & ((1 << (i & 31)) - 1);
    for (let step = 0; m === 0 && step < words; step++) {
      w = (w + words - 1) % words;
      m = this.full[w]!;
    }
    return (w << 5) + highestBit(m);
  }

  /** The fingerprint as 32-bit limbs, least significant first (all 0 when nothing was offered). */
  finish(limbs: Uint32Array): void {
    const full = this.full;
    const count = this.bins >>> 5;
    let any = 0;
    for (let w = 0; w < count; w++) any |= full[w]!;
    if (any === 0) {
      for (let w = 0; w < count; w++) limbs[w] = 0;
      return;
    }
    const words = this.words;
    for (let w = 0; w < count; w++) {
      let bits = 0;
      // A full bin's bit: bits 21 and 22 of the word that placed its holder both 0.
      for (let held = full[w]!; held !== 0; held &= held - 1) {
        const i = (w << 5) + lowestBit(held);
        if (((words[i]! >>> 21) & 3) === 0) bits |= 1 << (i & 31);
      }
      for (let empty = ~full[w]!; empty !== 0; empty &= empty - 1) {
        const i = (w << 5) + lowestBit(empty);
        const source = LEFT[i] === 1 ? this.fullLeftOf(i) : this.fullRightOf(i);
        if (fmix(this.src[this.holders[source]!]! ^ Math.imul(i + 1, GOLDEN)) >>> 30 === 0) bits |= 1 << (i & 31);
      }
      limbs[w] = bits;
    }
  }
}

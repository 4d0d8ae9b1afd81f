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
  /** Bin i is full: bit i % 32 of full[i >> 5]; a full bin's bit likewise in bit. */
  private readonly full = new Int32Array(4);
  private readonly bit = new Int32Array(4);
  private readonly weights = new Float64Array(128);
  private readonly ranks = new Float64Array(128);
  /** The holder's hash words h1..h4 (as FeatureTable stores them), 4 per bin. */
  private readonly hashes = new Int32Array(512);

  reset(bits: number): void {
    this.bins = bits;
    this.shift = bits === 128 ? 25 : 26;
    this.full.fill(0);
    this.bit.fill(0);
  }

  /** Offers the feature whose hash is src[at, at + 4), of race weight > 0, to its four bins. */
  add(src: Int32Array, at: number, weight: number): void {
    const shift = this.shift;
    const full = this.full;
    const weights = this.weights;
    const ranks = this.ranks;
    const hashes = this.hashes;
    for (let r = 0; r < 4; r++) {
      const word = src[at + r]!;
      const bin = word >>> shift;
      const rank = word & RANK_MASK;
      const flag = 1 << (bin & 31);
      const limb = bin >>> 5;
      if ((full[limb]! & flag) !== 0) {
        // rank / weight < ranks / weights, as products (exact: both below 2^53).
        const mine = rank * weights[bin]!;
        const theirs = ranks[bin]! * weight;
        if (mine > theirs || (mine === theirs && !this.smallerHash(src, at, bin))) continue;
      } else {
        full[limb] = full[limb]! | flag;
      }
      this.bit[limb] = ((word >>> 21) & 3) === 0 ? this.bit[limb]! | flag : this.bit[limb]! & ~flag;
      weights[bin] = weight;
      ranks[bin] = rank;
      const k = bin << 2;
      hashes[k] = src[at]!;
      hashes[k + 1] = src[at + 1]!;
      hashes[k + 2] = src[at + 2]!;
      hashes[k + 3] = src[at + 3]!;
    }
  }

  /** Whether the hash src[at, at + 4) is below the holder's of bin: low 64 bits (h2:h1), then high (h4:h3), unsigned. */
  private smallerHash(src: Int32Array, at: number, bin: number): boolean {
    const hashes = this.hashes;
    const k = bin << 2;
    const h1 = src[at]!, h2 = src[at + 1]!;
    if (h1 === hashes[k] && h2 === hashes[k + 1]) return below64(src[at + 3]!, src[at + 2]!, hashes[k + 3]!, hashes[k + 2]!);
    return below64(h2, h1, hashes[k + 1]!, hashes[k]!);
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
    for (let w = 0; w < count; w++) {
      any |= full[w]!;
      limbs[w] = this.bit[w]!;
    }
    if (any === 0) return;
    for (let w = 0; w < count; w++) {
      let bits = limbs[w]!;
      for (let empty = ~full[w]!; empty !== 0; empty &= empty - 1) {
        const i = (w << 5) + lowestBit(empty);
        const source = LEFT[i] === 1 ? this.fullLeftOf(i) : this.fullRightOf(i);
        if (fmix(this.hashes[source * 4]! ^ Math.imul(i + 1, GOLDEN)) >>> 30 === 0) bits |= 1 << (i & 31);
      }
      limbs[w] = bits;
    }
  }
}

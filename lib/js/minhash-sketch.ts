// The default pipeline's sketch (`sketch: 'minhash'`): a weighted one-permutation MinHash
// with densification, one bit per bin, the twin of native/core/minhash_sketch.h (which says
// why). Products of a rank (< 2^21) and a race weight (< 2^32) are exact in doubles.

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

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Unsigned 64-bit order of (hi, lo) word pairs: whether a < b. */
const below64 = (aHi: number, aLo: number, bHi: number, bLo: number): boolean =>
  aHi >>> 0 !== bHi >>> 0 ? aHi >>> 0 < bHi >>> 0 : aLo >>> 0 < bLo >>> 0;

export class MinHashSketch {
  private bins = 64;
  private shift = 26;
  /** 0: an empty bin. */
  private readonly weights = new Float64Array(128);
  private readonly ranks = new Float64Array(128);
  /** The holder's hash words h1..h4 (as FeatureTable stores them), 4 per bin. */
  private readonly hashes = new Int32Array(512);

  reset(bits: number): void {
    this.bins = bits;
    this.shift = bits === 128 ? 25 : 26;
    this.weights.fill(0, 0, bits);
  }

  /** Offers the feature whose hash is src[at, at + 4), of race weight > 0, to its four bins. */
  add(src: Int32Array, at: number, weight: number): void {
    for (let r = 0; r < 4; r++) this.offer(src[at + r]!, src, at, weight);
  }

  private offer(word: number, src: Int32Array, at: number, weight: number): void {
    const bin = word >>> this.shift;
    const rank = word & RANK_MASK;
    const held = this.weights[bin]!;
    const hashes = this.hashes;
    if (held !== 0) {
      const mine = rank * held;
      const theirs = this.ranks[bin]! * weight;
      if (mine > theirs) return;
      if (mine === theirs) {
        // Ties go to the smaller hash: low 64 bits (h2:h1), then high (h4:h3), unsigned.
        const k = bin * 4;
        const h1 = src[at]!, h2 = src[at + 1]!, h3 = src[at + 2]!, h4 = src[at + 3]!;
        const lowerLo = h1 === hashes[k] && h2 === hashes[k + 1];
        if (lowerLo ? !below64(h4, h3, hashes[k + 3]!, hashes[k + 2]!) : !below64(h2, h1, hashes[k + 1]!, hashes[k]!)) return;
      }
    }
    this.weights[bin] = weight;
    this.ranks[bin] = rank;
    const k = bin * 4;
    hashes[k] = src[at]!;
    hashes[k + 1] = src[at + 1]!;
    hashes[k + 2] = src[at + 2]!;
    hashes[k + 3] = src[at + 3]!;
  }

  /** The fingerprint as 32-bit limbs, least significant first (all 0 when nothing was offered). */
  finish(limbs: Uint32Array): void {
    const bins = this.bins;
    const weights = this.weights;
    limbs.fill(0, 0, bins >>> 5);
    let any = false;
    for (let i = 0; i < bins && !any; i++) any = weights[i] !== 0;
    if (!any) return;
    const mask = bins - 1;
    for (let i = 0; i < bins; i++) {
      let source = i;
      if (weights[i] === 0) {
        const stride = (fmix((i + GOLDEN) >>> 0) | 1) & mask;
        do source = (source + stride) & mask; while (weights[source] === 0);
      }
      let t = fmix(this.hashes[source * 4]! ^ Math.imul(i + 1, GOLDEN));
      t = fmix(t ^ this.hashes[source * 4 + 1]!);
      if (t >>> 31) limbs[i >>> 5]! |= 1 << (i & 31);
    }
  }
}

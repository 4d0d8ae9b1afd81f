// Per-bit signed sums with 32-bit wrap-around (Int32Array stores wrap), as
// the seeds' `int` arrays behave.
export class WrappingAccumulator {
  readonly sums: Int32Array;

  constructor(readonly bits: number) {
    this.sums = new Int32Array(bits);
  }

  /** Adds `weight` where the hash bit is 1 and subtracts it where it is 0; `limbs` holds 32-bit words, least significant first. */
  add(limbs: ArrayLike<number>, weight: number): void {
    const sums = this.sums;
    for (let limb = 0; limb < this.bits >>> 5; limb++) {
      const word = limbs[limb]!;
      const base = limb << 5;
      for (let bit = 0; bit < 32; bit++) {
        sums[base + bit] += (word >>> bit) & 1 ? weight : -weight;
      }
    }
  }

  /** Sets bit i of the result where `rule(sum[i])` holds, as 32-bit limbs. */
  toLimbs(rule: (sum: number) => boolean): Uint32Array {
    const limbs = new Uint32Array(this.bits >>> 5);
    for (let i = 0; i < this.bits; i++) {
      if (rule(this.sums[i]!)) limbs[i >>> 5]! |= 1 << (i & 31);
    }
    return limbs;
  }
}

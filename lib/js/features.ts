// Collects weighted features in first-occurrence order and packs them in the
// same layout the native addon returns.
import type { PackedFeatures } from '../engine';
import { limbsToBigInt } from '../fingerprint';

interface Entry {
  bytes: Uint8Array;
  weight: number;
  hash: bigint;
}

export class FeatureCollector {
  private readonly entries: Entry[] = [];
  private readonly index = new Map<string, Entry>();

  constructor(private readonly bits: number, private readonly utf16: boolean) {}

  /** `key` identifies the feature (its bytes as a string); `limbs` is its hash. */
  add(key: string, bytes: () => Uint8Array, weight: number, limbs: ArrayLike<number>): void {
    const existing = this.index.get(key);
    if (existing) {
      existing.weight += weight;
      return;
    }
    const entry = { bytes: bytes(), weight, hash: limbsToBigInt(limbs, this.bits >>> 5) };
    this.index.set(key, entry);
    this.entries.push(entry);
  }

  pack(): PackedFeatures {
    const count = this.entries.length;
    const words = this.bits >>> 6;
    let total = 0;
    for (const entry of this.entries) total += entry.bytes.length;
    const packed: PackedFeatures = {
      bytes: new Uint8Array(total),
      ends: new Uint32Array(count),
      weights: new Float64Array(count),
      hashes: new BigUint64Array(count * words),
      utf16: this.utf16,
    };
    let offset = 0;
    this.entries.forEach((entry, i) => {
      packed.bytes.set(entry.bytes, offset);
      offset += entry.bytes.length;
      packed.ends[i] = offset;
      packed.weights[i] = entry.weight;
      packed.hashes[i * words] = BigInt.asUintN(64, entry.hash);
      if (words === 2) packed.hashes[i * words + 1] = entry.hash >> 64n;
    });
    return packed;
  }
}

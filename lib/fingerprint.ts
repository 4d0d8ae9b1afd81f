// Fingerprint helpers shared by both engines: hex, binary strings, Hamming distance.
import { badArgument, describe, invalidType, outOfRange } from './errors';

export type Bits = 64 | 128;
export const SUPPORTED_BITS: readonly Bits[] = [64, 128];

const MASK_32 = 0xffffffffn;
const LIMIT_128 = 1n << 128n;

export function assertFingerprint(value: unknown, name = 'fingerprint'): asserts value is bigint {
  if (typeof value !== 'bigint') {
    throw invalidType(`${name} must be a bigint, got ${describe(value)}`);
  }
  if (value < 0n || value >= LIMIT_128) {
    throw outOfRange(`${name} must be in [0, 2^128), got ${value}n`);
  }
}

export function assertBits(bits: unknown, name = 'bits'): asserts bits is Bits {
  if (bits !== 64 && bits !== 128) {
    if (typeof bits !== 'number') throw invalidType(`${name} must be 64 or 128, got ${describe(bits)}`);
    throw outOfRange(`${name} must be 64 or 128, got ${bits}`);
  }
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/** Number of differing bits of two fingerprints (bigints below 2^128), computed in JavaScript. */
export function hammingDistanceJs(a: bigint, b: bigint): number {
  let diff = a ^ b;
  let count = 0;
  while (diff !== 0n) {
    count += popcount32(Number(diff & MASK_32));
    diff >>= 32n;
  }
  return count;
}

/** Zero-padded lowercase hex: 16 digits at 64 bits, 32 at 128. */
export function toHex(fingerprint: bigint, bits?: Bits): string {
  assertFingerprint(fingerprint);
  const width: Bits = bits ?? (fingerprint < 1n << 64n ? 64 : 128);
  assertBits(width);
  if (fingerprint >= 1n << BigInt(width)) {
    throw outOfRange(`fingerprint ${fingerprint}n does not fit in ${width} bits`);
  }
  return fingerprint.toString(16).padStart(width / 4, '0');
}

/** Parses exactly 16 or 32 hex digits (either case, no prefix). */
export function fromHex(hex: string): bigint {
  if (typeof hex !== 'string' || !/^(?:[0-9a-fA-F]{16}|[0-9a-fA-F]{32})$/.test(hex)) {
    const message = `fromHex expects exactly 16 or 32 hex digits, got ${describe(hex)}`;
    throw badArgument(hex, 'string', message);
  }
  return BigInt('0x' + hex);
}

/** The mysimhash seed's `strSimHash` form: one '0'/'1' per bit, bit 0 first. */
export function toBinaryString(fingerprint: bigint, bits: Bits = 64): string {
  assertFingerprint(fingerprint);
  assertBits(bits);
  if (fingerprint >= 1n << BigInt(bits)) {
    throw outOfRange(`fingerprint ${fingerprint}n does not fit in ${bits} bits`);
  }
  return fingerprint.toString(2).padStart(bits, '0').split('').reverse().join('');
}

/** The mysimhash seed's `getDistance`: differing characters, or -1 when the lengths differ. */
export function binaryStringDistance(a: string, b: string): number {
  if (typeof a !== 'string' || typeof b !== 'string') {
    throw invalidType(`binaryStringDistance expects two strings, got ${describe(a)} and ${describe(b)}`);
  }
  if (a.length !== b.length) return -1;
  let distance = 0;
  for (let i = 0; i < a.length; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) distance++;
  return distance;
}

/** Joins 32-bit limbs (least significant first) into a bigint. */
export function limbsToBigInt(limbs: ArrayLike<number>, count: number): bigint {
  let value = 0n;
  for (let i = count - 1; i >= 0; i--) value = (value << 32n) | BigInt(limbs[i]! >>> 0);
  return value;
}

/** Whether a BigUint64Array element holds its low 32 bits first in memory. */
const LOW_HALF_FIRST = new Uint8Array(new BigUint64Array([1n]).buffer)[0] === 1;

/**
 * Fills `out` with the fingerprints of `texts`, `limbsOf` giving each as `count` 32-bit limbs
 * (least significant first; two per element of `out`): written as 32-bit halves, so a batch
 * makes no bigint per text.
 */
export function writeFingerprints(texts: readonly string[], out: BigUint64Array, count: number,
  limbsOf: (text: string) => ArrayLike<number>): void {
  const halves = new Uint32Array(out.buffer, out.byteOffset, out.length * 2);
  const low = LOW_HALF_FIRST ? 0 : 1;
  for (let i = 0; i < texts.length; i++) {
    const limbs = limbsOf(texts[i]!);
    const at = i * count;
    for (let limb = 0; limb < count; limb += 2) {
      halves[at + limb + low] = limbs[limb]!;
      halves[at + limb + 1 - low] = limbs[limb + 1]!;
    }
  }
}

// TS engine of the `SimHashChinese` preset (seed 000): see
// native/core/preset_simhash_chinese.cc for the behaviour reproduced.
import type { FingerprintEngine, PackedFeatures } from '../engine';
import { limbsToBigInt, writeFingerprints } from '../fingerprint';
import { WrappingAccumulator } from './accumulator';
import { FeatureCollector } from './features';
import { utf8Bytes } from './text';

// The 14 one-character stop words of the seed, as 24-bit UTF-8 values.
const STOP_WORDS = new Set(
  ['的', '了', '是', '我', '你', '他', '它', '和', '与', '及', '就', '都', '而', '且'].map((word) => {
    const b = Buffer.from(word, 'utf8');
    return (b[0]! << 16) | (b[1]! << 8) | b[2]!;
  }),
);

/** isspace || ispunct in the C locale; bytes >= 0x80 are kept (glibc, signed char). */
function isDroppedByte(c: number): boolean {
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) return true;
  return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

function clean(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (!isDroppedByte(c)) out[n++] = c;
  }
  return out.subarray(0, n);
}

/** FNV-1a 64 over sign-extended bytes, into limbs[0] (low) and limbs[1] (high). */
function wordHash(bytes: Uint8Array, start: number, length: number, limbs: Uint32Array): void {
  let lo = 0x84222325;
  let hi = 0xcbf29ce4;
  for (let i = start; i < start + length; i++) {
    const c = bytes[i]!;
    if (c >= 0x80) {
      lo = (lo ^ (0xffffff00 | c)) >>> 0;
      hi = (hi ^ 0xffffffff) >>> 0;
    } else {
      lo = (lo ^ c) >>> 0;
    }
    // (hi, lo) * 0x100000001b3 mod 2^64 = (hi, lo) * 0x1b3 + (lo << 40)
    const low = lo * 0x1b3;
    const carry = Math.floor(low / 0x100000000);
    hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) >>> 0;
    lo = low >>> 0;
  }
  limbs[0] = lo;
  limbs[1] = hi;
}

/** Calls emit(start, length) for each word of the seed's segmenter over cleaned bytes. */
function segment(bytes: Uint8Array, emit: (start: number, length: number) => void): void {
  const length = bytes.length;
  let index = 0;
  while (index < length) {
    if (bytes[index]! > 0x80 && index + 2 < length) {
      const key = (bytes[index]! << 16) | (bytes[index + 1]! << 8) | bytes[index + 2]!;
      if (!STOP_WORDS.has(key)) emit(index, 3);
      index += 3;
      continue;
    }
    emit(index, 1);
    index++;
  }
}

export class SimHashChineseJs implements FingerprintEngine {
  private readonly limbs = new Uint32Array(2);

  fingerprint(text: string): bigint {
    return limbsToBigInt(this.limbsOf(text), 2);
  }

  /** The fingerprint as two 32-bit limbs, least significant first. */
  private limbsOf(text: string): Uint32Array {
    const bytes = clean(utf8Bytes(text));
    const sums = new WrappingAccumulator(64);
    const limbs = this.limbs;
    segment(bytes, (start, length) => {
      wordHash(bytes, start, length, limbs);
      sums.add(limbs, length * 8);
    });
    return sums.toLimbs((sum) => sum > 0);
  }

  fingerprintMany(texts: readonly string[], out: BigUint64Array): void {
    writeFingerprints(texts, out, 2, (text) => this.limbsOf(text));
  }

  features(text: string): PackedFeatures {
    const bytes = clean(utf8Bytes(text));
    const collector = new FeatureCollector(64, false);
    const limbs = new Uint32Array(2);
    segment(bytes, (start, length) => {
      wordHash(bytes, start, length, limbs);
      const word = bytes.subarray(start, start + length);
      collector.add(Buffer.from(word).toString('latin1'), () => word.slice(), length * 8, limbs);
    });
    return collector.pack();
  }
}

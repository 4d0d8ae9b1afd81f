// The contract both engines implement. The public classes hold one of these.
import type { Bits } from './fingerprint';

export type Backend = 'native' | 'js';

/** Features packed as the native addon returns them; the JS engine returns the same shape. */
export interface PackedFeatures {
  /** Concatenated token bytes: UTF-8, or UTF-16LE code units when `utf16` is true. */
  bytes: Uint8Array;
  /** End offset of each token in `bytes`. */
  ends: Uint32Array;
  weights: Float64Array;
  /** Each token's hash: one word per token at 64 bits, two (low word first) at 128. */
  hashes: BigUint64Array;
  utf16: boolean;
}

export interface FingerprintEngine {
  fingerprint(text: string): bigint;
  /** Writes bits/64 words per text into `out`, low word first. */
  fingerprintMany(texts: readonly string[], out: BigUint64Array): void;
  features(text: string): PackedFeatures;
}

export interface EngineConfig {
  preset: 'SimHashChinese' | 'mysimhash';
  bits: Bits;
}

export interface Engine {
  readonly backend: Backend;
  createFingerprinter(config: EngineConfig): FingerprintEngine;
  hammingDistance(a: bigint, b: bigint): number;
}

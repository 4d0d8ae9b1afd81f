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
  /** Feature kinds (0 word, 1 character); absent means all words. */
  kinds?: Uint8Array;
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

/** The default pipeline's configuration, as both engines take it. */
export interface PipelineEngineConfig {
  bits: Bits;
  /** Native: a path or the bytes of a binary dictionary; TS engine: its DictReader. */
  dictionary: unknown;
  html: 'auto' | boolean;
  foldWidth: boolean;
  lowercase: boolean;
  weighting: 'tfidf' | 'tf' | 'length' | 'uniform';
  features: 'mixed' | 'words' | 'chars';
  sketch: 'minhash' | 'simhash';
  hmm: boolean;
  dropNumbers: boolean;
  wholeUrls: boolean;
  useStopWords: boolean;
  stopWords?: readonly string[];
  userWords: readonly (readonly [string, number | undefined])[];
}

export interface Engine {
  readonly backend: Backend;
  createFingerprinter(config: EngineConfig): FingerprintEngine;
  createPipeline(config: PipelineEngineConfig): FingerprintEngine;
  hammingDistance(a: bigint, b: bigint): number;
}

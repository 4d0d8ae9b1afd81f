// simhash-zh: near-duplicate detection for Chinese and mixed text.
import { assertFingerprint } from './fingerprint';
import { backend } from './native';
import { engineFor } from './simhash';

export { SimHash, type Token } from './simhash';
export { type SimHashOptions, type PresetName, PRESETS } from './options';
export { type Backend } from './engine';
export { backend, nativeLoadError } from './native';
export { SimHashError, type ErrorCode, type ArgumentErrorCode } from './errors';
export { Segmenter, type SegmenterOptions, type CutOptions, type CutMode, type WordVisitor } from './segmenter';
export { SimHashIndex, dedup, cluster, type SimHashIndexOptions, type IndexMatch, type DedupOptions, type ClusterOptions, type DedupResult, type Duplicate } from './simhash-index';
export { toHex, fromHex, toBinaryString, binaryStringDistance, type Bits } from './fingerprint';

/** Number of differing bits between two fingerprints (bigints below 2^128). */
export function hammingDistance(a: bigint, b: bigint): number {
  assertFingerprint(a, 'a');
  assertFingerprint(b, 'b');
  return engineFor(backend).hammingDistance(a, b);
}

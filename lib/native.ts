// Loads the native addon (node-gyp-build: the local build first, then prebuilds) and decides
// which engine serves by default. The load error is kept, never swallowed.
import * as path from 'node:path';
import { SimHashError, invalidValue, listOf } from './errors';
import type { NativeAsyncEngine } from './async';
import type { Backend, Engine, FingerprintEngine, PackedFeatures } from './engine';
import { joinTexts } from './joined-texts';

/** The addon's NativeSimHash: its batches take the texts joined (lib/joined-texts.ts). */
interface NativeSimHash {
  fingerprint(text: string): bigint;
  fingerprintParts(parts: string[], lengths: Uint32Array, out: BigUint64Array): void;
  fingerprintManyAsync: NativeAsyncEngine['fingerprintManyAsync'];
  features(text: string): PackedFeatures;
}

/** The native engine: NativeSimHash, with fingerprintMany's texts joined for it. */
class NativeFingerprinter implements NativeAsyncEngine {
  constructor(readonly native: NativeSimHash) {}

  fingerprint(text: string): bigint {
    return this.native.fingerprint(text);
  }

  fingerprintMany(texts: readonly string[], out: BigUint64Array): void {
    const { parts, lengths } = joinTexts(texts);
    this.native.fingerprintParts(parts, lengths, out);
  }

  fingerprintManyAsync(parts: string[], lengths: Uint32Array, out: BigUint64Array, workers: number,
    token: unknown): Promise<boolean>[] {
    return this.native.fingerprintManyAsync(parts, lengths, out, workers, token);
  }

  features(text: string): PackedFeatures {
    return this.native.features(text);
  }
}

interface NativeAddon {
  NativeSimHash: new (preset: string, bits: number, config?: object) => NativeSimHash;
  CancelToken: new () => { cancel(): void };
  hamming(a: bigint, b: bigint): number;
  abiVersion: number;
}

const EXPECTED_ABI = 1;

function loadAddon(): { addon?: NativeAddon; error?: Error } {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const load = require('node-gyp-build') as (dir: string) => NativeAddon;
    // SIMHASH_ZH_ADDON_PATH: load that .node file instead (the sanitizer build of scripts/test-asan.js).
    const override = process.env.SIMHASH_ZH_ADDON_PATH;
    const addon = override ? (require(path.resolve(override)) as NativeAddon) : load(path.join(__dirname, '..'));
    if (addon.abiVersion !== EXPECTED_ABI) {
      return { error: new Error(`native addon ABI ${addon.abiVersion} does not match ${EXPECTED_ABI}; rebuild it`) };
    }
    return { addon };
  } catch (error) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }
}

const loaded = loadAddon();

/** Why the native engine did not load, or `undefined` when it did. */
export const nativeLoadError: Error | undefined = loaded.error;

export const BACKENDS: readonly Backend[] = ['native', 'js'];

function nativeUnavailable(): SimHashError {
  return new SimHashError(
    'SIMHASH_ZH_NATIVE_UNAVAILABLE',
    `the native engine is not available (${nativeLoadError?.message ?? 'unknown reason'}); ` +
      `use backend: 'js' or rebuild the addon with \`npm rebuild simhash-zh\``,
    { cause: nativeLoadError },
  );
}

export function requireNativeAddon(): NativeAddon {
  if (!loaded.addon) throw nativeUnavailable();
  return loaded.addon;
}

function defaultBackend(): Backend {
  const forced = process.env.SIMHASH_ZH_BACKEND;
  if (forced === undefined || forced === '') return loaded.addon ? 'native' : 'js';
  if (forced !== 'native' && forced !== 'js') {
    throw invalidValue(`SIMHASH_ZH_BACKEND must be one of ${listOf(BACKENDS)}, got '${forced}'`);
  }
  if (forced === 'native') requireNativeAddon();
  return forced;
}

/** The engine used when an instance does not ask for one. */
export const backend: Backend = defaultBackend();

export const nativeEngine: Engine = {
  backend: 'native',
  createFingerprinter(config): FingerprintEngine {
    return new NativeFingerprinter(new (requireNativeAddon().NativeSimHash)(config.preset, config.bits));
  },
  createPipeline(config): FingerprintEngine {
    const html = config.html === 'auto' ? 0 : config.html ? 1 : 2;
    const weighting = ['tfidf', 'tf', 'length', 'uniform'].indexOf(config.weighting);
    const features = ['mixed', 'words', 'chars'].indexOf(config.features);
    const sketch = ['minhash', 'simhash'].indexOf(config.sketch);
    return new NativeFingerprinter(new (requireNativeAddon().NativeSimHash)('default', config.bits, {
      dictionary: config.dictionary,
      html,
      foldWidth: config.foldWidth,
      lowercase: config.lowercase,
      weighting,
      features,
      sketch,
      hmm: config.hmm,
      dropNumbers: config.dropNumbers,
      wholeUrls: config.wholeUrls,
      useStopWords: config.useStopWords,
      stopWords: config.stopWords,
      userWords: config.userWords.map(([word, freq]) => [word, freq ?? -1]),
    }));
  },
  hammingDistance(a, b) {
    return requireNativeAddon().hamming(a, b);
  },
};

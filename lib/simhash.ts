// The public SimHash class: validates arguments, then delegates to an engine.
import { abortError, jsManyAsync, nativeManyAsync, type NativeAsyncEngine } from './async';
import type { Backend, Engine, FingerprintEngine, PackedFeatures } from './engine';
import { assertText, describe, invalidType, outOfRange } from './errors';
import { assertFingerprint, toBinaryString, toHex, type Bits } from './fingerprint';
import { jsEngine } from './js/engine';
import { backend as defaultBackend, nativeEngine } from './native';
import { assertOptionObject, resolveSimHashOptions, type PresetName, type SimHashOptions } from './options';
import { dictReaderFor, nativeDictionaryArg, resolveDictionary } from './segmenter';

/** One feature that went into a fingerprint. */
export interface Token {
  /** The feature's text (bytes that are not valid UTF-8 show as U+FFFD). */
  token: string;
  /** Total weight of all its occurrences. */
  weight: number;
  /** The feature's hash (bits wide). */
  hash: bigint;
  /** `'word'`, or `'char'` for the default pipeline's character features. */
  kind: 'word' | 'char';
}

export function engineFor(backend: Backend): Engine {
  return backend === 'native' ? nativeEngine : jsEngine;
}

/** Decodes packed features; the same code serves both engines. */
export function unpackTokens(packed: PackedFeatures, bits: Bits): Token[] {
  const tokens: Token[] = [];
  const words = bits / 64;
  const bytes = Buffer.from(packed.bytes.buffer, packed.bytes.byteOffset, packed.bytes.byteLength);
  let start = 0;
  for (let i = 0; i < packed.ends.length; i++) {
    const end = packed.ends[i]!;
    const token = bytes.toString(packed.utf16 ? 'utf16le' : 'utf8', start, end);
    let hash = packed.hashes[i * words]!;
    if (words === 2) hash |= packed.hashes[i * words + 1]! << 64n;
    tokens.push({ token, weight: packed.weights[i]!, hash, kind: packed.kinds?.[i] === 1 ? 'char' : 'word' });
    start = end;
  }
  return tokens;
}

export class SimHash {
  readonly bits: Bits;
  /** The seed preset, or `'default'` for the default pipeline. */
  readonly preset: PresetName | 'default';
  readonly backend: Backend;
  private readonly engine: FingerprintEngine;

  constructor(options?: SimHashOptions) {
    const resolved = resolveSimHashOptions(options, defaultBackend);
    this.bits = resolved.bits;
    this.backend = resolved.backend;
    if (resolved.kind === 'preset') {
      this.preset = resolved.preset;
      this.engine = engineFor(this.backend).createFingerprinter({ preset: resolved.preset, bits: resolved.bits });
      return;
    }
    this.preset = 'default';
    const p = resolved.pipeline;
    const source = resolveDictionary(p.dictionary);
    this.engine = engineFor(this.backend).createPipeline({
      bits: resolved.bits,
      dictionary: this.backend === 'native' ? nativeDictionaryArg(source) : dictReaderFor(source),
      html: p.html,
      foldWidth: p.foldWidth,
      lowercase: p.lowercase,
      weighting: p.weighting,
      features: p.features,
      sketch: p.sketch,
      hmm: p.hmm,
      dropNumbers: p.dropNumbers,
      wholeUrls: p.wholeUrls,
      useStopWords: p.stopWords === undefined || p.stopWords.length > 0,
      ...(p.stopWords !== undefined && p.stopWords.length > 0 ? { stopWords: p.stopWords } : {}),
      userWords: p.words,
    });
  }

  /** The fingerprint of `text` as a bigint below 2^bits. */
  fingerprint(text: string): bigint {
    assertText(text);
    return this.engine.fingerprint(text);
  }

  /** The fingerprint as zero-padded hex (16 digits at 64 bits, 32 at 128). */
  hex(text: string): string {
    return toHex(this.fingerprint(text), this.bits);
  }

  /** The mysimhash seed's `strSimHash` form of the fingerprint: bit 0 first. */
  binaryString(text: string): string {
    return toBinaryString(this.fingerprint(text), this.bits);
  }

  /**
   * Fingerprints of many texts in one native call. At 64 bits one word per text;
   * at 128 bits two words per text, the low 64 bits first.
   */
  fingerprintMany(texts: readonly string[]): BigUint64Array {
    const list = this.textsOf(texts);
    const out = new BigUint64Array(list.length * (this.bits / 64));
    this.engine.fingerprintMany(list, out);
    return out;
  }

  /**
   * `fingerprintMany` off the main thread. Native engine: the batch is split over the cores
   * (libuv worker threads; inputs are copied first, so the array may change afterwards).
   * TS engine: computed on the main thread in slices of about 256K characters with an
   * event-loop turn between slices, so timers and I/O keep running. An aborted `signal`
   * rejects with an `AbortError` (DOMException).
   */
  async fingerprintManyAsync(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<BigUint64Array> {
    const list = this.textsOf(texts);
    const { signal } = assertOptionObject(options, 'fingerprintManyAsync options', ['signal']) as { signal?: AbortSignal };
    if (signal !== undefined && !(signal instanceof AbortSignal)) {
      throw invalidType(`signal must be an AbortSignal, got ${describe(signal)}`);
    }
    if (signal?.aborted) throw abortError(signal);
    const words = this.bits / 64;
    const out = new BigUint64Array(list.length * words);
    if (this.backend === 'native') await nativeManyAsync(this.engine as NativeAsyncEngine, list, out, signal);
    else await jsManyAsync(this.engine, list, out, words, signal);
    return out;
  }

  /** The features and weights that went into the fingerprint of `text`, in first-occurrence order. */
  tokens(text: string): Token[] {
    assertText(text);
    return unpackTokens(this.engine.features(text), this.bits);
  }

  /** Hamming distance between two texts or fingerprints (mixed is fine). */
  distance(a: string | bigint, b: string | bigint): number {
    return engineFor(this.backend).hammingDistance(this.toFingerprint(a, 'a'), this.toFingerprint(b, 'b'));
  }

  /** `(bits - distance) / bits * 100`, as the C++ seed computes it. */
  similarity(a: string | bigint, b: string | bigint): number {
    return ((this.bits - this.distance(a, b)) / this.bits) * 100;
  }

  /** Whether similarity >= threshold (percent, default 90 as in the C++ seed). */
  isSimilar(a: string | bigint, b: string | bigint, threshold = 90): boolean {
    if (typeof threshold !== 'number') throw invalidType(`threshold must be a number, got ${describe(threshold)}`);
    if (!(threshold >= 0 && threshold <= 100)) throw outOfRange(`threshold must be within [0, 100], got ${threshold}`);
    return this.similarity(a, b) >= threshold;
  }

  /**
   * The texts, checked and copied into a plain array: each element is read once, in order,
   * before any is fingerprinted, so both engines see the same texts whatever the array is (a
   * Proxy, which the addon does not take for an array, or one whose getters change it).
   */
  private textsOf(texts: unknown): string[] {
    if (!Array.isArray(texts)) throw invalidType(`texts must be an array of strings, got ${describe(texts)}`);
    const length = texts.length;
    const list: string[] = [];
    for (let i = 0; i < length; i++) {
      const text: unknown = texts[i];
      // The name is built only for the error: a string per text costs more than the check.
      if (typeof text !== 'string') assertText(text, `texts[${i}]`);
      list.push(text as string);
    }
    return list;
  }

  private toFingerprint(value: string | bigint, name: string): bigint {
    if (typeof value === 'string') return this.engine.fingerprint(value);
    assertFingerprint(value, name);
    if (value >= 1n << BigInt(this.bits)) {
      throw outOfRange(`${name} does not fit in ${this.bits} bits`);
    }
    return value;
  }
}

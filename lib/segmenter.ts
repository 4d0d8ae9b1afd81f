// The public Segmenter: jieba-compatible Chinese word segmentation over one
// binary dictionary, served by the native addon or the TS engine with the same
// tokens. Arguments are validated here; the engines only segment.
import type { Backend } from './engine';
import { SimHashError, assertText, badArgument, describe, invalidType, invalidValue, listOf, notOneOf, outOfRange } from './errors';
import {
  IDF_SCALE, defaultDictionaryPath, isBinaryDictionary, readDictionaryFile, MAX_FREQ, HMM_FIRST_CP, HMM_LAST_CP,
} from './dictionary';
import { DictReader } from './js/dict-reader';
import { buildDictionary, decodeDictText, parseJiebaDict } from './js/dict-builder';
import { FLAG_ENTRIES, FLAG_HMM, FLAG_LONGEST, SegmenterJs, type TokenSink } from './js/segmenter';
import { wellFormed } from './js/text';
import { backend as defaultBackend, requireNativeAddon } from './native';
import { assertOptionObject, resolveBackend } from './options';
import { readStopWordList, readUserDict, type UserDictEntry } from './user-dict';

export type CutMode = 'default' | 'longest';
export const CUT_MODES: readonly CutMode[] = ['default', 'longest'];

export interface SegmenterOptions {
  /**
   * The dictionary: a file path, or bytes. Either may hold the binary format
   * (`dict/jieba.dict`, built by `npm run build:dict`) or jieba's text format
   * (`word [freq [tag]]` per line), which replaces the default word list and
   * keeps its HMM, IDF values and stop words. Text must be UTF-8 (a BOM is allowed); invalid UTF-8
   * throws SIMHASH_ZH_DICT_ENCODING. Default: the bundled jieba dictionary.
   */
  dictionary?: string | Uint8Array;
  /** Default of `cut`'s `hmm`: decode runs of unknown characters with the HMM (default true, as jieba). */
  hmm?: boolean;
  /** Engine for this instance; defaults to the module's `backend`. */
  backend?: Backend;
  /**
   * Stop words that replace cppjieba's list (1534 words): the words, or a stop-word file as a path
   * or bytes (a word per line, as cppjieba's stop_words.utf8).
   */
  stopWords?: Iterable<string> | string | Uint8Array;
  /** A jieba user dictionary (`word [freq [tag]]` per line; a path or bytes), as `loadUserDict`. */
  userDict?: string | Uint8Array;
}

export interface CutOptions {
  /** Decode runs of unknown characters with the BMES HMM (default: the instance's `hmm`). */
  hmm?: boolean;
  /** `'default'`: jieba's maximum-probability route; `'longest'`: forward maximum matching. */
  mode?: CutMode;
}

/** Called for each word: offsets into the input (UTF-16 units for a string, bytes for bytes). */
export type WordVisitor = (start: number, end: number, entry: number) => void;

/** What an engine implements; both give identical results. */
interface SegmenterEngine {
  /** Fills ends[0, count) (and entries when given); returns count. */
  segment(input: string | Uint8Array, flags: number, ends: Uint32Array, entries: Int32Array | null): number;
  /** Adds words in order; NaN asks for jieba's suggested frequency. Writes back the frequencies used. */
  addWords(words: readonly string[], freqs: Float64Array): void;
  entryOf(word: string): number;
  entryFreq(entry: number): number;
  entryIdf(entry: number): number;
  setStopWords(words: readonly string[] | null): void;
  isStopWord(word: string): boolean;
}

interface NativeSegmenter {
  setOutput(ends: Uint32Array, entries: Int32Array): void;
  segment(text: string, length: number, flags: number, drain?: (count: number) => void): number;
  segmentBytes(bytes: Uint8Array, flags: number, drain?: (count: number) => void): number;
  addWords(words: readonly string[], freqs: Float64Array): void;
  entryOf(word: string): number;
  entryFreq(entry: number): number;
  entryIdf(entry: number): number;
  setStopWords(words: readonly string[]): void;
  isStopWord(word: string): boolean;
}

interface NativeSegmenterClass {
  new (dictionary: string | Uint8Array): NativeSegmenter;
}

/** Words per batch when the native engine streams them to a visitor. */
const STREAM_BATCH = 4096;

/** The native engine: the output arrays are registered once, then each call passes only the text. */
class NativeEngine implements SegmenterEngine {
  private ends: Uint32Array | null = null;
  private entries: Int32Array | null = null;
  private streamEnds: Uint32Array | null = null;
  private streamEntries: Int32Array | null = null;
  constructor(private readonly native: NativeSegmenter) {}

  private use(ends: Uint32Array, entries: Int32Array): void {
    if (ends !== this.ends || entries !== this.entries) {
      this.native.setOutput(ends, entries);
      this.ends = ends;
      this.entries = entries;
    }
  }

  segment(input: string | Uint8Array, flags: number, ends: Uint32Array, entries: Int32Array | null): number {
    this.use(ends, entries ?? (this.entries !== null && this.entries.length >= ends.length ? this.entries : new Int32Array(ends.length)));
    return typeof input === 'string' ? this.native.segment(input, input.length, flags) : this.native.segmentBytes(input, flags);
  }

  /** Streams the words to `visit` in batches: bounded memory whatever the input's size. */
  forEach(input: string | Uint8Array, flags: number, visit: WordVisitor): void {
    this.streamEnds ??= new Uint32Array(STREAM_BATCH);
    this.streamEntries ??= new Int32Array(STREAM_BATCH);
    const ends = this.streamEnds;
    const entries = this.streamEntries;
    this.use(ends, entries);
    let start = 0;
    const drain = (count: number) => {
      for (let i = 0; i < count; i++) {
        const end = ends[i]!;
        visit(start, end, entries[i]!);
        start = end;
      }
    };
    drain(typeof input === 'string' ? this.native.segment(input, input.length, flags, drain) : this.native.segmentBytes(input, flags, drain));
  }
  addWords(words: readonly string[], freqs: Float64Array): void {
    this.native.addWords(words, freqs);
  }
  entryOf(word: string): number {
    return this.native.entryOf(word);
  }
  entryFreq(entry: number): number {
    return this.native.entryFreq(entry);
  }
  entryIdf(entry: number): number {
    return this.native.entryIdf(entry);
  }
  setStopWords(words: readonly string[] | null): void {
    if (words !== null) this.native.setStopWords(words);
  }
  isStopWord(word: string): boolean {
    return this.native.isStopWord(word);
  }
}

// ---------------------------------------------------------------------------
// Dictionaries: the TS engine shares one reader per file; the native engine
// keeps its own process-wide cache (one mapping per path, shared by workers).

let defaultReader: DictReader | undefined;

function defaultDictReader(): DictReader {
  defaultReader ??= new DictReader(readDictionaryFile(defaultDictionaryPath()));
  return defaultReader;
}

/**
 * Compiles jieba's text format (UTF-8) into the binary format, with the default HMM, IDF and stop
 * words. `what` names the dictionary in errors.
 */
function compileTextDictionary(bytes: Uint8Array, what: string): Uint8Array {
  const words = parseJiebaDict(decodeDictText(bytes, what), what).map(({ word, freq }) => ({ word, freq: freq ?? 0 }));
  const base = defaultDictReader();
  const idf = new Map<string, number>();
  for (const { word } of words) {
    const value = base.idf(base.lookup(word));
    if (value >= 0) idf.set(word, value);
  }
  const hmm = base.data.hmm;
  const emitCount = (HMM_LAST_CP - HMM_FIRST_CP + 1) * 4;
  return buildDictionary({
    words,
    idf,
    idfMedian: base.data.idfMedian,
    hmm: { start: [...hmm.subarray(0, 4)], trans: [...hmm.subarray(4, 20)], emit: hmm.slice(22, 22 + emitCount) },
    stopWords: base.data.stopWords,
  });
}

export type DictionarySource = { kind: 'default' } | { kind: 'path'; path: string } | { kind: 'bytes'; bytes: Uint8Array };

export function resolveDictionary(value: unknown): DictionarySource {
  if (value === undefined) return { kind: 'default' };
  if (typeof value === 'string') {
    if (value === '') throw invalidValue('dictionary must be a non-empty path');
    const bytes = readDictionaryFile(value);
    return isBinaryDictionary(bytes) ? { kind: 'path', path: value } : { kind: 'bytes', bytes: compileTextDictionary(bytes, `dictionary ${value}`) };
  }
  if (value instanceof Uint8Array) {
    return { kind: 'bytes', bytes: isBinaryDictionary(value) ? value : compileTextDictionary(value, 'dictionary') };
  }
  throw invalidType(`dictionary must be a path or a Uint8Array, got ${describe(value)}`);
}

class ArraySink implements TokenSink {
  count = 0;
  constructor(
    readonly ends: Uint32Array,
    readonly entries: Int32Array | null,
  ) {}
  push(end: number, entry: number): void {
    const i = this.count++;
    this.ends[i] = end;
    if (this.entries !== null) this.entries[i] = entry;
  }
}

class CallbackSink implements TokenSink {
  private start = 0;
  constructor(private readonly fn: WordVisitor) {}
  push(end: number, entry: number): void {
    const start = this.start;
    this.start = end;
    this.fn(start, end, entry);
  }
}

class JsEngine implements SegmenterEngine {
  readonly core: SegmenterJs;
  constructor(reader: DictReader) {
    this.core = new SegmenterJs(reader);
  }
  segment(input: string | Uint8Array, flags: number, ends: Uint32Array, entries: Int32Array | null): number {
    const sink = new ArraySink(ends, entries);
    this.core.segment(input, flags, sink);
    return sink.count;
  }
  addWords(words: readonly string[], freqs: Float64Array): void {
    words.forEach((word, i) => {
      freqs[i] = this.core.addWord(word, Number.isNaN(freqs[i]) ? undefined : freqs[i]);
    });
  }
  entryOf(word: string): number {
    return this.core.entryOf(word);
  }
  entryFreq(entry: number): number {
    return this.core.entryFreq(entry);
  }
  entryIdf(entry: number): number {
    return this.core.entryIdf(entry);
  }
  setStopWords(words: readonly string[] | null): void {
    this.core.setStopWords(words);
  }
  isStopWord(word: string): boolean {
    return this.core.isStopWord(word);
  }
}

/** The TS engine's reader of a dictionary (the default one is shared). */
export function dictReaderFor(source: DictionarySource): DictReader {
  if (source.kind === 'default') return defaultDictReader();
  return new DictReader(source.kind === 'path' ? readDictionaryFile(source.path) : source.bytes);
}

/** What the native engine loads a dictionary from: a path (mapped, cached per file) or bytes. */
export function nativeDictionaryArg(source: DictionarySource): string | Uint8Array {
  return source.kind === 'default' ? defaultDictionaryPath() : source.kind === 'path' ? source.path : source.bytes;
}

function createEngine(backend: Backend, source: DictionarySource): SegmenterEngine {
  if (backend === 'js') return new JsEngine(dictReaderFor(source));
  const addon = requireNativeAddon() as unknown as { NativeSegmenter: NativeSegmenterClass };
  const arg = nativeDictionaryArg(source);
  try {
    return new NativeEngine(new addon.NativeSegmenter(arg));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'SIMHASH_ZH_DICT_CORRUPT' || code === 'SIMHASH_ZH_DICT_VERSION' || code === 'SIMHASH_ZH_DICT_IO') {
      const hint = source.kind === 'default' ? ' (the default dictionary is built by `npm run build:dict`)' : '';
      throw new SimHashError(code, (error as Error).message + hint, { cause: error });
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------

const OPTION_NAMES = ['dictionary', 'hmm', 'backend', 'stopWords', 'userDict'] as const;
const CUT_OPTION_NAMES = ['hmm', 'mode'] as const;
/** Scratch arrays above this many entries are dropped after use. */
const SCRATCH_KEEP = 1 << 22;

function assertBoolean(value: unknown, name: string): asserts value is boolean {
  if (typeof value !== 'boolean') throw invalidType(`${name} must be a boolean, got ${describe(value)}`);
}

function assertWord(word: unknown, name = 'word'): asserts word is string {
  assertText(word, name);
  if (word === '') throw invalidValue(`${name} must not be empty`, RangeError);
}

export class Segmenter {
  /** IDF values from `entryIdf` are integers: IDF × IDF_SCALE. */
  static readonly IDF_SCALE = IDF_SCALE;
  readonly backend: Backend;
  readonly hmm: boolean;
  private readonly engine: SegmenterEngine;
  private ends = new Uint32Array(256);
  private entries = new Int32Array(256);
  /** Set while forEachWord calls its visitor: the visitor may read, not segment or change. */
  private visiting = false;

  constructor(options?: SegmenterOptions) {
    const opts = assertOptionObject(options, 'Segmenter options', OPTION_NAMES);
    this.backend = resolveBackend(opts.backend, defaultBackend);
    const hmm = opts.hmm ?? true;
    assertBoolean(hmm, 'hmm');
    this.hmm = hmm;
    let stopWords: string[] | null = null;
    if (typeof opts.stopWords === 'string' || opts.stopWords instanceof Uint8Array) {
      stopWords = readStopWordList(opts.stopWords, 'stopWords');
    } else if (opts.stopWords !== undefined) {
      const given = opts.stopWords as Iterable<unknown>;
      if (given === null || typeof given !== 'object' || typeof given[Symbol.iterator] !== 'function') {
        throw invalidType(`stopWords must be an iterable of strings, a path or a Uint8Array, got ${describe(given)}`);
      }
      stopWords = [];
      for (const word of given) {
        assertText(word, 'each stop word');
        stopWords.push(wellFormed(word));
      }
    }
    const userWords = opts.userDict === undefined ? [] : readUserDict(opts.userDict, 'userDict');
    this.engine = createEngine(this.backend, resolveDictionary(opts.dictionary));
    if (stopWords !== null) this.engine.setStopWords(stopWords);
    if (userWords.length > 0) this.addUserWords(userWords);
  }

  private flags(options: CutOptions | undefined): number {
    const opts = assertOptionObject(options, 'cut options', CUT_OPTION_NAMES);
    const hmm = opts.hmm ?? this.hmm;
    assertBoolean(hmm, 'hmm');
    const mode = opts.mode ?? 'default';
    if (!CUT_MODES.includes(mode as CutMode)) {
      throw notOneOf(mode, CUT_MODES, `mode must be one of ${listOf(CUT_MODES)}, got ${describe(mode)}`);
    }
    return (hmm ? FLAG_HMM : 0) | (mode === 'longest' ? FLAG_LONGEST : 0);
  }

  private notVisiting(): void {
    if (this.visiting) throw new Error('a Segmenter cannot segment or change from inside its own forEachWord visitor');
  }

  private run(input: string | Uint8Array, flags: number): number {
    this.notVisiting();
    const need = input.length + 1;
    if (this.ends.length < need) {
      this.ends = new Uint32Array(Math.max(need, this.ends.length * 2));
      this.entries = new Int32Array(this.ends.length);
    }
    return this.engine.segment(input, flags, this.ends, this.entries);
  }

  private release(): void {
    if (this.ends.length > SCRATCH_KEEP) {
      this.ends = new Uint32Array(256);
      this.entries = new Int32Array(256);
    }
  }

  /** The words of `text`, in order; joined they give back `text` (lone surrogates as U+FFFD). */
  cut(text: string, options?: CutOptions): string[] {
    assertText(text);
    const flags = this.flags(options);
    const s = wellFormed(text);
    const count = this.run(s, flags);
    const ends = this.ends;
    const words = new Array<string>(count);
    let start = 0;
    for (let i = 0; i < count; i++) {
      const end = ends[i]!;
      words[i] = s.slice(start, end);
      start = end;
    }
    this.release();
    return words;
  }

  /** The end offset (UTF-16 units) of each word of `text`, as `cut` would split it. */
  cutOffsets(text: string, options?: CutOptions): Uint32Array {
    assertText(text);
    const count = this.run(wellFormed(text), this.flags(options));
    const out = this.ends.slice(0, count);
    this.release();
    return out;
  }

  /**
   * Calls `visit(start, end, entry)` for each word of `input` (offsets in UTF-16 units for a
   * string, in bytes for UTF-8 bytes; `entry` is the word's dictionary entry or -1), without
   * creating strings. Default mode.
   */
  forEachWord(input: string | Uint8Array, hmm: boolean, visit: WordVisitor): void {
    if (typeof input !== 'string' && !(input instanceof Uint8Array)) {
      throw invalidType(`input must be a string or a Uint8Array, got ${describe(input)}`);
    }
    assertBoolean(hmm, 'hmm');
    if (typeof visit !== 'function') throw invalidType(`visit must be a function, got ${describe(visit)}`);
    const flags = (hmm ? FLAG_HMM : 0) | FLAG_ENTRIES;
    this.notVisiting();
    this.visiting = true;
    try {
      if (this.engine instanceof JsEngine) this.engine.core.segment(input, flags, new CallbackSink(visit));
      else (this.engine as NativeEngine).forEach(input, flags, visit);
    } finally {
      this.visiting = false;
    }
  }

  /**
   * Adds `word` to this segmenter's dictionary, or sets its frequency. Without `freq`, jieba's
   * suggested frequency (just enough to keep the word whole). Frequency 0 removes a word.
   * Returns the frequency used.
   */
  addWord(word: string, freq?: number): number {
    assertWord(word);
    if (freq !== undefined && (typeof freq !== 'number' || !Number.isInteger(freq) || freq < 0 || freq > MAX_FREQ)) {
      const message = `freq must be an integer in [0, ${MAX_FREQ}], got ${describe(freq)}`;
      throw badArgument(freq, 'number', message, outOfRange);
    }
    this.notVisiting();
    const freqs = new Float64Array([freq ?? NaN]);
    this.engine.addWords([wellFormed(word)], freqs);
    return freqs[0]!;
  }

  /**
   * Adds the words of a jieba user dictionary (`word [freq [tag]]` per line, as a path or bytes),
   * in order, as `addWord` does. Returns the number of words added. The text must be UTF-8 (a BOM
   * is allowed); invalid UTF-8 throws SIMHASH_ZH_DICT_ENCODING naming the file and line.
   */
  loadUserDict(source: string | Uint8Array): number {
    const entries = readUserDict(source, 'source');
    this.notVisiting();
    this.addUserWords(entries);
    return entries.length;
  }

  private addUserWords(entries: readonly UserDictEntry[]): void {
    const freqs = new Float64Array(entries.map((e) => e.freq ?? NaN));
    this.engine.addWords(entries.map((e) => e.word), freqs);
  }

  /** Whether `word` is a segmentation word (frequency > 0) of this segmenter's dictionary. */
  hasWord(word: string): boolean {
    assertText(word, 'word');
    return this.engine.entryFreq(this.engine.entryOf(wellFormed(word))) > 0;
  }

  /** The word's frequency (0 when it is not a segmentation word). */
  wordFreq(word: string): number {
    assertText(word, 'word');
    return this.engine.entryFreq(this.engine.entryOf(wellFormed(word)));
  }

  /** The dictionary entry of `word` (as `forEachWord` reports it), or -1. */
  entryOf(word: string): number {
    assertText(word, 'word');
    return this.engine.entryOf(wellFormed(word));
  }

  /** jieba's IDF of an entry as an integer (IDF × `Segmenter.IDF_SCALE`), or -1 when it has none. */
  entryIdf(entry: number): number {
    if (!Number.isInteger(entry)) {
      const message = `entry must be an integer, got ${describe(entry)}`;
      throw badArgument(entry, 'number', message);
    }
    return this.engine.entryIdf(entry);
  }

  /** Whether `word` is a stop word (cppjieba's list, or the `stopWords` option). */
  isStopWord(word: string): boolean {
    assertText(word, 'word');
    return this.engine.isStopWord(wellFormed(word));
  }
}


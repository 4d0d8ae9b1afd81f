// TS engine of the default pipeline; native/core/pipeline.cc is its twin and
// the reference for every rule here.
import type { FingerprintEngine, PackedFeatures } from '../engine';
import { type Bits, limbsToBigInt, writeFingerprints } from '../fingerprint';
import { isAsciiDigit, isWordCodePoint, WORD_BMP } from './char-class';
import type { DictReader } from './dict-reader';
import { featureHash } from './feature-hash';
import { MinHashSketch, raceWeight } from './minhash-sketch';
import { normalize, type NormalizeOptions } from './normalize';
import { FLAG_ENTRIES, FLAG_HMM, SegmenterJs, type TokenSink } from './segmenter';
import { addressEndAfter, mayHoldAddress } from './url';

export type WeightingName = 'tfidf' | 'tf' | 'length' | 'uniform';
export type FeatureSetName = 'mixed' | 'words' | 'chars';
export type SketchName = 'minhash' | 'simhash';

export interface PipelineConfig {
  bits: Bits;
  normalize: NormalizeOptions;
  weighting: WeightingName;
  features: FeatureSetName;
  sketch: SketchName;
  hmm: boolean;
  /** Drop the words made only of ASCII digits. */
  dropNumbers: boolean;
  /** Count a URL or an e-mail address as one word feature (./url.ts). */
  wholeUrls: boolean;
  /** false: keep every word. */
  useStopWords: boolean;
  /** Replaces the dictionary's default stop words when given. */
  stopWords?: readonly string[];
  /** Words added to the dictionary, in order (freq undefined: jieba's suggested frequency). */
  userWords: readonly (readonly [string, number | undefined])[];
}

const CHAR_MARKER = 0x110000;
const MAX_BASE = 2 ** 34;
const MAX_WEIGHT = 2 ** 26;
const IDF_SHIFT = 14;
const FEATURE_CHAR = 1;
/**
 * How many occurrences of an ASCII character feature (a Latin letter or digit) count: how often
 * a letter occurs says nothing about a text's topic, and counted in full the letters of English
 * words, URLs and ids outweigh every word (native/core/pipeline.cc: the same rule).
 */
const MAX_ASCII_CHAR_COUNT = 2;
const UNKNOWN = -0x80000000;
const WEIGHT_TFIDF = 0;
const WEIGHT_LENGTH = 1;
const WEIGHT_FLAT = 2;
/** bmpHashed flags: the character feature's hash is in bmpHashes[8cp..], the one-character word's in [8cp + 4..]. */
const HASHED_CHAR = 1;
const HASHED_WORD = 2;

/** base^1.5 as base * isqrt(base), capped at 2^26 (exact integers in both engines). */
export function emphasize(base: number): number {
  if (base <= 0) return 0;
  if (base > MAX_BASE) base = MAX_BASE;
  let root = Math.floor(Math.sqrt(base));
  while (root * root > base) root--;
  while ((root + 1) * (root + 1) <= base) root++;
  return Math.min(base * root, MAX_WEIGHT);
}

const utf8Length = (cp: number): number => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);

class SpanSink implements TokenSink {
  count = 0;
  ends = new Uint32Array(256);
  entries = new Int32Array(256);
  push(end: number, entry: number): void {
    if (this.count === this.ends.length) {
      const ends = new Uint32Array(this.count * 2);
      ends.set(this.ends);
      this.ends = ends;
      const entries = new Int32Array(this.count * 2);
      entries.set(this.entries);
      this.entries = entries;
    }
    this.ends[this.count] = end;
    this.entries[this.count++] = entry;
  }
}

/** Distinct features of one text, in first-occurrence order, keyed by their 128-bit hash. */
class FeatureTable {
  size = 0;
  private capacity = 64;
  private slots = new Int32Array(64).fill(-1);
  hashes = new Int32Array(256);
  counts = new Uint32Array(64);
  units = new Float64Array(64);
  kinds = new Uint8Array(64);
  firsts = new Uint32Array(64);
  lengths = new Uint32Array(64);

  reset(): void {
    this.size = 0;
    if (this.capacity > 4096) {
      this.capacity = 64;
      this.slots = new Int32Array(64);
    }
    this.slots.fill(-1);
  }

  private grow(): void {
    this.capacity *= 2;
    this.slots = new Int32Array(this.capacity).fill(-1);
    const mask = this.capacity - 1;
    for (let i = 0; i < this.size; i++) {
      let at = this.hashes[i * 4]! & mask;
      while (this.slots[at]! >= 0) at = (at + 1) & mask;
      this.slots[at] = i;
    }
    if (this.counts.length < this.capacity) {
      const n = this.capacity;
      const hashes = new Int32Array(n * 4); hashes.set(this.hashes); this.hashes = hashes;
      const counts = new Uint32Array(n); counts.set(this.counts); this.counts = counts;
      const units = new Float64Array(n); units.set(this.units); this.units = units;
      const kinds = new Uint8Array(n); kinds.set(this.kinds); this.kinds = kinds;
      const firsts = new Uint32Array(n); firsts.set(this.firsts); this.firsts = firsts;
      const lengths = new Uint32Array(n); lengths.set(this.lengths); this.lengths = lengths;
    }
  }

  /** Adds the feature whose hash is src[from, from + 4). */
  add(src: Int32Array, from: number, unit: number, kind: number, first: number, length: number): void {
    if ((this.size + 1) * 2 > this.capacity) this.grow();
    const mask = this.capacity - 1;
    const hashes = this.hashes;
    const slots = this.slots;
    const h0 = src[from]!;
    const h1 = src[from + 1]!;
    const h2 = src[from + 2]!;
    const h3 = src[from + 3]!;
    let at = h0 & mask;
    for (;;) {
      const index = slots[at]!;
      if (index < 0) break;
      const k = index * 4;
      if (hashes[k] === h0 && hashes[k + 1] === h1 && hashes[k + 2] === h2 && hashes[k + 3] === h3) {
        this.counts[index]!++;
        return;
      }
      at = (at + 1) & mask;
    }
    const index = this.size++;
    slots[at] = index;
    const k = index * 4;
    hashes[k] = h0;
    hashes[k + 1] = h1;
    hashes[k + 2] = h2;
    hashes[k + 3] = h3;
    this.counts[index] = 1;
    this.units[index] = unit;
    this.kinds[index] = kind;
    this.firsts[index] = first;
    this.lengths[index] = length;
  }
}

export class DefaultPipelineJs implements FingerprintEngine {
  private readonly segmenter: SegmenterJs;
  private readonly medianIdf: number;
  private readonly customStop: Set<string> | null;
  private readonly useStop: boolean;
  private readonly weighting: number;
  private readonly uniform: boolean;
  private readonly segmentFlags: number;
  private readonly baseEntries: number;
  private readonly sink = new SpanSink();
  private readonly table = new FeatureTable();
  private cps = new Uint32Array(64);
  private readonly hash = new Uint32Array(4);
  /** The same bytes as `hash`, as FeatureTable stores them. */
  private readonly hashWords = new Int32Array(this.hash.buffer);
  private readonly marked = new Uint32Array(2);
  /** Per code point above U+FFFF: unit * 2 + isStop of its character feature. */
  private readonly charInfo = new Map<number, number>();
  /** The same per BMP code point (UNKNOWN: not computed yet). */
  private bmpInfo: Int32Array | null = null;
  /** Per code point above U+FFFF: the hash of its character feature. */
  private readonly charHashes = new Map<number, Int32Array>();
  /** Per BMP code point: its character feature's hash, then its one-character word's (flags in bmpHashed). */
  private bmpHashes: Int32Array | null = null;
  private bmpHashed: Uint8Array | null = null;
  private readonly minhash: boolean;
  private readonly sketch = new MinHashSketch();
  private readonly limbs = new Uint32Array(4);
  private readonly histogram = new Float64Array(32 * 16);
  private readonly setSums = new Float64Array(128);
  private normalized = '';

  constructor(reader: DictReader, private readonly config: PipelineConfig) {
    this.segmenter = new SegmenterJs(reader);
    for (const [word, freq] of config.userWords) this.segmenter.addWord(word, freq);
    this.customStop = config.stopWords === undefined ? null : new Set(config.stopWords);
    this.useStop = config.useStopWords;
    this.weighting = config.weighting === 'tfidf' ? WEIGHT_TFIDF : config.weighting === 'length' ? WEIGHT_LENGTH : WEIGHT_FLAT;
    this.uniform = config.weighting === 'uniform';
    this.minhash = config.sketch === 'minhash';
    this.segmentFlags = (config.hmm ? FLAG_HMM : 0) | FLAG_ENTRIES;
    this.baseEntries = reader.entryCount;
    this.medianIdf = Math.floor(reader.data.idfMedian / 2 ** IDF_SHIFT);
  }

  /** Whether the word norm[start, end) with this entry is a stop word (facts: the segmenter's). */
  private isStop(facts: Int32Array, norm: string, start: number, end: number, entry: number): boolean {
    if (!this.useStop) return false;
    if (this.customStop !== null) return this.customStop.has(norm.slice(start, end));
    return entry >= 0 && entry < this.baseEntries && (facts[2 * entry + 1]! & 1) === 1;
  }

  private unit(facts: Int32Array, entry: number, byteLength: number): number {
    const weighting = this.weighting;
    if (weighting === WEIGHT_TFIDF) {
      if (entry >= 0 && entry < this.baseEntries) {
        // idf * 2 + stop: idf >= 0 exactly when this is, and floor(idf / 2^14) = it >> 15.
        const idf2 = facts[2 * entry + 1]!;
        if (idf2 >= 0) return idf2 >> (IDF_SHIFT + 1);
      }
      return this.medianIdf;
    }
    return weighting === WEIGHT_LENGTH ? byteLength * 8 : 64;
  }

  /** unit * 2 + isStop of the character feature of cp, memoized (user words are fixed at construction). */
  private charInfoOf(facts: Int32Array, cp: number): number {
    if (cp < 0x10000) {
      this.bmpInfo ??= new Int32Array(0x10000).fill(UNKNOWN);
      const known = this.bmpInfo[cp]!;
      if (known !== UNKNOWN) return known;
      return (this.bmpInfo[cp] = this.lookupChar(facts, cp));
    }
    let info = this.charInfo.get(cp);
    if (info === undefined) this.charInfo.set(cp, (info = this.lookupChar(facts, cp)));
    return info;
  }

  private lookupChar(facts: Int32Array, cp: number): number {
    const ch = String.fromCodePoint(cp);
    const entry = this.segmenter.entryOf(ch);
    return this.unit(facts, entry, utf8Length(cp)) * 2 + (this.isStop(facts, ch, 0, ch.length, entry) ? 1 : 0);
  }

  /** The BMP hash table with the hashes of cp (HASHED_CHAR and/or HASHED_WORD) filled in. */
  private bmpHashesOf(cp: number, want: number): Int32Array {
    let hashes = this.bmpHashes;
    let hashed = this.bmpHashed;
    if (hashes === null || hashed === null) {
      hashes = this.bmpHashes = new Int32Array(0x10000 * 8);
      hashed = this.bmpHashed = new Uint8Array(0x10000);
    }
    const missing = want & ~hashed[cp]!;
    if (missing !== 0) {
      const out = this.hash;
      const words = this.hashWords;
      if ((missing & HASHED_CHAR) !== 0) {
        this.marked[0] = CHAR_MARKER;
        this.marked[1] = cp;
        featureHash(this.marked, 0, 2, out);
        hashes.set(words, cp * 8);
      }
      if ((missing & HASHED_WORD) !== 0) {
        this.marked[0] = cp;
        featureHash(this.marked, 0, 1, out);
        hashes.set(words, cp * 8 + 4);
      }
      hashed[cp] = hashed[cp]! | missing;
    }
    return hashes;
  }

  private suppCharHash(cp: number): Int32Array {
    let hash = this.charHashes.get(cp);
    if (hash === undefined) {
      this.marked[0] = CHAR_MARKER;
      this.marked[1] = cp;
      featureHash(this.marked, 0, 2, this.hash);
      hash = new Int32Array(this.hashWords);
      this.charHashes.set(cp, hash);
    }
    return hash;
  }

  private collect(text: string): void {
    const norm = normalize(text, this.config.normalize);
    this.normalized = norm;
    const sink = this.sink;
    sink.count = 0;
    this.segmenter.segment(norm, this.segmentFlags, sink);
    const facts = this.segmenter.facts;
    const table = this.table;
    table.reset();
    const wantWords = this.config.features !== 'chars';
    const wantChars = this.config.features !== 'words';
    const dropNumbers = this.config.dropNumbers;
    const wholeUrls = wantWords && this.config.wholeUrls && mayHoldAddress(norm);
    let addressEnd = 0;  // the end of the URL or e-mail address counted last: words before it are its pieces
    const ends = sink.ends;
    const entries = sink.entries;
    const count = sink.count;
    let start = 0;
    for (let w = 0; w < count; w++) {
      const end = ends[w]!;
      const entry = entries[w]!;
      const wordStart = start;
      start = end;
      // Only in a text that may hold a URL or an e-mail address; both and their pieces are ASCII.
      if (wholeUrls && norm.charCodeAt(wordStart) < 0x80) {
        if (wordStart < addressEnd) continue;
        const endOfAddress = addressEndAfter(norm, wordStart, end);
        if (endOfAddress !== 0) {
          // One word feature: the address's text, hashed as a word's (ASCII: a code unit per byte).
          const length = endOfAddress - wordStart;
          if (this.cps.length < length) this.cps = new Uint32Array(length * 2);
          for (let i = 0; i < length; i++) this.cps[i] = norm.charCodeAt(wordStart + i);
          featureHash(this.cps, 0, length, this.hash);
          table.add(this.hashWords, 0, this.unit(facts, -1, length), 0, wordStart, length);
          addressEnd = endOfAddress;
          continue;
        }
      }
      if (end - wordStart === 1) {
        // One UTF-16 unit: one code point, the word's only character (its char feature shares the word's entry and unit).
        const cp = norm.charCodeAt(wordStart);
        if (WORD_BMP[cp] === 0) continue;
        if (dropNumbers && isAsciiDigit(cp)) continue;
        // Its character's memoized facts are the word's: the same entry (the segmenter's for the character).
        const info = this.charInfoOf(facts, cp);
        if ((info & 1) === 1) continue;
        const unit = info >> 1;
        // With character features a one-character word is its character feature alone (native/core/pipeline.cc says why).
        if (wantChars) table.add(this.bmpHashesOf(cp, HASHED_CHAR), cp * 8, unit, FEATURE_CHAR, wordStart, 1);
        else table.add(this.bmpHashesOf(cp, HASHED_WORD), cp * 8 + 4, unit, 0, wordStart, 1);
        continue;
      }
      if (this.cps.length < end - wordStart) this.cps = new Uint32Array((end - wordStart) * 2);
      const cps = this.cps;
      let n = 0;
      let bytes = 0;
      let hasWordChar = false;
      let digitsOnly = true;
      for (let i = wordStart; i < end; i++) {
        let cp = norm.charCodeAt(i);
        if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < end) {
          const low = norm.charCodeAt(i + 1);
          if (low >= 0xdc00 && low <= 0xdfff) {
            cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
            i++;
          }
        }
        cps[n++] = cp;
        bytes += utf8Length(cp);
        digitsOnly = digitsOnly && isAsciiDigit(cp);
        if (!hasWordChar && (cp < 0x10000 ? WORD_BMP[cp] === 1 : isWordCodePoint(cp))) hasWordChar = true;
      }
      if (!hasWordChar || (dropNumbers && digitsOnly)) continue;
      if (this.isStop(facts, norm, wordStart, end, entry)) continue;
      if (wantWords && !(wantChars && n === 1)) {
        featureHash(cps, 0, n, this.hash);
        table.add(this.hashWords, 0, this.unit(facts, entry, bytes), 0, wordStart, end - wordStart);
      }
      if (!wantChars) continue;
      if (n === 1) {
        // One code point above U+FFFF: the word itself passed the stop check.
        const cp = cps[0]!;
        if (isWordCodePoint(cp)) table.add(this.suppCharHash(cp), 0, this.unit(facts, entry, 4), FEATURE_CHAR, wordStart, 2);
        continue;
      }
      let offset = wordStart;
      for (let k = 0; k < n; k++) {
        const cp = cps[k]!;
        if (cp < 0x10000) {
          if (WORD_BMP[cp] === 1) {
            const info = this.charInfoOf(facts, cp);
            if ((info & 1) === 0) table.add(this.bmpHashesOf(cp, HASHED_CHAR), cp * 8, info >> 1, FEATURE_CHAR, offset, 1);
          }
          offset += 1;
        } else {
          if (isWordCodePoint(cp)) {
            const info = this.charInfoOf(facts, cp);
            if ((info & 1) === 0) table.add(this.suppCharHash(cp), 0, info >> 1, FEATURE_CHAR, offset, 2);
          }
          offset += 2;
        }
      }
    }
  }

  /** A feature's base weight: unit x occurrences, or a fixed unit when uniform. */
  private baseWeight(index: number): number {
    if (this.uniform) return 64;
    const table = this.table;
    let count = table.counts[index]!;
    if (count > MAX_ASCII_CHAR_COUNT && table.kinds[index] === FEATURE_CHAR && this.normalized.charCodeAt(table.firsts[index]!) < 0x80) {
      count = MAX_ASCII_CHAR_COUNT;
    }
    return table.units[index]! * count;
  }

  /** A feature's weight as the sketch uses it (and tokens() reports it). */
  private weight(index: number): number {
    const base = this.baseWeight(index);
    return this.minhash ? raceWeight(base) : emphasize(base);
  }

  fingerprint(text: string): bigint {
    return limbsToBigInt(this.limbsOf(text), this.config.bits >>> 5);
  }

  /** The fingerprint as 32-bit limbs, least significant first (this.limbs, reused). */
  private limbsOf(text: string): Uint32Array {
    this.collect(text);
    if (this.minhash) this.minhashOf();
    else this.simhashOf();
    return this.limbs;
  }

  /** The MinHash sketch of the collected features into this.limbs. */
  private minhashOf(): void {
    const sketch = this.sketch;
    const bits = this.config.bits;
    sketch.reset(bits, this.table.hashes);
    const size = this.table.size;
    for (let f = 0; f < size; f++) {
      const weight = this.weight(f);
      if (weight > 0) sketch.add(f * 4, weight);
    }
    sketch.finish(this.limbs);
  }

  /** The SimHash of the collected features into this.limbs. */
  private simhashOf(): void {
    const bits = this.config.bits;
    // sum_b = sum over features of (bit ? w : -w) = 2 * setSum_b - total; setSum comes from a
    // histogram of each 4-bit nibble's value (native/core/pipeline.cc does the same). Exact
    // integers below 2^53.
    const nibbles = bits >>> 2;
    const histogram = this.histogram;
    histogram.fill(0, 0, nibbles * 16);
    const table = this.table;
    const size = table.size;
    const hashes = table.hashes;
    const limbs = bits >>> 5;
    let total = 0;
    for (let f = 0; f < size; f++) {
      const weight = this.weight(f);
      total += weight;
      for (let limb = 0; limb < limbs; limb++) {
        const word = hashes[f * 4 + limb]!;
        const base = limb << 7;
        histogram[base + (word & 15)]! += weight;
        histogram[base + 16 + ((word >>> 4) & 15)]! += weight;
        histogram[base + 32 + ((word >>> 8) & 15)]! += weight;
        histogram[base + 48 + ((word >>> 12) & 15)]! += weight;
        histogram[base + 64 + ((word >>> 16) & 15)]! += weight;
        histogram[base + 80 + ((word >>> 20) & 15)]! += weight;
        histogram[base + 96 + ((word >>> 24) & 15)]! += weight;
        histogram[base + 112 + (word >>> 28)]! += weight;
      }
    }
    const setSums = this.setSums;
    const h = histogram;
    for (let q = 0; q < nibbles; q++) {
      const b = q << 4;
      setSums[q << 2] = h[b + 1]! + h[b + 3]! + h[b + 5]! + h[b + 7]! + h[b + 9]! + h[b + 11]! + h[b + 13]! + h[b + 15]!;
      setSums[(q << 2) + 1] = h[b + 2]! + h[b + 3]! + h[b + 6]! + h[b + 7]! + h[b + 10]! + h[b + 11]! + h[b + 14]! + h[b + 15]!;
      setSums[(q << 2) + 2] = h[b + 4]! + h[b + 5]! + h[b + 6]! + h[b + 7]! + h[b + 12]! + h[b + 13]! + h[b + 14]! + h[b + 15]!;
      setSums[(q << 2) + 3] = h[b + 8]! + h[b + 9]! + h[b + 10]! + h[b + 11]! + h[b + 12]! + h[b + 13]! + h[b + 14]! + h[b + 15]!;
    }
    for (let limb = 0; limb < bits >>> 5; limb++) {
      let word = 0;
      for (let bit = 0; bit < 32; bit++) if (2 * setSums[(limb << 5) + bit]! > total) word |= 1 << bit;
      this.limbs[limb] = word;
    }
  }

  fingerprintMany(texts: readonly string[], out: BigUint64Array): void {
    writeFingerprints(texts, out, this.config.bits >>> 5, (text) => this.limbsOf(text));
  }

  features(text: string): PackedFeatures {
    this.collect(text);
    const table = this.table;
    const words = this.config.bits >>> 6;
    const chunks: Buffer[] = [];
    const packed: PackedFeatures = {
      bytes: new Uint8Array(0),
      ends: new Uint32Array(table.size),
      weights: new Float64Array(table.size),
      hashes: new BigUint64Array(table.size * words),
      kinds: new Uint8Array(table.size),
      utf16: false,
    };
    let offset = 0;
    for (let f = 0; f < table.size; f++) {
      const first = table.firsts[f]!;
      const chunk = Buffer.from(this.normalized.slice(first, first + table.lengths[f]!), 'utf8');
      chunks.push(chunk);
      offset += chunk.length;
      packed.ends[f] = offset;
      packed.weights[f] = this.weight(f);
      packed.kinds![f] = table.kinds[f]!;
      const h = table.hashes;
      packed.hashes[f * words] = (BigInt(h[f * 4 + 1]! >>> 0) << 32n) | BigInt(h[f * 4]! >>> 0);
      if (words === 2) packed.hashes[f * words + 1] = (BigInt(h[f * 4 + 3]! >>> 0) << 32n) | BigInt(h[f * 4 + 2]! >>> 0);
    }
    packed.bytes = Buffer.concat(chunks);
    return packed;
  }
}

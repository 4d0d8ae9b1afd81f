// The binary dictionary format shared by both engines, and the code that
// validates it and exposes its sections as typed-array views (read in place:
// no text is parsed at load). native/core/dictionary.h implements the same
// layout and the same checks in C++.
//
// Layout (little-endian, every section 64-byte aligned, so a trie slot never straddles a cache line):
//   header (HEADER_SIZE bytes)
//     0  magic "SHZHDICT"          8  version             12 checksum (CRC-32 of [16, fileSize))
//     16 fileSize                  20 headerSize          24 sectionCount        28 flags (0)
//     32 logScale (2^20)           36 idfScale (2^20)     40 totalFreq lo        44 totalFreq hi
//     48 logTotal (= detLogScaled(totalFreq))             52 maxWordChars        56 entryCount
//     60 wordCount (entries with freq > 0)                64 alphabetSize        68 trieSlots
//     72 idfMedian                 76 hmmScale            80..95 reserved (0)
//   section table: sectionCount x { u32 id, u32 offset, u32 byteLength, u32 itemCount }
//   sections, see SECTION below.
//
// Words are code-point sequences. Each code point of the alphabet has an id in
// [1, alphabetSize] (CHARMAP_BMP for U+0000..U+FFFF, CHARMAP_SUPP above). The
// trie is a double array over those ids, 16 bytes per slot: slot 0 is the root; the
// child of slot s by id c is t = base[s] + c when check[t] == s; entry[t] is the
// entry id of the word ending at t, or -1; children[s] has bit (c & 31) set for
// the id c of every child of s (checked at load), so a walk whose next id has
// its bit clear stops without loading the slot where that child would be (most
// steps below the root fail, and each such load is a cache miss). Entries carry
// integer costs: logFreq =
// round(2^20 * ln(freq)) (-1: present but not a segmentation word, e.g. an
// IDF-only or stop-only word), the raw frequency, the IDF scaled by 2^20 (-1:
// none) and flags (bit 0: default stop word).
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { SimHashError } from './errors';

export const MAGIC = 'SHZHDICT';
export const FORMAT_VERSION = 2;
/** Int32 values per trie slot: base, check, entry, children. */
export const TRIE_SLOT_INTS = 4;

/** Whether trie slot `slot` may have a child by alphabet id `id` (its filter has bit id & 31). */
export function mayHaveChild(trie: Int32Array, slot: number, id: number): boolean {
  return ((trie[4 * slot + 3]! >>> (id & 31)) & 1) !== 0;
}

/** The filter bit of a child by alphabet id `id`. */
export function childBit(id: number): number {
  return 1 << (id & 31);
}
export const HEADER_SIZE = 96;
export const SECTION_ENTRY_SIZE = 16;
/** Scale of every logarithm in the file: cost = round(LOG_SCALE * ln(x)). */
export const LOG_SCALE = 1 << 20;
export const IDF_SCALE = 1 << 20;
export const HMM_SCALE = 1 << 20;
/** An HMM cost that jieba writes as -3.14e100 (impossible). */
export const HMM_MISSING = 0x7fffffff;
/** The code points the HMM emission table covers: jieba's `[\u4E00-\u9FD5]`. */
export const HMM_FIRST_CP = 0x4e00;
export const HMM_LAST_CP = 0x9fd5;
export const FLAG_STOP = 1;
/** Frequencies are integers in [0, MAX_FREQ]. */
export const MAX_FREQ = 2 ** 32 - 1;
/** The largest IDF x IDF_SCALE a valid file holds (real IDFs are below 32; native packs it with a flag). */
export const MAX_IDF = 2 ** 30 - 1;

export const SECTION = {
  CHARMAP_BMP: 1,
  CHARMAP_SUPP: 2,
  TRIE: 3,
  ENTRY_LOGFREQ: 4,
  ENTRY_FREQ: 5,
  ENTRY_IDF: 6,
  ENTRY_FLAGS: 7,
  HMM: 8,
  STOPWORDS: 9,
} as const;

// ---------------------------------------------------------------------------
// Deterministic arithmetic shared with C++ (native/core/dictionary.cc). Only
// IEEE-754 +, -, *, / on doubles, in a fixed order: both engines get the same
// bits on every platform (the C++ side builds with -ffp-contract=off).

const LN2 = 0.6931471805599453;
const SQRT2 = 1.4142135623730951;

/** ln(x) for an integer-valued x in [1, 2^53], from basic operations only. */
export function detLn(x: number): number {
  let k = 0;
  while (x >= 2) {
    x = x * 0.5;
    k++;
  }
  if (x > SQRT2) {
    x = x * 0.5;
    k++;
  }
  const s = (x - 1) / (x + 1);
  const s2 = s * s;
  let p = 1 / 29;
  for (let i = 13; i >= 0; i--) p = p * s2 + 1 / (2 * i + 1);
  return k * LN2 + 2 * s * p;
}

/** round(LOG_SCALE * ln(x)) for an integer x >= 1; 0 for x < 1. */
export function detLogScaled(x: number): number {
  if (!(x >= 1)) return 0;
  return Math.floor(detLn(x) * LOG_SCALE + 0.5);
}

/**
 * The largest f >= 1 with detLogScaled(f) <= target, or 0 if there is none:
 * floor(exp(target / LOG_SCALE)) without calling exp().
 */
export function detExpFloor(target: number): number {
  if (target < 0) return 0;
  let lo = 1;
  let hi = 2 ** 53;
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo + 1) / 2);
    if (detLogScaled(mid) <= target) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The file checksum: CRC-32 (zlib's) of bytes[start, end). */
export function checksum(bytes: Uint8Array, start: number, end: number): number {
  return zlib.crc32(bytes.subarray(start, end)) >>> 0;
}

// ---------------------------------------------------------------------------
// Reading and validating a file.

function corrupt(message: string): SimHashError {
  return new SimHashError('SIMHASH_ZH_DICT_CORRUPT', `corrupt dictionary: ${message}`);
}

/** A validated dictionary file, its sections as views into the same bytes. */
export interface DictionaryData {
  readonly bytes: Uint8Array;
  readonly totalFreq: number;
  readonly logTotal: number;
  readonly maxWordChars: number;
  readonly entryCount: number;
  readonly wordCount: number;
  readonly alphabetSize: number;
  readonly idfMedian: number;
  readonly charmapBmp: Int32Array;
  /** Pairs [codePoint, id] sorted by code point. */
  readonly charmapSupp: Uint32Array;
  /** [base, check, entry, children] per slot (TRIE_SLOT_INTS values). */
  readonly trie: Int32Array;
  readonly trieSlots: number;
  readonly logFreq: Int32Array;
  readonly freq: Uint32Array;
  readonly idf: Int32Array;
  readonly flags: Uint8Array;
  /** [start x4, trans x16, firstCp, count, emit x(count*4)] as costs. */
  readonly hmm: Int32Array;
  readonly stopWords: readonly string[];
}

/**
 * Whether bytes are meant as the binary format (then readDictionary validates them)
 * rather than jieba's text format: they start like the magic, or hold a NUL byte
 * early on, which no text dictionary does.
 */
export function isBinaryDictionary(bytes: Uint8Array): boolean {
  let magic = bytes.length >= 4;
  for (let i = 0; i < 4 && magic; i++) magic = bytes[i] === MAGIC.charCodeAt(i);
  return magic || bytes.subarray(0, 4096).includes(0);
}

/** Parses and validates a binary dictionary; throws SimHashError (CORRUPT, VERSION). */
export function readDictionary(input: Uint8Array): DictionaryData {
  if (os.endianness() !== 'LE') {
    throw new SimHashError('SIMHASH_ZH_DICT_VERSION', 'the dictionary format is little-endian; this host is big-endian');
  }
  if (input.length < HEADER_SIZE) throw corrupt(`file is truncated (${input.length} bytes, header needs ${HEADER_SIZE})`);
  for (let i = 0; i < 8; i++) if (input[i] !== MAGIC.charCodeAt(i)) throw corrupt('bad magic (not a simhash-zh dictionary)');
  // Sections are read through typed-array views, which need aligned offsets.
  const bytes = input.byteOffset % 8 === 0 ? input : new Uint8Array(input);
  const header = new DataView(bytes.buffer, bytes.byteOffset, HEADER_SIZE);
  const u32 = (at: number) => header.getUint32(at, true);
  const version = u32(8);
  if (version !== FORMAT_VERSION) {
    throw new SimHashError(
      'SIMHASH_ZH_DICT_VERSION',
      `dictionary format version ${version} is not supported (this build reads version ${FORMAT_VERSION}); rebuild it with \`npm run build:dict\``,
    );
  }
  const fileSize = u32(16);
  if (fileSize !== bytes.length) {
    throw corrupt(fileSize > bytes.length ? `file is truncated (${bytes.length} of ${fileSize} bytes)` : `file has ${bytes.length - fileSize} trailing bytes`);
  }
  if (checksum(bytes, 16, fileSize) !== u32(12)) throw corrupt('checksum mismatch');
  const headerSize = u32(20);
  const sectionCount = u32(24);
  if (headerSize !== HEADER_SIZE || sectionCount > 64 || HEADER_SIZE + sectionCount * SECTION_ENTRY_SIZE > fileSize) {
    throw corrupt('bad header');
  }
  if (u32(32) !== LOG_SCALE || u32(36) !== IDF_SCALE || u32(76) !== HMM_SCALE) throw corrupt('unsupported scales');
  const totalFreq = u32(40) + u32(44) * 2 ** 32;
  const logTotal = header.getInt32(48, true);
  const maxWordChars = u32(52);
  const entryCount = u32(56);
  const wordCount = u32(60);
  const alphabetSize = u32(64);
  const trieSlots = u32(68);
  const idfMedian = header.getInt32(72, true);
  if (totalFreq > 2 ** 53 || logTotal !== detLogScaled(totalFreq) || entryCount > 0x7fffffff || alphabetSize > 0x10ffff) {
    throw corrupt('bad header values');
  }

  const sections = new Map<number, { offset: number; byteLength: number; count: number }>();
  const table = new DataView(bytes.buffer, bytes.byteOffset + HEADER_SIZE, sectionCount * SECTION_ENTRY_SIZE);
  for (let i = 0; i < sectionCount; i++) {
    const id = table.getUint32(i * 16, true);
    const offset = table.getUint32(i * 16 + 4, true);
    const byteLength = table.getUint32(i * 16 + 8, true);
    const count = table.getUint32(i * 16 + 12, true);
    if (offset % 8 !== 0 || offset < HEADER_SIZE + sectionCount * SECTION_ENTRY_SIZE || byteLength > fileSize - offset) {
      throw corrupt(`section ${id} lies outside the file`);
    }
    if (id > SECTION.STOPWORDS) continue; // unknown sections are ignored (native/core/dictionary.cc: the same)
    if (sections.has(id)) throw corrupt(`section ${id} appears twice`);
    sections.set(id, { offset, byteLength, count });
  }
  const section = (id: number, itemBytes: number, expectCount?: number) => {
    const s = sections.get(id);
    if (!s) throw corrupt(`section ${id} is missing`);
    if (s.byteLength < s.count * itemBytes || (expectCount !== undefined && s.count !== expectCount)) {
      throw corrupt(`section ${id} has the wrong size`);
    }
    return s;
  };
  const i32 = (id: number, itemInts: number, expectCount?: number) => {
    const s = section(id, itemInts * 4, expectCount);
    return new Int32Array(bytes.buffer, bytes.byteOffset + s.offset, s.count * itemInts);
  };

  const charmapBmp = i32(SECTION.CHARMAP_BMP, 1, 0x10000);
  for (let i = 0; i < 0x10000; i++) {
    const id = charmapBmp[i]!;
    if (id < 0 || id > alphabetSize) throw corrupt('character map holds an id out of range');
  }
  const suppSection = section(SECTION.CHARMAP_SUPP, 8);
  const charmapSupp = new Uint32Array(bytes.buffer, bytes.byteOffset + suppSection.offset, suppSection.count * 2);
  let lastCp = 0xffff;
  for (let i = 0; i < charmapSupp.length; i += 2) {
    const cp = charmapSupp[i]!;
    const id = charmapSupp[i + 1]!;
    if (cp <= lastCp || cp > 0x10ffff || id < 1 || id > alphabetSize) throw corrupt('supplementary character map is invalid');
    lastCp = cp;
  }

  const trie = i32(SECTION.TRIE, TRIE_SLOT_INTS, trieSlots);
  if (trieSlots < 1 || trieSlots > 0x7fffffff) throw corrupt('trie is empty');
  const baseLimit = trieSlots - alphabetSize - 1;
  for (let t = 0; t < trieSlots; t++) {
    const base = trie[4 * t]!;
    const check = trie[4 * t + 1]!;
    const entry = trie[4 * t + 2]!;
    // Every base + id must stay inside the array: the hot loops do not bounds-check.
    if (base < 0 || base > baseLimit || check < -1 || check >= trieSlots || entry < -1 || entry >= entryCount) {
      throw corrupt('trie slot out of range');
    }
    // Every child has its bit in its parent's filter: the walks then find the same words as
    // without it. (A bit set for no child only costs a load.) The parent is a slot of the
    // array (checked just above); its base, if not yet checked, only enters the arithmetic.
    if (t > 0 && check >= 0 && !mayHaveChild(trie, check, t - trie[4 * check]!)) {
      throw corrupt(`trie slot ${t} is missing from its parent's child filter`);
    }
  }
  const logFreq = i32(SECTION.ENTRY_LOGFREQ, 1, entryCount);
  const freqSection = section(SECTION.ENTRY_FREQ, 4, entryCount);
  const freq = new Uint32Array(bytes.buffer, bytes.byteOffset + freqSection.offset, entryCount);
  const idf = i32(SECTION.ENTRY_IDF, 1, entryCount);
  const flagsSection = section(SECTION.ENTRY_FLAGS, 1, entryCount);
  const flags = new Uint8Array(bytes.buffer, bytes.byteOffset + flagsSection.offset, entryCount);
  for (let e = 0; e < entryCount; e++) {
    if (logFreq[e]! < -1 || idf[e]! < -1 || idf[e]! > MAX_IDF) throw corrupt(`entry ${e} is invalid`);
  }

  const hmmSection = section(SECTION.HMM, 4);
  if (hmmSection.count < 22) throw corrupt('HMM section is truncated');
  const hmm = new Int32Array(bytes.buffer, bytes.byteOffset + hmmSection.offset, hmmSection.count);
  if (hmm[20] !== HMM_FIRST_CP || hmm[21] !== HMM_LAST_CP - HMM_FIRST_CP + 1 || hmm.length !== 22 + hmm[21]! * 4) {
    throw corrupt('HMM section has the wrong shape');
  }
  for (let i = 0; i < hmm.length; i++) {
    if (i !== 20 && i !== 21 && hmm[i]! < 0) throw corrupt('HMM cost out of range');
  }

  const stopSection = section(SECTION.STOPWORDS, 1);
  const stopWords = readStringList(bytes.subarray(stopSection.offset, stopSection.offset + stopSection.byteLength), stopSection.count);

  return {
    bytes, totalFreq, logTotal, maxWordChars, entryCount, wordCount, alphabetSize, idfMedian,
    charmapBmp, charmapSupp, trie, trieSlots, logFreq, freq, idf, flags, hmm, stopWords,
  };
}

/** A list of strings: u32 offsets[count + 1] (relative to the bytes after them), then UTF-8. */
function readStringList(bytes: Uint8Array, count: number): string[] {
  if (bytes.length < (count + 1) * 4) throw corrupt('string list is truncated');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const base = (count + 1) * 4;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + base, bytes.length - base);
  const out: string[] = [];
  let prev = view.getUint32(0, true);
  if (prev !== 0) throw corrupt('string list offsets are invalid');
  for (let i = 1; i <= count; i++) {
    const next = view.getUint32(i * 4, true);
    if (next < prev || next > text.length) throw corrupt('string list offsets are invalid');
    out.push(text.toString('utf8', prev, next));
    prev = next;
  }
  return out;
}

export function writeStringList(strings: readonly string[]): Uint8Array {
  const encoded = strings.map((s) => Buffer.from(s, 'utf8'));
  const base = (strings.length + 1) * 4;
  const total = encoded.reduce((n, b) => n + b.length, 0);
  const out = new Uint8Array(base + total);
  const view = new DataView(out.buffer);
  let offset = 0;
  view.setUint32(0, 0, true);
  encoded.forEach((b, i) => {
    out.set(b, base + offset);
    offset += b.length;
    view.setUint32((i + 1) * 4, offset, true);
  });
  return out;
}

// ---------------------------------------------------------------------------
// Locating and reading files.

/** Path of the default dictionary built by `npm run build:dict`. */
export function defaultDictionaryPath(): string {
  return path.join(__dirname, '..', 'dict', 'jieba.dict');
}

export function readDictionaryFile(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (error) {
    const hint = file === defaultDictionaryPath() ? ' (the default dictionary is built by `npm run build:dict`)' : '';
    throw new SimHashError('SIMHASH_ZH_DICT_IO', `cannot read dictionary ${file}${hint}: ${(error as Error).message}`, { cause: error });
  }
}

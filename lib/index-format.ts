// What both SimHashIndex engines share: the engine contract, the table layouts a width and a
// maxDistance support, and the file format (the TypeScript twin of native/core/index_format.h).
import * as zlib from 'node:zlib';
import { SimHashError } from './errors';
import type { Bits } from './fingerprint';

/** Matches of a batch: those of query i are `[offsets[i], offsets[i + 1])` in `ids`/`distances`. */
export interface FlatMatches {
  offsets: Uint32Array;
  ids: Float64Array;
  distances: Uint8Array;
}

/** One engine's index. Arguments arrive validated (lib/simhash-index.ts). */
export interface IndexEngine {
  size(): number;
  /** Adds or replaces; returns whether `id` was present. */
  add(id: number, fingerprint: bigint): boolean;
  /** `words`: bits/64 words per fingerprint, low word first. */
  addMany(ids: Float64Array, words: BigUint64Array): void;
  remove(id: number): boolean;
  has(id: number): boolean;
  get(id: number): bigint | undefined;
  /** Writes the matches into ids/distances when they fit; returns their count either way. */
  query(fingerprint: bigint, maxDistance: number, ids: Float64Array, distances: Uint8Array): number;
  queryMany(words: BigUint64Array, maxDistance: number): FlatMatches;
  /** Same answers as queryMany, by a linear scan (tests and benchmarks). */
  bruteForceQueryMany(words: BigUint64Array, maxDistance: number): FlatMatches;
  entries(): { ids: Float64Array; fingerprints: BigUint64Array };
  serialize(): Buffer;
  /** [bits, maxDistance, tables] */
  layout(): number[];
  /** Bytes held by the index's own arrays. */
  memoryBytes(): number;
}

/** Ids are non-negative safe integers. */
export const MAX_INDEX_ID = Number.MAX_SAFE_INTEGER;
/** Slots are uint32 and 0xffffffff is reserved. */
export const MAX_INDEX_ENTRIES = 0xfffffffe;
const MAX_TABLES = 64;

/** The largest maxDistance for a width: 8 at 64 bits, 16 at 128. */
export function maxSupportedDistance(bits: Bits): number {
  return bits / 8;
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

/**
 * Table counts supported for (bits, maxDistance): C(B, k) for B = k+1 .. min(k+4, bits) blocks, up
 * to 64 tables (just 1 when k = 0), ascending. The default is the first: k + 1 tables.
 */
export function supportedTableCounts(bits: Bits, maxDistance: number): number[] {
  if (maxDistance === 0) return [1];
  const out: number[] = [];
  for (let blocks = maxDistance + 1; blocks <= Math.min(maxDistance + 4, bits); blocks++) {
    const tables = binomial(blocks, maxDistance);
    if (tables > MAX_TABLES) break;
    out.push(tables);
  }
  return out;
}

/** A run of bits [shift, shift + len) of 32-bit word `word`, placed at stream bit `dest` (0 = MSB). */
export interface Piece {
  word: number;
  shift: number;
  len: number;
  dest: number;
}

export interface LayoutTable {
  /** The first 64 bits of the permuted stream; no piece crosses a 32-bit boundary on either side. */
  pieces: Piece[];
  /** The key blocks as 32-bit words of the fingerprint, least significant first. */
  keyMask: Uint32Array;
  keyBits: number;
  /** Stream position (0 = first) of every fingerprint bit. */
  position: Uint8Array;
}

/**
 * The layout of native/core/simhash_index.h: B blocks (block 0 the most significant bits, sizes
 * differing by at most one), one table per choice of B - k key blocks in lexicographic order, each
 * table's stream being its key blocks then the others, every block from its top bit down.
 */
export function makeLayout(bits: Bits, maxDistance: number, tables: number): LayoutTable[] {
  let blocks = 0;
  if (maxDistance === 0) blocks = tables === 1 ? 1 : 0;
  for (let b = maxDistance + 1; maxDistance > 0 && b <= Math.min(maxDistance + 4, bits); b++) {
    if (binomial(b, maxDistance) === tables) blocks = b;
  }
  if (blocks === 0 || tables > MAX_TABLES) throw new RangeError(`unsupported index layout ${bits}/${maxDistance}/${tables}`);
  const low: number[] = [];
  const len: number[] = [];
  let top = bits;
  for (let i = 0; i < blocks; i++) {
    len.push(Math.floor(bits / blocks) + (i < bits % blocks ? 1 : 0));
    top -= len[i]!;
    low.push(top);
  }
  const keyBlocks = blocks - maxDistance;
  const out: LayoutTable[] = [];
  const choice = Array.from({ length: keyBlocks }, (_, i) => i);
  for (;;) {
    const isKey = new Array<boolean>(blocks).fill(false);
    for (const b of choice) isKey[b] = true;
    const order = [...choice];
    for (let b = 0; b < blocks; b++) if (!isKey[b]) order.push(b);
    const keyMask = new Uint32Array(bits / 32);
    let keyBits = 0;
    const pieces: Piece[] = [];
    const position = new Uint8Array(bits);
    let p = 0;
    for (const b of order) for (let bit = low[b]! + len[b]! - 1; bit >= low[b]!; bit--) position[bit] = p++;
    let pos = 0;
    for (const b of order) {
      if (isKey[b]) {
        keyBits += len[b]!;
        for (let bit = low[b]!; bit < low[b]! + len[b]!; bit++) keyMask[bit >>> 5] |= 1 << (bit & 31);
      }
      let hiEnd = low[b]! + len[b]!;
      const loEnd = hiEnd - Math.min(len[b]!, Math.max(0, 64 - pos));
      while (hiEnd > loEnd) {
        const word = (hiEnd - 1) >>> 5;
        // Cut at the source word boundary and at stream bit 32.
        const room = pos < 32 ? 32 - pos : 64 - pos;
        const start = Math.max(loEnd, word * 32, hiEnd - room);
        pieces.push({ word, shift: start - word * 32, len: hiEnd - start, dest: pos });
        pos += hiEnd - start;
        hiEnd = start;
      }
    }
    for (let i = 0; i < keyMask.length; i++) keyMask[i] = keyMask[i]! >>> 0;
    out.push({ pieces, keyMask, keyBits, position });
    let i = keyBlocks - 1;
    while (i >= 0 && choice[i] === blocks - keyBlocks + i) i--;
    if (i < 0) break;
    choice[i]++;
    for (let j = i + 1; j < keyBlocks; j++) choice[j] = choice[j - 1]! + 1;
  }
  return out;
}

// ---- File format, version 1 (see native/core/index_format.h) ------------------------------------
//   0  magic 89 53 48 5A 49 44 58 0A    8  u32 version = 1       12  u8 bits     13  u8 maxDistance
//  14  u16 tables    16  u64 count     24  u32 flags = 0         28  u32 CRC-32 of bytes 0..27
//  32  count × u64 ids (< 2^53, unique, insertion order), then count × bits/64 × u64 fingerprint
//      words (low word first), then u32 CRC-32 of the ids and fingerprints. All little-endian.

export const INDEX_FORMAT_VERSION = 1;
export const INDEX_HEADER_SIZE = 32;
const MAGIC = Buffer.from([0x89, 0x53, 0x48, 0x5a, 0x49, 0x44, 0x58, 0x0a]);

let crcTable: Uint32Array | undefined;
/** CRC-32 (IEEE, as zlib). Node's zlib.crc32 when present (Node >= 20.15), else a table loop. */
export function crc32(data: Uint8Array): number {
  const native = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
  if (typeof native === 'function') return native(data) >>> 0;
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let i = 0; i < 256; i++) {
      let c = i;
      for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
      crcTable[i] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = (crc >>> 8) ^ crcTable[(crc ^ data[i]!) & 0xff]!;
  return (crc ^ 0xffffffff) >>> 0;
}

export interface DecodedIndex {
  bits: Bits;
  maxDistance: number;
  tables: number;
  /** Ids in insertion order. */
  ids: Float64Array;
  /** bits/32 words per fingerprint, least significant first. */
  words: Uint32Array;
}

/** Encodes entries (ids, and bits/32 words per fingerprint) as a version-1 file. */
export function encodeIndex(bits: Bits, maxDistance: number, tables: number, ids: Float64Array, words: Uint32Array): Buffer {
  const n = ids.length;
  const w = bits / 32;
  const payload = n * (8 + 4 * w);
  const out = Buffer.alloc(INDEX_HEADER_SIZE + payload + 4);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(INDEX_FORMAT_VERSION, 8);
  out.writeUInt8(bits, 12);
  out.writeUInt8(maxDistance, 13);
  out.writeUInt16LE(tables, 14);
  out.writeUInt32LE(n >>> 0, 16);
  out.writeUInt32LE(Math.floor(n / 0x100000000), 20);
  out.writeUInt32LE(0, 24);
  out.writeUInt32LE(crc32(out.subarray(0, 28)), 28);
  let p = INDEX_HEADER_SIZE;
  for (let i = 0; i < n; i++, p += 8) {
    const id = ids[i]!;
    out.writeUInt32LE(id % 0x100000000, p);
    out.writeUInt32LE(Math.floor(id / 0x100000000), p + 4);
  }
  for (let i = 0; i < n * w; i++, p += 4) out.writeUInt32LE(words[i]!, p);
  out.writeUInt32LE(crc32(out.subarray(INDEX_HEADER_SIZE, INDEX_HEADER_SIZE + payload)), INDEX_HEADER_SIZE + payload);
  return out;
}

/**
 * Decodes and validates a file: every length is checked before it is read. Throws SimHashError
 * with code SIMHASH_ZH_INDEX_TRUNCATED, SIMHASH_ZH_INDEX_CORRUPT or SIMHASH_ZH_INDEX_VERSION, with
 * the messages of the native reader. Repeated ids are left to the engine (it builds an id map anyway).
 */
export function decodeIndex(bytes: Uint8Array): DecodedIndex {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = buf.length;
  const seen = Math.min(size, 8);
  if (!buf.subarray(0, seen).equals(MAGIC.subarray(0, seen))) {
    throw new SimHashError('SIMHASH_ZH_INDEX_CORRUPT', 'not a simhash-zh index (bad magic bytes)');
  }
  if (size < 12) throw new SimHashError('SIMHASH_ZH_INDEX_TRUNCATED', `index is truncated (${size} bytes, no header)`);
  const version = buf.readUInt32LE(8);
  if (version !== INDEX_FORMAT_VERSION) {
    throw new SimHashError(
      'SIMHASH_ZH_INDEX_VERSION',
      `index format version ${version} is not supported (this build reads version ${INDEX_FORMAT_VERSION})`,
    );
  }
  if (size < INDEX_HEADER_SIZE) {
    throw new SimHashError('SIMHASH_ZH_INDEX_TRUNCATED', `index is truncated (${size} bytes, header is 32)`);
  }
  if (crc32(buf.subarray(0, 28)) !== buf.readUInt32LE(28)) {
    throw new SimHashError('SIMHASH_ZH_INDEX_CORRUPT', 'index header checksum mismatch');
  }
  const bits = buf.readUInt8(12);
  const maxDistance = buf.readUInt8(13);
  const tables = buf.readUInt16LE(14);
  const countHi = buf.readUInt32LE(20);
  const count = buf.readUInt32LE(16) + countHi * 0x100000000;
  const flags = buf.readUInt32LE(24);
  const layoutOk =
    (bits === 64 || bits === 128) &&
    maxDistance <= maxSupportedDistance(bits) &&
    supportedTableCounts(bits, maxDistance).includes(tables);
  if (flags !== 0 || !layoutOk) throw new SimHashError('SIMHASH_ZH_INDEX_CORRUPT', 'index header has unsupported fields');
  if (countHi !== 0 || count > MAX_INDEX_ENTRIES) {
    throw new SimHashError('SIMHASH_ZH_INDEX_CORRUPT', 'index header has an impossible entry count');
  }
  const w = bits / 32;
  const payload = count * (8 + 4 * w);
  const expected = INDEX_HEADER_SIZE + payload + 4;
  if (size < expected) throw new SimHashError('SIMHASH_ZH_INDEX_TRUNCATED', `index is truncated (${size} of ${expected} bytes)`);
  if (size > expected) throw new SimHashError('SIMHASH_ZH_INDEX_CORRUPT', `index has ${size - expected} trailing bytes`);
  if (crc32(buf.subarray(INDEX_HEADER_SIZE, INDEX_HEADER_SIZE + payload)) !== buf.readUInt32LE(INDEX_HEADER_SIZE + payload)) {
    throw new SimHashError('SIMHASH_ZH_INDEX_CORRUPT', 'index payload checksum mismatch');
  }
  const ids = new Float64Array(count);
  let p = INDEX_HEADER_SIZE;
  for (let i = 0; i < count; i++, p += 8) {
    const hi = buf.readUInt32LE(p + 4);
    if (hi >= 0x200000) throw new SimHashError('SIMHASH_ZH_INDEX_CORRUPT', 'index holds an id above 2^53 - 1');
    ids[i] = hi * 0x100000000 + buf.readUInt32LE(p);
  }
  const words = new Uint32Array(count * w);
  for (let i = 0; i < count * w; i++, p += 4) words[i] = buf.readUInt32LE(p);
  return { bits: bits as Bits, maxDistance, tables, ids, words };
}

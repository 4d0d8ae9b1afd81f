// SimHashIndex (near-duplicate search within k bits), dedup and cluster: argument validation and
// engine dispatch. The engines are native/core/simhash_index.h (through native/addon/index_glue.cc)
// and lib/js/simhash-index.ts; both give identical answers for every operation.
//
// Ids are integers, not strings: non-negative safe integers (0 .. 2^53 - 1). An index is meant to
// hold millions of entries, and an integer id costs 8 bytes in a flat array that crosses the native
// boundary as a Float64Array, serializes as a fixed-width field and compares in one instruction; a
// string id would cost an allocation, a hash and tens of bytes per entry in native memory plus a
// conversion per result, and would blow the 64 bytes/entry budget. Callers with string keys keep them
// in an array and use the row number (or a database row id) as the id.
//
// Adding an id that is already present replaces it (as Map#set): the entry takes the new fingerprint
// and moves to the end of the insertion order, exactly as remove(id) followed by add(id, fp).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Backend } from './engine';
import { SimHashError, badArgument, describe, invalidType, invalidValue, listOf, outOfRange } from './errors';
import { assertBits, type Bits } from './fingerprint';
import {
  MAX_INDEX_ENTRIES,
  maxSupportedDistance,
  supportedTableCounts,
  type FlatMatches,
  type IndexEngine,
} from './index-format';
import { JsIndex, jsCluster, jsDedup } from './js/simhash-index';
import { backend as defaultBackend, requireNativeAddon } from './native';
import { assertOptionObject, resolveBackend } from './options';
import { SimHash } from './simhash';
import type { SimHashOptions } from './options';

export interface SimHashIndexOptions {
  /** Fingerprint width: 64 (default) or 128. */
  bits?: Bits;
  /** The largest distance the index answers: 0..8 at 64 bits, 0..16 at 128 (default 3). */
  maxDistance?: number;
  /**
   * Number of permuted tables: C(B, maxDistance) for B = maxDistance+1 .. maxDistance+4 blocks, at most
   * 64 (see SimHashIndex.supportedTables). More tables cost 8 bytes per entry each and leave fewer
   * candidates per query. Default: maxDistance + 1 (1 when maxDistance is 0).
   */
  tables?: number;
  /** Engine for this index; defaults to the module's `backend`. */
  backend?: Backend;
}

export interface IndexMatch {
  id: number;
  distance: number;
}

interface NativeIndexAddon {
  NativeIndex: {
    new (bits: number, maxDistance: number, tables: number): IndexEngine;
    new (bytes: Uint8Array): IndexEngine;
  };
  indexDedup(words: BigUint64Array, bits: number, maxDistance: number, tables: number): { of: Uint32Array; distances: Uint8Array };
  indexCluster(words: BigUint64Array, bits: number, maxDistance: number, tables: number): Uint32Array;
}

function nativeIndexAddon(): NativeIndexAddon {
  return requireNativeAddon() as unknown as NativeIndexAddon;
}

const INDEX_OPTIONS = ['bits', 'maxDistance', 'tables', 'backend'] as const;
const INDEX_ERROR_CODES = new Set(['SIMHASH_ZH_INDEX_CORRUPT', 'SIMHASH_ZH_INDEX_TRUNCATED', 'SIMHASH_ZH_INDEX_VERSION']);
const DEFAULT_MAX_DISTANCE = 3;

function resolveMaxDistance(value: unknown, bits: Bits, name = 'maxDistance'): number {
  if (value === undefined) return DEFAULT_MAX_DISTANCE;
  if (typeof value !== 'number') throw invalidType(`${name} must be a number, got ${describe(value)}`);
  const limit = maxSupportedDistance(bits);
  if (!Number.isInteger(value) || value < 0 || value > limit) {
    throw outOfRange(`${name} must be an integer in [0, ${limit}] at ${bits} bits, got ${value}`);
  }
  return value;
}

function resolveTables(value: unknown, bits: Bits, maxDistance: number): number {
  const supported = supportedTableCounts(bits, maxDistance);
  if (value === undefined) return supported[0]!;
  if (typeof value !== 'number') throw invalidType(`tables must be a number, got ${describe(value)}`);
  if (!supported.includes(value)) {
    throw outOfRange(
      `tables must be one of ${listOf(supported)} for maxDistance ${maxDistance} at ${bits} bits, got ${value}`,
    );
  }
  return value;
}

function assertId(id: unknown, name = 'id'): asserts id is number {
  if (typeof id !== 'number') throw invalidType(`${name} must be a number, got ${describe(id)}`);
  if (!Number.isSafeInteger(id) || id < 0) {
    throw outOfRange(`${name} must be an integer in [0, 2^53 - 1], got ${id}`);
  }
}

function assertPath(file: unknown): asserts file is string {
  if (typeof file !== 'string' || file === '') {
    const message = `path must be a non-empty string, got ${describe(file)}`;
    throw badArgument(file, 'string', message);
  }
}

function assertIndexFingerprint(fp: unknown, bits: Bits, name = 'fingerprint'): asserts fp is bigint {
  if (typeof fp !== 'bigint') throw invalidType(`${name} must be a bigint, got ${describe(fp)}`);
  if (fp < 0n || fp >= 1n << BigInt(bits)) {
    throw outOfRange(`${name} must be in [0, 2^${bits}) for a ${bits}-bit index, got ${fp}n`);
  }
}

/**
 * Fingerprints as bits/64 words each, low word first. A BigUint64Array is taken as such words (what
 * SimHash#fingerprintMany returns); a bigint[] is checked and converted.
 */
function toWords(fps: unknown, bits: Bits, name: string): BigUint64Array {
  const w = bits / 64;
  if (fps instanceof BigUint64Array) {
    if (fps.length % w !== 0) {
      throw invalidValue(`${name} holds ${fps.length} words, not a multiple of ${w} (two words per 128-bit fingerprint)`, RangeError);
    }
    return fps;
  }
  if (!Array.isArray(fps)) throw invalidType(`${name} must be a BigUint64Array or an array of bigints, got ${describe(fps)}`);
  const out = new BigUint64Array(fps.length * w);
  const limit = 1n << BigInt(bits);
  for (let i = 0; i < fps.length; i++) {
    const fp: unknown = fps[i];
    if (typeof fp !== 'bigint' || fp < 0n || fp >= limit) assertIndexFingerprint(fp, bits, `${name}[${i}]`);
    out[i * w] = BigInt.asUintN(64, fp as bigint);
    if (w === 2) out[i * w + 1] = (fp as bigint) >> 64n;
  }
  return out;
}

function toIds(ids: unknown): Float64Array {
  if (ids instanceof Float64Array || ids instanceof Uint32Array || ids instanceof Int32Array ||
      ids instanceof Uint16Array || ids instanceof Uint8Array || Array.isArray(ids)) {
    const list = ids as ArrayLike<unknown>;
    // Each id is read once, checked and copied: what the engines add is what was checked, even
    // when a getter or another thread (a SharedArrayBuffer) changes the caller's array meanwhile.
    const copy = new Float64Array(list.length);
    for (let i = 0; i < copy.length; i++) {
      const id = list[i];
      // The message name is built only on failure: this loop runs millions of times.
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) assertId(id, `ids[${i}]`);
      copy[i] = id as number;
    }
    return copy;
  }
  throw invalidType(`ids must be an array of integers or a typed array, got ${describe(ids)}`);
}

function fromFlat(flat: FlatMatches, n: number): IndexMatch[][] {
  const out: IndexMatch[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const begin = flat.offsets[i]!;
    const end = flat.offsets[i + 1]!;
    const matches: IndexMatch[] = new Array(end - begin);
    for (let r = begin; r < end; r++) matches[r - begin] = { id: flat.ids[r]!, distance: flat.distances[r]! };
    out[i] = matches;
  }
  return out;
}

function createEngine(backend: Backend, bits: Bits, maxDistance: number, tables: number): IndexEngine {
  if (backend === 'native') return new (nativeIndexAddon().NativeIndex)(bits, maxDistance, tables);
  return new JsIndex(bits, maxDistance, tables);
}

function deserializeEngine(backend: Backend, bytes: Uint8Array): IndexEngine {
  if (backend === 'js') return JsIndex.deserialize(bytes);
  const NativeIndex = nativeIndexAddon().NativeIndex;
  try {
    return new NativeIndex(bytes);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && INDEX_ERROR_CODES.has(code)) {
      throw new SimHashError(code as 'SIMHASH_ZH_INDEX_CORRUPT', (error as Error).message, { cause: error });
    }
    throw error;
  }
}

/** Near-duplicate index: every entry within maxDistance bits of a query, in microseconds. */
export class SimHashIndex {
  private engine!: IndexEngine;
  private engineBackend!: Backend;
  private layoutCache!: [Bits, number, number];
  private scratchIds!: Float64Array;
  private scratchDistances!: Uint8Array;

  constructor(options?: SimHashIndexOptions) {
    const o = assertOptionObject(options, 'SimHashIndex options', INDEX_OPTIONS);
    const bits = o.bits ?? 64;
    assertBits(bits);
    const maxDistance = resolveMaxDistance(o.maxDistance, bits);
    const tables = resolveTables(o.tables, bits, maxDistance);
    const backend = resolveBackend(o.backend, defaultBackend);
    this.init(createEngine(backend, bits, maxDistance, tables), backend);
  }

  private init(engine: IndexEngine, backend: Backend): void {
    this.engine = engine;
    this.engineBackend = backend;
    const [bits, maxDistance, tables] = engine.layout();
    this.layoutCache = [bits as Bits, maxDistance!, tables!];
    this.scratchIds = new Float64Array(64);
    this.scratchDistances = new Uint8Array(64);
  }

  /** Table counts a (bits, maxDistance) index supports, ascending; the first is the default. */
  static supportedTables(bits: Bits, maxDistance: number): number[] {
    assertBits(bits);
    return supportedTableCounts(bits, resolveMaxDistance(maxDistance, bits));
  }

  get bits(): Bits {
    return this.layoutCache[0];
  }
  get maxDistance(): number {
    return this.layoutCache[1];
  }
  get tables(): number {
    return this.layoutCache[2];
  }
  get backend(): Backend {
    return this.engineBackend;
  }
  /** Number of entries. */
  get size(): number {
    return this.engine.size();
  }

  /** Adds `id`, or replaces it (new fingerprint, moved to the end of the insertion order). */
  add(id: number, fingerprint: bigint): this {
    assertId(id);
    assertIndexFingerprint(fingerprint, this.bits);
    this.engine.add(id, fingerprint);
    return this;
  }

  /**
   * add() for each pair, in order (a later repeat of an id replaces the earlier one). `fingerprints`
   * is a bigint[] or a BigUint64Array of bits/64 words per fingerprint, low word first, as
   * SimHash#fingerprintMany returns. Everything is checked before anything is added.
   */
  addMany(ids: readonly number[] | ArrayLike<number>, fingerprints: readonly bigint[] | BigUint64Array): this {
    const idArray = toIds(ids);
    const words = toWords(fingerprints, this.bits, 'fingerprints');
    if (words.length / (this.bits / 64) !== idArray.length) {
      throw invalidValue(`addMany got ${idArray.length} ids and ${words.length / (this.bits / 64)} fingerprints`, RangeError);
    }
    this.engine.addMany(idArray, words);
    return this;
  }

  /** Removes `id`; false when it was absent. */
  remove(id: number): boolean {
    assertId(id);
    return this.engine.remove(id);
  }

  has(id: number): boolean {
    assertId(id);
    return this.engine.has(id);
  }

  /** The fingerprint stored for `id`, or undefined. */
  get(id: number): bigint | undefined {
    assertId(id);
    return this.engine.get(id);
  }

  private queryDistance(maxDistance: unknown): number {
    if (maxDistance === undefined) return this.maxDistance;
    if (typeof maxDistance !== 'number') throw invalidType(`maxDistance must be a number, got ${describe(maxDistance)}`);
    if (!Number.isInteger(maxDistance) || maxDistance < 0 || maxDistance > this.maxDistance) {
      throw outOfRange(
        `maxDistance must be an integer in [0, ${this.maxDistance}] for this index (built with maxDistance ` +
          `${this.maxDistance}; build one with a larger maxDistance, up to ${maxSupportedDistance(this.bits)} at ` +
          `${this.bits} bits, to search further), got ${maxDistance}`,
      );
    }
    return maxDistance;
  }

  /** Every entry within maxDistance (default: the index's) bits, by distance then insertion order. */
  query(fingerprint: bigint, maxDistance?: number): IndexMatch[] {
    assertIndexFingerprint(fingerprint, this.bits);
    const k = this.queryDistance(maxDistance);
    let count = this.engine.query(fingerprint, k, this.scratchIds, this.scratchDistances);
    if (count > this.scratchIds.length) {
      this.scratchIds = new Float64Array(count);
      this.scratchDistances = new Uint8Array(count);
      count = this.engine.query(fingerprint, k, this.scratchIds, this.scratchDistances);
    }
    const out: IndexMatch[] = new Array(count);
    for (let i = 0; i < count; i++) out[i] = { id: this.scratchIds[i]!, distance: this.scratchDistances[i]! };
    if (this.scratchIds.length > 4096) {
      this.scratchIds = new Float64Array(64);
      this.scratchDistances = new Uint8Array(64);
    }
    return out;
  }

  /** query() for each fingerprint (bigint[] or BigUint64Array words), in one engine call. */
  queryMany(fingerprints: readonly bigint[] | BigUint64Array, maxDistance?: number): IndexMatch[][] {
    const words = toWords(fingerprints, this.bits, 'fingerprints');
    const k = this.queryDistance(maxDistance);
    return fromFlat(this.engine.queryMany(words, k), words.length / (this.bits / 64));
  }

  /** Entries in insertion order. */
  *entries(): IterableIterator<[number, bigint]> {
    const { ids, fingerprints } = this.engine.entries();
    const w = this.bits / 64;
    for (let i = 0; i < ids.length; i++) {
      let fp = fingerprints[i * w]!;
      if (w === 2) fp |= fingerprints[i * w + 1]! << 64n;
      yield [ids[i]!, fp];
    }
  }

  /** The index as bytes (format v1, see lib/index-format.ts); either engine reads it. */
  serialize(): Buffer {
    return this.engine.serialize();
  }

  /**
   * Reads bytes written by serialize() (by either engine). A truncated, corrupt or other-version
   * buffer throws a SimHashError with code SIMHASH_ZH_INDEX_TRUNCATED, SIMHASH_ZH_INDEX_CORRUPT or
   * SIMHASH_ZH_INDEX_VERSION.
   */
  static deserialize(bytes: Uint8Array, options?: { backend?: Backend }): SimHashIndex {
    if (!(bytes instanceof Uint8Array)) throw invalidType(`bytes must be a Buffer or Uint8Array, got ${describe(bytes)}`);
    const o = assertOptionObject(options, 'deserialize options', ['backend']);
    const backend = resolveBackend(o.backend, defaultBackend);
    const index = Object.create(SimHashIndex.prototype) as SimHashIndex;
    index.init(deserializeEngine(backend, bytes), backend);
    return index;
  }

  /**
   * Writes the index to `file` atomically: a temporary file in the same directory, fsync, rename,
   * then fsync of the directory (where the platform allows it). A reader never sees a partial file.
   */
  save(file: string): void {
    assertPath(file);
    const bytes = this.serialize();
    try {
      this.saveBytes(file, bytes);
    } catch (error) {
      throw new SimHashError('SIMHASH_ZH_INDEX_IO', `cannot write index ${file}: ${(error as Error).message}`, { cause: error });
    }
  }

  /** Writes `bytes` to a temporary file beside `file`, then renames it into place. */
  private saveBytes(file: string, bytes: Uint8Array): void {
    const dir = path.dirname(path.resolve(file));
    const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`);
    const fd = fs.openSync(temp, 'wx', 0o644);
    try {
      try {
        let written = 0;
        while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(temp, file);
    } catch (error) {
      try {
        fs.unlinkSync(temp);
      } catch {
        // already gone
      }
      throw error;
    }
    try {
      const dirFd = fs.openSync(dir, 'r');
      try {
        fs.fsyncSync(dirFd);
      } finally {
        fs.closeSync(dirFd);
      }
    } catch {
      // Directories cannot be opened or fsynced on some platforms (Windows); the rename is done.
    }
  }

  /** Reads a file written by save(); errors as deserialize(), or SIMHASH_ZH_INDEX_IO (the file system's error as its cause). */
  static load(file: string, options?: { backend?: Backend }): SimHashIndex {
    assertPath(file);
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch (error) {
      throw new SimHashError('SIMHASH_ZH_INDEX_IO', `cannot read index ${file}: ${(error as Error).message}`, { cause: error });
    }
    return SimHashIndex.deserialize(bytes, options);
  }
}

/** Engine internals for tests and bench/index.js (not part of the public API). */
export const _internals = {
  engineOf(index: SimHashIndex): IndexEngine {
    return (index as unknown as { engine: IndexEngine }).engine;
  },
  bruteForceQueryMany(index: SimHashIndex, fingerprints: readonly bigint[] | BigUint64Array, maxDistance?: number): IndexMatch[][] {
    const words = toWords(fingerprints, index.bits, 'fingerprints');
    const engine = (index as unknown as { engine: IndexEngine }).engine;
    return fromFlat(engine.bruteForceQueryMany(words, maxDistance ?? index.maxDistance), words.length / (index.bits / 64));
  },
};

// ---- dedup and cluster -------------------------------------------------------------------------

export interface DedupOptions {
  /** Items within this many bits are duplicates (default 3; 0..8 at 64 bits, 0..16 at 128). */
  maxDistance?: number;
  /** Table count of the index used inside (see SimHashIndexOptions.tables). */
  tables?: number;
  /** Width of fingerprint items (default 64; for texts, the SimHash's width). */
  bits?: Bits;
  /**
   * Fingerprints texts: a SimHash instance, or options to construct one (default: the default
   * pipeline). Only used when the items are strings.
   */
  simhash?: SimHash | SimHashOptions;
  /** Engine for the batch; defaults to the module's `backend`. */
  backend?: Backend;
}

export type ClusterOptions = DedupOptions;

export interface Duplicate {
  /** The dropped item. */
  index: number;
  /** The kept item it duplicates: the nearest earlier kept item (ties: the earliest). */
  of: number;
  distance: number;
}

export interface DedupResult {
  /** Indices of the kept items, ascending. */
  keep: number[];
  /** One entry per dropped item, ascending by index. */
  duplicates: Duplicate[];
}

const DEDUP_OPTIONS = ['maxDistance', 'tables', 'bits', 'simhash', 'backend'] as const;

interface Batch {
  words: BigUint64Array;
  bits: Bits;
  maxDistance: number;
  tables: number;
  backend: Backend;
}

function resolveBatch(items: unknown, options: unknown, what: string): Batch {
  const o = assertOptionObject(options, `${what} options`, DEDUP_OPTIONS);
  if (o.bits !== undefined) assertBits(o.bits);
  const backend = resolveBackend(o.backend, defaultBackend);
  let words: BigUint64Array;
  let bits: Bits;
  const isTexts = Array.isArray(items) && items.length > 0 && typeof items[0] === 'string';
  if (isTexts) {
    const texts = items as unknown[];
    for (let i = 0; i < texts.length; i++) {
      if (typeof texts[i] !== 'string') {
        throw invalidType(`items must be all strings or all bigints; items[${i}] is ${describe(texts[i])}`);
      }
    }
    let simhash: SimHash;
    if (o.simhash instanceof SimHash) simhash = o.simhash;
    else if (o.simhash === undefined) simhash = new SimHash(o.bits === undefined ? undefined : { bits: o.bits as Bits });
    else simhash = new SimHash(o.simhash as SimHashOptions);
    if (o.bits !== undefined && o.bits !== simhash.bits) {
      throw outOfRange(`bits ${String(o.bits)} does not match the SimHash's ${simhash.bits} bits`);
    }
    bits = simhash.bits;
    words = simhash.fingerprintMany(texts as string[]);
  } else {
    if (o.simhash !== undefined && !(o.simhash instanceof SimHash) && (o.simhash === null || typeof o.simhash !== 'object')) {
      throw invalidType(`simhash must be a SimHash or SimHash options, got ${describe(o.simhash)}`);
    }
    bits = (o.bits as Bits | undefined) ?? 64;
    if (!(items instanceof BigUint64Array) && !Array.isArray(items)) {
      throw invalidType(`${what} items must be an array of strings, an array of bigints or a BigUint64Array, got ${describe(items)}`);
    }
    if (Array.isArray(items)) {
      for (let i = 0; i < items.length; i++) {
        if (typeof items[i] !== 'bigint') {
          throw invalidType(`items must be all strings or all bigints; items[${i}] is ${describe(items[i])}`);
        }
      }
    }
    words = toWords(items, bits, 'items');
  }
  const maxDistance = resolveMaxDistance(o.maxDistance, bits);
  const tables = resolveTables(o.tables, bits, maxDistance);
  if (words.length / (bits / 64) > MAX_INDEX_ENTRIES) throw outOfRange(`at most ${MAX_INDEX_ENTRIES} items`);
  return { words, bits, maxDistance, tables, backend };
}

/**
 * Near-duplicate removal, first wins: item i is dropped when an earlier kept item lies within
 * maxDistance bits, and is reported with the nearest such item (ties: the earliest). Items are texts
 * (fingerprinted with `options.simhash`), bigints or a BigUint64Array of fingerprint words.
 * Runs in one engine call over the whole batch.
 */
export function dedup(items: readonly string[] | readonly bigint[] | BigUint64Array, options?: DedupOptions): DedupResult {
  const b = resolveBatch(items, options, 'dedup');
  const { of, distances } =
    b.backend === 'native'
      ? nativeIndexAddon().indexDedup(b.words, b.bits, b.maxDistance, b.tables)
      : jsDedup(b.words, b.bits, b.maxDistance, b.tables);
  const keep: number[] = [];
  const duplicates: Duplicate[] = [];
  for (let i = 0; i < of.length; i++) {
    if (of[i] === 0xffffffff) keep.push(i);
    else duplicates.push({ index: i, of: of[i]!, distance: distances[i]! });
  }
  return { keep, duplicates };
}

/**
 * Connected components of the graph that joins items within maxDistance bits (union-find): every
 * item is in exactly one cluster (singletons included), each cluster ascending, clusters ordered by
 * their first item. Items as for dedup().
 */
export function cluster(items: readonly string[] | readonly bigint[] | BigUint64Array, options?: ClusterOptions): number[][] {
  const b = resolveBatch(items, options, 'cluster');
  const labels =
    b.backend === 'native'
      ? nativeIndexAddon().indexCluster(b.words, b.bits, b.maxDistance, b.tables)
      : jsCluster(b.words, b.bits, b.maxDistance, b.tables);
  const clusters: number[][] = [];
  const slot = new Map<number, number[]>();
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i]!;
    let members = slot.get(label);
    if (members === undefined) {
      members = [];
      slot.set(label, members);
      clusters.push(members);
    }
    members.push(i);
  }
  return clusters;
}

// The TypeScript SimHashIndex engine: the design of native/core/simhash_index.h (blocked,
// permuted tables with a directory and 32-bit fragments; an unsorted tail; segments merged like a
// binary counter; dead slots until a merge or compaction), in 32-bit integer arithmetic.
// Its answers equal the native engine's because both return exactly the entries within the
// distance, sorted by (distance, insertion order); the layout only decides how fast.
import type { Bits } from '../fingerprint';
import { SimHashError } from '../errors';
import {
  decodeIndex,
  encodeIndex,
  makeLayout,
  MAX_INDEX_ENTRIES,
  type DecodedIndex,
  type FlatMatches,
  type IndexEngine,
} from '../index-format';

const TAIL_LIMIT = 128;
const MAX_DIR_BITS = 24;
const TWO_32 = 0x100000000;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

function dirBitsFor(m: number, keyBits: number): number {
  const floorLog2 = 31 - Math.clz32(Math.max(m, 1));
  return Math.max(1, Math.min(floorLog2 - 1, keyBits, MAX_DIR_BITS));
}

function fragKeyMaskFor(keyBits: number, dirBits: number): number {
  const inside = keyBits - dirBits;
  if (inside <= 0) return 0;
  if (inside >= 32) return -1;
  return ~0 << (32 - inside);
}

/** A BigUint64Array's words as 32-bit halves, least significant first (a view when little-endian). */
export function toU32Words(words: BigUint64Array): Uint32Array {
  if (LITTLE_ENDIAN) return new Uint32Array(words.buffer, words.byteOffset, words.length * 2);
  const out = new Uint32Array(words.length * 2);
  for (let i = 0; i < words.length; i++) {
    out[2 * i] = Number(words[i]! & 0xffffffffn);
    out[2 * i + 1] = Number(words[i]! >> 32n);
  }
  return out;
}

function toU64Words(words: Uint32Array): BigUint64Array {
  if (LITTLE_ENDIAN) return new BigUint64Array(words.buffer, words.byteOffset, words.length / 2);
  const out = new BigUint64Array(words.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = BigInt(words[2 * i]!) | (BigInt(words[2 * i + 1]!) << 32n);
  return out;
}

interface CompiledTable {
  /** Per piece: word, shift, mask, target shift, 1 when it lands in the high 32 stream bits. */
  pieces: Int32Array;
  keyMask: Int32Array;
  keyBits: number;
  position: Uint8Array;
}

interface SegmentTable {
  dirBits: number;
  fragKeyMask: number;
  /** Earlier tables' keys in fragment space, when fully inside directory + fragment (see simhash_index.h). */
  earlierKeyMasks: Int32Array;
  dir: Uint32Array;
  frag: Int32Array;
  slot: Uint32Array;
}

interface Segment {
  begin: number;
  end: number;
  count: number;
  tables: SegmentTable[];
}

export class JsIndex implements IndexEngine {
  readonly bits: Bits;
  readonly maxDistance: number;
  readonly tableCount: number;
  private readonly w: number; // 32-bit words per fingerprint
  private readonly tables: CompiledTable[];
  private fps: Uint32Array;
  private ids: Float64Array;
  private dead: Uint8Array;
  private capacity = 0;
  private slotCount = 0;
  private live = 0;
  private deadCount = 0;
  private tailBegin = 0;
  private idMap = new Map<number, number>();
  private segments: Segment[] = [];
  // Query scratch, reused (no allocation per query once warm).
  private readonly q: Uint32Array;
  private readonly headHi: Int32Array;
  private readonly headLo: Int32Array;
  private resKey = new Float64Array(64);
  private resCount = 0;

  constructor(bits: Bits, maxDistance: number, tables: number) {
    this.bits = bits;
    this.maxDistance = maxDistance;
    this.tableCount = tables;
    this.w = bits / 32;
    this.tables = makeLayout(bits, maxDistance, tables).map((t) => {
      const pieces = new Int32Array(t.pieces.length * 5);
      t.pieces.forEach((p, i) => {
        const inHi = p.dest < 32;
        pieces[5 * i] = p.word;
        pieces[5 * i + 1] = p.shift;
        pieces[5 * i + 2] = p.len === 32 ? -1 : (1 << p.len) - 1;
        pieces[5 * i + 3] = (inHi ? 32 : 64) - p.dest - p.len;
        pieces[5 * i + 4] = inHi ? 1 : 0;
      });
      return { pieces, keyMask: Int32Array.from(t.keyMask), keyBits: t.keyBits, position: t.position };
    });
    this.fps = new Uint32Array(0);
    this.ids = new Float64Array(0);
    this.dead = new Uint8Array(0);
    this.q = new Uint32Array(this.w);
    this.headHi = new Int32Array(tables);
    this.headLo = new Int32Array(tables);
  }

  static fromDecoded(decoded: DecodedIndex): JsIndex {
    const index = new JsIndex(decoded.bits, decoded.maxDistance, decoded.tables);
    index.addWords(decoded.ids, decoded.words);
    if (index.live !== decoded.ids.length) throw new SimHashError('SIMHASH_ZH_INDEX_CORRUPT', 'index holds a repeated id');
    return index;
  }

  static deserialize(bytes: Uint8Array): JsIndex {
    return JsIndex.fromDecoded(decodeIndex(bytes));
  }

  size(): number {
    return this.live;
  }

  layout(): number[] {
    return [this.bits, this.maxDistance, this.tableCount];
  }

  // ---- updates ---------------------------------------------------------------------------------

  private reserve(needed: number): void {
    if (needed <= this.capacity) return;
    const capacity = Math.max(needed, Math.floor(this.capacity * 1.5), 16);
    const fps = new Uint32Array(capacity * this.w);
    fps.set(this.fps.subarray(0, this.slotCount * this.w));
    const ids = new Float64Array(capacity);
    ids.set(this.ids.subarray(0, this.slotCount));
    const dead = new Uint8Array(capacity);
    dead.set(this.dead.subarray(0, this.slotCount));
    this.fps = fps;
    this.ids = ids;
    this.dead = dead;
    this.capacity = capacity;
  }

  private setQuery(fp: bigint): void {
    for (let j = 0; j < this.w; j++) this.q[j] = Number((fp >> BigInt(32 * j)) & 0xffffffffn);
  }

  private kill(slot: number): void {
    this.idMap.delete(this.ids[slot]!);
    this.dead[slot] = 1;
    this.live--;
    this.deadCount++;
  }

  private appendSlot(id: number, words: Uint32Array, offset: number): void {
    const slot = this.slotCount++;
    this.ids[slot] = id;
    this.dead[slot] = 0;
    for (let j = 0; j < this.w; j++) this.fps[slot * this.w + j] = words[offset + j]!;
    this.idMap.set(id, slot);
    this.live++;
  }

  add(id: number, fingerprint: bigint): boolean {
    if (this.slotCount >= MAX_INDEX_ENTRIES) {
      this.compact();
      if (this.slotCount >= MAX_INDEX_ENTRIES) throw new RangeError('the index holds at most 4294967294 entries');
    }
    this.reserve(this.slotCount + 1);
    const old = this.idMap.get(id);
    if (old !== undefined) this.kill(old);
    this.setQuery(fingerprint);
    this.appendSlot(id, this.q, 0);
    this.afterAppend();
    if (old !== undefined) this.afterRemove();
    return old !== undefined;
  }

  addMany(ids: Float64Array, words: BigUint64Array): void {
    this.addWords(ids, toU32Words(words));
  }

  /** add() for each pair in order; `words` holds bits/32 words per fingerprint. */
  addWords(ids: Float64Array, words: Uint32Array): void {
    const n = ids.length;
    if (n === 0) return;
    if (n > MAX_INDEX_ENTRIES - this.slotCount) {
      this.compact();
      if (n > MAX_INDEX_ENTRIES - this.slotCount) throw new RangeError('the index holds at most 4294967294 entries');
    }
    this.reserve(this.slotCount + n);
    let removed = false;
    for (let i = 0; i < n; i++) {
      const id = ids[i]!;
      const old = this.idMap.get(id);
      if (old !== undefined) {
        this.kill(old);
        removed = true;
      }
      this.appendSlot(id, words, i * this.w);
    }
    this.afterAppend();
    if (removed) this.afterRemove();
  }

  remove(id: number): boolean {
    const slot = this.idMap.get(id);
    if (slot === undefined) return false;
    this.kill(slot);
    this.afterRemove();
    return true;
  }

  has(id: number): boolean {
    return this.idMap.has(id);
  }

  get(id: number): bigint | undefined {
    const slot = this.idMap.get(id);
    if (slot === undefined) return undefined;
    let fp = 0n;
    for (let j = this.w - 1; j >= 0; j--) fp = (fp << 32n) | BigInt(this.fps[slot * this.w + j]!);
    return fp;
  }

  private afterAppend(): void {
    if (this.slotCount - this.tailBegin < TAIL_LIMIT) return;
    const seg = this.buildSegment(this.tailBegin, this.slotCount);
    this.tailBegin = this.slotCount;
    if (seg.count > 0) this.segments.push(seg);
    while (this.segments.length >= 2) {
      const last = this.segments[this.segments.length - 1]!;
      const prev = this.segments[this.segments.length - 2]!;
      if (prev.count > 2 * last.count) break;
      const merged = this.buildSegment(prev.begin, last.end);
      this.segments.length -= 2;
      if (merged.count > 0) this.segments.push(merged);
    }
  }

  private afterRemove(): void {
    if (this.deadCount > this.live && this.deadCount >= TAIL_LIMIT) this.compact();
  }

  private compact(): void {
    const w = this.w;
    let next = 0;
    for (let s = 0; s < this.slotCount; s++) {
      if (this.dead[s]) continue;
      this.ids[next] = this.ids[s]!;
      for (let j = 0; j < w; j++) this.fps[next * w + j] = this.fps[s * w + j]!;
      next++;
    }
    this.dead.fill(0, 0, next);
    this.slotCount = next;
    this.idMap = new Map();
    for (let s = 0; s < next; s++) this.idMap.set(this.ids[s]!, s);
    this.segments = [];
    this.tailBegin = 0;
    this.deadCount = 0;
    this.afterAppend();
  }

  private buildSegment(begin: number, end: number): Segment {
    let liveSlots: Uint32Array | undefined;
    let m = end - begin;
    let anyDead = false;
    for (let s = begin; s < end && !anyDead; s++) anyDead = this.dead[s] !== 0;
    if (anyDead) {
      liveSlots = new Uint32Array(m);
      m = 0;
      for (let s = begin; s < end; s++) if (!this.dead[s]) liveSlots[m++] = s;
    }
    const seg: Segment = { begin, end, count: m, tables: [] };
    if (m === 0) return seg;
    const cellOf = new Uint32Array(m);
    const fragOf = new Int32Array(m);
    const fps = this.fps;
    const w = this.w;
    for (const table of this.tables) {
      const d = dirBitsFor(m, table.keyBits);
      const cells = 2 ** d;
      const dir = new Uint32Array(cells + 1);
      const pieces = table.pieces;
      for (let i = 0; i < m; i++) {
        const o = (liveSlots ? liveSlots[i]! : begin + i) * w;
        let hi = 0;
        let lo = 0;
        for (let p = 0; p < pieces.length; p += 5) {
          const v = (fps[o + pieces[p]!]! >>> pieces[p + 1]!) & pieces[p + 2]!;
          if (pieces[p + 4]) hi |= v << pieces[p + 3]!;
          else lo |= v << pieces[p + 3]!;
        }
        const cell = hi >>> (32 - d);
        cellOf[i] = cell;
        fragOf[i] = (hi << d) | (lo >>> (32 - d));
        dir[cell + 1]++;
      }
      for (let c = 0; c < cells; c++) dir[c + 1] += dir[c]!;
      const cursor = dir.slice(0, cells);
      const frag = new Int32Array(m);
      const slot = new Uint32Array(m);
      for (let i = 0; i < m; i++) {
        const p = cursor[cellOf[i]!]!++;
        frag[p] = fragOf[i]!;
        slot[p] = liveSlots ? liveSlots[i]! : begin + i;
      }
      seg.tables.push({ dirBits: d, fragKeyMask: fragKeyMaskFor(table.keyBits, d), earlierKeyMasks: this.earlierMasks(seg.tables.length, d), dir, frag, slot });
    }
    return seg;
  }

  private earlierMasks(t: number, d: number): Int32Array {
    const masks: number[] = [];
    for (let u = 0; u < t; u++) {
      let mask = 0;
      let visible = true;
      const key = this.tables[u]!.keyMask;
      for (let bit = 0; bit < this.bits && visible; bit++) {
        if (((key[bit >>> 5]! >>> (bit & 31)) & 1) === 0) continue;
        const p = this.tables[t]!.position[bit]!;
        if (p < d) continue;
        if (p >= d + 32) visible = false;
        else mask |= 1 << (31 - (p - d));
      }
      if (visible) masks.push(mask);
    }
    return Int32Array.from(masks);
  }

  // ---- queries ---------------------------------------------------------------------------------

  private pushResult(distance: number, slot: number): void {
    if (this.resCount === this.resKey.length) {
      const grown = new Float64Array(this.resKey.length * 2);
      grown.set(this.resKey);
      this.resKey = grown;
    }
    this.resKey[this.resCount++] = distance * TWO_32 + slot;
  }

  /**
   * Every live entry within k bits of the fingerprint at q[qo..], as keys distance * 2^32 + slot in
   * resKey[0 .. resCount), ascending: by distance, then insertion order.
   */
  search(q: Uint32Array, qo: number, k: number): number {
    this.resCount = 0;
    const w = this.w;
    const fps = this.fps;
    const dead = this.dead;
    const tables = this.tables;
    if (this.segments.length > 0) {
      for (let t = 0; t < tables.length; t++) {
        const pieces = tables[t]!.pieces;
        let hi = 0;
        let lo = 0;
        for (let p = 0; p < pieces.length; p += 5) {
          const v = (q[qo + pieces[p]!]! >>> pieces[p + 1]!) & pieces[p + 2]!;
          if (pieces[p + 4]) hi |= v << pieces[p + 3]!;
          else lo |= v << pieces[p + 3]!;
        }
        this.headHi[t] = hi;
        this.headLo[t] = lo;
      }
    }
    for (const seg of this.segments) {
      for (let t = 0; t < tables.length; t++) {
        const st = seg.tables[t]!;
        const d = st.dirBits;
        const hi = this.headHi[t]!;
        const cell = hi >>> (32 - d);
        const qfrag = (hi << d) | (this.headLo[t]! >>> (32 - d));
        const km = st.fragKeyMask;
        const earlier = st.earlierKeyMasks;
        const frag = st.frag;
        const end = st.dir[cell + 1]!;
        for (let i = st.dir[cell]!; i < end; i++) {
          const x = frag[i]! ^ qfrag;
          if ((x & km) !== 0 || popcount32(x) > k) continue;
          let seen = false;
          for (let e = 0; e < earlier.length && !seen; e++) seen = (x & earlier[e]!) === 0;
          if (seen) continue;
          const slot = st.slot[i]!;
          if (dead[slot]) continue;
          const o = slot * w;
          let distance = 0;
          for (let j = 0; j < w; j++) distance += popcount32(fps[o + j]! ^ q[qo + j]!);
          if (distance > k) continue;
          // The key of this table must match in full; earlier tables must not share it.
          let skip = false;
          for (let u = 0; u <= t && !skip; u++) {
            const mask = tables[u]!.keyMask;
            let zero = true;
            for (let j = 0; j < w && zero; j++) zero = ((fps[o + j]! ^ q[qo + j]!) & mask[j]!) === 0;
            skip = u === t ? !zero : zero;
          }
          if (!skip) this.pushResult(distance, slot);
        }
      }
    }
    for (let slot = this.tailBegin; slot < this.slotCount; slot++) {
      if (dead[slot]) continue;
      const o = slot * w;
      let distance = 0;
      for (let j = 0; j < w; j++) distance += popcount32(fps[o + j]! ^ q[qo + j]!);
      if (distance <= k) this.pushResult(distance, slot);
    }
    if (this.resCount > 1) this.resKey.subarray(0, this.resCount).sort();
    return this.resCount;
  }

  /** Slot and distance of result i of the last search. */
  resultSlot(i: number): number {
    return this.resKey[i]! % TWO_32;
  }
  resultDistance(i: number): number {
    return Math.floor(this.resKey[i]! / TWO_32);
  }
  idAt(slot: number): number {
    return this.ids[slot]!;
  }

  query(fingerprint: bigint, maxDistance: number, ids: Float64Array, distances: Uint8Array): number {
    this.setQuery(fingerprint);
    const count = this.search(this.q, 0, maxDistance);
    if (count <= ids.length && count <= distances.length) {
      for (let i = 0; i < count; i++) {
        ids[i] = this.ids[this.resultSlot(i)]!;
        distances[i] = this.resultDistance(i);
      }
    }
    return count;
  }

  private batch(words: BigUint64Array, maxDistance: number, brute: boolean): FlatMatches {
    const q = toU32Words(words);
    const n = q.length / this.w;
    const offsets = new Uint32Array(n + 1);
    let ids = new Float64Array(Math.max(16, n));
    let distances = new Uint8Array(ids.length);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const count = brute ? this.bruteForce(q, i * this.w, maxDistance) : this.search(q, i * this.w, maxDistance);
      if (total + count > ids.length) {
        const size = Math.max(total + count, ids.length * 2);
        const grownIds = new Float64Array(size);
        grownIds.set(ids.subarray(0, total));
        const grownDistances = new Uint8Array(size);
        grownDistances.set(distances.subarray(0, total));
        ids = grownIds;
        distances = grownDistances;
      }
      for (let r = 0; r < count; r++, total++) {
        ids[total] = this.ids[this.resultSlot(r)]!;
        distances[total] = this.resultDistance(r);
      }
      offsets[i + 1] = total;
    }
    return { offsets, ids: ids.slice(0, total), distances: distances.slice(0, total) };
  }

  queryMany(words: BigUint64Array, maxDistance: number): FlatMatches {
    return this.batch(words, maxDistance, false);
  }

  bruteForceQueryMany(words: BigUint64Array, maxDistance: number): FlatMatches {
    return this.batch(words, maxDistance, true);
  }

  private bruteForce(q: Uint32Array, qo: number, k: number): number {
    this.resCount = 0;
    const w = this.w;
    for (let slot = 0; slot < this.slotCount; slot++) {
      const o = slot * w;
      let distance = 0;
      for (let j = 0; j < w; j++) distance += popcount32(this.fps[o + j]! ^ q[qo + j]!);
      if (distance <= k && !this.dead[slot]) this.pushResult(distance, slot);
    }
    if (this.resCount > 1) this.resKey.subarray(0, this.resCount).sort();
    return this.resCount;
  }

  // ---- export ----------------------------------------------------------------------------------

  private liveEntries(): { ids: Float64Array; words: Uint32Array } {
    const w = this.w;
    const ids = new Float64Array(this.live);
    const words = new Uint32Array(this.live * w);
    let next = 0;
    for (let s = 0; s < this.slotCount; s++) {
      if (this.dead[s]) continue;
      ids[next] = this.ids[s]!;
      words.set(this.fps.subarray(s * w, s * w + w), next * w);
      next++;
    }
    return { ids, words };
  }

  entries(): { ids: Float64Array; fingerprints: BigUint64Array } {
    const { ids, words } = this.liveEntries();
    return { ids, fingerprints: toU64Words(words) };
  }

  serialize(): Buffer {
    const { ids, words } = this.liveEntries();
    return encodeIndex(this.bits, this.maxDistance, this.tableCount, ids, words);
  }

  memoryBytes(): number {
    let bytes = this.fps.byteLength + this.ids.byteLength + this.dead.byteLength + this.resKey.byteLength;
    for (const seg of this.segments) {
      for (const st of seg.tables) bytes += st.dir.byteLength + st.frag.byteLength + st.slot.byteLength;
    }
    // A V8 Map costs about 3 words per entry plus its buckets (an estimate: V8 does not report it).
    return bytes + this.idMap.size * 32;
  }
}

// ---- dedup and cluster (same algorithm as native/core/dedup.cc) --------------------------------

interface Groups {
  ofItem: Uint32Array;
  first: Uint32Array;
  count: number;
}

/** Exact-duplicate groups, numbered in order of their first item (a hash table over the words). */
function groupExact(q: Uint32Array, n: number, w: number): Groups {
  let size = 16;
  while (size < 2 * n) size *= 2;
  const mask = size - 1;
  const cells = new Int32Array(size).fill(-1);
  const ofItem = new Uint32Array(n);
  const first = new Uint32Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const o = i * w;
    let h = 0x811c9dc5;
    for (let j = 0; j < w; j++) h = Math.imul(h ^ q[o + j]!, 0x01000193) ^ (h >>> 15);
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h ^= h >>> 13;
    let c = h & mask;
    for (;;) {
      const g = cells[c]!;
      if (g < 0) {
        cells[c] = count;
        first[count] = i;
        ofItem[i] = count++;
        break;
      }
      const f = first[g]! * w;
      let same = true;
      for (let j = 0; j < w && same; j++) same = q[f + j] === q[o + j];
      if (same) {
        ofItem[i] = g;
        break;
      }
      c = (c + 1) & mask;
    }
  }
  return { ofItem, first, count };
}

function indexGroups(bits: Bits, maxDistance: number, tables: number, q: Uint32Array, g: Groups): JsIndex {
  const w = bits / 32;
  const index = new JsIndex(bits, maxDistance, tables);
  const ids = new Float64Array(g.count);
  const words = new Uint32Array(g.count * w);
  for (let k = 0; k < g.count; k++) {
    ids[k] = k;
    words.set(q.subarray(g.first[k]! * w, g.first[k]! * w + w), k * w);
  }
  index.addWords(ids, words);
  return index;
}

/** See dedup_fingerprints in native/core/dedup.h: of[i] = 0xffffffff when kept. */
export function jsDedup(words: BigUint64Array, bits: Bits, maxDistance: number, tables: number): { of: Uint32Array; distances: Uint8Array } {
  const w = bits / 32;
  const q = toU32Words(words);
  const n = q.length / w;
  const g = groupExact(q, n, w);
  const index = indexGroups(bits, maxDistance, tables, q, g);
  const kept = new Uint8Array(g.count);
  const of = new Uint32Array(n).fill(0xffffffff);
  const distances = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const group = g.ofItem[i]!;
    if (kept[group]) {
      of[i] = g.first[group]!;
      continue;
    }
    const count = index.search(q, i * w, maxDistance);
    for (let r = 0; r < count; r++) {
      const h = index.idAt(index.resultSlot(r));
      if (kept[h]) {
        of[i] = g.first[h]!;
        distances[i] = index.resultDistance(r);
        break;
      }
    }
    if (of[i] === 0xffffffff && g.first[group] === i) kept[group] = 1;
  }
  return { of, distances };
}

/** See cluster_fingerprints in native/core/dedup.h: label[i] = smallest index in i's component. */
export function jsCluster(words: BigUint64Array, bits: Bits, maxDistance: number, tables: number): Uint32Array {
  const w = bits / 32;
  const q = toU32Words(words);
  const n = q.length / w;
  const g = groupExact(q, n, w);
  const index = indexGroups(bits, maxDistance, tables, q, g);
  const parent = new Uint32Array(g.count);
  for (let k = 0; k < g.count; k++) parent[k] = k;
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  for (let k = 0; k < g.count; k++) {
    const count = index.search(q, g.first[k]! * w, maxDistance);
    for (let r = 0; r < count; r++) {
      const h = index.idAt(index.resultSlot(r));
      if (h >= k) continue;
      const a = find(k);
      const b = find(h);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }
  const labels = new Uint32Array(n);
  for (let i = 0; i < n; i++) labels[i] = g.first[find(g.ofItem[i]!)]!;
  return labels;
}

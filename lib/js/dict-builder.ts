// Compiles word lists into the binary dictionary format (lib/dictionary.ts).
// Used by scripts/build-dict.js for the default dictionary and at run time for
// a dictionary given in jieba's text format, so both engines always read the
// same binary layout.
import { isUtf8 } from 'node:buffer';
import { SimHashError } from '../errors';
import {
  FLAG_STOP, FORMAT_VERSION, HEADER_SIZE, HMM_FIRST_CP, HMM_LAST_CP, HMM_MISSING, HMM_SCALE, IDF_SCALE,
  LOG_SCALE, MAGIC, MAX_FREQ, SECTION, SECTION_ENTRY_SIZE, TRIE_SLOT_INTS, checksum, childBit, detLogScaled,
  writeStringList,
} from '../dictionary';

export interface DictWord {
  word: string;
  freq: number;
}

/** HMM costs (-log p scaled by HMM_SCALE, HMM_MISSING for jieba's -3.14e100), states B, E, M, S. */
export interface HmmCosts {
  start: number[];
  trans: number[];
  /** (HMM_LAST_CP - HMM_FIRST_CP + 1) * 4 costs. */
  emit: Int32Array;
}

export interface BuildInput {
  words: readonly DictWord[];
  /** IDF scaled by IDF_SCALE. */
  idf: ReadonlyMap<string, number>;
  idfMedian: number;
  hmm: HmmCosts;
  stopWords: readonly string[];
}

function parseError(what: string, line: number, text: string, reason: string): SimHashError {
  const shown = text.length > 60 ? text.slice(0, 60) + '…' : text;
  return new SimHashError('SIMHASH_ZH_DICT_PARSE', `${what} line ${line}: ${reason}: ${JSON.stringify(shown)}`);
}

/**
 * The text of a jieba-format dictionary given as bytes, which must be UTF-8 (a leading BOM is
 * dropped by the parser). Invalid UTF-8 throws SIMHASH_ZH_DICT_ENCODING naming `what` (the file)
 * and the first line holding bad bytes, rather than reading words with U+FFFD in them.
 */
export function decodeDictText(bytes: Uint8Array, what = 'dictionary'): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(buffer)) return buffer.toString('utf8');
  // No UTF-8 sequence holds a 0x0A byte, so the first line that is not valid UTF-8 on its own
  // holds the first bad byte.
  let start = 0;
  for (let line = 1; ; line++) {
    let end = buffer.indexOf(0x0a, start);
    if (end < 0) end = buffer.length;
    const bad = buffer.subarray(start, end);
    if (!isUtf8(bad)) {
      const text = bad.toString('utf8').replace(/\r$/, '');
      const shown = text.length > 60 ? text.slice(0, 60) + '…' : text;
      throw new SimHashError('SIMHASH_ZH_DICT_ENCODING', `${what} line ${line}: not valid UTF-8 (shown with U+FFFD): ${JSON.stringify(shown)}`);
    }
    start = end + 1;
  }
}

function lines(text: string): string[] {
  const out = text.split('\n');
  if (out.length > 0 && out[0]!.charCodeAt(0) === 0xfeff) out[0] = out[0]!.slice(1);
  return out.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

const FREQ_RE = /^\d+$/;

/**
 * Parses jieba's dictionary text format: one `word [freq [tag]]` per line,
 * separated by whitespace; blank lines are skipped. A missing frequency is
 * `undefined` (the caller decides). A later line for the same word replaces
 * the earlier one's frequency.
 */
export function parseJiebaDict(text: string, what = 'dictionary'): { word: string; freq: number | undefined }[] {
  const out = new Map<string, number | undefined>();
  lines(text).forEach((line, index) => {
    const fields = line.trim().split(/\s+/);
    if (fields.length === 1 && fields[0] === '') return;
    if (fields.length > 3) throw parseError(what, index + 1, line, 'expected `word [freq [tag]]`');
    const word = fields[0]!;
    let freq: number | undefined;
    if (fields.length >= 2) {
      if (!FREQ_RE.test(fields[1]!) || Number(fields[1]) > MAX_FREQ) {
        throw parseError(what, index + 1, line, `frequency must be an integer in [0, ${MAX_FREQ}]`);
      }
      freq = Number(fields[1]);
    }
    if (!word.isWellFormed()) throw parseError(what, index + 1, line, 'word is not well-formed Unicode');
    out.set(word, freq);
  });
  return [...out].map(([word, freq]) => ({ word, freq }));
}

/** Parses jieba's idf.txt: `word idf` per line. Returns IDF scaled by IDF_SCALE and the median. */
export function parseIdf(text: string): { idf: Map<string, number>; median: number } {
  const idf = new Map<string, number>();
  lines(text).forEach((line, index) => {
    const fields = line.trim().split(/\s+/);
    if (fields.length === 1 && fields[0] === '') return;
    const value = Number(fields[1]);
    if (fields.length !== 2 || !Number.isFinite(value) || value < 0 || value > 1000) {
      throw parseError('IDF list', index + 1, line, 'expected `word idf`');
    }
    idf.set(fields[0]!, Math.floor(value * IDF_SCALE + 0.5));
  });
  const sorted = [...idf.values()].sort((a, b) => a - b);
  return { idf, median: sorted.length === 0 ? 0 : sorted[sorted.length >> 1]! };
}

/** Parses cppjieba's hmm_model.utf8 (log probabilities, states B E M S). */
export function parseHmmModel(text: string): HmmCosts {
  const data = lines(text).filter((line) => line.trim() !== '' && !line.startsWith('#'));
  if (data.length !== 9) throw parseError('HMM model', 0, '', `expected 9 data lines, got ${data.length}`);
  const cost = (value: string) => {
    const p = Number(value);
    if (!Number.isFinite(p) || p > 0) throw parseError('HMM model', 0, value, 'bad log probability');
    return p < -1e99 ? HMM_MISSING : Math.floor(-p * HMM_SCALE + 0.5);
  };
  const row = (line: string) => line.trim().split(/\s+/).map(cost);
  const start = row(data[0]!);
  const trans = [1, 2, 3, 4].flatMap((i) => row(data[i]!));
  if (start.length !== 4 || trans.length !== 16) throw parseError('HMM model', 0, '', 'bad start or transition rows');
  const count = HMM_LAST_CP - HMM_FIRST_CP + 1;
  const emit = new Int32Array(count * 4).fill(HMM_MISSING);
  for (let state = 0; state < 4; state++) {
    for (const pair of data[5 + state]!.split(',')) {
      if (pair === '') continue;
      const colon = pair.lastIndexOf(':');
      const ch = pair.slice(0, colon);
      const cp = ch.codePointAt(0)!;
      if (colon <= 0 || String.fromCodePoint(cp) !== ch) throw parseError('HMM model', 0, pair, 'bad emission pair');
      if (cp < HMM_FIRST_CP || cp > HMM_LAST_CP) continue; // never looked up: the HMM only sees [\u4E00-\u9FD5]
      emit[(cp - HMM_FIRST_CP) * 4 + state] = cost(pair.slice(colon + 1));
    }
  }
  return { start, trans, emit };
}

export function parseStopWords(text: string): string[] {
  const seen = new Set<string>();
  for (const line of lines(text)) if (line !== '') seen.add(line);
  return [...seen];
}

// ---------------------------------------------------------------------------
// Double-array construction.

interface Key {
  cps: number[];
  entry: number;
  freq: number;
}

class DoubleArray {
  base = new Int32Array(1 << 16);
  check = new Int32Array(1 << 16).fill(-1);
  entry = new Int32Array(1 << 16).fill(-1);
  used = new Uint8Array(1 << 16);
  firstFree = 1;
  maxUsed = 0;

  constructor() {
    this.used[0] = 1;
  }

  private grow(size: number): void {
    let capacity = this.base.length;
    if (size <= capacity) return;
    while (capacity < size) capacity *= 2;
    const grow32 = (old: Int32Array, fill: number) => {
      const next = new Int32Array(capacity).fill(fill);
      next.set(old);
      return next;
    };
    this.base = grow32(this.base, 0);
    this.check = grow32(this.check, -1);
    this.entry = grow32(this.entry, -1);
    const used = new Uint8Array(capacity);
    used.set(this.used);
    this.used = used;
  }

  /** Where the last search for a node of similar width succeeded: wide nodes never fit before it. */
  private readonly startFor = new Int32Array(32);

  /** Finds a base where every child id lands on a free slot (first fit). */
  place(ids: number[]): number {
    let minId = ids[0]!;
    for (const id of ids) if (id < minId) minId = id;
    while (this.used[this.firstFree]) this.firstFree++;
    const bucket = ids.length === 1 ? 0 : 32 - Math.clz32(ids.length - 1);
    let pos = Math.max(this.firstFree, minId, bucket === 0 ? 0 : this.startFor[bucket]!);
    for (;;) {
      this.grow(pos + 1);
      if (this.used[pos]) {
        pos++;
        continue;
      }
      const base = pos - minId;
      let maxSlot = 0;
      for (const id of ids) maxSlot = Math.max(maxSlot, base + id);
      this.grow(maxSlot + 1);
      let ok = true;
      for (const id of ids) {
        if (this.used[base + id]) {
          ok = false;
          break;
        }
      }
      if (ok) {
        this.startFor[bucket] = pos;
        return base;
      }
      pos++;
    }
  }

  /**
   * Builds the double array. The children blocks are placed busiest first (the largest
   * sum of frequencies of the words below the node), while the array is still empty, so
   * the nodes that segmentation visits most interleave near the front, sharing cache
   * lines, and the rare ones fill the holes; then slots follow from the root down.
   * (Widest first, as before, touched 9% more trie cache lines per pass over 围城.)
   */
  build(keys: Key[]): void {
    // Explicit trie, breadth first: node i has children ids kidIds[i] leading to nodes kidNodes[i].
    const nodeEntry: number[] = [];
    const kidIds: number[][] = [];
    const kidNodes: number[][] = [];
    const prefix = new Float64Array(keys.length + 1);
    for (let k = 0; k < keys.length; k++) prefix[k + 1] = prefix[k]! + keys[k]!.freq;
    const weight: number[] = [];
    let queue: number[] = [0, keys.length, 0];
    nodeEntry.push(-1);
    let frontier: number[] = [0];
    while (queue.length > 0) {
      const next: number[] = [];
      const nextNodes: number[] = [];
      for (let q = 0; q < queue.length; q += 3) {
        const node = frontier[q / 3]!;
        let lo = queue[q]!;
        const hi = queue[q + 1]!;
        weight[node] = prefix[hi]! - prefix[lo]!;
        const depth = queue[q + 2]!;
        if (keys[lo]!.cps.length === depth) {
          nodeEntry[node] = keys[lo]!.entry;
          lo++;
        }
        const ids: number[] = [];
        const nodes: number[] = [];
        let i = lo;
        while (i < hi) {
          const id = keys[i]!.cps[depth]!;
          const start = i;
          while (i < hi && keys[i]!.cps[depth] === id) i++;
          const child = nodeEntry.length;
          nodeEntry.push(-1);
          ids.push(id);
          nodes.push(child);
          next.push(start, i, depth + 1);
          nextNodes.push(child);
        }
        kidIds[node] = ids;
        kidNodes[node] = nodes;
      }
      queue = next;
      frontier = nextNodes;
    }
    const order: number[] = [];
    for (let node = 0; node < nodeEntry.length; node++) if (kidIds[node]!.length > 0) order.push(node);
    order.sort((a, b) => weight[b]! - weight[a]! || a - b);
    const bases = new Int32Array(nodeEntry.length);
    for (const node of order) {
      const ids = kidIds[node]!;
      const base = this.place(ids);
      bases[node] = base;
      for (const id of ids) {
        const t = base + id;
        this.used[t] = 1;
        if (t > this.maxUsed) this.maxUsed = t;
      }
    }
    // Slots from the root down.
    const slotOf = new Int32Array(nodeEntry.length);
    for (let node = 0; node < nodeEntry.length; node++) {
      const slot = slotOf[node]!;
      this.entry[slot] = nodeEntry[node]!;
      const ids = kidIds[node]!;
      if (ids.length === 0) continue;
      this.base[slot] = bases[node]!;
      const nodes = kidNodes[node]!;
      for (let k = 0; k < ids.length; k++) {
        const t = bases[node]! + ids[k]!;
        this.check[t] = slot;
        slotOf[nodes[k]!] = t;
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Writing the file.

/** Compiles the inputs into a dictionary file (see lib/dictionary.ts for the layout). */
export function buildDictionary(input: BuildInput): Uint8Array {
  // Entries: every dictionary word, then IDF-only and stop-only words (freq 0).
  const entryIndex = new Map<string, number>();
  const entryWords: string[] = [];
  const entryFreq: number[] = [];
  const addEntry = (word: string, freq: number) => {
    if (word === '' || !word.isWellFormed()) return;
    const known = entryIndex.get(word);
    if (known !== undefined) {
      if (freq > 0) entryFreq[known] = freq;
      return;
    }
    entryIndex.set(word, entryWords.length);
    entryWords.push(word);
    entryFreq.push(freq);
  };
  for (const { word, freq } of input.words) {
    if (!Number.isInteger(freq) || freq < 0 || freq > MAX_FREQ) throw new RangeError(`bad frequency for ${word}`);
    addEntry(word, freq);
  }
  for (const word of input.idf.keys()) addEntry(word, 0);
  for (const word of input.stopWords) addEntry(word, 0);
  const entryCount = entryWords.length;
  // Entries numbered by descending frequency (ties: first listed first): the facts of the
  // words met most often share a few cache lines, in both engines.
  const order = Array.from({ length: entryCount }, (_, e) => e);
  order.sort((a, b) => entryFreq[b]! - entryFreq[a]! || a - b);
  const byFreqWords = order.map((e) => entryWords[e]!);
  const byFreqFreqs = order.map((e) => entryFreq[e]!);
  entryIndex.clear();
  for (let e = 0; e < entryCount; e++) {
    entryWords[e] = byFreqWords[e]!;
    entryFreq[e] = byFreqFreqs[e]!;
    entryIndex.set(entryWords[e]!, e);
  }

  let totalFreq = 0;
  let wordCount = 0;
  let maxWordChars = 0;
  const charCounts = new Map<number, number>();
  const keys: Key[] = [];
  for (let e = 0; e < entryCount; e++) {
    const word = entryWords[e]!;
    const cps: number[] = [];
    for (const ch of word) {
      const cp = ch.codePointAt(0)!;
      cps.push(cp);
      charCounts.set(cp, (charCounts.get(cp) ?? 0) + entryFreq[e]! + 1);
    }
    keys.push({ cps, entry: e, freq: entryFreq[e]! });
    if (entryFreq[e]! > 0) {
      totalFreq += entryFreq[e]!;
      wordCount++;
      if (cps.length > maxWordChars) maxWordChars = cps.length;
    }
  }
  if (totalFreq > 2 ** 53) throw new RangeError('the frequencies add up to more than 2^53');

  // Alphabet ids by descending frequency (the words' frequencies summed, plus one per word),
  // so the busiest characters pack densely: in the root's children, below every node and in
  // the pipeline's per-character tables.
  const alphabet = [...charCounts].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([cp]) => cp);
  const idOf = new Map<number, number>();
  alphabet.forEach((cp, i) => idOf.set(cp, i + 1));
  const alphabetSize = alphabet.length;
  for (const key of keys) for (let i = 0; i < key.cps.length; i++) key.cps[i] = idOf.get(key.cps[i]!)!;
  keys.sort((a, b) => {
    const n = Math.min(a.cps.length, b.cps.length);
    for (let i = 0; i < n; i++) if (a.cps[i] !== b.cps[i]) return a.cps[i]! - b.cps[i]!;
    return a.cps.length - b.cps.length;
  });

  const da = new DoubleArray();
  if (keys.length > 0) da.build(keys);
  const trieSlots = da.maxUsed + alphabetSize + 1;
  const trie = new Int32Array(trieSlots * TRIE_SLOT_INTS);
  for (let t = 0; t < trieSlots; t++) {
    const inside = t < da.base.length;
    trie[4 * t] = inside ? da.base[t]! : 0;
    trie[4 * t + 1] = inside ? da.check[t]! : -1;
    trie[4 * t + 2] = inside ? da.entry[t]! : -1;
  }
  // Each parent's filter of its children's ids (bit id & 31).
  for (let t = 1; t < trieSlots; t++) {
    const parent = trie[4 * t + 1]!;
    if (parent >= 0) trie[4 * parent + 3] |= childBit(t - trie[4 * parent]!);
  }

  const charmapBmp = new Int32Array(0x10000);
  const supp: number[] = [];
  for (const cp of [...alphabet].sort((a, b) => a - b)) {
    if (cp < 0x10000) charmapBmp[cp] = idOf.get(cp)!;
    else supp.push(cp, idOf.get(cp)!);
  }

  const logFreq = new Int32Array(entryCount);
  const freq = new Uint32Array(entryCount);
  const idf = new Int32Array(entryCount).fill(-1);
  const flags = new Uint8Array(entryCount);
  const logCache = new Map<number, number>();
  for (let e = 0; e < entryCount; e++) {
    const f = entryFreq[e]!;
    freq[e] = f;
    if (f > 0) {
      let lf = logCache.get(f);
      if (lf === undefined) logCache.set(f, (lf = detLogScaled(f)));
      logFreq[e] = lf;
    } else {
      logFreq[e] = -1;
    }
    const value = input.idf.get(entryWords[e]!);
    if (value !== undefined) idf[e] = value;
  }
  for (const word of input.stopWords) {
    const e = entryIndex.get(word);
    if (e !== undefined) flags[e] |= FLAG_STOP;
  }

  const hmmCount = HMM_LAST_CP - HMM_FIRST_CP + 1;
  const hmm = new Int32Array(22 + hmmCount * 4);
  hmm.set(input.hmm.start, 0);
  hmm.set(input.hmm.trans, 4);
  hmm[20] = HMM_FIRST_CP;
  hmm[21] = hmmCount;
  hmm.set(input.hmm.emit, 22);

  const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const sections: { id: number; data: Uint8Array; count: number }[] = [
    { id: SECTION.CHARMAP_BMP, data: bytesOf(charmapBmp), count: 0x10000 },
    { id: SECTION.CHARMAP_SUPP, data: bytesOf(new Uint32Array(supp)), count: supp.length / 2 },
    { id: SECTION.TRIE, data: bytesOf(trie), count: trieSlots },
    { id: SECTION.ENTRY_LOGFREQ, data: bytesOf(logFreq), count: entryCount },
    { id: SECTION.ENTRY_FREQ, data: bytesOf(freq), count: entryCount },
    { id: SECTION.ENTRY_IDF, data: bytesOf(idf), count: entryCount },
    { id: SECTION.ENTRY_FLAGS, data: flags, count: entryCount },
    { id: SECTION.HMM, data: bytesOf(hmm), count: hmm.length },
    { id: SECTION.STOPWORDS, data: writeStringList(input.stopWords), count: input.stopWords.length },
  ];
  const align = (n: number) => (n + 63) & ~63;
  let offset = align(HEADER_SIZE + sections.length * SECTION_ENTRY_SIZE);
  const placed = sections.map((s) => {
    const at = offset;
    offset = align(offset + s.data.length);
    return { ...s, offset: at };
  });
  const fileSize = offset;
  if (fileSize > 0xffffffff) throw new RangeError('dictionary too large');
  const out = new Uint8Array(fileSize);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) out[i] = MAGIC.charCodeAt(i);
  const header: [number, number][] = [
    [8, FORMAT_VERSION], [16, fileSize], [20, HEADER_SIZE], [24, sections.length], [28, 0],
    [32, LOG_SCALE], [36, IDF_SCALE], [40, totalFreq % 2 ** 32], [44, Math.floor(totalFreq / 2 ** 32)],
    [52, maxWordChars], [56, entryCount], [60, wordCount], [64, alphabetSize], [68, trieSlots], [76, HMM_SCALE],
  ];
  for (const [at, value] of header) view.setUint32(at, value, true);
  view.setInt32(48, detLogScaled(totalFreq), true);
  view.setInt32(72, input.idfMedian, true);
  placed.forEach((s, i) => {
    const at = HEADER_SIZE + i * SECTION_ENTRY_SIZE;
    view.setUint32(at, s.id, true);
    view.setUint32(at + 4, s.offset, true);
    view.setUint32(at + 8, s.data.length, true);
    view.setUint32(at + 12, s.count, true);
    out.set(s.data, s.offset);
  });
  view.setUint32(12, checksum(out, 16, fileSize), true);
  return out;
}

// The TS engine's segmenter: jieba's (jieba-rs 0.10) cut over the binary
// dictionary, in integer arithmetic. native/core/segmenter.h is the same
// algorithm in C++; every step below has its twin there, so both engines give
// the same tokens for every input.
//
// Input is a JS string (offsets in UTF-16 units; a lone surrogate reads as
// U+FFFD) or UTF-8 bytes (offsets in bytes; an invalid byte reads as one
// U+FFFD). Tokens are contiguous and cover the input, so each is reported by
// its end offset, with its dictionary entry (or -1) when asked.
import { detExpFloor, detLogScaled, MAX_FREQ } from '../dictionary';
import { isAsciiAlnum } from './char-class';
import type { DictReader } from './dict-reader';
import { isHmmHan, STATE_B, STATE_E, STATE_S, Viterbi } from './hmm';

export const FLAG_HMM = 1;
export const FLAG_LONGEST = 2;
export const FLAG_ENTRIES = 4;

/** A window of a dictionary block is cut here at the latest if no word boundary came first. */
export const WINDOW_CAP = 1 << 16;
/** The HMM decodes at most this many characters at once. */
export const VITERBI_CAP = 1 << 16;
/** Window characters decoded past the one asked for, so the walks rarely call out to decode. */
const DECODE_AHEAD = 32;

const OVERLAY_KEY = 0x110000;
const EMPTY = new Uint8Array(0);

const ASCII_HAN = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_HAN[c] = isAsciiAlnum(c) || '+#&._%-'.includes(String.fromCharCode(c)) ? 1 : 0;

/** jieba-rs RE_HAN_DEFAULT: CJK ideographs, ASCII letters and digits, `+#&._%-`. */
export function isHanDefault(cp: number): boolean {
  if (cp < 0x80) return ASCII_HAN[cp] === 1;
  if (cp < 0x3400) return false;
  if (cp <= 0x9fff) return cp >= 0x4e00 || cp <= 0x4dbf;
  if (cp < 0x20000) return cp >= 0xf900 && cp <= 0xfaff;
  return cp <= 0x2a6df || (cp >= 0x2a700 && cp <= 0x2ebef) || (cp >= 0x2f800 && cp <= 0x2fa1f);
}

export interface TokenSink {
  push(end: number, entry: number): void;
}

/** asciiLone: the character starts a word of two or more characters. */
const NOT_LONE = -0x80000000;

export class SegmenterJs {
  private readonly dict: DictReader;
  private readonly trie: Int32Array;
  private readonly bmp: Int32Array;
  private readonly baseEntries: number;
  // Per-segmenter state: frequencies changed by addWord (copy on write) and new words.
  /** The dictionary's facts (logFreq at 2e, idf * 2 + stop at 2e + 1), taken on first use. */
  private factsTable: Int32Array | null = null;
  private freq: Uint32Array;
  private ownsFreqs = false;
  private total: number;
  private logTotal: number;
  private maxWordChars: number;
  private readonly ovChild = new Map<number, number>();
  private readonly ovEntry: number[] = [-1];
  private readonly ovLogFreq: number[] = [];
  private readonly ovFreq: number[] = [];
  private stopSet: Set<string> | null = null;
  // ASCII characters no word of two or more characters starts with (in lowercased text nearly
  // all): asciiLone[c] is the entry of c as a word, or NOT_LONE. Blocks meet them in runs
  // (English words, numbers), each character a window of its own. Filled on first need.
  private loneReady = false;
  private readonly asciiLone = new Int32Array(128);
  private readonly asciiStartsAdded = new Uint8Array(128); // an added word of two or more characters starts with c

  // The input being segmented.
  private str = '';
  private bytes: Uint8Array = EMPTY;
  private isBytes = false;
  private n = 0;
  private nextPos = 0;
  private sink: TokenSink = { push() {} };
  private wantEntries = false;

  // Window scratch (window-relative character indices).
  private wCp = new Int32Array(256);
  private wId = new Int32Array(256);
  private wOff = new Float64Array(257);
  private sEntry = new Int32Array(256);
  private eStart = new Int32Array(257);
  private eEnd = new Int32Array(1024);
  private eEntry = new Int32Array(1024);
  private eLf = new Int32Array(1024);
  private rScore = new Float64Array(257);
  private rEnd = new Int32Array(257);
  private rEntry = new Int32Array(257);
  private have = 0;
  /** @internal Sink of decodeAhead()'s early trie loads, so they are not optimized away. */
  touched = 0;
  private blockDone = false;
  private decPos = 0;
  // Pending run of single-character route steps (HMM) or ASCII alphanumerics (no HMM).
  private pStart = -1;
  private pEntry = -1;
  private pCount = 0;
  // HMM scratch.
  private readonly viterbi: Viterbi;
  private vCp = new Int32Array(256);
  private vOff = new Float64Array(257);

  constructor(dict: DictReader) {
    this.dict = dict;
    this.trie = dict.trie;
    this.bmp = dict.bmp;
    this.baseEntries = dict.entryCount;
    this.freq = dict.data.freq;
    this.total = dict.data.totalFreq;
    this.logTotal = dict.data.logTotal;
    this.maxWordChars = dict.data.maxWordChars;
    this.viterbi = new Viterbi(dict.data.hmm);
  }

  // -------------------------------------------------------------------------
  // Decoding.

  /** Code point at pos; sets nextPos past it. */
  private decode(pos: number): number {
    if (!this.isBytes) {
      const c = this.str.charCodeAt(pos);
      if (c < 0xd800 || c > 0xdfff) {
        this.nextPos = pos + 1;
        return c;
      }
      if (c <= 0xdbff && pos + 1 < this.n) {
        const d = this.str.charCodeAt(pos + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          this.nextPos = pos + 2;
          return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        }
      }
      this.nextPos = pos + 1;
      return 0xfffd;
    }
    const b = this.bytes;
    const n = this.n;
    const c = b[pos]!;
    if (c < 0x80) {
      this.nextPos = pos + 1;
      return c;
    }
    this.nextPos = pos + 1;
    if (c >= 0xc2 && c <= 0xdf) {
      if (pos + 1 < n && (b[pos + 1]! & 0xc0) === 0x80) {
        this.nextPos = pos + 2;
        return ((c & 0x1f) << 6) | (b[pos + 1]! & 0x3f);
      }
    } else if (c >= 0xe0 && c <= 0xef) {
      if (pos + 2 < n && (b[pos + 1]! & 0xc0) === 0x80 && (b[pos + 2]! & 0xc0) === 0x80) {
        const cp = ((c & 0x0f) << 12) | ((b[pos + 1]! & 0x3f) << 6) | (b[pos + 2]! & 0x3f);
        if (cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff)) {
          this.nextPos = pos + 3;
          return cp;
        }
      }
    } else if (c >= 0xf0 && c <= 0xf4) {
      if (pos + 3 < n && (b[pos + 1]! & 0xc0) === 0x80 && (b[pos + 2]! & 0xc0) === 0x80 && (b[pos + 3]! & 0xc0) === 0x80) {
        const cp = ((c & 0x07) << 18) | ((b[pos + 1]! & 0x3f) << 12) | ((b[pos + 2]! & 0x3f) << 6) | (b[pos + 3]! & 0x3f);
        if (cp >= 0x10000 && cp <= 0x10ffff) {
          this.nextPos = pos + 4;
          return cp;
        }
      }
    }
    return 0xfffd;
  }

  /** The code unit (string) or byte at pos: enough to test for ASCII. */
  private unit(pos: number): number {
    return this.isBytes ? this.bytes[pos]! : this.str.charCodeAt(pos);
  }

  private charId(cp: number): number {
    return cp < 0x10000 ? this.bmp[cp]! : this.dict.charId(cp);
  }

  // -------------------------------------------------------------------------
  // Dictionary access (base + this segmenter's additions).

  /** Per base entry e: [2e] its logFreq (this segmenter's), [2e + 1] idf * 2 + (default stop ? 1 : 0). */
  get facts(): Int32Array {
    return (this.factsTable ??= this.dict.facts);
  }

  private entryLogFreq(entry: number): number {
    return entry < this.baseEntries ? this.facts[2 * entry]! : this.ovLogFreq[entry - this.baseEntries]!;
  }

  /** Entry id of input[start, end), or -1. */
  private lookup(start: number, end: number): number {
    const trie = this.trie;
    let s = 0;
    let pos = start;
    while (pos < end) {
      const c = this.charId(this.decode(pos));
      if (c === 0 || ((trie[4 * s + 3]! >>> (c & 31)) & 1) === 0) break; // mayHaveChild, inlined
      const t = trie[4 * s]! + c;
      if (trie[4 * t + 1] !== s) break;
      s = t;
      pos = this.nextPos;
    }
    if (pos === end && trie[4 * s + 2]! >= 0) return trie[4 * s + 2]!;
    if (this.ovChild.size === 0) return -1;
    let node = 0;
    pos = start;
    while (pos < end) {
      const child = this.ovChild.get(node * OVERLAY_KEY + this.decode(pos));
      if (child === undefined) return -1;
      node = child;
      pos = this.nextPos;
    }
    return this.ovEntry[node]!;
  }

  private prepareLone(): void {
    this.loneReady = true;
    for (let c = 0; c < 128; c++) this.refreshLone(c);
  }

  /** Recomputes asciiLone[c] from the dictionary and the added words, once it is filled. */
  private refreshLone(c: number): void {
    if (!this.loneReady) return; // prepareLone() does every character
    const starts = this.dict.asciiWordStarts();
    const startsWord = this.asciiStartsAdded[c] !== 0 || ((starts[c >> 5]! >>> (c & 31)) & 1) !== 0;
    this.asciiLone[c] = startsWord ? NOT_LONE : this.singleEntry(c);
  }

  /** The entry of a one-character word, as lookup() would find it. */
  private singleEntry(cp: number): number {
    const c = this.charId(cp);
    if (c !== 0) {
      const t = this.trie[0]! + c;
      if (this.trie[4 * t + 1] === 0 && this.trie[4 * t + 2]! >= 0) return this.trie[4 * t + 2]!;
    }
    if (this.ovChild.size === 0) return -1;
    const child = this.ovChild.get(cp);
    return child === undefined ? -1 : this.ovEntry[child]!;
  }

  private emit(start: number, end: number, entry: number): void {
    this.sink.push(end, entry !== -2 ? entry : this.wantEntries ? this.lookup(start, end) : -1);
  }

  // -------------------------------------------------------------------------
  // Segmentation.

  /** Whether a segmentation is running (a visitor is being called). */
  busy = false;

  segment(input: string | Uint8Array, flags: number, sink: TokenSink): void {
    if (this.busy) throw new Error('a Segmenter cannot segment from inside its own forEachWord visitor');
    this.busy = true;
    if (typeof input === 'string') {
      this.str = input;
      this.isBytes = false;
    } else {
      this.bytes = input;
      this.isBytes = true;
    }
    this.n = input.length;
    this.sink = sink;
    this.wantEntries = (flags & FLAG_ENTRIES) !== 0;
    const hmm = (flags & FLAG_HMM) !== 0;
    const longest = (flags & FLAG_LONGEST) !== 0;
    const n = this.n;
    let pos = 0;
    try {
      while (pos < n) {
        const cp = this.decode(pos);
        if (isHanDefault(cp)) {
          pos = this.block(pos, hmm, longest);
          continue;
        }
        let end = this.nextPos;
        let entry = -1;
        if (cp === 0x0d && end < n && this.unit(end) === 0x0a) {
          end++;
          if (this.wantEntries) entry = -2;
        } else if (this.wantEntries) {
          entry = this.singleEntry(cp);
        }
        this.emit(pos, end, entry);
        pos = end;
      }
    } finally {
      this.str = '';
      this.bytes = EMPTY;
      this.busy = false;
    }
  }

  /** Makes sure window character k is decoded; false when the block ends first. */
  private ensure(k: number): boolean {
    return k < this.have || this.decodeAhead(k);
  }

  /** Decodes block characters up to window index k + DECODE_AHEAD; whether k is decoded. */
  private decodeAhead(k: number): boolean {
    if (this.blockDone) return false;
    const need = k + DECODE_AHEAD;
    if (need + 2 > this.wCp.length) this.growWindow(need + 2);
    const wCp = this.wCp;
    const wId = this.wId;
    const wOff = this.wOff;
    const bmp = this.bmp;
    const n = this.n;
    // Bytes always decode; a string decodes only at a surrogate (otherwise a unit is a code point).
    const str = this.isBytes ? null : this.str;
    let h = this.have;
    let pos = this.decPos;
    while (h <= need) {
      if (pos >= n) {
        this.blockDone = true;
        break;
      }
      let cp = str === null ? 0xd800 : str.charCodeAt(pos);
      let next = pos + 1;
      if (cp >= 0xd800 && cp <= 0xdfff) {
        cp = this.decode(pos);
        next = this.nextPos;
      }
      if (!isHanDefault(cp)) {
        this.blockDone = true;
        break;
      }
      wCp[h] = cp;
      wId[h] = cp < 0x10000 ? bmp[cp]! : this.dict.charId(cp);
      wOff[h] = pos;
      pos = next;
      wOff[h + 1] = pos;
      h++;
    }
    // The second step of a walk usually misses the cache: load it now for every new pair of
    // characters, in a loop whose loads do not wait for each other (native prefetches them).
    // Every base + id is inside the trie (checked at load), whatever the ids.
    const trie = this.trie;
    const root = trie[0]!;
    let touched = this.touched;
    for (let p = this.have > 0 ? this.have - 1 : 0; p + 1 < h; p++) {
      // The filter test is mayHaveChild (lib/dictionary.ts) written out: a call into another
      // module costs about 4% here.
      const first = 4 * (root + wId[p]!);
      const c = wId[p + 1]!;
      if (((trie[first + 3]! >>> (c & 31)) & 1) !== 0) touched ^= trie[4 * (trie[first]! + c) + 1]!;
    }
    this.touched = touched;
    this.have = h;
    this.decPos = pos;
    return h > k;
  }

  private growWindow(size: number): void {
    const cap = Math.max(size, this.wCp.length * 2);
    const grow = <T extends Int32Array | Float64Array>(a: T, extra: number): T => {
      const b = new (a.constructor as new (n: number) => T)(cap + extra);
      b.set(a);
      return b;
    };
    this.wCp = grow(this.wCp, 0);
    this.wId = grow(this.wId, 0);
    this.sEntry = grow(this.sEntry, 0);
    this.wOff = grow(this.wOff, 1);
    this.eStart = grow(this.eStart, 1);
    this.rScore = grow(this.rScore, 1);
    this.rEnd = grow(this.rEnd, 1);
    this.rEntry = grow(this.rEntry, 1);
  }

  private addEdge(count: number, end: number, entry: number, lf: number): number {
    if (count >= this.eEnd.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.eEnd = grow(this.eEnd);
      this.eEntry = grow(this.eEntry);
      this.eLf = grow(this.eLf);
    }
    this.eEnd[count] = end;
    this.eEntry[count] = entry;
    this.eLf[count] = lf;
    return count + 1;
  }

  /** Segments the dictionary block starting at pos; returns its end. */
  private block(start: number, hmm: boolean, longest: boolean): number {
    this.have = 0;
    this.blockDone = false;
    this.decPos = start;
    this.pStart = -1;
    this.pCount = 0;
    const trie = this.trie;
    const facts = this.facts;
    const baseEntries = this.baseEntries;
    const overlay = this.ovChild.size > 0;
    let from = 0; // first character of the current window
    let i = 0;
    let edges = 0;
    let reach = 0;
    for (;;) {
      if (!this.ensure(i)) {
        this.eStart[i] = edges;
        if (i > from) this.window(from, i, hmm, longest);
        break;
      }
      if (i === from && this.wCp[i]! < 0x80) {
        if (!this.loneReady) this.prepareLone();
        const lone = this.asciiLone[this.wCp[i]!]!;
        if (lone !== NOT_LONE) {
          // No word of two or more characters starts here, and none from before reaches past i.
          this.routeWord(this.wOff[i]!, this.wOff[i + 1]!, lone, hmm || isAsciiAlnum(this.wCp[i]!), hmm);
          i = this.cut(i + 1);
          from = i;
          reach = i;
          edges = 0;
          continue;
        }
      }
      // The DAG: every dictionary word starting at i.
      this.eStart[i] = edges;
      const first = edges;
      let have = this.have;
      let wId = this.wId;
      let single = -1;
      let s = 0;
      let j = i;
      for (;;) {
        if (j >= have) {
          if (!this.ensure(j)) break;
          have = this.have;
          wId = this.wId;
        }
        const c = wId[j]!;
        if (c === 0 || ((trie[4 * s + 3]! >>> (c & 31)) & 1) === 0) break; // mayHaveChild, inlined
        const t = trie[4 * s]! + c;
        if (trie[4 * t + 1] !== s) break;
        s = t;
        const e = trie[4 * t + 2]!;
        if (e >= 0) {
          if (j === i) single = e;
          const lf = e < baseEntries ? facts[2 * e]! : this.ovLogFreq[e - baseEntries]!;
          if (lf >= 0) edges = this.addEdge(edges, j + 1, e, lf);
        }
        j++;
      }
      // The base walk's last edge (or, when it found none, the fallback below).
      const baseLast = edges > first ? edges - 1 : first;
      if (overlay) {
        let node = 0;
        j = i;
        while (this.ensure(j)) {
          const child = this.ovChild.get(node * OVERLAY_KEY + this.wCp[j]!);
          if (child === undefined) break;
          node = child;
          const e = this.ovEntry[node]!;
          if (e >= 0) {
            if (j === i) single = e;
            const lf = this.ovLogFreq[e - this.baseEntries]!;
            if (lf >= 0) edges = this.addEdge(edges, j + 1, e, lf);
          }
          j++;
        }
      }
      this.sEntry[i] = single;
      if (edges === first) edges = this.addEdge(edges, i + 1, single, 0);
      if (i === from && edges === first + 1 && this.eEnd[first] === i + 1) {
        // Fast path: a window of one character with one way through it; window() would do this.
        this.routeWord(this.wOff[i]!, this.wOff[i + 1]!, this.eEntry[first]!, hmm || isAsciiAlnum(this.wCp[i]!), hmm);
        i = this.cut(i + 1);
        from = i;
        reach = i;
        edges = 0;
        continue;
      }
      // Each walk adds its edges by increasing end: its last edge reaches farthest.
      const eEnd = this.eEnd;
      if (eEnd[baseLast]! > reach) reach = eEnd[baseLast]!;
      if (eEnd[edges - 1]! > reach) reach = eEnd[edges - 1]!;
      i++;
      if (reach <= i || i - from >= WINDOW_CAP) {
        this.eStart[i] = edges;
        this.window(from, i, hmm, longest);
        i = this.cut(i);
        from = i;
        reach = i;
        edges = 0;
      }
    }
    const end = this.decPos;
    if (hmm) this.flushRun(end);
    else this.flushAscii(end);
    return end;
  }

  /**
   * A window was closed before character i, which starts the next one: returns i, or 0 once
   * the characters before it were dropped (every 4096 characters).
   */
  private cut(i: number): number {
    if (i < 4096) return i;
    this.compact(i);
    return 0;
  }

  /** Moves the characters decoded past a cut at `from` to the front. */
  private compact(from: number): void {
    const keep = this.have - from;
    this.wCp.copyWithin(0, from, this.have);
    this.wId.copyWithin(0, from, this.have);
    this.wOff.copyWithin(0, from, this.have + 1);
    this.have = keep;
  }

  /** Chooses the route through window characters [from, m) and emits it. */
  private window(from: number, m: number, hmm: boolean, longest: boolean): void {
    const eStart = this.eStart;
    const eEnd = this.eEnd;
    const eLf = this.eLf;
    const eEntry = this.eEntry;
    const rScore = this.rScore;
    const rEnd = this.rEnd;
    const rEntry = this.rEntry;
    const logTotal = this.logTotal;
    rScore[m] = 0;
    for (let x = m - 1; x >= from; x--) {
      let best = -Infinity;
      let bestEnd = -1;
      let bestEntry = -1;
      const to = eStart[x + 1]!;
      if (longest) {
        for (let k = eStart[x]!; k < to; k++) {
          const y = eEnd[k]!;
          if (y <= m && y > bestEnd) {
            bestEnd = y;
            bestEntry = eEntry[k]!;
          }
        }
      } else {
        for (let k = eStart[x]!; k < to; k++) {
          const y = eEnd[k]!;
          if (y > m) continue;
          const score = eLf[k]! - logTotal + rScore[y]!;
          if (score > best || (score === best && y > bestEnd)) {
            best = score;
            bestEnd = y;
            bestEntry = eEntry[k]!;
          }
        }
      }
      if (bestEnd < 0) {
        bestEnd = x + 1;
        best = -logTotal + rScore[x + 1]!;
        bestEntry = this.sEntry[x]!;
      }
      rScore[x] = best;
      rEnd[x] = bestEnd;
      rEntry[x] = bestEntry;
    }
    const wOff = this.wOff;
    let x = from;
    while (x < m) {
      const y = rEnd[x]!;
      this.routeWord(wOff[x]!, wOff[y]!, rEntry[x]!, y === x + 1 && (hmm || isAsciiAlnum(this.wCp[x]!)), hmm);
      x = y;
    }
  }

  /**
   * One word of a route, [start, end): a one-character step that joins the pending run
   * (`joins`: with the HMM, any; without, an ASCII letter or digit), or a word of its own, after
   * the run is flushed.
   */
  private routeWord(start: number, end: number, entry: number, joins: boolean, hmm: boolean): void {
    if (joins) {
      if (this.pStart < 0) {
        this.pStart = start;
        this.pEntry = entry;
      }
      this.pCount++;
      return;
    }
    if (hmm) this.flushRun(start);
    else this.flushAscii(start);
    this.emit(start, end, entry);
  }

  private flushAscii(end: number): void {
    if (this.pStart < 0) return;
    this.emit(this.pStart, end, this.pCount === 1 ? this.pEntry : -2);
    this.pStart = -1;
    this.pCount = 0;
  }

  /** A run of single-character steps: one word, its characters, or the HMM's words. */
  private flushRun(end: number): void {
    const start = this.pStart;
    if (start < 0) return;
    const count = this.pCount;
    this.pStart = -1;
    this.pCount = 0;
    if (count === 1) {
      this.emit(start, end, this.pEntry);
      return;
    }
    if (count <= this.maxWordChars) {
      const e = this.lookup(start, end);
      if (e >= 0 && this.entryLogFreq(e) >= 0) {
        for (let pos = start; pos < end; ) {
          this.decode(pos);
          const next = this.nextPos;
          this.emit(pos, next, -2);
          pos = next;
        }
        return;
      }
    }
    this.hmmCut(start, end);
  }

  /** jieba's HMM cut of one run: `[\u4E00-\u9FD5]+` by Viterbi, the rest by re_skip. */
  private hmmCut(start: number, end: number): void {
    let pos = start;
    while (pos < end) {
      let cp = this.decode(pos);
      if (!isHmmHan(cp)) {
        let q = this.nextPos;
        while (q < end) {
          cp = this.decode(q);
          if (isHmmHan(cp)) break;
          q = this.nextPos;
        }
        this.skipSplit(pos, q);
        pos = q;
        continue;
      }
      let count = 0;
      let q = pos;
      while (q < end && count < VITERBI_CAP) {
        cp = this.decode(q);
        if (!isHmmHan(cp)) break;
        if (count + 1 >= this.vCp.length) {
          const cps = new Int32Array(this.vCp.length * 2);
          cps.set(this.vCp);
          this.vCp = cps;
          const offs = new Float64Array(this.vOff.length * 2);
          offs.set(this.vOff);
          this.vOff = offs;
        }
        this.vCp[count] = cp;
        this.vOff[count] = q;
        count++;
        q = this.nextPos;
      }
      this.vOff[count] = q;
      if (count === 1) this.emit(pos, q, -2);
      else this.viterbiCut(count);
      pos = q;
    }
  }

  private viterbiCut(count: number): void {
    this.viterbi.decode(this.vCp, count);
    const states = this.viterbi.states;
    const off = this.vOff;
    let begin = 0;
    let next = 0;
    for (let i = 0; i < count; i++) {
      const state = states[i]!;
      if (state === STATE_B) {
        begin = i;
      } else if (state === STATE_E) {
        this.emit(off[begin]!, off[i + 1]!, -2);
        next = i + 1;
      } else if (state === STATE_S) {
        this.emit(off[i]!, off[i + 1]!, -2);
        next = i + 1;
      }
    }
    if (next < count) this.emit(off[next]!, off[count]!, -2);
  }

  /** jieba's finalseg re_skip split, `([a-zA-Z0-9]+(?:.\d+)?%?)` (jieba-rs 0.10: any char for `.`). */
  private skipSplit(start: number, end: number): void {
    let cur = start;
    while (cur < end) {
      let a = cur;
      while (a < end && !isAsciiAlnum(this.unit(a))) {
        this.decode(a);
        a = this.nextPos;
      }
      if (a >= end) {
        this.emit(cur, end, -2);
        return;
      }
      if (a > cur) this.emit(cur, a, -2);
      let m = a + 1;
      while (m < end && isAsciiAlnum(this.unit(m))) m++;
      if (m < end) {
        this.decode(m);
        const d0 = this.nextPos;
        let d = d0;
        while (d < end && this.unit(d) >= 0x30 && this.unit(d) <= 0x39) d++;
        if (d > d0) m = d;
      }
      if (m < end && this.unit(m) === 0x25) m++;
      this.emit(a, m, -2);
      cur = m;
    }
  }

  // -------------------------------------------------------------------------
  // Words and stop words.

  /** Entry id of a word (any entry: dictionary, IDF-only or stop-only), or -1. */
  entryOf(word: string): number {
    if (word.length === 0) return -1;
    // May run inside a visitor of forEachWord: keep the input being segmented.
    const { str, bytes, isBytes, n } = this;
    this.str = word;
    this.isBytes = false;
    this.n = word.length;
    try {
      return this.lookup(0, word.length);
    } finally {
      this.str = str;
      this.bytes = bytes;
      this.isBytes = isBytes;
      this.n = n;
    }
  }

  /** The frequency of an entry (0 when not a segmentation word). */
  entryFreq(entry: number): number {
    if (entry < 0) return 0;
    return entry < this.baseEntries ? this.freq[entry]! : this.ovFreq[entry - this.baseEntries]!;
  }

  /** IDF of an entry, scaled by IDF_SCALE; -1 when it has none. */
  entryIdf(entry: number): number {
    return this.dict.idf(entry);
  }

  /**
   * Adds a word or changes its frequency; without a frequency, jieba's suggest_freq:
   * just enough to keep the word whole. Returns the frequency used.
   */
  addWord(word: string, freq: number | undefined): number {
    if (this.busy) throw new Error('addWord cannot be called from inside forEachWord');
    const chars = [...word];
    if (freq === undefined) freq = this.suggestFreq(word);
    const f = Math.min(freq, MAX_FREQ);
    const lf = f > 0 ? detLogScaled(f) : -1;
    const entry = this.entryOf(word);
    if (entry >= 0 && entry < this.baseEntries) {
      if (!this.ownsFreqs) {
        this.factsTable = new Int32Array(this.facts);
        this.freq = new Uint32Array(this.freq);
        this.ownsFreqs = true;
      }
      this.total += f - this.freq[entry]!;
      this.freq[entry] = f;
      this.facts[2 * entry] = lf;
    } else if (entry >= 0) {
      const k = entry - this.baseEntries;
      this.total += f - this.ovFreq[k]!;
      this.ovFreq[k] = f;
      this.ovLogFreq[k] = lf;
    } else {
      let node = 0;
      for (const ch of chars) {
        const key = node * OVERLAY_KEY + ch.codePointAt(0)!;
        let child = this.ovChild.get(key);
        if (child === undefined) {
          child = this.ovEntry.length;
          this.ovEntry.push(-1);
          this.ovChild.set(key, child);
        }
        node = child;
      }
      this.ovEntry[node] = this.baseEntries + this.ovFreq.length;
      this.ovFreq.push(f);
      this.ovLogFreq.push(lf);
      this.total += f;
    }
    if (f > 0 && chars.length > this.maxWordChars) this.maxWordChars = chars.length;
    const first = chars.length > 0 ? chars[0]!.codePointAt(0)! : 0x80;
    if (first < 0x80) {
      if (chars.length >= 2) this.asciiStartsAdded[first] = 1;
      this.refreshLone(first);
    }
    this.logTotal = detLogScaled(this.total);
    return f;
  }

  /** jieba-rs suggest_freq in integer arithmetic. */
  private suggestFreq(word: string): number {
    const ends: number[] = [];
    const entries: number[] = [];
    this.segment(word, FLAG_ENTRIES, { push: (end, entry) => (ends.push(end), entries.push(entry)) });
    let target = this.logTotal;
    for (let i = 0; i < ends.length; i++) {
      const e = entries[i]!;
      const lf = e >= 0 ? this.entryLogFreq(e) : -1;
      target += (lf >= 0 ? lf : 0) - this.logTotal;
    }
    const current = this.entryFreq(this.entryOf(word));
    return Math.max(detExpFloor(target) + 1, current > 0 ? current : 1);
  }

  setStopWords(words: Iterable<string> | null): void {
    this.stopSet = words === null ? null : new Set(words);
  }

  isStopWord(word: string): boolean {
    if (this.stopSet !== null) return this.stopSet.has(word);
    const entry = this.entryOf(word);
    return entry < this.baseEntries && this.dict.isDefaultStop(entry);
  }
}

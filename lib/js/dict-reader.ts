// Read-only access to a loaded dictionary for the TS engine: the typed-array
// views of lib/dictionary.ts plus the lookups the segmenter needs. One instance
// per dictionary file, shared by every TS Segmenter that uses it.
import { FLAG_STOP, mayHaveChild, readDictionary, type DictionaryData } from '../dictionary';

export class DictReader {
  readonly data: DictionaryData;
  /** [base, check, entry, children] per slot (see lib/dictionary.ts). */
  readonly trie: Int32Array;
  readonly bmp: Int32Array;
  readonly supp: Uint32Array;
  readonly entryCount: number;
  private factsTable: Int32Array | null = null;
  private asciiStarts: Uint32Array | null = null;

  constructor(bytes: Uint8Array) {
    this.data = readDictionary(bytes);
    this.trie = this.data.trie;
    this.bmp = this.data.charmapBmp;
    this.supp = this.data.charmapSupp;
    this.entryCount = this.data.entryCount;
  }

  /** The alphabet id of a code point, 0 when no word contains it. */
  charId(cp: number): number {
    if (cp < 0x10000) return this.bmp[cp]!;
    const supp = this.supp;
    let lo = 0;
    let hi = (supp.length >> 1) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = supp[mid * 2]!;
      if (at === cp) return supp[mid * 2 + 1]!;
      if (at < cp) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  /** Entry id of a word given as code points, or -1. */
  lookup(word: string): number {
    const trie = this.trie;
    let s = 0;
    for (const ch of word) {
      const c = this.charId(ch.codePointAt(0)!);
      if (c === 0 || !mayHaveChild(trie, s, c)) return -1;
      const t = trie[4 * s]! + c;
      if (trie[4 * t + 1] !== s) return -1;
      s = t;
    }
    return s === 0 ? -1 : trie[4 * s + 2]!;
  }

  /**
   * Per entry e: facts[2e] = logFreq, facts[2e + 1] = idf * 2 + (default stop ? 1 : 0) (idf -1:
   * none, so the value is negative). What one word needs sits in one cache line, as native's
   * EntryFacts. Built on first use, so loading the dictionary stays cheap.
   */
  get facts(): Int32Array {
    return (this.factsTable ??= this.buildFacts());
  }

  private buildFacts(): Int32Array {
    const { logFreq, idf, flags } = this.data;
    const count = this.entryCount;
    const facts = new Int32Array(count * 2);
    for (let e = 0; e < count; e++) {
      facts[2 * e] = logFreq[e]!;
      facts[2 * e + 1] = idf[e]! * 2 + (flags[e]! & FLAG_STOP);
    }
    return facts;
  }

  /**
   * Bit c (< 128) of [c >> 5]: a segmentation word of two or more characters starts with ASCII
   * character c; the segmenter takes the others as words of their own without walking the trie.
   * Worked out on first use, as native/core/dictionary.cc does: each such word's first character
   * is found by climbing from its parent slot to the root's child (bounded: a climb that hits the
   * bound, in a file with a parent cycle, marks every character).
   */
  asciiWordStarts(): Uint32Array {
    return (this.asciiStarts ??= this.findAsciiWordStarts());
  }

  private findAsciiWordStarts(): Uint32Array {
    const trie = this.trie;
    const slots = trie.length >> 2;
    const logFreq = this.data.logFreq;
    // The root's children by ASCII ids: slot -> the bits of their characters.
    const rootChildren = new Map<number, Uint32Array>();
    for (let c = 0; c < 128; c++) {
      const id = this.bmp[c]!;
      const slot = trie[0]! + id;
      if (id <= 0 || slot <= 0 || slot >= slots || trie[4 * slot + 1] !== 0) continue;
      let bits = rootChildren.get(slot);
      if (bits === undefined) rootChildren.set(slot, (bits = new Uint32Array(4)));
      bits[c >> 5]! |= 1 << (c & 31);
    }
    const mask = new Uint32Array(4);
    const maxClimb = Math.min(this.data.maxWordChars, 255) + 1;
    for (let t = 1; t < slots; t++) {
      const entry = trie[4 * t + 2]!;
      let s = trie[4 * t + 1]!;
      if (entry < 0 || s <= 0 || logFreq[entry]! < 0) continue; // one character, or not a word
      for (let steps = 0; trie[4 * s + 1] !== 0; steps++) {
        s = trie[4 * s + 1]!;
        if (s <= 0 || steps >= maxClimb) return mask.fill(0xffffffff);
      }
      const bits = rootChildren.get(s);
      if (bits !== undefined) for (let k = 0; k < 4; k++) mask[k]! |= bits[k]!;
    }
    return mask;
  }

  idf(entry: number): number {
    return entry >= 0 && entry < this.entryCount ? this.data.idf[entry]! : -1;
  }

  isDefaultStop(entry: number): boolean {
    return entry >= 0 && entry < this.entryCount && (this.data.flags[entry]! & FLAG_STOP) !== 0;
  }
}

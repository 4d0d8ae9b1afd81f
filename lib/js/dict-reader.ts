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

  idf(entry: number): number {
    return entry >= 0 && entry < this.entryCount ? this.data.idf[entry]! : -1;
  }

  isDefaultStop(entry: number): boolean {
    return entry >= 0 && entry < this.entryCount && (this.data.flags[entry]! & FLAG_STOP) !== 0;
  }
}

// TS engine of the `mysimhash` preset (seed 001): see
// native/core/preset_mysimhash.cc for the behaviour reproduced.
import type { FingerprintEngine, PackedFeatures } from '../engine';
import type { Bits } from '../fingerprint';
import { limbsToBigInt, writeFingerprints } from '../fingerprint';
import { WrappingAccumulator } from './accumulator';
import { FeatureCollector } from './features';
import { wellFormed } from './text';

// The seed's separator regex as its ordered alternatives; Java tries them in
// this order at each position, so "/" beats "/html" and "<" beats "<script".
const SEPARATORS: readonly string[] = [
  '=', '.', '。', '，', '"', "'", '[', ']', '！', '!', '?', '/', '\n', '\r', ' ', '<html', '/html',
  '<h1', '</h1>', '<h2', '/h2', '<h3', '/h3', '<ul', '/ul', '<br', '/br', '<head', '/head', '<li',
  '/li', '<div', '/div', '<a', '/a', '<p', '/p', '<body', '/body', '-_-', ')', '(', ',', '{', '}',
  ';', ':', '--', '<', '>', '<script', '/scirpt', '<title', '/title', '<pre', '</pre>', '<meta',
  '</meta>', '<header', '</header>', '<span', '/span', '_', '#', '&', '%', '-',
];

// For each first code unit, the separators starting with it, in regex order.
const BY_FIRST_UNIT = new Map<number, string[]>();
for (const separator of SEPARATORS) {
  const first = separator.charCodeAt(0);
  const list = BY_FIRST_UNIT.get(first) ?? [];
  list.push(separator);
  BY_FIRST_UNIT.set(first, list);
}

function separatorAt(text: string, at: number): number {
  const candidates = BY_FIRST_UNIT.get(text.charCodeAt(at));
  if (!candidates) return 0;
  for (const separator of candidates) {
    if (text.startsWith(separator, at)) return separator.length;
  }
  return 0;
}

function isChineseUnit(c: number): boolean {
  return (c >= 0x4e00 && c <= 0x9fa5) || (c >= 0xff00 && c <= 0xffef) || (c >= 0x2e80 && c <= 0x2eff) ||
    (c >= 0x3000 && c <= 0x303f) || (c >= 0x31c0 && c <= 0x31ef);
}

/** Calls emit(start, end) for each word: pieces between separators, split per UTF-16 unit when they contain Chinese. */
function forEachWord(text: string, emit: (start: number, end: number) => void): void {
  const emitPiece = (begin: number, end: number): void => {
    if (begin === end) return;
    let chinese = false;
    for (let i = begin; i < end && !chinese; i++) chinese = isChineseUnit(text.charCodeAt(i));
    if (!chinese) {
      emit(begin, end);
      return;
    }
    for (let i = begin; i < end; i++) emit(i, i + 1);
  };
  let pieceBegin = 0;
  let at = 0;
  while (at < text.length) {
    const separator = separatorAt(text, at);
    if (separator === 0) {
      at++;
      continue;
    }
    emitPiece(pieceBegin, at);
    at += separator;
    pieceBegin = at;
  }
  emitPiece(pieceBegin, text.length);
}

/** The seed's hash() over text[start, end) into 32-bit limbs (least significant first). */
function wordHash(text: string, start: number, end: number, limbs: Uint32Array): void {
  limbs.fill(0);
  limbs[0] = text.charCodeAt(start) << 7;
  for (let i = start; i < end; i++) {
    let carry = 0;
    for (let k = 0; k < limbs.length; k++) {
      const product = limbs[k]! * 1000003 + carry;
      limbs[k] = product >>> 0;
      carry = Math.floor(product / 0x100000000);
    }
    limbs[0] = (limbs[0]! ^ text.charCodeAt(i)) >>> 0;
  }
  limbs[0] = (limbs[0]! ^ (end - start)) >>> 0;
}

export class MySimHashJs implements FingerprintEngine {
  private readonly limbs: Uint32Array;

  constructor(private readonly bits: Bits) {
    this.limbs = new Uint32Array(bits >>> 5);
  }

  fingerprint(text: string): bigint {
    return limbsToBigInt(this.limbsOf(text), this.bits >>> 5);
  }

  /** The fingerprint as 32-bit limbs, least significant first. */
  private limbsOf(text: string): Uint32Array {
    const input = wellFormed(text);
    const sums = new WrappingAccumulator(this.bits);
    const limbs = this.limbs;
    // Adding 1 per occurrence equals the seed's term frequency per distinct word.
    forEachWord(input, (start, end) => {
      wordHash(input, start, end, limbs);
      sums.add(limbs, 1);
    });
    return sums.toLimbs((sum) => sum >= 0);
  }

  fingerprintMany(texts: readonly string[], out: BigUint64Array): void {
    writeFingerprints(texts, out, this.bits >>> 5, (text) => this.limbsOf(text));
  }

  features(text: string): PackedFeatures {
    const input = wellFormed(text);
    const collector = new FeatureCollector(this.bits, true);
    const limbs = new Uint32Array(this.bits >>> 5);
    forEachWord(input, (start, end) => {
      wordHash(input, start, end, limbs);
      const word = input.slice(start, end);
      collector.add(word, () => Buffer.from(word, 'utf16le'), 1, limbs);
    });
    return collector.pack();
  }
}

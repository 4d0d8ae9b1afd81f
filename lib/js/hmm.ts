// BMES Viterbi over integer costs, as jieba-rs decodes unknown runs, with its
// floating-point behaviour reproduced exactly where it decides anything:
// jieba writes an impossible probability as -3.14e100, and adding any
// ordinary log-probability to that leaves it unchanged. So a path score is
// either finite, or "k times impossible", where only k matters; paths with
// equal k tie, and ties go to the later state (B < E < M < S), as Rust's
// `max_by` over `(prob, state)` does. native/core/hmm.cc is the same code.
import { HMM_FIRST_CP, HMM_LAST_CP, HMM_MISSING } from '../dictionary';

export const STATE_B = 0;
export const STATE_E = 1;
export const STATE_M = 2;
export const STATE_S = 3;

/** One "impossible" (multiples of it carry k; finite scores stay far below). */
const POISON = 2 ** 40;
/** Allowed previous states of B, E, M, S. */
const PREV = [STATE_E, STATE_S, STATE_B, STATE_M, STATE_M, STATE_B, STATE_S, STATE_E];

export function isHmmHan(cp: number): boolean {
  return cp >= HMM_FIRST_CP && cp <= HMM_LAST_CP;
}

function add(score: number, cost: number): number {
  if (cost === HMM_MISSING) return score >= POISON ? score + POISON : POISON;
  return score >= POISON ? score : score + cost;
}

export class Viterbi {
  private back = new Uint8Array(1024);
  private readonly v = new Float64Array(4);
  private readonly next = new Float64Array(4);
  /** Best state of each character after decode(). */
  states = new Uint8Array(256);

  constructor(private readonly model: Int32Array) {}

  private emit(cp: number, state: number): number {
    return this.model[22 + (cp - HMM_FIRST_CP) * 4 + state]!;
  }

  /** Decodes cps[0, count) (count >= 2, every cp in the HMM range) into this.states. */
  decode(cps: Int32Array, count: number): void {
    const model = this.model;
    if (this.back.length < count * 4) this.back = new Uint8Array(count * 8);
    if (this.states.length < count) this.states = new Uint8Array(count * 2);
    const back = this.back;
    const v = this.v;
    const next = this.next;
    for (let y = 0; y < 4; y++) v[y] = add(add(0, model[y]!), this.emit(cps[0]!, y));
    for (let t = 1; t < count; t++) {
      const cp = cps[t]!;
      for (let y = 0; y < 4; y++) {
        const em = this.emit(cp, y);
        const a = PREV[2 * y]!;
        const b = PREV[2 * y + 1]!;
        const ca = add(add(v[a]!, model[4 + a * 4 + y]!), em);
        const cb = add(add(v[b]!, model[4 + b * 4 + y]!), em);
        let best: number;
        let from: number;
        if (ca < cb || (ca === cb && a > b)) {
          best = ca;
          from = a;
        } else {
          best = cb;
          from = b;
        }
        next[y] = best;
        back[t * 4 + y] = from;
      }
      // Shift the scores so they stay small; no comparison changes.
      let min = next[0]!;
      for (let y = 1; y < 4; y++) if (next[y]! < min) min = next[y]!;
      if (min < POISON) {
        for (let y = 0; y < 4; y++) v[y] = next[y]! < POISON ? next[y]! - min : next[y]!;
      } else {
        const shift = min - POISON;
        for (let y = 0; y < 4; y++) v[y] = next[y]! - shift;
      }
    }
    let state = v[STATE_S]! <= v[STATE_E]! ? STATE_S : STATE_E;
    const states = this.states;
    for (let t = count - 1; t > 0; t--) {
      states[t] = state;
      state = back[t * 4 + state]!;
    }
    states[0] = state;
  }
}

// Batch fingerprinting off the main thread (native: libuv worker threads, the
// batch split over the cores) or in slices between event-loop turns (TS engine).
import { availableParallelism } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FingerprintEngine } from './engine';
import { requireNativeAddon } from './native';

export interface NativeAsyncEngine extends FingerprintEngine {
  /**
   * Copies the texts (joined into `parts`, cut apart by `lengths`) once and fingerprints them
   * on `workers` libuv threads that take chunks of texts in turn; one promise per worker
   * (false when cancelled). `out` is filled when all have settled.
   */
  fingerprintManyAsync(parts: string[], lengths: Uint32Array, out: BigUint64Array, workers: number,
    token: unknown): Promise<boolean>[];
}

/** Texts cross into native code joined, about this many UTF-16 units per string. */
const JOINED_UNITS = 1 << 20;

/**
 * The texts joined into strings of about JOINED_UNITS units, and each text's length: the
 * main thread then copies a few long strings (fast) rather than many short ones. A part holds
 * more than JOINED_UNITS units only when it is one text, so it is never longer than the
 * longest text (a string V8 already holds).
 */
export function joinTexts(texts: readonly string[]): { parts: string[]; lengths: Uint32Array } {
  const lengths = new Uint32Array(texts.length);
  const parts: string[] = [];
  let first = 0;
  let units = 0;
  for (let i = 0; i < texts.length; i++) {
    const length = texts[i]!.length;
    lengths[i] = length;
    if (units > 0 && units + length > JOINED_UNITS) {
      parts.push(texts.slice(first, i).join(''));
      first = i;
      units = 0;
    }
    units += length;
    if (units >= JOINED_UNITS) {
      parts.push(texts.slice(first, i + 1).join(''));
      first = i + 1;
      units = 0;
    }
  }
  if (first < texts.length) parts.push(texts.slice(first).join(''));
  return { parts, lengths };
}

export function abortError(signal: AbortSignal): DOMException {
  const error = new DOMException('The operation was aborted', 'AbortError');
  if (signal.reason !== undefined) Object.defineProperty(error, 'cause', { value: signal.reason });
  return error;
}

export async function nativeManyAsync(engine: NativeAsyncEngine, texts: readonly string[], out: BigUint64Array,
  signal?: AbortSignal): Promise<void> {
  const token = new (requireNativeAddon().CancelToken)();
  const onAbort = (): void => token.cancel();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const workers = Math.min(1024, Math.max(1, availableParallelism()));
    const { parts, lengths } = joinTexts(texts);
    const done = await Promise.all(engine.fingerprintManyAsync(parts, lengths, out, workers, token));
    if (signal?.aborted || done.includes(false)) throw abortError(signal!);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** About this much text (UTF-16 units) between two event-loop turns. */
const SLICE_UNITS = 1 << 18;

export async function jsManyAsync(engine: FingerprintEngine, texts: readonly string[], out: BigUint64Array,
  words: number, signal?: AbortSignal): Promise<void> {
  let start = 0;
  while (start < texts.length) {
    if (signal?.aborted) throw abortError(signal);
    let end = start;
    let units = 0;
    while (end < texts.length && (units < SLICE_UNITS || end === start)) units += texts[end++]!.length + 16;
    engine.fingerprintMany(texts.slice(start, end), out.subarray(start * words, end * words));
    start = end;
    if (start < texts.length) await nextTurn();
  }
  if (signal?.aborted) throw abortError(signal);
}

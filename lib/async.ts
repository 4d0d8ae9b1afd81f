// Batch fingerprinting off the main thread (native: libuv worker threads, the
// batch split over the cores) or in slices between event-loop turns (TS engine).
import { availableParallelism } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FingerprintEngine } from './engine';
import { joinTexts } from './joined-texts';
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

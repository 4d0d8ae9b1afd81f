// Batch fingerprinting off the main thread (native: libuv worker threads, the
// batch split over the cores) or in timed slices between event-loop turns (TS engine).
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

/** About this long (ms) of computing between two event-loop turns. */
const SLICE_MS = 8;
/** The clock is read once per run of about this much text (UTF-16 units), not once per text. */
const RUN_UNITS = 1 << 13;

/**
 * The TS engine's async batch: on the main thread, in slices of about SLICE_MS with an event-loop
 * turn between them. A slice is timed rather than sized because the engine's pace depends on the
 * text and the machine (slices of a fixed 256K characters held the loop 30-40 ms on 围城's
 * paragraphs), and a run of text that would end the slice late at the slice's pace so far waits
 * for the next one. One text is never split: a text that takes longer than a slice holds the loop
 * that long.
 */
export async function jsManyAsync(engine: FingerprintEngine, texts: readonly string[], out: BigUint64Array,
  words: number, signal?: AbortSignal): Promise<void> {
  let start = 0;
  while (start < texts.length) {
    if (signal?.aborted) throw abortError(signal);
    const sliceStart = performance.now();
    let sliceUnits = 0;
    while (start < texts.length) {
      let end = start;
      let units = 0;
      while (end < texts.length && (units < RUN_UNITS || end === start)) units += texts[end++]!.length + 16;
      if (sliceUnits > 0) {
        const elapsed = performance.now() - sliceStart;
        if (elapsed * (1 + units / sliceUnits) > SLICE_MS) break;
      }
      engine.fingerprintMany(texts.slice(start, end), out.subarray(start * words, end * words));
      start = end;
      sliceUnits += units;
    }
    if (start < texts.length) await nextTurn();
  }
  if (signal?.aborted) throw abortError(signal);
}

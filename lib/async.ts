// Batch fingerprinting off the main thread (native: libuv worker threads, the
// batch split over the cores) or in slices between event-loop turns (TS engine).
import { availableParallelism } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FingerprintEngine } from './engine';
import { requireNativeAddon } from './native';

export interface NativeAsyncEngine extends FingerprintEngine {
  /** The texts joined into one string, with their UTF-16 lengths. */
  fingerprintManyAsync(joined: string, lengths: Uint32Array, out: BigUint64Array, token: unknown): Promise<boolean>;
}

export function abortError(signal: AbortSignal): DOMException {
  const error = new DOMException('The operation was aborted', 'AbortError');
  if (signal.reason !== undefined) Object.defineProperty(error, 'cause', { value: signal.reason });
  return error;
}

/** Splits [0, n) into at most `parts` contiguous ranges of about equal total text length. */
export function splitByLength(texts: readonly string[], parts: number): [number, number][] {
  let total = 0;
  for (const text of texts) total += text.length + 16;
  const ranges: [number, number][] = [];
  const target = total / parts;
  let start = 0;
  let sum = 0;
  for (let i = 0; i < texts.length; i++) {
    sum += texts[i]!.length + 16;
    if (sum >= target * (ranges.length + 1) && ranges.length < parts - 1) {
      ranges.push([start, i + 1]);
      start = i + 1;
    }
  }
  if (start < texts.length) ranges.push([start, texts.length]);
  return ranges;
}

export async function nativeManyAsync(engine: NativeAsyncEngine, texts: readonly string[], out: BigUint64Array,
  words: number, signal?: AbortSignal): Promise<void> {
  const token = new (requireNativeAddon().CancelToken)();
  const onAbort = (): void => token.cancel();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const ranges = splitByLength(texts, Math.max(1, availableParallelism()));
    const done = await Promise.all(ranges.map(([start, end]) => {
      const chunk = texts.slice(start, end);
      const lengths = Uint32Array.from(chunk, (text) => text.length);
      return engine.fingerprintManyAsync(chunk.join(''), lengths, out.subarray(start * words, end * words), token);
    }));
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

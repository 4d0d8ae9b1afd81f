// Text conversions shared by the TS engine. They apply the same contract as
// N-API: lone surrogates become U+FFFD before anything else sees the text.

/** UTF-8 bytes of `text`; each lone surrogate encodes as U+FFFD (EF BF BD). */
export function utf8Bytes(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

/** `text` with each lone surrogate replaced by U+FFFD. */
export function wellFormed(text: string): string {
  return text.isWellFormed() ? text : text.toWellFormed();
}

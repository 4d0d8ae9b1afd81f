// How a batch of texts crosses into the native addon (fingerprintParts and fingerprintManyAsync):
// short texts joined into a few long strings, cut apart again by their lengths. Reading a string
// out of V8 costs two N-API calls whatever its length, so a batch of titles joined costs a few
// calls instead of two per title (fingerprintMany of titles 10-16% faster, bench/NOTES.md). A
// long text gains nothing from joining: it is a part of its own, not copied once more by a join.

/**
 * Joined parts hold at most this many UTF-16 units: 64 KB, so that a part stays an ordinary
 * young-generation string. V8 gives a string over 128 KB pages of its own in its large-object
 * space, fresh ones each time (about 105 page faults per batch of 8,202 titles joined into
 * 1M-unit parts, 3 with these): titles through fingerprintMany 5-8% faster (bench/NOTES.md).
 */
export const JOINED_UNITS = 1 << 15;
/** A text this long or longer is a part of its own. */
const OWN_PART_UNITS = 256;

export interface JoinedTexts {
  parts: string[];
  /** Each text's length in UTF-16 units: the parts are the texts in order. */
  lengths: Uint32Array;
}

/**
 * The texts as parts: runs of short texts joined into strings of at most JOINED_UNITS units,
 * and each text of OWN_PART_UNITS units or more on its own (so a part is never longer than the
 * longest text, a string V8 already holds).
 */
export function joinTexts(texts: readonly string[]): JoinedTexts {
  const lengths = new Uint32Array(texts.length);
  const parts: string[] = [];
  let first = 0; // the first text of the run being joined
  let units = 0; // the run's length
  const endRun = (end: number): void => {
    if (end > first) parts.push(end === first + 1 ? texts[first]! : texts.slice(first, end).join(''));
    first = end;
    units = 0;
  };
  for (let i = 0; i < texts.length; i++) {
    const length = texts[i]!.length;
    lengths[i] = length;
    if (length >= OWN_PART_UNITS) {
      endRun(i);
      endRun(i + 1);
      continue;
    }
    if (units + length > JOINED_UNITS) endRun(i);
    units += length;
  }
  endRun(texts.length);
  return { parts, lengths };
}

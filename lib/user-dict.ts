// jieba user dictionaries (`word [freq [tag]]` per line), read from a path or bytes: what
// Segmenter.loadUserDict and SimHash's `userDict` option both add to the dictionary.
import { readFileSync } from 'node:fs';
import { SimHashError, describe, invalidType, invalidValue } from './errors';
import { decodeDictText, parseJiebaDict } from './js/dict-builder';

/** One word of a user dictionary; `freq` undefined asks for jieba's suggested frequency. */
export interface UserDictEntry {
  word: string;
  freq: number | undefined;
}

/**
 * The words of a user dictionary, in file order. A wrong type is a TypeError, an empty path
 * ERR_INVALID_ARG_VALUE; an unreadable file SIMHASH_ZH_DICT_IO, invalid UTF-8
 * SIMHASH_ZH_DICT_ENCODING and a bad line SIMHASH_ZH_DICT_PARSE (each naming the file and line).
 */
export function readUserDict(source: unknown, name: string): UserDictEntry[] {
  let bytes: Uint8Array;
  let what = 'user dictionary';
  if (typeof source === 'string') {
    if (source === '') throw invalidValue(`${name} must be a non-empty path`);
    what = `user dictionary ${source}`;
    try {
      bytes = readFileSync(source);
    } catch (error) {
      throw new SimHashError('SIMHASH_ZH_DICT_IO', `cannot read ${what}: ${(error as Error).message}`, { cause: error });
    }
  } else if (source instanceof Uint8Array) {
    bytes = source;
  } else {
    throw invalidType(`${name} must be a path or a Uint8Array, got ${describe(source)}`);
  }
  return parseJiebaDict(decodeDictText(bytes, what), what);
}

// jieba user dictionaries (`word [freq [tag]]` per line) and stop-word lists (a word per line),
// read from a path or bytes: what Segmenter.loadUserDict and the `userDict` and `stopWords`
// options of SimHash and Segmenter read.
import { readFileSync } from 'node:fs';
import { SimHashError, describe, invalidType, invalidValue } from './errors';
import { decodeDictText, parseJiebaDict, parseStopWords } from './js/dict-builder';

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
  const { bytes, what } = readSource(source, name, 'user dictionary');
  return parseJiebaDict(decodeDictText(bytes, what), what);
}

/**
 * A stop-word list from a path or bytes: one word per line, as cppjieba's stop_words.utf8 (a BOM,
 * CRLF, blank lines and the spaces around a word are ignored). Errors as readUserDict's.
 */
export function readStopWordList(source: unknown, name: string): string[] {
  const { bytes, what } = readSource(source, name, 'stop-word list');
  return parseStopWords(decodeDictText(bytes, what)).map((word) => word.trim()).filter((word) => word !== '');
}

/** The bytes of an option that is a path or a Uint8Array, and how errors name them. */
function readSource(source: unknown, name: string, kind: string): { bytes: Uint8Array; what: string } {
  if (source instanceof Uint8Array) return { bytes: source, what: kind };
  if (typeof source !== 'string') throw invalidType(`${name} must be a path or a Uint8Array, got ${describe(source)}`);
  if (source === '') throw invalidValue(`${name} must be a non-empty path`);
  const what = `${kind} ${source}`;
  try {
    return { bytes: readFileSync(source), what };
  } catch (error) {
    throw new SimHashError('SIMHASH_ZH_DICT_IO', `cannot read ${what}: ${(error as Error).message}`, { cause: error });
  }
}

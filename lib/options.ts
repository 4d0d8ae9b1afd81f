// Option validation for the public classes, with messages naming valid values.
import { badArgument, describe, invalidType, invalidValue, listOf, notOneOf, outOfRange } from './errors';
import { MAX_FREQ } from './dictionary';
import type { Backend } from './engine';
import { assertBits, type Bits } from './fingerprint';
import { BACKENDS } from './native';
import { readStopWordList, readUserDict } from './user-dict';

export type PresetName = 'SimHashChinese' | 'mysimhash';
export const PRESETS: readonly PresetName[] = ['SimHashChinese', 'mysimhash'];

export type HtmlOption = 'auto' | boolean;
export type Weighting = 'tfidf' | 'tf' | 'length' | 'uniform';
export const WEIGHTINGS: readonly Weighting[] = ['tfidf', 'tf', 'length', 'uniform'];
export type FeatureSet = 'mixed' | 'words' | 'chars';
export const FEATURE_SETS: readonly FeatureSet[] = ['mixed', 'words', 'chars'];
export type Sketch = 'minhash' | 'simhash';
export const SKETCHES: readonly Sketch[] = ['minhash', 'simhash'];

export interface SimHashOptions {
  /**
   * Reproduce a seed's code bit for bit: `'SimHashChinese'` (the C++ class, 64 bits) or
   * `'mysimhash'` (the Java class, 64 or 128 bits). Without a preset the default
   * word-segmenting pipeline runs, configured by the options below.
   */
  preset?: PresetName;
  /** Fingerprint width: 64 (default) or 128. */
  bits?: Bits;
  /** Engine for this instance; defaults to the module's `backend`. */
  backend?: Backend;
  /**
   * Markup stripping: `'auto'` (default: when the text holds HTML: an entity, a comment or doctype, a
   * closing tag, a tag with an attribute, or a bare tag HTML leaves bare such as `<p>`, `<br>`, `<li>`;
   * placeholders such as `<file>`, `<n>` or `List<String>` alone are text), `true` (every tag), `false`.
   */
  html?: HtmlOption;
  /** Feature weights: `'tfidf'` (default), `'tf'`, `'length'` (UTF-8 bytes × 8, as the C++ seed), `'uniform'`. */
  weighting?: Weighting;
  /**
   * Features: `'mixed'` (default: the words and, as features of their own, their characters; a
   * one-character word is its character feature alone),
   * `'words'`, or `'chars'`. Characters keep near-duplicates close under typos and small edits.
   */
  features?: FeatureSet;
  /**
   * How the weighted features become bits: `'minhash'` (default: a weighted one-permutation
   * MinHash, one bit per bin; a copy with a small edit sits fewer bits away) or `'simhash'`
   * (Charikar's signed sum of weights^1.5 per bit).
   */
  sketch?: Sketch;
  /** Decode unknown runs with jieba's HMM (default `false`: steadier features under typos). */
  hmm?: boolean;
  /** The dictionary (as `Segmenter`'s option): a path or bytes, binary or jieba's text format. */
  dictionary?: string | Uint8Array;
  /**
   * A jieba user dictionary (`word [freq [tag]]` per line; a path or bytes) whose words are added
   * to the dictionary, in file order, before `words`. A line without a frequency gets jieba's
   * suggested one.
   */
  userDict?: string | Uint8Array;
  /**
   * Words added to the dictionary, in order: a word (jieba's suggested frequency), or [word,
   * frequency] with an integer frequency in [0, 2^32 - 1] (0 removes the word), as
   * `Segmenter#addWord` takes.
   */
  words?: readonly (string | readonly [string, number])[];
  /**
   * Drop stop words: `true` (default: cppjieba's list), `false`, your own list, or a stop-word
   * file as a path or bytes (a word per line, as cppjieba's stop_words.utf8). An empty list or
   * file drops none.
   */
  stopWords?: boolean | readonly string[] | string | Uint8Array;
  /** Fold full-width ASCII and U+3000 to half width (default `true`). */
  foldWidth?: boolean;
  /** Lowercase ASCII letters (default `true`). */
  lowercase?: boolean;
  /**
   * Drop the words made only of ASCII digits, after width folding (default `true`): dates,
   * counters, ids and page numbers differ between copies of one page and between the log lines
   * of one template, and say little about what a text is.
   */
  dropNumbers?: boolean;
  /**
   * Count a URL as one word feature (default `true`): `https://…` (any scheme) or `www.…`, up to
   * the first character that is not a URL character, less trailing punctuation. Its scheme, host
   * and path pieces and their letters would otherwise be a dozen features, so a link added to a
   * short text outweighed the text. An e-mail address (`local@domain.tld`: letters, digits and
   * `._%+-` before the `@`, two or more dotted labels after it, the last starting with a letter)
   * is one word feature too. `false` segments both like other text. No effect with
   * `features: 'chars'`.
   */
  wholeUrls?: boolean;
}

const PRESET_OPTION_NAMES = ['preset', 'bits', 'backend'] as const;
const PIPELINE_OPTION_NAMES = ['bits', 'backend', 'html', 'weighting', 'features', 'sketch', 'hmm', 'dictionary', 'userDict', 'words', 'stopWords', 'foldWidth', 'lowercase', 'dropNumbers', 'wholeUrls'] as const;
const OPTION_NAMES = [...PRESET_OPTION_NAMES, ...PIPELINE_OPTION_NAMES.filter((n) => n !== 'bits' && n !== 'backend')];

export function assertOptionObject(options: unknown, name: string, valid: readonly string[]): Record<string, unknown> {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalidType(`${name} must be an object, got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!valid.includes(key)) {
      throw invalidValue(`unknown option '${key}' in ${name}; valid options are ${listOf(valid)}`);
    }
  }
  return options as Record<string, unknown>;
}

export function resolveBackend(value: unknown, fallback: Backend): Backend {
  if (value === undefined) return fallback;
  if (!BACKENDS.includes(value as Backend)) {
    throw notOneOf(value, BACKENDS, `backend must be one of ${listOf(BACKENDS)}, got ${describe(value)}`);
  }
  return value as Backend;
}

export interface ResolvedPipelineOptions {
  html: HtmlOption;
  weighting: Weighting;
  features: FeatureSet;
  sketch: Sketch;
  hmm: boolean;
  dictionary: unknown;
  /** [word, frequency or undefined for jieba's suggestion] */
  words: (readonly [string, number | undefined])[];
  /** undefined: the dictionary's default list; [] when disabled. */
  stopWords: readonly string[] | undefined;
  foldWidth: boolean;
  lowercase: boolean;
  dropNumbers: boolean;
  wholeUrls: boolean;
}

export type ResolvedSimHashOptions =
  | { kind: 'preset'; preset: PresetName; bits: Bits; backend: Backend }
  | { kind: 'pipeline'; bits: Bits; backend: Backend; pipeline: ResolvedPipelineOptions };

function booleanOption(options: Record<string, unknown>, name: string, fallback: boolean): boolean {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw invalidType(`${name} must be a boolean, got ${describe(value)}`);
  return value;
}

export function resolveSimHashOptions(input: unknown, defaultBackend: Backend): ResolvedSimHashOptions {
  const options = assertOptionObject(input, 'SimHash options', OPTION_NAMES);
  const preset = options.preset;
  const bits = options.bits === undefined ? 64 : options.bits;
  assertBits(bits);
  const backend = resolveBackend(options.backend, defaultBackend);
  if (preset !== undefined) {
    if (!PRESETS.includes(preset as PresetName)) {
      throw notOneOf(preset, PRESETS, `unknown preset ${describe(preset)}; valid presets are ${listOf(PRESETS)}`);
    }
    for (const key of Object.keys(options)) {
      if (!(PRESET_OPTION_NAMES as readonly string[]).includes(key) && options[key] !== undefined) {
        throw invalidValue(`option '${key}' does not apply to preset '${preset}' (a preset reproduces its seed exactly); valid options with a preset are ${listOf(PRESET_OPTION_NAMES)}`);
      }
    }
    if (preset === 'SimHashChinese' && bits !== 64) {
      throw outOfRange(`preset 'SimHashChinese' is 64-bit only (the seed's class), got bits ${bits}`);
    }
    return { kind: 'preset', preset: preset as PresetName, bits, backend };
  }
  const html = options.html === undefined ? 'auto' : options.html;
  if (html !== 'auto' && html !== true && html !== false) {
    throw notOneOf(html, ['auto', true, false], `html must be one of 'auto', true, false, got ${describe(html)}`);
  }
  const weighting = options.weighting === undefined ? 'tfidf' : options.weighting;
  if (!WEIGHTINGS.includes(weighting as Weighting)) {
    throw notOneOf(weighting, WEIGHTINGS, `weighting must be one of ${listOf(WEIGHTINGS)}, got ${describe(weighting)}`);
  }
  const features = options.features === undefined ? 'mixed' : options.features;
  if (!FEATURE_SETS.includes(features as FeatureSet)) {
    throw notOneOf(features, FEATURE_SETS, `features must be one of ${listOf(FEATURE_SETS)}, got ${describe(features)}`);
  }
  const sketch = options.sketch === undefined ? 'minhash' : options.sketch;
  if (!SKETCHES.includes(sketch as Sketch)) {
    throw notOneOf(sketch, SKETCHES, `sketch must be one of ${listOf(SKETCHES)}, got ${describe(sketch)}`);
  }
  const words: (readonly [string, number | undefined])[] = [];
  if (options.userDict !== undefined) {
    for (const { word, freq } of readUserDict(options.userDict, 'userDict')) words.push([word, freq]);
  }
  if (options.words !== undefined) {
    if (!Array.isArray(options.words)) throw invalidType(`words must be an array, got ${describe(options.words)}`);
    options.words.forEach((item: unknown, i: number) => {
      const [word, freq] = Array.isArray(item) ? item : [item, undefined];
      if (typeof word !== 'string' || word === '') {
        const message = `words[${i}] must be a non-empty string or [word, frequency]`;
        throw badArgument(word, 'string', message);
      }
      // An integer, as Segmenter#addWord and a user dictionary's lines take: both engines keep
      // frequencies as 32-bit integers (a fraction was truncated by one and kept by the other).
      if (freq !== undefined && (typeof freq !== 'number' || !Number.isInteger(freq) || freq < 0 || freq > MAX_FREQ)) {
        const message = `the frequency of words[${i}] must be an integer in [0, ${MAX_FREQ}], got ${describe(freq)}`;
        throw badArgument(freq, 'number', message, outOfRange);
      }
      words.push([word.toWellFormed(), freq]);
    });
  }
  let stopWords: readonly string[] | undefined;
  const stop = options.stopWords === undefined ? true : options.stopWords;
  if (stop === false) stopWords = [];
  else if (Array.isArray(stop)) {
    stop.forEach((word, i) => {
      if (typeof word !== 'string') throw invalidType(`stopWords[${i}] must be a string, got ${describe(word)}`);
    });
    stopWords = stop.map((word: string) => word.toWellFormed());
  } else if (typeof stop === 'string' || stop instanceof Uint8Array) {
    stopWords = readStopWordList(stop, 'stopWords');
  } else if (stop !== true) {
    throw invalidType(`stopWords must be true, false, an array of strings, a path or a Uint8Array, got ${describe(stop)}`);
  }
  return {
    kind: 'pipeline',
    bits,
    backend,
    pipeline: {
      html: html as HtmlOption,
      weighting: weighting as Weighting,
      features: features as FeatureSet,
      sketch: sketch as Sketch,
      hmm: booleanOption(options, 'hmm', false),
      dictionary: options.dictionary,
      words,
      stopWords,
      foldWidth: booleanOption(options, 'foldWidth', true),
      lowercase: booleanOption(options, 'lowercase', true),
      dropNumbers: booleanOption(options, 'dropNumbers', true),
      wholeUrls: booleanOption(options, 'wholeUrls', true),
    },
  };
}

// Option specs shared by the commands, and their validation into library options.
import type { Bits, PresetName, SimHashOptions, Backend } from '../index';
import type { OptionSpec, ParsedArgs } from './args';
import { UsageError } from './errors';
import { ENCODINGS, InputStats, TextDecoding, resolveSources, totalSize, type InputOptions } from './input';
import { OUTPUT_FORMATS, type OutputFormat } from './output';

export const ENCODING_SPEC: OptionSpec = {
  name: 'encoding', type: 'string', value: 'NAME', help: 'the input files\' encoding: utf-8 (default), gb18030 (reads GBK and GB2312 too), big5, ...',
};

export const INPUT_SPECS: readonly OptionSpec[] = [
  { name: 'jsonl', type: 'boolean', help: 'records are JSON objects, one per line (default for *.jsonl, *.ndjson)' },
  { name: 'lines', type: 'boolean', help: 'records are lines of text (default for other files and stdin)' },
  { name: 'field', type: 'string', multiple: true, value: 'NAME', help: 'JSONL field with the text (default: text); repeat to join fields' },
  { name: 'id', type: 'string', value: 'NAME', help: 'JSONL field with the id (default: id if present, else the line number)' },
  { name: 'skip-invalid', type: 'boolean', help: 'skip malformed JSONL lines (counted on stderr) instead of exit 1' },
  { name: 'sample', type: 'boolean', help: "read the package's sample, examples/news.jsonl, instead of files" },
  ENCODING_SPEC,
];

export const PRESET_SPECS: readonly OptionSpec[] = [
  { name: 'preset', type: 'string', value: 'NAME', help: 'SimHashChinese or mysimhash (default: the default pipeline)' },
  { name: 'bits', type: 'string', value: '64|128', help: 'fingerprint width (default 64)' },
  { name: 'html', type: 'string', value: 'auto|true|false', help: 'strip markup (default auto: when the text holds HTML; a bare <file> or <n> alone is text)' },
  { name: 'sketch', type: 'string', value: 'minhash|simhash', help: 'how features become bits (default minhash; simhash: the signed sum)' },
  { name: 'keep-numbers', type: 'boolean', help: 'keep the words made only of digits (default: dropped, as dates, counters and ids)' },
  { name: 'split-urls', type: 'boolean', help: 'segment URLs and e-mail addresses like other text (default: each is one feature)' },
];

export const USER_DICT_SPEC: OptionSpec = {
  name: 'user-dict', type: 'string', value: 'FILE', help: "a jieba user dictionary ('word [freq [tag]]' per line) added to the dictionary",
};

export const STOP_WORDS_SPEC: OptionSpec = {
  name: 'stop-words', type: 'string', value: 'FILE', help: "stop words, one per line (cppjieba's stop_words.utf8 format), instead of the default list",
};

export const BACKEND_SPEC: OptionSpec = {
  name: 'backend', type: 'string', value: 'native|js', help: 'engine (default: native when it loads, else js)',
};

export const MAX_DISTANCE_SPEC: OptionSpec = {
  name: 'max-distance', short: 'k', type: 'string', value: 'K',
  help: 'near-duplicates differ in at most K bits (default 3; up to 8 at 64 bits, 16 at 128)',
};

export const FORMAT_SPEC: OptionSpec = { name: 'format', type: 'string', value: 'jsonl|tsv', help: 'output format (default jsonl)' };

export const PROGRESS_SPECS: readonly OptionSpec[] = [
  { name: 'quiet', short: 'q', type: 'boolean', help: 'no progress bar and no summary on stderr' },
  { name: 'progress', type: 'boolean', help: 'progress bar and summary on stderr even when it is not a terminal' },
];

export const HELP_SPEC: OptionSpec = { name: 'help', short: 'h', type: 'boolean', help: 'show this help' };

export function flag(args: ParsedArgs, name: string): boolean {
  return args.options.get(name) === true;
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.options.get(name);
  return typeof value === 'string' ? value : undefined;
}

export function listOption(args: ParsedArgs, name: string): string[] {
  const value = args.options.get(name);
  return Array.isArray(value) ? value : [];
}

function choice<T extends string>(args: ParsedArgs, name: string, valid: readonly T[], command: string): T | undefined {
  const value = stringOption(args, name);
  if (value === undefined) return undefined;
  if (!(valid as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of ${valid.join(', ')}; got '${value}'`, command);
  }
  return value as T;
}

export function outputFormat(args: ParsedArgs, command: string): OutputFormat {
  return choice(args, 'format', OUTPUT_FORMATS, command) ?? 'jsonl';
}

export function backendOption(args: ParsedArgs, command: string): Backend | undefined {
  return choice(args, 'backend', ['native', 'js'] as const, command);
}

/** --preset, --bits, --backend, --html, --sketch, --keep-numbers, --split-urls, --user-dict, --stop-words as SimHash options. */
export function simhashOptions(args: ParsedArgs, command: string): SimHashOptions {
  const options: SimHashOptions = {};
  const preset = choice(args, 'preset', ['SimHashChinese', 'mysimhash', 'default'] as const, command);
  if (preset !== undefined && preset !== 'default') options.preset = preset as PresetName;
  const bits = choice(args, 'bits', ['64', '128'] as const, command);
  if (bits !== undefined) options.bits = Number(bits) as Bits;
  if (options.preset === 'SimHashChinese' && options.bits === 128) {
    throw new UsageError('--preset SimHashChinese is 64-bit only (the seed class); drop --bits 128', command);
  }
  const backend = backendOption(args, command);
  if (backend !== undefined) options.backend = backend;
  const html = choice(args, 'html', ['auto', 'true', 'false'] as const, command);
  if (html !== undefined) {
    notWithPreset('html', command, options.preset);
    options.html = html === 'auto' ? 'auto' : html === 'true';
  }
  const sketch = choice(args, 'sketch', ['minhash', 'simhash'] as const, command);
  if (sketch !== undefined) {
    notWithPreset('sketch', command, options.preset);
    options.sketch = sketch;
  }
  if (flag(args, 'keep-numbers')) {
    notWithPreset('keep-numbers', command, options.preset);
    options.dropNumbers = false;
  }
  if (flag(args, 'split-urls')) {
    notWithPreset('split-urls', command, options.preset);
    options.wholeUrls = false;
  }
  const userDict = pipelineFile(args, 'user-dict', command, options.preset);
  if (userDict !== undefined) options.userDict = userDict;
  const stopWords = pipelineFile(args, 'stop-words', command, options.preset);
  if (stopWords !== undefined) options.stopWords = stopWords;
  return options;
}

/** Rejects a default-pipeline option given with a preset. */
function notWithPreset(name: string, command: string, preset: PresetName | undefined): void {
  if (preset !== undefined) {
    throw new UsageError(`--${name} does not apply to --preset ${preset} (a preset reproduces its seed exactly)`, command);
  }
}

/** The file of a default-pipeline option (--user-dict, --stop-words), or undefined when not given. */
export function pipelineFile(args: ParsedArgs, name: string, command: string, preset?: PresetName): string | undefined {
  const file = stringOption(args, name);
  if (file === undefined) return undefined;
  notWithPreset(name, command, preset);
  if (file === '') throw new UsageError(`--${name} needs a file`, command);
  return file;
}

/** --max-distance, checked against what an index supports at `bits` (or any 0..bits with `limit`). */
export function maxDistance(args: ParsedArgs, bits: Bits, command: string, limit = bits === 64 ? 8 : 16): number {
  const value = stringOption(args, 'max-distance');
  if (value === undefined) return 3;
  if (!/^\d+$/.test(value) || Number(value) > limit) {
    throw new UsageError(`--max-distance must be an integer from 0 to ${limit} at ${bits} bits; got '${value}'`, command);
  }
  return Number(value);
}

/** --encoding as a decoder (default UTF-8). */
export function decoderOption(args: ParsedArgs, command: string): TextDecoding {
  const label = stringOption(args, 'encoding');
  try {
    return new TextDecoding(label);
  } catch {
    throw new UsageError(`--encoding must name one of ${ENCODINGS.join(', ')} (or another label of one, such as gb2312); got '${label}'`, command);
  }
}

/** The input options and a fresh InputStats; files are checked here (a missing one: exit 1). */
export function inputOptions(args: ParsedArgs, command: string): { input: InputOptions; stats: InputStats } {
  const fields = listOption(args, 'field');
  const idField = stringOption(args, 'id');
  for (const [name, value] of [...fields.map((f) => ['field', f] as const), ['id', idField] as const]) {
    if (value === '') throw new UsageError(`--${name} needs a field name`, command);
  }
  const sources = resolveSources(
    {
      files: args.positionals,
      jsonl: flag(args, 'jsonl'),
      lines: flag(args, 'lines'),
      sample: flag(args, 'sample'),
      jsonFields: fields.length > 0 || idField !== undefined,
    },
    command,
  );
  const decoder = decoderOption(args, command);
  return {
    input: {
      sources,
      fields: fields.length > 0 ? fields : ['text'],
      idField: idField ?? 'id',
      idRequired: idField !== undefined,
      skipInvalid: flag(args, 'skip-invalid'),
      decoder,
    },
    stats: new InputStats(totalSize(sources), decoder.encoding),
  };
}

export interface Reporting {
  /** Draw the progress bar on stderr. */
  progress: boolean;
  /** Write a one-line summary on stderr at the end. */
  summary: boolean;
}

/**
 * The progress bar shows when stderr is a terminal and stdout is not (when both are, the output
 * itself shows progress); the summary whenever stderr is a terminal. --progress forces both on,
 * --quiet off. Warnings (skipped lines) are written in any case.
 */
export function reporting(args: ParsedArgs): Reporting {
  if (flag(args, 'quiet')) return { progress: false, summary: false };
  if (flag(args, 'progress')) return { progress: true, summary: true };
  const stderrTty = process.stderr.isTTY === true;
  return { progress: stderrTty && process.stdout.isTTY !== true, summary: stderrTty };
}

// Input: files or stdin, read as a stream and split into records (one per line, or one JSON object
// per line with --jsonl), yielded in batches. Memory is one batch plus one read chunk, whatever the
// size of the input. Text is UTF-8 unless --encoding names another; bytes that are not valid in the
// encoding decode to U+FFFD, and the lines holding them are counted (a warning names the first);
// a BOM is dropped.
import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import { InputError, UsageError, fileError } from './errors';

export interface Source {
  /** As given on the command line, or `<stdin>`. */
  name: string;
  /** undefined for stdin. */
  path: string | undefined;
  /** Records are JSON objects (else lines of text). */
  jsonl: boolean;
  /** Bytes, when known (a regular file). */
  size: number | undefined;
}

/** A record's id: the --id field's value, else its line number (`file:line` with several inputs). */
export type RecordId = string | number;

export interface InputRecord {
  id: RecordId;
  /** The text to fingerprint (JSONL: the --field values, joined by newlines). */
  text: string;
  /** The record as read: the decoded line, without its line ending. */
  raw: string;
}

export interface InputOptions {
  sources: Source[];
  /** JSONL fields whose values are the text (joined by newlines). */
  fields: string[];
  /** JSONL field holding the id. */
  idField: string;
  /** --id was given: a record without that field is invalid (else it gets its line number). */
  idRequired: boolean;
  /** Skip malformed records (counted in stats) instead of stopping with exit 1. */
  skipInvalid: boolean;
  /** Decodes the input's bytes (--encoding). */
  decoder: TextDecoding;
}

/**
 * The encodings --encoding takes (WHATWG names; labels such as gb2312 or utf8 name them too):
 * those in which bytes 0x0A and 0x0D only ever mean a line end, so lines split on bytes.
 */
export const ENCODINGS = ['utf-8', 'gb18030', 'gbk', 'big5', 'shift_jis', 'euc-jp', 'euc-kr'] as const;

/** Bytes to text in one encoding, noting whether the last bytes decoded were all valid in it. */
export class TextDecoding {
  /** The last decode met bytes that are not valid in the encoding (they became U+FFFD). */
  lastInvalid = false;
  /** Its WHATWG name. */
  readonly encoding: string;
  private readonly fatal: TextDecoder | undefined;
  private readonly lenient: TextDecoder | undefined;

  /** Throws a RangeError for an encoding this Node does not decode, or one ENCODINGS lacks. */
  constructor(label = 'utf-8') {
    const encoding = new TextDecoder(label).encoding;
    if (!(ENCODINGS as readonly string[]).includes(encoding)) {
      throw new RangeError(`'${label}' (${encoding}) is not an encoding whose lines split on bytes`);
    }
    this.encoding = encoding;
    // Buffer#toString decodes UTF-8 faster than a TextDecoder; the others need one.
    if (encoding !== 'utf-8') {
      this.fatal = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
      this.lenient = new TextDecoder(encoding, { ignoreBOM: true });
    }
  }

  decode(bytes: Buffer, end = bytes.length): string {
    if (this.fatal === undefined || this.lenient === undefined) {
      const text = bytes.toString('utf8', 0, end);
      // U+FFFD is also a character of its own: only then are the bytes checked.
      this.lastInvalid = text.includes('\ufffd') && !isUtf8(bytes.subarray(0, end));
      return text;
    }
    const view = bytes.subarray(0, end);
    try {
      this.lastInvalid = false;
      return this.fatal.decode(view);
    } catch {
      this.lastInvalid = true;
      return this.lenient.decode(view);
    }
  }
}

/** What has been read so far, for the progress bar and the summary. */
export class InputStats {
  bytes = 0;
  records = 0;
  skipped = 0;
  firstSkipped: string | undefined;
  /** Lines with bytes that are not valid in the encoding, and where the first is. */
  undecodable = 0;
  firstUndecodable: string | undefined;
  constructor(
    readonly totalBytes: number | undefined,
    /** The input's encoding (WHATWG name), for the warning about bad bytes. */
    readonly encoding = 'utf-8',
  ) {}
}

export const SAMPLE_PATH = path.join(__dirname, '..', '..', 'examples', 'news.jsonl');
/** Lines longer than this are bad input (a string this long is about all V8 allows). */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;
const JSONL_EXTENSION = /\.(?:jsonl|ndjson)$/i;

export interface SourceFlags {
  files: readonly string[];
  jsonl: boolean;
  lines: boolean;
  sample: boolean;
  /** --field or --id was given, which implies JSONL. */
  jsonFields: boolean;
}

/**
 * The inputs of a command: the files named (`-` is stdin), or stdin when none is. Every file is
 * checked before anything is read, so a missing file fails fast and names itself.
 */
export function resolveSources(flags: SourceFlags, command: string): Source[] {
  if (flags.jsonl && flags.lines) throw new UsageError('--jsonl and --lines exclude each other', command);
  if (flags.lines && flags.jsonFields) throw new UsageError('--field and --id apply to JSONL input, not with --lines', command);
  if (flags.sample) {
    if (flags.files.length > 0) throw new UsageError('--sample reads the bundled sample; give no files with it', command);
    if (flags.lines) throw new UsageError('--sample is JSONL; drop --lines', command);
  }
  if (flags.sample) {
    let size: number;
    try {
      size = fs.statSync(SAMPLE_PATH).size;
    } catch (error) {
      throw fileError(SAMPLE_PATH, error);
    }
    return [{ name: 'examples/news.jsonl', path: SAMPLE_PATH, jsonl: true, size }];
  }
  const names = flags.files.length > 0 ? flags.files : ['-'];
  if (names.filter((name) => name === '-').length > 1) throw new UsageError("stdin ('-') can be read only once", command);
  if (flags.files.length === 0 && process.stdin.isTTY) {
    throw new UsageError('no input: name files, or pipe text to stdin', command);
  }
  return names.map((name): Source => {
    const isStdin = name === '-';
    let size: number | undefined;
    if (isStdin) {
      try {
        const stat = fs.fstatSync(0);
        if (stat.isFile()) size = stat.size;
        // Node reads a directory on stdin as empty input: say what it is instead.
        if (stat.isDirectory()) throw fileError('<stdin>', { code: 'EISDIR' });
      } catch (error) {
        if (error instanceof InputError) throw error;
        // stdin closed or not a file: size unknown
      }
    } else {
      let stat: fs.Stats;
      try {
        stat = fs.statSync(name);
      } catch (error) {
        throw fileError(name, error);
      }
      if (stat.isDirectory()) throw fileError(name, { code: 'EISDIR' });
      try {
        fs.accessSync(name, fs.constants.R_OK);
      } catch (error) {
        throw fileError(name, error);
      }
      if (stat.isFile()) size = stat.size;
    }
    const jsonl = flags.jsonl || flags.jsonFields || (!flags.lines && !isStdin && JSONL_EXTENSION.test(name));
    return { name: isStdin ? '<stdin>' : name, path: isStdin ? undefined : name, jsonl, size };
  });
}

export function totalSize(sources: readonly Source[]): number | undefined {
  let total = 0;
  for (const source of sources) {
    if (source.size === undefined) return undefined;
    total += source.size;
  }
  return total;
}

function openSource(source: Source): Readable {
  if (source.path === undefined) return process.stdin;
  return fs.createReadStream(source.path, { highWaterMark: 1 << 20 });
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

class SkippedRecord {
  constructor(readonly message: string) {}
}

/** Batches of records, in input order; a batch closes at `maxRecords` records or `maxChars` of text. */
export async function* readRecords(
  options: InputOptions,
  stats: InputStats,
  maxRecords = 4096,
  maxChars = 1 << 22,
): AsyncGenerator<InputRecord[]> {
  const qualify = options.sources.length > 1;
  let batch: InputRecord[] = [];
  let batchChars = 0;
  /** The batch so far, handed over; a new one begins. */
  const handOver = (): InputRecord[] => {
    const full = batch;
    batch = [];
    batchChars = 0;
    return full;
  };

  const invalid = (source: Source, line: number, message: string): SkippedRecord => {
    const where = `${source.name}:${line}: ${message}`;
    if (!options.skipInvalid) throw new InputError(`${where} (--skip-invalid skips such lines)`);
    stats.skipped++;
    stats.firstSkipped ??= where;
    return new SkippedRecord(where);
  };

  const parseLine = (source: Source, bytes: Buffer, line: number): InputRecord | SkippedRecord | undefined => {
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === 0x0d) end--;
    let text = options.decoder.decode(bytes, end);
    if (options.decoder.lastInvalid) {
      stats.undecodable++;
      stats.firstUndecodable ??= `${source.name}:${line}`;
    }
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const defaultId: RecordId = qualify ? `${source.name}:${line}` : line;
    if (!source.jsonl) return { id: defaultId, text, raw: text };
    if (/^\s*$/.test(text)) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return invalid(source, line, `invalid JSON (${(error as Error).message})`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return invalid(source, line, `expected a JSON object, got ${describeValue(value)}`);
    }
    const object = value as Record<string, unknown>;
    const parts: string[] = [];
    for (const field of options.fields) {
      // Own fields only: "constructor" or "__proto__" is a field the record has, or is missing.
      const part = Object.hasOwn(object, field) ? object[field] : undefined;
      if (part === undefined) return invalid(source, line, `field "${field}" is missing`);
      if (typeof part !== 'string') return invalid(source, line, `field "${field}" is ${describeValue(part)}, not a string`);
      parts.push(part);
    }
    let id: RecordId = defaultId;
    const given = Object.hasOwn(object, options.idField) ? object[options.idField] : undefined;
    if (given === undefined) {
      if (options.idRequired) return invalid(source, line, `field "${options.idField}" (the id) is missing`);
    } else if (typeof given === 'string' || (typeof given === 'number' && Number.isSafeInteger(given))) {
      id = given;
    } else if (typeof given === 'number') {
      // JSON.parse rounds such a number (a 64-bit id becomes a neighbour's): distinct records would share it.
      return invalid(source, line, `field "${options.idField}" (the id) is the number ${given}, which is not an integer ` +
        `below 2^53 and so not exact as read; write it as a string`);
    } else {
      return invalid(source, line, `field "${options.idField}" (the id) is ${describeValue(given)}, not a string or a number`);
    }
    return { id, text: parts.length === 1 ? parts[0]! : parts.join('\n'), raw: text };
  };

  for (const source of options.sources) {
    const stream = openSource(source);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let line = 0;
    let discarding = false;
    // A bad record ends the input, but the records before it are still processed and written (then
    // exit 1): take() hands back the batch so far and leaves the error here, to be thrown after it.
    let failure: { error: unknown } | undefined;
    /** Parses one line into the batch; returns the batch when it is full (or cut short by `failure`). */
    const take = (bytes: Buffer): InputRecord[] | undefined => {
      line++;
      if (discarding) {
        discarding = false;
        return undefined;
      }
      let record: InputRecord | SkippedRecord | undefined;
      try {
        record = parseLine(source, bytes, line);
      } catch (error) {
        failure = { error };
        return batch.length > 0 ? handOver() : undefined;
      }
      if (record === undefined || record instanceof SkippedRecord) return undefined;
      batch.push(record);
      batchChars += record.text.length + 16;
      if (batch.length < maxRecords && batchChars < maxChars) return undefined;
      return handOver();
    };
    try {
      for await (const chunk of stream as AsyncIterable<Buffer | string>) {
        const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        stats.bytes += buffer.length;
        let pos = 0;
        for (;;) {
          const nl = buffer.indexOf(0x0a, pos);
          if (nl < 0) {
            if (!discarding && pos < buffer.length) {
              pending.push(buffer.subarray(pos));
              pendingBytes += buffer.length - pos;
              if (pendingBytes > MAX_LINE_BYTES) {
                invalid(source, line + 1, `line longer than ${MAX_LINE_BYTES / (1024 * 1024)} MiB`);
                pending = [];
                pendingBytes = 0;
                discarding = true;
              }
            }
            break;
          }
          let bytes: Buffer;
          if (pendingBytes > 0) {
            pending.push(buffer.subarray(pos, nl));
            bytes = Buffer.concat(pending);
            pending = [];
            pendingBytes = 0;
          } else {
            bytes = buffer.subarray(pos, nl);
          }
          pos = nl + 1;
          const full = take(bytes);
          if (full !== undefined) yield full;
          if (failure !== undefined) throw failure.error;
        }
      }
    } catch (error) {
      // As for a bad line: the records read before the failure are still processed and written.
      const failed = error instanceof InputError ? error : fileError(source.name, error);
      if (batch.length > 0) yield handOver();
      throw failed;
    }
    if (pendingBytes > 0) {
      const full = take(Buffer.concat(pending));
      if (full !== undefined) yield full;
      if (failure !== undefined) throw failure.error;
    }
  }
  if (batch.length > 0) yield batch;
}

/** A whole input as one text (compare): a file, or stdin for `-`; `decoder.lastInvalid` tells of bad bytes. */
export function readWhole(name: string, decoder: TextDecoding): string {
  let bytes: Buffer;
  try {
    if (name === '-') bytes = fs.readFileSync(0);
    else {
      if (fs.statSync(name).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      bytes = fs.readFileSync(name);
    }
  } catch (error) {
    throw fileError(name === '-' ? '<stdin>' : name, error);
  }
  const text = decoder.decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

// The subcommands of `simhash-zh`. Each one streams its input in batches (see input.ts) and writes
// as it goes; only `cluster` holds every fingerprint, and `dedup` holds its index.
import {
  SimHash,
  SimHashIndex,
  Segmenter,
  cluster,
  nativeLoadError,
  toHex,
  type Bits,
  type SimHashOptions,
  type Token,
} from '../index';
import type { OptionSpec, ParsedArgs } from './args';
import { InputError, UsageError } from './errors';
import { readRecords, readWhole, type InputRecord, type InputStats, type RecordId } from './input';
import {
  BACKEND_SPEC,
  ENCODING_SPEC,
  FORMAT_SPEC,
  HELP_SPEC,
  INPUT_SPECS,
  MAX_DISTANCE_SPEC,
  PRESET_SPECS,
  PROGRESS_SPECS,
  STOP_WORDS_SPEC,
  USER_DICT_SPEC,
  backendOption,
  decoderOption,
  flag,
  inputOptions,
  maxDistance,
  outputFormat,
  pipelineFile,
  reporting,
  simhashOptions,
  stringOption,
  type Reporting,
} from './options';
import { Output, type OutputFormat } from './output';
import { Progress } from './progress';

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Usage lines, without the program name. */
  usage: string[];
  /** Paragraphs after the usage. */
  description: string;
  specs: readonly OptionSpec[];
  run(args: ParsedArgs): Promise<number>;
}

const HASHING_SPECS: readonly OptionSpec[] = [...PRESET_SPECS.slice(0, 2), BACKEND_SPEC, ...PRESET_SPECS.slice(2), USER_DICT_SPEC, STOP_WORDS_SPEC];

/** The options of a command that reads records: input, its own, hashing, output, progress, help (the help lists them in this order). */
function recordCommandSpecs(own: readonly OptionSpec[]): OptionSpec[] {
  return [...INPUT_SPECS, ...own, ...HASHING_SPECS, FORMAT_SPEC, ...PROGRESS_SPECS, HELP_SPEC];
}

/**
 * What compare, dedup and cluster have in common: SimHash options, --max-distance and --format,
 * checked in that order (so the first bad one is the one reported). --max-distance goes up to what
 * an index supports ('index'), or up to the fingerprint width where no index is built ('width').
 */
function nearDuplicateOptions(
  args: ParsedArgs,
  command: string,
  distanceLimit: 'index' | 'width',
): { options: SimHashOptions; k: number; format: OutputFormat } {
  const options = simhashOptions(args, command);
  const bits = options.bits ?? 64;
  const k = maxDistance(args, bits, command, distanceLimit === 'width' ? bits : undefined);
  return { options, k, format: outputFormat(args, command) };
}

function createSimHash(options: SimHashOptions): SimHash {
  try {
    return new SimHash(options);
  } catch (error) {
    // The native engine missing for --backend native, a dictionary that does not load.
    throw new InputError((error as Error).message, { cause: error });
  }
}

/**
 * Batches with their fingerprints (fingerprintMany's words). The native engine fingerprints a batch
 * on worker threads (split over the cores) while the next batch is read and parsed; two batches are
 * in flight at most, so memory stays bounded. The TS engine fingerprints on the main thread.
 */
async function* fingerprinted(simhash: SimHash, batches: AsyncIterable<InputRecord[]>): AsyncGenerator<[InputRecord[], BigUint64Array]> {
  const start = (batch: InputRecord[]): Promise<BigUint64Array> => {
    const texts = batch.map((record) => record.text);
    if (simhash.backend !== 'native') return Promise.resolve(simhash.fingerprintMany(texts));
    const promise = simhash.fingerprintManyAsync(texts);
    promise.catch(() => {}); // awaited below; this only keeps an early exit from reporting it unhandled
    return promise;
  };
  let pending: [InputRecord[], Promise<BigUint64Array>] | undefined;
  let failure: { error: unknown } | undefined;
  try {
    for await (const batch of batches) {
      const next: [InputRecord[], Promise<BigUint64Array>] = [batch, start(batch)];
      if (pending !== undefined) yield [pending[0], await pending[1]];
      pending = next;
    }
  } catch (error) {
    // Bad input: the batch in flight still goes out first, then the error.
    failure = { error };
  }
  if (pending !== undefined) yield [pending[0], await pending[1]];
  if (failure !== undefined) throw failure.error;
}

/** Fingerprint `i` of a fingerprintMany result. */
function fingerprintAt(words: BigUint64Array, i: number, bits: Bits): bigint {
  return bits === 64 ? words[i]! : words[2 * i]! | (words[2 * i + 1]! << 64n);
}

function secondsSince(start: number): string {
  return `${((Date.now() - start) / 1000).toFixed(1)} s`;
}

/** Progress, warnings and the summary on stderr. */
class Reporter {
  readonly progress: Progress;
  private readonly started = Date.now();
  constructor(
    private readonly mode: Reporting,
    private readonly command: string,
    readonly stats: InputStats,
  ) {
    this.progress = new Progress(process.stderr, mode.progress, command, stats);
  }
  /** After a batch of `n` records. */
  batch(n: number): void {
    this.stats.records += n;
    this.progress.tick();
  }
  /** Erases the bar; warns about skipped lines (always); writes the summary (when wanted). */
  finish(summary: string): void {
    this.progress.clear();
    const { skipped, firstSkipped, undecodable, firstUndecodable } = this.stats;
    if (skipped > 0) {
      process.stderr.write(`simhash-zh ${this.command}: skipped ${skipped} invalid line${skipped === 1 ? '' : 's'} (first: ${firstSkipped})\n`);
    }
    if (undecodable > 0) warnUndecodable(this.command, `${plural(undecodable, 'line')} (first: ${firstUndecodable})`, this.stats.encoding);
    if (this.mode.summary) process.stderr.write(`simhash-zh ${this.command}: ${summary} in ${secondsSince(this.started)}\n`);
  }
  /** Erases the bar before an error message. */
  abort(): void {
    this.progress.clear();
  }
}

/** Runs `body`; on an error, writes out what was produced before it, then erases the bar. */
async function withReporter<T>(reporter: Reporter, body: () => Promise<T>, out?: Output): Promise<T> {
  try {
    return await body();
  } catch (error) {
    try {
      await out?.flush();
    } catch {
      // the output is gone too; report the first error
    }
    reporter.abort();
    throw error;
  }
}

/** The warning for input whose bytes are not all valid in its encoding (`what`: a file, or lines). */
function warnUndecodable(command: string, what: string, encoding: string): void {
  const hint = encoding === 'utf-8' ? ' (a GBK or GB18030 file: --encoding gb18030; Big5: --encoding big5)' : '';
  process.stderr.write(`simhash-zh ${command}: ${what}: bytes that are not valid ${encoding}, read as U+FFFD${hint}\n`);
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

// ---- fingerprint -------------------------------------------------------------------------------

const fingerprintCommand: Command = {
  name: 'fingerprint',
  summary: 'the fingerprint (hex) of each record',
  usage: ['fingerprint [options] [FILE...]'],
  description:
    'Writes {"id","fingerprint"} per record (TSV: id, fingerprint), in input order, in constant memory.\n' +
    'Records are lines of text, or JSON objects with --jsonl; ids are line numbers unless --id names a field.',
  specs: recordCommandSpecs([]),
  async run(args) {
    const simhash = createSimHash(simhashOptions(args, this.name));
    const format = outputFormat(args, this.name);
    const { input, stats } = inputOptions(args, this.name);
    const out = new Output(process.stdout, format);
    const reporter = new Reporter(reporting(args), this.name, stats);
    await withReporter(reporter, async () => {
      for await (const [batch, words] of fingerprinted(simhash, readRecords(input, stats))) {
        for (let i = 0; i < batch.length; i++) {
          const { id } = batch[i]!;
          const fingerprint = toHex(fingerprintAt(words, i, simhash.bits), simhash.bits);
          await out.row({ id, fingerprint }, () => [id, fingerprint]);
        }
        reporter.batch(batch.length);
      }
      await out.flush();
    }, out);
    reporter.finish(plural(stats.records, 'record'));
    return 0;
  },
};

// ---- compare -----------------------------------------------------------------------------------

const compareCommand: Command = {
  name: 'compare',
  summary: 'the distance between two files (or two texts with --text)',
  usage: ['compare [options] FILE_A FILE_B', 'compare --text [options] TEXT_A TEXT_B'],
  description:
    'Fingerprints each file as one text (- reads stdin) and writes {"a","b","fingerprintA","fingerprintB",\n' +
    '"distance","similarity","similar"}: distance in bits, similarity = (bits - distance) / bits * 100,\n' +
    'similar = distance <= --max-distance. TSV: the same values in that order.',
  specs: [
    { name: 'text', type: 'boolean', help: 'the two arguments are the texts themselves' },
    ENCODING_SPEC,
    ...HASHING_SPECS,
    { ...MAX_DISTANCE_SPEC, help: 'the "similar" threshold in bits (default 3)' },
    FORMAT_SPEC,
    HELP_SPEC,
  ],
  async run(args) {
    const { options, k, format } = nearDuplicateOptions(args, this.name, 'width');
    if (args.positionals.length !== 2) {
      throw new UsageError(`compare takes two ${flag(args, 'text') ? 'texts' : 'files'}, got ${args.positionals.length}`, this.name);
    }
    const [a, b] = args.positionals as [string, string];
    if (!flag(args, 'text') && a === '-' && b === '-') throw new UsageError("stdin ('-') can be read only once", this.name);
    let texts = [a, b];
    if (!flag(args, 'text')) {
      const decoder = decoderOption(args, this.name);
      texts = [a, b].map((name) => {
        const text = readWhole(name, decoder);
        if (decoder.lastInvalid) warnUndecodable(this.name, name === '-' ? '<stdin>' : name, decoder.encoding);
        return text;
      });
    }
    const simhash = createSimHash(options);
    const [fa, fb] = texts.map((text) => simhash.fingerprint(text)) as [bigint, bigint];
    const distance = simhash.distance(fa, fb);
    const row = {
      a,
      b,
      fingerprintA: toHex(fa, simhash.bits),
      fingerprintB: toHex(fb, simhash.bits),
      distance,
      similarity: simhash.similarity(fa, fb),
      similar: distance <= k,
    };
    const out = new Output(process.stdout, format);
    await out.row(row, () => Object.values(row));
    await out.flush();
    return 0;
  },
};

// ---- dedup -------------------------------------------------------------------------------------

const dedupCommand: Command = {
  name: 'dedup',
  summary: 'drop near-duplicates: write the records kept (first wins)',
  usage: ['dedup [options] [FILE...]', 'dedup --report [options] [FILE...]'],
  description:
    'A record is dropped when an earlier kept record lies within --max-distance bits; the others are\n' +
    'written as read. With --report, writes {"id","duplicateOf","distance"} for each dropped record\n' +
    'instead (TSV: id, duplicateOf, distance): the nearest earlier kept record (ties: the earliest).\n' +
    'Streams: memory is the index of kept fingerprints (with --report, plus the kept ids).',
  specs: recordCommandSpecs([
    { name: 'report', type: 'boolean', help: 'write the dropped ids, the id each duplicates and the distance' },
    MAX_DISTANCE_SPEC,
  ]),
  async run(args) {
    const { options, k, format } = nearDuplicateOptions(args, this.name, 'index');
    const report = flag(args, 'report');
    if (format === 'tsv' && !report) {
      throw new UsageError('--format applies to --report; dedup writes the kept records as they were read', this.name);
    }
    const simhash = createSimHash(options);
    const { input, stats } = inputOptions(args, this.name);
    const index = new SimHashIndex({ bits: simhash.bits, maxDistance: k, backend: simhash.backend });
    // Index ids are kept[] positions; the record ids are remembered only to name them in a report.
    const keptIds: RecordId[] = [];
    let kept = 0;
    const out = new Output(process.stdout, format);
    const reporter = new Reporter(reporting(args), this.name, stats);
    await withReporter(reporter, async () => {
      for await (const [batch, words] of fingerprinted(simhash, readRecords(input, stats))) {
        for (let i = 0; i < batch.length; i++) {
          const record = batch[i]!;
          const fp = fingerprintAt(words, i, simhash.bits);
          const nearest = index.query(fp)[0];
          if (nearest === undefined) {
            index.add(kept++, fp);
            if (report) keptIds.push(record.id);
            else await out.raw(record.raw);
          } else if (report) {
            const duplicateOf = keptIds[nearest.id]!;
            await out.row({ id: record.id, duplicateOf, distance: nearest.distance }, () => [record.id, duplicateOf, nearest.distance]);
          }
        }
        reporter.batch(batch.length);
      }
      await out.flush();
    }, out);
    reporter.finish(`${plural(stats.records, 'record')}, ${kept.toLocaleString('en-US')} kept, ` +
      `${(stats.records - kept).toLocaleString('en-US')} near-duplicates dropped (max distance ${k})`);
    return 0;
  },
};

// ---- cluster -----------------------------------------------------------------------------------

const clusterCommand: Command = {
  name: 'cluster',
  summary: 'group near-duplicates: write the clusters',
  usage: ['cluster [options] [FILE...]'],
  description:
    'Clusters are the connected components of "within --max-distance bits": writes\n' +
    '{"cluster","size","ids"} per cluster of at least --min-size records (default 2), numbered from 1\n' +
    'in order of their first record; TSV: one line per member, cluster and id. Holds every\n' +
    'fingerprint of the input (8 bytes a record at 64 bits) and its id.',
  specs: recordCommandSpecs([
    MAX_DISTANCE_SPEC,
    { name: 'min-size', type: 'string', value: 'N', help: 'write clusters of at least N records (default 2; 1 for all)' },
  ]),
  async run(args) {
    const { options, k, format } = nearDuplicateOptions(args, this.name, 'index');
    const minSizeText = stringOption(args, 'min-size') ?? '2';
    if (!/^[1-9]\d*$/.test(minSizeText)) throw new UsageError(`--min-size must be a positive integer; got '${minSizeText}'`, this.name);
    const minSize = Number(minSizeText);
    const simhash = createSimHash(options);
    const { input, stats } = inputOptions(args, this.name);
    const w = simhash.bits / 64;
    let words = new BigUint64Array(1024 * w);
    const ids: RecordId[] = [];
    const reporter = new Reporter(reporting(args), this.name, stats);
    let written = 0;
    await withReporter(reporter, async () => {
      for await (const [batch, batchWords] of fingerprinted(simhash, readRecords(input, stats))) {
        const need = (ids.length + batch.length) * w;
        if (need > words.length) {
          const grown = new BigUint64Array(Math.max(need, words.length * 2));
          grown.set(words);
          words = grown;
        }
        words.set(batchWords, ids.length * w);
        for (const record of batch) ids.push(record.id);
        reporter.batch(batch.length);
      }
      let clusters: number[][];
      try {
        clusters = ids.length === 0 ? [] : cluster(words.subarray(0, ids.length * w), { bits: simhash.bits, maxDistance: k, backend: simhash.backend });
      } catch (error) {
        throw new InputError((error as Error).message, { cause: error });
      }
      const out = new Output(process.stdout, format);
      for (const members of clusters) {
        if (members.length < minSize) continue;
        const number = ++written;
        const memberIds = members.map((i) => ids[i]!);
        if (format === 'jsonl') await out.raw(JSON.stringify({ cluster: number, size: members.length, ids: memberIds }));
        else for (const id of memberIds) await out.row(null, () => [number, id]);
      }
      await out.flush();
    });
    reporter.finish(`${plural(stats.records, 'record')}, ${plural(written, 'cluster')} of ${minSize} or more (max distance ${k})`);
    return 0;
  },
};

// ---- segment -----------------------------------------------------------------------------------

const segmentCommand: Command = {
  name: 'segment',
  summary: 'the words of each record (jieba-compatible), or with --features what gets hashed',
  usage: ['segment [options] [FILE...]', 'segment --features [options] [FILE...]'],
  description:
    'Writes {"id","words"} per record: the words as jieba cuts them, whitespace and punctuation included\n' +
    '(TSV: id, then the words that are not whitespace, joined by spaces). With --features, writes\n' +
    '{"id","features":[{"token","kind","weight","hash"}]}: the features the fingerprint is made of, after\n' +
    'normalization and stop words (TSV: one line per feature: id, token, kind, weight, hash).',
  specs: recordCommandSpecs([
    { name: 'hmm', type: 'boolean', negatable: true, help: 'decode unknown runs with the HMM (cut: on by default; --features: off)' },
    { name: 'mode', type: 'string', value: 'default|longest', help: "jieba's maximum-probability route (default) or longest match" },
    { name: 'features', type: 'boolean', help: 'write the fingerprint features and weights instead of the words' },
  ]),
  async run(args) {
    const format = outputFormat(args, this.name);
    const features = flag(args, 'features');
    const hmm = args.options.get('hmm') as boolean | undefined;
    const mode = stringOption(args, 'mode');
    if (mode !== undefined && mode !== 'default' && mode !== 'longest') {
      throw new UsageError(`--mode must be one of default, longest; got '${mode}'`, this.name);
    }
    let simhash: SimHash | undefined;
    let segmenter: Segmenter | undefined;
    if (features) {
      if (mode !== undefined) throw new UsageError('--mode applies to words, not with --features', this.name);
      const options = simhashOptions(args, this.name);
      if (hmm !== undefined) {
        if (options.preset !== undefined) throw new UsageError(`--hmm does not apply to --preset ${options.preset}`, this.name);
        options.hmm = hmm;
      }
      simhash = createSimHash(options);
    } else {
      for (const name of ['preset', 'bits', 'html', 'sketch', 'keep-numbers', 'split-urls', 'stop-words']) {
        if (args.options.has(name)) throw new UsageError(`--${name} applies with --features only`, this.name);
      }
      const backend = backendOption(args, this.name);
      const userDict = pipelineFile(args, 'user-dict', this.name);
      try {
        segmenter = new Segmenter({ ...(backend === undefined ? {} : { backend }), hmm: hmm ?? true, ...(userDict === undefined ? {} : { userDict }) });
      } catch (error) {
        throw new InputError((error as Error).message, { cause: error });
      }
    }
    const { input, stats } = inputOptions(args, this.name);
    const out = new Output(process.stdout, format);
    const reporter = new Reporter(reporting(args), this.name, stats);
    await withReporter(reporter, async () => {
      for await (const batch of readRecords(input, stats)) {
        for (const { id, text } of batch) {
          if (simhash !== undefined) {
            const list = simhash.tokens(text).map((t) => ({ token: t.token, kind: t.kind, weight: t.weight, hash: toHex(t.hash, simhash!.bits) }));
            if (format === 'jsonl') await out.raw(JSON.stringify({ id, features: list }));
            else for (const f of list) await out.row(null, () => [id, f.token, f.kind, f.weight, f.hash]);
          } else {
            const words = segmenter!.cut(text, mode === undefined ? {} : { mode });
            await out.row({ id, words }, () => [id, words.filter((word) => word.trim() !== '').join(' ')]);
          }
        }
        reporter.batch(batch.length);
      }
      await out.flush();
    }, out);
    reporter.finish(plural(stats.records, 'record'));
    return 0;
  },
};

// ---- parity ------------------------------------------------------------------------------------

interface TokenView {
  token: string;
  kind: string;
  weight: number;
  hash: string;
}

function viewToken(token: Token | undefined, bits: Bits): TokenView | null {
  return token === undefined ? null : { token: token.token, kind: token.kind, weight: token.weight, hash: toHex(token.hash, bits) };
}

/** Index of the first token that differs, or -1. */
function firstTokenDifference(a: readonly Token[], b: readonly Token[]): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined || x.token !== y.token || x.kind !== y.kind || x.hash !== y.hash || !Object.is(x.weight, y.weight)) return i;
  }
  return -1;
}

const parityCommand: Command = {
  name: 'parity',
  summary: 'check that the native and the TypeScript engine agree on your data',
  usage: ['parity [options] [FILE...]'],
  description:
    'Fingerprints and tokenizes every record with both engines and writes each record where they\n' +
    'differ: {"id","fingerprint":{"native","js"},"tokens":{"index","native","js"}} (only the parts that\n' +
    'differ; TSV: id, native fingerprint, js fingerprint, first differing token index). None are\n' +
    'expected. The verdict goes to stderr; exit 0 when none differ, 1 when any do or when the native\n' +
    'engine is not available.',
  specs: [...INPUT_SPECS, ...PRESET_SPECS, USER_DICT_SPEC, STOP_WORDS_SPEC, FORMAT_SPEC, ...PROGRESS_SPECS, HELP_SPEC],
  async run(args) {
    const options = simhashOptions(args, this.name);
    const format = outputFormat(args, this.name);
    const { input, stats } = inputOptions(args, this.name);
    if (nativeLoadError !== undefined) {
      process.stderr.write(`simhash-zh parity: the native engine is not available, so there is nothing to compare it with ` +
        `(${nativeLoadError.message}); the TypeScript engine serves every call\n`);
      return 1;
    }
    const native = createSimHash({ ...options, backend: 'native' });
    const js = createSimHash({ ...options, backend: 'js' });
    const bits = native.bits;
    const out = new Output(process.stdout, format);
    const reporter = new Reporter({ ...reporting(args), summary: false }, this.name, stats);
    let differ = 0;
    await withReporter(reporter, async () => {
      for await (const batch of readRecords(input, stats)) {
        const texts = batch.map((record: InputRecord) => record.text);
        const nativeWords = native.fingerprintMany(texts);
        const jsWords = js.fingerprintMany(texts);
        for (let i = 0; i < batch.length; i++) {
          const { id, text } = batch[i]!;
          const fn = fingerprintAt(nativeWords, i, bits);
          const fj = fingerprintAt(jsWords, i, bits);
          const tn = native.tokens(text);
          const tj = js.tokens(text);
          const at = firstTokenDifference(tn, tj);
          if (fn === fj && at < 0) continue;
          differ++;
          const row: Record<string, unknown> = { id };
          if (fn !== fj) row.fingerprint = { native: toHex(fn, bits), js: toHex(fj, bits) };
          if (at >= 0) row.tokens = { index: at, native: viewToken(tn[at], bits), js: viewToken(tj[at], bits) };
          await out.row(row, () => [id, toHex(fn, bits), toHex(fj, bits), at < 0 ? '' : at]);
        }
        reporter.batch(batch.length);
      }
      await out.flush();
    }, out);
    reporter.finish('');
    const what = `${native.preset === 'default' ? 'default pipeline' : `preset ${native.preset}`}, ${bits} bits`;
    if (differ === 0) {
      process.stderr.write(`simhash-zh parity: ${plural(stats.records, 'record')}, no differences: native and js give the same fingerprints and tokens (${what})\n`);
      return 0;
    }
    process.stderr.write(`simhash-zh parity: ${differ.toLocaleString('en-US')} of ${plural(stats.records, 'record')} differ between native and js (${what}); please report it with the records above\n`);
    return 1;
  },
};

export const COMMANDS: readonly Command[] = [
  fingerprintCommand,
  compareCommand,
  dedupCommand,
  clusterCommand,
  segmentCommand,
  parityCommand,
];

'use strict';
// Shared by the benchmarks: the real-text corpus, timing, and table output.
const { isUtf8 } = require('node:buffer');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { npmDataFile } = require('../scripts/npm-data');

const WEICHENG = 'package/submodules/cppjieba/test/testdata/weicheng.utf8';

/**
 * The prose lines of the installed zh_CN and zh_TW man pages (troff requests dropped, font and
 * character escapes removed; lines with at least one CJK ideograph): short technical texts with
 * English terms, translated by Debian's and upstream translators.
 */
function manPageLines() {
  const { manPages } = require('./segment-corpora');
  const lines = [];
  for (const page of manPages().pages) {
    for (const line of page.split('\n')) {
      if (line.startsWith('.') || line.startsWith("'")) continue;
      const text = line.replace(/\\f(\(..|\[[^\]]*\]|.)/g, '').replace(/\\\(../g, ' ').replace(/\\-/g, '-').replace(/\\[ 0~]/g, ' ').replace(/\\[|/^,%&e]/g, '').trim();
      if (/[\u4e00-\u9fff]/.test(text)) lines.push(text);
    }
  }
  return lines;
}

/** The texts of the package's own sample, examples/news.jsonl, each line of them. */
function newsLines() {
  const { SAMPLE_PATH } = require('../dist/cli/input');
  return fs.readFileSync(SAMPLE_PATH, 'utf8').trim().split('\n').flatMap((line) => JSON.parse(line).text.split('\n'));
}

/** The zh_CN gettext messages installed (UI messages of 10-400 characters, mostly short). */
function gettextLines() {
  return require('./segment-corpora').gettextMessages();
}

// Named corpora for --corpus, besides files (bench/quality.js takes them too).
const NAMED_CORPORA = {
  man: { source: 'man pages (zh_CN, zh_TW) installed', lines: manPageLines },
  // pages: its records are pages' text, some with their markup (bench/quality reduces those to text).
  news: { source: 'examples/news.jsonl', lines: newsLines, pages: true },
  gettext: { source: 'zh_CN gettext messages installed (/usr/share/locale/zh_CN/LC_MESSAGES/*.mo)', lines: gettextLines },
};

const JSONL_FILE = /\.(?:jsonl|ndjson)$/i;
const HTML_FILE = /\.x?html?$/i;
const CORPUS_FILE = /\.(?:txt|text|utf8|md|jsonl|ndjson|x?html?)$/i;
/** The fields a JSONL record's text is taken from: the first one that holds a string. */
const TEXT_FIELDS = ['text', 'content', 'body'];

const isFileBehind = (link) => {
  try {
    return fs.statSync(link).isFile();
  } catch {
    return false;  // a dangling link
  }
};

/**
 * The files of a --corpus path: the file itself, or a directory's text, HTML and JSONL files
 * (by extension, recursively, in code-unit order of their paths; links to files included).
 */
function corpusFiles(file) {
  if (!fs.statSync(file).isDirectory()) return [file];
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      // A link to a file counts as the file (a link to a directory is not followed: no loops).
      else if ((entry.isFile() || (entry.isSymbolicLink() && isFileBehind(full))) && CORPUS_FILE.test(entry.name)) found.push(full);
    }
  };
  walk(file);
  found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (found.length === 0) throw new Error(`--corpus ${file}: no .txt, .html or .jsonl files in the directory`);
  return found;
}

/**
 * A corpus file's text, a BOM dropped: UTF-8, or else GB18030 (which reads GBK and GB2312 too,
 * as many Chinese corpora come), said on stderr; a file that is neither is an error rather than
 * noise to measure.
 */
function readCorpusText(file) {
  const bytes = fs.readFileSync(file);
  let text;
  if (isUtf8(bytes)) {
    text = bytes.toString('utf8');
  } else {
    try {
      text = new TextDecoder('gb18030', { fatal: true }).decode(bytes);
    } catch {
      throw new Error(`${file}: neither UTF-8 nor GB18030 text`);
    }
    process.stderr.write(`${file}: not UTF-8; read as GB18030\n`);
  }
  return text.replace(/^\uFEFF/, '');
}

/**
 * The records of a JSONL (.jsonl, .ndjson) corpus file, each its first string field of
 * TEXT_FIELDS (a record without one, or a line that is not JSON, is an error naming the line).
 */
function jsonlTexts(file) {
  const texts = [];
  readCorpusText(file).split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let record;
    try {
      record = JSON.parse(line);
    } catch (error) {
      throw new Error(`${file}:${i + 1}: not JSON (${error.message})`);
    }
    const field = record !== null && typeof record === 'object' ? TEXT_FIELDS.find((f) => typeof record[f] === 'string') : undefined;
    if (field === undefined) throw new Error(`${file}:${i + 1}: no string field ${TEXT_FIELDS.join(', ')}`);
    texts.push(record[field]);
  });
  return texts;
}

/**
 * Lines of real Chinese text: the novel 围城 from nodejieba's test data, or the --corpus
 * files (or `man`, `news`: NAMED_CORPORA). A --corpus path may be a directory (corpusFiles);
 * a JSONL record is one text, whatever its newlines; other files give a text per line.
 */
function corpusLines(files) {
  const sources = files && files.length ? files : [npmDataFile('nodejieba', WEICHENG)];
  const lines = [];
  const names = [];
  for (const file of sources) {
    const named = NAMED_CORPORA[file];
    const fileLines = named
      ? named.lines()
      : corpusFiles(file).flatMap((f) => (JSONL_FILE.test(f) ? jsonlTexts(f) : readCorpusText(f).split(/\r?\n/)));
    names.push(named ? named.source : path.relative(process.cwd(), file));
    for (const line of fileLines) {
      const trimmed = line.trim();
      if (trimmed) lines.push(trimmed);
    }
  }
  if (lines.length === 0) throw new Error(`no text in the corpus ${names.join(', ')}`);
  return { sources: names, lines };
}

/** Sentences of at most `max` characters cut from the lines (titles, posts). */
function shortTexts(lines, max = 64) {
  const out = [];
  for (const line of lines) {
    for (const sentence of line.split(/(?<=[。！？；])/)) {
      const text = sentence.trim();
      if (text.length >= 4) out.push(text.slice(0, max));
    }
  }
  return out;
}

const bytesOf = (texts) => texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);

/**
 * Before a measurement fn is called for at least WARM_SECONDS and WARM_CALLS calls: V8 optimizes
 * a function after tens of calls, and on a small corpus a call takes a millisecond or two (the TS
 * engine over the news sample ran at 12-14 MiB/s for its first twenty calls and 29 MiB/s from the
 * twenty-fifth on). Every case, peers included, is warmed alike.
 */
const WARM_SECONDS = 0.25;
const WARM_CALLS = 3;
/** A run repeats fn until it lasts at least this long, so that a fast call is not timed alone. */
const MIN_RUN_SECONDS = 0.02;

const secondsSince = (start) => Number(process.hrtime.bigint() - start) / 1e9;
/** Calls per run after a warm-up of `calls` calls since `start`: enough for MIN_RUN_SECONDS. */
const callsPerRun = (start, calls) => Math.max(1, Math.ceil(MIN_RUN_SECONDS / (secondsSince(start) / calls)));
const warmEnough = (start, calls) => calls >= WARM_CALLS && secondsSince(start) >= WARM_SECONDS;
const medianOf = (samples) => samples.sort((x, y) => x - y)[samples.length >> 1];

/**
 * Median seconds per call of fn over `runs` runs (each callsPerRun calls), after the warm-up.
 * Synchronous: timeAsync is the same for a function returning a promise (kept apart so that
 * a synchronous call is not timed with an await around it).
 */
function time(fn, runs = 5) {
  const start = process.hrtime.bigint();
  let calls = 0;
  for (; !warmEnough(start, calls); calls++) fn();
  const repeat = callsPerRun(start, calls);
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const runStart = process.hrtime.bigint();
    for (let k = 0; k < repeat; k++) fn();
    samples.push(secondsSince(runStart) / repeat);
  }
  return medianOf(samples);
}

async function timeAsync(fn, runs = 5) {
  const start = process.hrtime.bigint();
  let calls = 0;
  for (; !warmEnough(start, calls); calls++) await fn();
  const repeat = callsPerRun(start, calls);
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const runStart = process.hrtime.bigint();
    for (let k = 0; k < repeat; k++) await fn();
    samples.push(secondsSince(runStart) / repeat);
  }
  return medianOf(samples);
}

function machine() {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0] ? cpus[0].model.trim() : 'unknown CPU'}, Node ${process.version}, ${os.platform()}-${os.arch()}`;
}

function table(rows, columns) {
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (cells) => '| ' + cells.map((cell, i) => String(cell ?? '').padEnd(widths[i])).join(' | ') + ' |';
  return [line(columns), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...rows.map((r) => line(columns.map((c) => r[c])))].join('\n');
}

/** Writes `data` as JSON (`space` as JSON.stringify's) to `file`, creating its directory. */
function writeJsonFile(file, data, space = 2) {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(data, null, space) + '\n');
  return file;
}

/** Writes bench/results/NAME.json; returns its path. */
function writeJson(name, data) {
  return writeJsonFile(path.join(__dirname, 'results', `${name}.json`), data);
}

function argValues(flag) {
  const values = [];
  process.argv.forEach((arg, i) => {
    if (arg === flag && process.argv[i + 1]) values.push(process.argv[i + 1]);
  });
  return values;
}

module.exports = { NAMED_CORPORA, HTML_FILE, JSONL_FILE, corpusFiles, readCorpusText, jsonlTexts, corpusLines, shortTexts, bytesOf, time, timeAsync, machine, table, writeJson, writeJsonFile, argValues };

'use strict';
// Shared by the benchmarks: the real-text corpus, timing, and table output.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { npmDataFile } = require('../scripts/npm-data');

const WEICHENG = 'package/submodules/cppjieba/test/testdata/weicheng.utf8';

/** Lines of real Chinese text: the novel 围城 from nodejieba's test data, or --corpus files. */
function corpusLines(files) {
  const sources = files && files.length ? files : [npmDataFile('nodejieba', WEICHENG)];
  const lines = [];
  for (const file of sources) {
    for (const line of fs.readFileSync(file, 'utf8').split(/\r?\n/)) {
      const trimmed = line.trim();
      if (trimmed) lines.push(trimmed);
    }
  }
  return { sources: sources.map((file) => path.relative(process.cwd(), file)), lines };
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

/** Median seconds of `runs` calls of fn after one warm-up call. */
function time(fn, runs = 5) {
  fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1];
}

async function timeAsync(fn, runs = 5) {
  await fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1];
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

module.exports = { corpusLines, shortTexts, bytesOf, time, timeAsync, machine, table, writeJson, writeJsonFile, argValues };

#!/usr/bin/env node
// Compiles the default dictionary into dict/jieba.dict (one binary file that both
// engines read in place). Sources and pins: scripts/dict/sources.js.
//   node scripts/build-dict.js [--force] [--out FILE]
// Skips the work when dict/jieba.dict was built from the same inputs (stamp file).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { sourceFiles, sha } = require('./dict/sources');

const root = path.join(__dirname, '..');

function main(argv) {
  const force = argv.includes('--force');
  const outIndex = argv.indexOf('--out');
  const out = outIndex >= 0 ? path.resolve(argv[outIndex + 1]) : path.join(root, 'dict', 'jieba.dict');
  const started = process.hrtime.bigint();

  let builder;
  let format;
  try {
    builder = require(path.join(root, 'dist', 'js', 'dict-builder.js'));
    format = require(path.join(root, 'dist', 'dictionary.js'));
  } catch (error) {
    throw new Error('dist/ is missing: run `npm run build:ts` first', { cause: error });
  }
  const files = sourceFiles();
  const inputs = ['dict.txt', 'idf.txt', 'hmm_model.utf8', 'stop_words.utf8'].map((name) => fs.readFileSync(files[name]));
  const builderCode = ['dictionary.js', 'js/dict-builder.js'].map((f) => fs.readFileSync(path.join(root, 'dist', f)));
  const stampValue = sha('sha256', Buffer.concat([...inputs, ...builderCode]));
  const stampFile = out + '.stamp';
  if (!force && fs.existsSync(out) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stampValue) {
    console.log(`build:dict: ${path.relative(root, out)} is up to date`);
    return;
  }

  const [dictText, idfText, hmmText, stopText] = inputs.map((b) => b.toString('utf8'));
  const words = builder.parseJiebaDict(dictText, 'dict.txt').map(({ word, freq }) => ({ word, freq: freq ?? 0 }));
  const { idf, median } = builder.parseIdf(idfText);
  const bytes = builder.buildDictionary({
    words,
    idf,
    idfMedian: median,
    hmm: builder.parseHmmModel(hmmText),
    stopWords: builder.parseStopWords(stopText),
  });
  format.readDictionary(bytes); // validate what we wrote
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, out);
  fs.writeFileSync(stampFile, stampValue);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(`build:dict: wrote ${path.relative(root, out)} (${(bytes.length / 1048576).toFixed(2)} MiB, ` +
    `${words.length} words, ${idf.size} IDF values) in ${ms.toFixed(0)} ms`);
}

try {
  main(process.argv.slice(2));
} catch (error) {
  console.error(`build:dict failed: ${error.message}`);
  if (error.cause) console.error(`  cause: ${error.cause.message ?? error.cause}`);
  process.exit(1);
}

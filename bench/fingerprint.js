#!/usr/bin/env node
// bench/fingerprint: the full fingerprint pipeline against its peers, in one
// process on one corpus, in interleaved rounds. `node bench/fingerprint.js [--corpus FILE|man|news|gettext ...] [--rounds N] [--json FILE]`
// (man: the installed zh man pages' prose; news: examples/news.jsonl; default: 围城; FILE: a text per
// line, a .jsonl record's text/content/body field per record, or a directory of such files)
// (every number as JSON to FILE; default bench/results/fingerprint.json, which `npm run bench` reads)
'use strict';
const { SimHash } = require('..');
const { corpusLines, shortTexts, bytesOf, time, timeAsync, machine, table, writeJson, writeJsonFile, argValues } = require('./common');
const { typescriptDiagnostics } = require('./segment-corpora');

/** Mixed Chinese/English text nobody here wrote: TypeScript's zh-CN and zh-TW messages, joined into documents of about 1,500 characters. */
function mixedDocuments() {
  const docs = [];
  let doc = '';
  for (const message of typescriptDiagnostics()) {
    doc = doc ? `${doc} ${message}` : message;
    if (doc.length >= 1500) {
      docs.push(doc);
      doc = '';
    }
  }
  if (doc) docs.push(doc);
  return docs;
}

/**
 * The titles cases fingerprint at least this many titles per call: a small corpus's titles are
 * repeated, so that the batch is a large one (as the async target means) and not a measure of
 * waking two threads for a fraction of a millisecond. 围城 has more titles than this.
 */
const MIN_TITLE_BATCH = 8192;

/** Rounds of every case, interleaved; each case keeps its best round (the least disturbed by other load). */
const ROUNDS = Number(argValues('--rounds')[0] ?? 3);

async function main() {
  const { sources, lines } = corpusLines(argValues('--corpus'));
  const docs = lines;
  const distinctTitles = shortTexts(lines, 64);
  const copies = Math.max(1, Math.ceil(MIN_TITLE_BATCH / Math.max(1, distinctTitles.length)));
  const titles = Array.from({ length: copies }, () => distinctTitles).flat();
  const mixed = mixedDocuments();
  const mixedBytes = bytesOf(mixed);
  const docBytes = bytesOf(docs);
  const titleBytes = bytesOf(titles);
  const MIB = 1024 * 1024;  // rates and sizes in MiB (the JSON too)
  const results = { machine: machine(), rounds: ROUNDS, corpus: { sources, documents: docs.length, documentBytes: docBytes, titles: titles.length, distinctTitles: distinctTitles.length, minTitleBatch: MIN_TITLE_BATCH, titleBytes } };

  const { Jieba } = require('@node-rs/jieba');
  const { dict } = require('@node-rs/jieba/dict');
  const jieba = Jieba.withDict(dict);
  const SimHashJs = require('simhash-js').SimHash;
  const simhashJs = new SimHashJs();

  const jiebaCut = () => { for (const text of docs) jieba.cut(text, false); };
  const jiebaCutMixed = () => { for (const text of mixed) jieba.cut(text, false); };
  const simhashJsHash = () => { for (const text of docs) simhashJs.hash(text); };
  // Each case: a name and a function giving seconds for one measurement (median of its runs).
  const cases = [
    { key: 'jieba', run: async () => time(jiebaCut) },
    { key: 'jiebaMixed', run: async () => time(jiebaCutMixed) },
    { key: 'simhashJs', run: async () => time(simhashJsHash) },
  ];
  const configs = [];
  const rows = [];
  try {
    new SimHash(); // eslint-disable-line no-new
    configs.push({ name: 'default', options: {} });
  } catch (error) {
    rows.push({ case: 'default pipeline', rate: 'n/a', ratio: error.message });
  }
  configs.push({ name: 'preset SimHashChinese', options: { preset: 'SimHashChinese' } }, { name: 'preset mysimhash', options: { preset: 'mysimhash' } });
  const engines = new Map();
  for (const { name, options } of configs) {
    const native = new SimHash({ ...options, backend: 'native' });
    const js = new SimHash({ ...options, backend: 'js' });
    engines.set(name, { native, js });
    cases.push(
      { key: `${name}:native`, run: async () => time(() => native.fingerprintMany(docs)) },
      { key: `${name}:mixed`, run: async () => time(() => native.fingerprintMany(mixed)) },
      { key: `${name}:titles`, run: async () => time(() => native.fingerprintMany(titles)) },
      { key: `${name}:async`, run: () => timeAsync(() => native.fingerprintManyAsync(titles)) },
      { key: `${name}:js`, run: async () => time(() => js.fingerprintMany(docs), 3) },
    );
  }
  const best = new Map();
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of cases) {
      const seconds = await c.run();
      if (!best.has(c.key) || seconds < best.get(c.key)) best.set(c.key, seconds);
    }
  }

  // Paired: each peer and its simhash-zh engine timed alternately, once each, PAIRS times; the
  // median of the per-pair ratios is less moved by load that comes and goes than the best rounds.
  const PAIRS = 21;
  const once = (fn) => {
    const start = process.hrtime.bigint();
    fn();
    return Number(process.hrtime.bigint() - start);
  };
  const median = (values) => values.slice().sort((a, b) => a - b)[values.length >> 1];
  const paired = { nativeVsJieba: null, jsVsSimhashJs: null, mixedNativeVsJieba: null };
  if (engines.has('default')) {
    const { native, js } = engines.get('default');
    const nativeRatios = [];
    const jsRatios = [];
    const mixedRatios = [];
    for (let i = 0; i < PAIRS; i++) {
      nativeRatios.push(once(jiebaCut) / once(() => native.fingerprintMany(docs)));
      jsRatios.push(once(simhashJsHash) / once(() => js.fingerprintMany(docs)));
      mixedRatios.push(once(jiebaCutMixed) / once(() => native.fingerprintMany(mixed)));
    }
    paired.nativeVsJieba = median(nativeRatios);
    paired.jsVsSimhashJs = median(jsRatios);
    paired.mixedNativeVsJieba = median(mixedRatios);
  }
  results.paired = { pairs: PAIRS, ...paired };

  // The event loop while one fingerprintManyAsync batch runs: the longest gap between the ticks
  // of a 1 ms timer (median of 3 batches). The TS engine yields between slices of about 8 ms and
  // never splits a text, so its gap is at least the longest document's time alone.
  const longestGap = async (run) => {
    let last = performance.now();
    let gap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      if (now - last > gap) gap = now - last;
      last = now;
    }, 1);
    try {
      await run();
    } finally {
      clearInterval(timer);
    }
    return Math.max(gap, performance.now() - last);
  };
  const eventLoop = {};
  if (engines.has('default')) {
    const { native, js } = engines.get('default');
    const longestDoc = docs.reduce((a, b) => (b.length > a.length ? b : a), '');
    for (const [key, batch] of [['documents', docs], ['titles', titles]]) {
      for (const [engine, simhash] of [['native', native], ['js', js]]) {
        const gaps = [];
        for (let i = 0; i < 3; i++) gaps.push(await longestGap(() => simhash.fingerprintManyAsync(batch)));
        eventLoop[`${engine}:${key}`] = median(gaps);
      }
    }
    eventLoop['js:longestDocument'] = median([0, 1, 2].map(() => once(() => js.fingerprint(longestDoc)) / 1e6));
    eventLoop.longestDocumentChars = longestDoc.length;
  }
  results.eventLoop = eventLoop;

  // Rates are MiB/s here and in the JSON (bench/report.js shows MB/s).
  const mibPerSecond = (rate) => `${rate.toFixed(2)} MiB/s`;
  const jiebaRate = docBytes / MIB / best.get('jieba');
  const peerJsRate = docBytes / MIB / best.get('simhashJs');
  rows.unshift(
    { case: '@node-rs/jieba cut (HMM off), documents', rate: mibPerSecond(jiebaRate), ratio: '1.00 (peer)' },
    { case: 'simhash-js hash (32-bit), documents', rate: mibPerSecond(peerJsRate), ratio: '1.00 (peer)' },
  );
  for (const { name } of configs) {
    const nativeRate = docBytes / MIB / best.get(`${name}:native`);
    const oneCore = titles.length / best.get(`${name}:titles`);
    const allCores = titles.length / best.get(`${name}:async`);
    const jsRate = docBytes / MIB / best.get(`${name}:js`);
    rows.push(
      { case: `${name} native, documents`, rate: mibPerSecond(nativeRate), ratio: `${(nativeRate / jiebaRate).toFixed(2)}× jieba cut` },
      { case: `${name} native, titles ≤64 chars, one core`, rate: `${Math.round(oneCore).toLocaleString('en')} texts/s`, ratio: '' },
      { case: `${name} native async, titles, all cores`, rate: `${Math.round(allCores).toLocaleString('en')} texts/s`, ratio: `${(allCores / oneCore).toFixed(2)}× one core` },
      { case: `${name} TS engine, documents`, rate: mibPerSecond(jsRate), ratio: `${(jsRate / peerJsRate).toFixed(2)}× simhash-js` },
    );
    results[name] = { nativeMiBps: nativeRate, nativeVsJieba: nativeRate / jiebaRate, titlesPerSecond: oneCore, asyncTitlesPerSecond: allCores, asyncSpeedup: allCores / oneCore, jsMiBps: jsRate, jsVsSimhashJs: jsRate / peerJsRate };
  }
  const jiebaMixedRate = mixedBytes / MIB / best.get('jiebaMixed');
  if (engines.has('default')) {
    const mixedRate = mixedBytes / MIB / best.get('default:mixed');
    rows.push(
      { case: '@node-rs/jieba cut (HMM off), mixed documents', rate: mibPerSecond(jiebaMixedRate), ratio: '1.00 (peer)' },
      { case: 'default native, mixed documents', rate: mibPerSecond(mixedRate), ratio: `${(mixedRate / jiebaMixedRate).toFixed(2)}× jieba cut` },
    );
    results.mixedText = { documents: mixed.length, bytes: mixedBytes, jiebaMiBps: jiebaMixedRate, defaultNativeMiBps: mixedRate, defaultNativeVsJieba: mixedRate / jiebaMixedRate, pairedDefaultNativeVsJieba: paired.mixedNativeVsJieba };
  }
  results.jiebaMiBps = jiebaRate;
  results.simhashJsMiBps = peerJsRate;

  console.log(`bench/fingerprint — ${results.machine}`);
  console.log(`corpus: ${sources.join(', ')}: ${docs.length} documents (${(docBytes / MIB).toFixed(2)} MiB), ${titles.length} titles ≤64 chars (${(titleBytes / MIB).toFixed(2)} MiB${copies > 1 ? `: ${distinctTitles.length} distinct, each ${copies} times, for a batch of at least ${MIN_TITLE_BATCH.toLocaleString('en')}` : ''})`);
  console.log(`mixed documents: TypeScript's zh-CN and zh-TW diagnostic messages (Chinese with English terms and placeholders), ${mixed.length} documents of about 1,500 characters (${(mixedBytes / MIB).toFixed(2)} MiB)`);
  console.log(`${ROUNDS} rounds of every case, interleaved; a measurement is the median of 5 runs (3 for the TS engine), each of at least 20 ms of calls, after a warm-up of at least 0.25 s and 3 calls; each case keeps its best round; ratios against peers measured in this run\n`);
  console.log(table(rows, ['case', 'rate', 'ratio']));
  if (paired.nativeVsJieba !== null) {
    console.log(`\npaired (${PAIRS} alternations, median ratio): default native ${paired.nativeVsJieba.toFixed(2)}× jieba cut (mixed documents ${paired.mixedNativeVsJieba.toFixed(2)}×); default TS engine ${paired.jsVsSimhashJs.toFixed(2)}× simhash-js`);
  }
  if (eventLoop['native:documents'] !== undefined) {
    const ms = (key) => `${eventLoop[key].toFixed(1)} ms`;
    console.log(`\nevent loop during one fingerprintManyAsync batch (longest gap between the ticks of a 1 ms timer, median of 3 batches): native ${ms('native:documents')} (documents), ${ms('native:titles')} (titles); TS engine ${ms('js:documents')} (documents; its longest, ${eventLoop.longestDocumentChars.toLocaleString('en')} characters, takes ${ms('js:longestDocument')} alone), ${ms('js:titles')} (titles)`);
  }
  console.log('\ntargets (default pipeline): native ≥ 3× jieba cut; titles ≥ 300,000/s on one core; async ≥ 1.7× one core on 2 cores; TS ≥ 5× simhash-js');
  console.log(`reproduce: node bench/fingerprint.js${process.argv.slice(2).length ? ' ' + process.argv.slice(2).join(' ') : ''}`);
  const [jsonFile] = argValues('--json');
  console.log(`written: ${jsonFile ? writeJsonFile(jsonFile, results) : writeJson('fingerprint', results)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

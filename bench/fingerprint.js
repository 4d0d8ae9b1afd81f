#!/usr/bin/env node
// bench/fingerprint: the full fingerprint pipeline against its peers, in one
// process on one corpus. `node bench/fingerprint.js [--corpus FILE ...]`
'use strict';
const { SimHash } = require('..');
const { corpusLines, shortTexts, bytesOf, time, timeAsync, machine, table, writeJson, argValues } = require('./common');

async function main() {
  const { sources, lines } = corpusLines(argValues('--corpus'));
  const docs = lines;
  const titles = shortTexts(lines, 64);
  const docBytes = bytesOf(docs);
  const titleBytes = bytesOf(titles);
  const MB = 1024 * 1024;
  const rows = [];
  const results = { machine: machine(), corpus: { sources, documents: docs.length, documentBytes: docBytes, titles: titles.length, titleBytes } };

  const { Jieba } = require('@node-rs/jieba');
  const { dict } = require('@node-rs/jieba/dict');
  const jieba = Jieba.withDict(dict);
  const jiebaSeconds = time(() => { for (const text of docs) jieba.cut(text, false); });
  const jiebaRate = docBytes / MB / jiebaSeconds;
  rows.push({ case: '@node-rs/jieba cut (HMM off), documents', rate: `${jiebaRate.toFixed(2)} MB/s`, ratio: '1.00 (peer)' });

  const SimHashJs = require('simhash-js').SimHash;
  const simhashJs = new SimHashJs();
  const peerJsSeconds = time(() => { for (const text of docs) simhashJs.hash(text); });
  const peerJsRate = docBytes / MB / peerJsSeconds;
  rows.push({ case: 'simhash-js hash (32-bit), documents', rate: `${peerJsRate.toFixed(2)} MB/s`, ratio: '1.00 (peer)' });

  const configs = [];
  try {
    configs.push({ name: 'default', options: {} });
    new SimHash(); // eslint-disable-line no-new
  } catch (error) {
    configs.pop();
    rows.push({ case: 'default pipeline', rate: 'n/a', ratio: error.message });
  }
  configs.push({ name: 'preset SimHashChinese', options: { preset: 'SimHashChinese' } }, { name: 'preset mysimhash', options: { preset: 'mysimhash' } });

  for (const { name, options } of configs) {
    const native = new SimHash({ ...options, backend: 'native' });
    const js = new SimHash({ ...options, backend: 'js' });
    const nativeRate = docBytes / MB / time(() => native.fingerprintMany(docs));
    rows.push({ case: `${name} native, documents`, rate: `${nativeRate.toFixed(2)} MB/s`, ratio: `${(nativeRate / jiebaRate).toFixed(2)}× jieba cut` });
    const oneCore = titles.length / time(() => native.fingerprintMany(titles));
    rows.push({ case: `${name} native, titles ≤64 chars, one core`, rate: `${Math.round(oneCore).toLocaleString('en')} texts/s`, ratio: '' });
    const allCores = titles.length / (await timeAsync(() => native.fingerprintManyAsync(titles)));
    rows.push({ case: `${name} native async, titles, all cores`, rate: `${Math.round(allCores).toLocaleString('en')} texts/s`, ratio: `${(allCores / oneCore).toFixed(2)}× one core` });
    const jsRate = docBytes / MB / time(() => js.fingerprintMany(docs), 3);
    rows.push({ case: `${name} TS engine, documents`, rate: `${jsRate.toFixed(2)} MB/s`, ratio: `${(jsRate / peerJsRate).toFixed(2)}× simhash-js` });
    results[name] = { nativeMBps: nativeRate, nativeVsJieba: nativeRate / jiebaRate, titlesPerSecond: oneCore, asyncTitlesPerSecond: allCores, asyncSpeedup: allCores / oneCore, jsMBps: jsRate, jsVsSimhashJs: jsRate / peerJsRate };
  }
  results.jiebaMBps = jiebaRate;
  results.simhashJsMBps = peerJsRate;

  console.log(`bench/fingerprint — ${results.machine}`);
  console.log(`corpus: ${sources.join(', ')}: ${docs.length} documents (${(docBytes / MB).toFixed(2)} MB), ${titles.length} titles ≤64 chars (${(titleBytes / MB).toFixed(2)} MB)`);
  console.log('median of 5 runs after a warm-up (3 for the TS engine); ratios against peers measured in this run\n');
  console.log(table(rows, ['case', 'rate', 'ratio']));
  console.log('\ntargets (default pipeline): native ≥ 3× jieba cut; titles ≥ 300,000/s on one core; async ≥ 1.7× one core on 2 cores; TS ≥ 5× simhash-js');
  console.log(`reproduce: node bench/fingerprint.js${process.argv.slice(2).length ? ' ' + process.argv.slice(2).join(' ') : ''}`);
  console.log(`written: ${writeJson('fingerprint', results)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

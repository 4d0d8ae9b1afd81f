#!/usr/bin/env node
// The training run of a profile-guided build (scripts/build-pgo.js): the addon's main paths
// on the sample shipped with the package (examples/news.jsonl), one thread, a few seconds.
// It trains the compiler's branch and layout choices only: results do not depend on it.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const { SimHash, Segmenter, SimHashIndex, backend } = require(root);
const { SAMPLE_PATH } = require(path.join(root, 'dist', 'cli', 'input'));
if (backend !== 'native') {
  console.error('pgo-train: the native addon did not load');
  process.exit(1);
}

const texts = [];
for (const line of fs.readFileSync(SAMPLE_PATH, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const record = JSON.parse(line);
  for (const value of Object.values(record)) if (typeof value === 'string') texts.push(value);
}
// Documents (the sample's texts joined), titles (their first clauses) and markup.
const documents = [];
for (let i = 0; i < texts.length; i += 8) documents.push(texts.slice(i, i + 8).join('\n'));
const titles = texts.map((text) => text.slice(0, 40));
const pages = documents.map((text) => `<html><body><div class="a">${text.replace(/\n/g, '</p><p>')}</div><script>x()</script></body></html>`);
const all = [...documents, ...titles, ...pages];

const configs = [{}, { bits: 128 }, { sketch: 'simhash' }, { hmm: true }, { weighting: 'tf' }, { features: 'words' }];
for (const config of configs) {
  const simhash = new SimHash(config);
  const rounds = Object.keys(config).length === 0 ? 300 : 10;
  for (let round = 0; round < rounds; round++) simhash.fingerprintMany(all);
  for (const text of all.slice(0, 50)) simhash.tokens(text);
}
for (const preset of ['SimHashChinese', 'mysimhash']) {
  const simhash = new SimHash({ preset });
  for (let round = 0; round < 10; round++) simhash.fingerprintMany(all);
}
const segmenter = new Segmenter();
for (let round = 0; round < 10; round++) for (const text of all) segmenter.cut(text);
const fingerprints = new SimHash().fingerprintMany(all);
const ids = Array.from(fingerprints, (_, i) => i);
for (let round = 0; round < 5; round++) {
  const index = new SimHashIndex();
  index.addMany(ids, fingerprints);
  index.queryMany(fingerprints);
}

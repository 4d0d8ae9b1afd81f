#!/usr/bin/env node
// bench/quality-ceiling: how much of the quality benchmark's recall at k is left to win by
// hashing, and how much only by other features or weights. For each positive pair it
// takes the similarity of the two texts' weighted feature vectors (SimHash#tokens) and the
// chance that an ideal sketch of the method's kind and width puts them within k: the angle
// for sketch 'simhash', the probability Jaccard for 'minhash' (bench/quality/ceiling.js).
//   node bench/quality-ceiling.js [--k K] [--corpus FILE ...] [--config JSON ...] [--bases N] [--seed S] [--json OUT]
'use strict';
const { writeJsonFile } = require('./common');
const quality = require('./quality');
const corpus = require('./quality/corpus');
const metrics = require('./quality/metrics');
const methodsLib = require('./quality/methods');
const variantsLib = require('./quality/variants');
const { featureVector, ceilingForSet } = require('./quality/ceiling');

const SET_TITLES = { documents: 'Documents', short: 'Short texts' };
/** Kinds in the order bench/quality.js reports them. */
const kindRank = (kind) => (variantsLib.KINDS.includes(kind) ? variantsLib.KINDS.indexOf(kind) : variantsLib.KINDS.length);

/** Ideal and measured recall at k of the default pipeline and of each extra configuration. */
function runCeiling({ k = quality.TARGETS.k, configs = [], ...options } = {}) {
  const { sets } = quality.buildSets(options);
  const methods = [{ name: 'default', options: {} }, ...configs.map((c) => ({ name: methodsLib.configName(c), options: c }))];
  const results = [];
  for (const { name, options: simhashOptions } of methods) {
    const method = methodsLib.fromSimHash(name, simhashOptions);
    if (!method.available) {
      results.push({ name, options: simhashOptions, available: false, error: method.error });
      continue;
    }
    const entry = { name, options: simhashOptions, available: true, bits: method.bits, sets: {} };
    for (const setName of corpus.SETS) {
      const set = sets[setName];
      if (set.bases.length < 2) continue; // as bench/quality.js: no negatives, no score
      const texts = set.bases.map((b) => b.text).concat(set.variants.map((v) => v.text));
      const words = method.fingerprintWords(texts);
      const wordsPerText = method.bits / 32;
      const n = set.bases.length;
      const distances = set.variants.map((v, i) => metrics.hamming(words, wordsPerText, v.base, n + i));
      const vectors = texts.map((text) => featureVector(method.tokens(text)));
      const sketch = simhashOptions.sketch === 'simhash' ? 'simhash' : 'minhash';
      entry.sets[setName] = ceilingForSet({ set, vectors, distances, bits: method.bits, k, sketch });
    }
    results.push(entry);
  }
  return { benchmark: 'simhash-zh quality ceiling', k, seed: options.seed ?? quality.DEFAULTS.seed, methods: results };
}

function formatCeiling(result, command) {
  const lines = [];
  const available = result.methods.filter((m) => m.available);
  lines.push(`bench/quality-ceiling — recall at k = ${result.k}: an ideal sketch on each method's features and weights, against the measured recall`);
  lines.push('(sketch minhash: each bit differs with probability (1 - J) x 3/8, J the probability Jaccard of the weighted feature vectors;');
  lines.push(' sketch simhash: with probability θ/π, θ the angle between them)');
  for (const m of result.methods.filter((x) => !x.available)) lines.push(`${m.name}: not available (${m.error})`);
  const width = Math.max(16, ...available.map((m) => m.name.length));
  for (const setName of corpus.SETS) {
    if (available.length === 0 || !available[0].sets[setName]) continue;
    const first = available[0].sets[setName];
    lines.push('', `== ${SET_TITLES[setName]}: ${first.positives} positive pairs`);
    lines.push(`  ${'kind'.padEnd(12)} | ${available.map((m) => m.name.padEnd(width)).join(' | ')}`);
    lines.push(`  ${''.padEnd(12)} | ${available.map(() => 'ideal   measured'.padEnd(width)).join(' | ')}`);
    const row = (label, pick) => lines.push(`  ${label.padEnd(12)} | ${available.map((m) => {
      const { ideal, measured } = pick(m.sets[setName]);
      return `${ideal.toFixed(3)}   ${measured.toFixed(3)}`.padEnd(width);
    }).join(' | ')}`);
    row('all', (s) => s);
    const kinds = Object.keys(first.kinds).sort((a, b) => kindRank(a) - kindRank(b));
    for (const kind of kinds) row(kind, (s) => s.kinds[kind]);
  }
  lines.push('', 'F1 >= 0.90 needs recall >= 0.818 even at precision 1.00. Where the ideal recall is far below that, no',
    'sketch of these features and weights at this bit rate gets there: a lower rate pulls unrelated texts closer too.');
  lines.push(`Reproduce: ${command}`);
  return lines.join('\n');
}

function main(argv = process.argv.slice(2)) {
  const rest = [];
  let k = quality.TARGETS.k;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] !== '--k') {
      rest.push(argv[i]);
      continue;
    }
    k = Number(argv[++i]);
    if (!Number.isInteger(k) || k < 0 || k > 128) {
      console.error('--k must be an integer from 0 to 128');
      return 2;
    }
  }
  let opts;
  try {
    opts = quality.parseArgs(rest);
  } catch (err) {
    console.error(err.message.replace('bench/quality.js', 'bench/quality-ceiling.js [--k K]'));
    return 2;
  }
  if (opts.help) {
    console.log('usage: node bench/quality-ceiling.js [--k K] [--corpus FILE ...] [--config JSON ...] [--bases N] [--seed S] [--json OUT]');
    return 0;
  }
  const missing = quality.missingCorpusFile(opts.corpus);
  if (missing) {
    console.error(missing);
    return 2;
  }
  const result = runCeiling({ ...opts, k });
  const command = quality.reproduceCommand({
    script: 'bench/quality-ceiling.js',
    scriptArgs: k === quality.TARGETS.k ? [] : ['--k', String(k)],
    corpusArgs: opts.corpus,
    configs: opts.configs,
    bases: opts.bases,
    seed: opts.seed,
    json: opts.json,
  });
  if (opts.json) writeJsonFile(opts.json, { ...result, command }, 1);
  console.log(formatCeiling(result, command));
  return 0;
}

module.exports = { runCeiling, formatCeiling };

if (require.main === module) process.exitCode = main();

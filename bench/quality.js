#!/usr/bin/env node
'use strict';
// Quality benchmark: how well each fingerprint separates near-duplicates of real
// Chinese text from different texts.
//
//   node bench/quality.js [--corpus FILE ...] [--config JSON ...] [--bases N] [--seed S] [--json OUT]
//
// Bases are cut from real text (by default from pinned registry tarballs), each gets
// one variant per kind of change a crawler meets, positives are (base, variant) pairs,
// negatives all pairs of different bases. For every method it reports precision,
// recall and F1 of "duplicate iff Hamming distance <= k" for k = 0..16, per set and
// per variant kind. See bench/quality/*.js for the parts.
const fs = require('node:fs');
const path = require('node:path');
const { writeJsonFile } = require('./common');
const corpus = require('./quality/corpus');
const variantsLib = require('./quality/variants');
const metrics = require('./quality/metrics');
const methodsLib = require('./quality/methods');

const K_MAX = 16;
const DEFAULTS = { bases: 400, seed: 1 };

/** The issue's targets (64-bit fingerprints). */
const TARGETS = {
  k: 3,
  documentsF1AtK: 0.9,
  documentsBestF1: 0.97,
  shortF1AtK: 0.9,
  demoSimilarMaxDistance: 6,
  demoDistinctMinDistance: 20,
};

/** The C++ seed's demo texts. */
const DEMO = {
  text1: 'C++ SimHash算法实现 高性能中文文本相似度检测与去重',
  text2: 'C++ SimHash算法实现 高性能中文文本查重与相似度检测（轻微优化）',
  text3: 'Redis缓存高并发优化 后端服务性能调优实战教程',
};

const SET_TITLES = { documents: 'Documents', short: 'Short texts' };

function lengthStats(texts) {
  const lengths = texts.map((t) => [...t].length).sort((a, b) => a - b);
  if (lengths.length === 0) return { count: 0 };
  const at = (q) => lengths[Math.min(lengths.length - 1, Math.floor(q * lengths.length))];
  return {
    count: lengths.length,
    min: lengths[0],
    p25: at(0.25),
    median: at(0.5),
    p75: at(0.75),
    max: lengths[lengths.length - 1],
    mean: Math.round(lengths.reduce((a, b) => a + b, 0) / lengths.length),
    total: lengths.reduce((a, b) => a + b, 0),
  };
}

function shellQuote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command line that reproduces a run with every setting spelled out; `script` and its own
 * leading `scriptArgs` for another script that takes these options (bench/quality-ceiling.js).
 */
function reproduceCommand({ corpusArgs, configs, bases, seed, json, script = 'bench/quality.js', scriptArgs = [] }) {
  const args = ['node', script, ...scriptArgs];
  for (const c of corpusArgs || []) args.push('--corpus', c);
  for (const c of configs || []) args.push('--config', JSON.stringify(c));
  args.push('--bases', String(bases), '--seed', String(seed));
  if (json) args.push('--json', json);
  return args.map(shellQuote).join(' ');
}

/**
 * Runs the benchmark and returns every number (what --json writes).
 *   corpus:  ['FILE' | 'documents:FILE' | 'short:FILE', ...]  (default: the pinned real-text corpus)
 *   sources: [{ text | file, label, format, sets }]           (instead of corpus, e.g. for tests)
 *   configs: [SimHash options, ...]   extra "default {...}" methods
 *   methods: [method, ...]            replace the standard methods (tests)
 *   bases, seed, kinds, presets, peers, log (a function for progress lines)
 */
function runQualityBench(options = {}) {
  const started = process.hrtime.bigint();
  const seed = options.seed ?? DEFAULTS.seed;
  const bases = options.bases ?? DEFAULTS.bases;
  const configs = options.configs || [];
  const kinds = options.kinds || variantsLib.KINDS;
  const groups = variantsLib.reportGroups(kinds);
  const log = options.log || (() => {});

  const { built, sets } = buildSets(options);
  const corpusSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  log(`corpus built in ${corpusSeconds.toFixed(2)} s`);

  const methods = options.methods || methodsLib.standardMethods({
    configs,
    presets: options.presets !== false,
    peers: options.peers !== false,
  });

  const results = [];
  for (const method of methods) {
    if (!method.available) {
      results.push({ name: method.name, options: method.options, available: false, error: method.error });
      log(`${method.name}: not available (${method.error})`);
      continue;
    }
    const entry = {
      name: method.name,
      options: method.options,
      available: true,
      bits: method.bits,
      backend: method.backend,
      wordsPerText: method.bits / 32,
      sets: {},
      fingerprintSeconds: {},
    };
    for (const name of corpus.SETS) {
      const set = sets[name];
      if (set.bases.length < 2) continue;
      const texts = set.bases.map((b) => b.text).concat(set.variants.map((v) => v.text));
      const t0 = process.hrtime.bigint();
      const words = method.fingerprintWords(texts);
      entry.fingerprintSeconds[name] = Number(process.hrtime.bigint() - t0) / 1e9;
      entry.sets[name] = metrics.evaluateSet({ set, words, wordsPerText: entry.wordsPerText, bits: method.bits, groups, kMax: K_MAX });
    }
    const demoWords = method.fingerprintWords([DEMO.text1, DEMO.text2, DEMO.text3]);
    entry.demo = {
      text1text2: metrics.hamming(demoWords, entry.wordsPerText, 0, 1),
      text1text3: metrics.hamming(demoWords, entry.wordsPerText, 0, 2),
    };
    entry.targets = checkTargets(entry);
    results.push(entry);
    log(`${method.name}: done`);
  }

  const corpusArgs = options.sources ? null : options.corpus || [];
  return {
    benchmark: 'simhash-zh quality',
    version: 1,
    seed,
    basesPerSet: bases,
    kMax: K_MAX,
    targets: TARGETS,
    command: options.sources ? null : reproduceCommand({ corpusArgs, configs, bases, seed }),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    corpus: describeCorpus(built, sets, kinds, groups),
    methods: results,
    seconds: { corpus: corpusSeconds, total: Number(process.hrtime.bigint() - started) / 1e9 },
  };
}

/**
 * The bases and variants of both sets, with their texts (for inspecting what a method
 * misses). Same options as runQualityBench.
 */
function buildSets(options = {}) {
  const seed = options.seed ?? DEFAULTS.seed;
  const bases = options.bases ?? DEFAULTS.bases;
  const kinds = options.kinds || variantsLib.KINDS;
  let sources = options.sources;
  if (!sources) sources = options.corpus && options.corpus.length ? options.corpus.map(corpus.parseCorpusArg) : corpus.defaultSources();
  const built = corpus.buildCorpus({ sources, seed, bases, limits: options.limits || corpus.DEFAULT_LIMITS });
  const sets = {};
  for (const name of corpus.SETS) {
    const set = built.sets[name];
    const { variants, skipped } = variantsLib.makeVariants(name, set.bases, { seed, kinds });
    sets[name] = { ...set, variants, skipped };
  }
  return { built, sets };
}

const sourceName = (s) => (s.file ? path.basename(s.file) : s.label);

function describeCorpus(built, sets, kinds, groups) {
  const out = {
    sources: built.sources.map(({ label, file, format, characters, paragraphs, sets: roles, candidates }) => ({
      label, file: file ? path.relative(process.cwd(), file) : null, format, characters, paragraphs, sets: roles, candidates,
    })),
    kinds: Object.fromEntries(kinds.map((k) => [k, variantsLib.KIND_DESCRIPTIONS[k]])),
    groups,
    sets: {},
  };
  for (const name of corpus.SETS) {
    const set = sets[name];
    const n = set.bases.length;
    const perSource = {};
    for (const b of set.bases) perSource[b.source] = (perSource[b.source] || 0) + 1;
    const perKind = {};
    for (const v of set.variants) {
      perKind[v.kind] = (perKind[v.kind] || 0) + 1;
      if (v.detail) perKind[`${v.kind}/${v.detail}`] = (perKind[`${v.kind}/${v.detail}`] || 0) + 1;
    }
    out.sets[name] = {
      limits: set.limits,
      candidates: set.candidates,
      examined: set.examined,
      duplicatesDropped: set.duplicatesDropped,
      overlappingDropped: set.overlappingDropped,
      bases: n,
      basesPerSource: Object.fromEntries(Object.entries(perSource).map(([i, c]) => [sourceName(built.sources[i]), c])),
      variants: set.variants.length,
      variantsPerKind: perKind,
      skippedPerKind: set.skipped,
      positives: set.variants.length,
      negatives: (n * (n - 1)) / 2,
      baseLength: lengthStats(set.bases.map((b) => b.text)),
      variantLength: lengthStats(set.variants.map((v) => v.text)),
    };
  }
  return out;
}

function checkTargets(entry) {
  const at = (set) => entry.sets[set] && entry.sets[set].curve[TARGETS.k];
  const result = (value, met) => ({ value, met });
  const docs = at('documents');
  const short = at('short');
  return {
    documentsF1AtK: docs ? result(docs.f1, docs.f1 >= TARGETS.documentsF1AtK) : null,
    documentsBestF1: entry.sets.documents ? result(entry.sets.documents.best.f1, entry.sets.documents.best.f1 >= TARGETS.documentsBestF1) : null,
    shortF1AtK: short ? result(short.f1, short.f1 >= TARGETS.shortF1AtK) : null,
    demoSimilar: result(entry.demo.text1text2, entry.demo.text1text2 <= TARGETS.demoSimilarMaxDistance),
    demoDistinct: result(entry.demo.text1text3, entry.demo.text1text3 >= TARGETS.demoDistinctMinDistance),
  };
}

// ---- report ---------------------------------------------------------------

const fmt = (x, digits = 3) => (x === null || x === undefined ? '  -  ' : x.toFixed(digits));
const int = (x) => x.toLocaleString('en-US');
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

function methodLabel(m) {
  const width = m.bits !== 64 ? ` (${m.bits}-bit)` : '';
  return m.name + width;
}

function formatReport(result) {
  const lines = [];
  const out = (s = '') => lines.push(s);
  const available = result.methods.filter((m) => m.available);
  const missing = result.methods.filter((m) => !m.available);

  out('simhash-zh quality benchmark: near-duplicate detection on real Chinese text');
  out('='.repeat(78));
  out('Corpus sources:');
  for (const s of result.corpus.sources) {
    const roles = Object.entries(s.candidates).map(([k, v]) => `${v} ${k} candidates`).join(', ');
    out(`  - ${s.label}`);
    out(`      ${int(s.characters)} characters, ${s.paragraphs} lines; ${roles}${s.file ? `; ${s.file}` : ''}`);
  }
  out(`Seed ${result.seed}; at most ${result.basesPerSet} bases per set; identical bases dropped.`);
  out('Variant kinds (one change each):');
  for (const [k, d] of Object.entries(result.corpus.kinds)) out(`  ${pad(k, 14)} ${d}`);
  out('Positives: (base, variant) pairs. Negatives: all pairs of different bases.');
  out('"Duplicate iff distance <= k". P = precision, R = recall; P is "-" where nothing is flagged.');
  if (missing.length) {
    out('Not available:');
    for (const m of missing) out(`  - ${m.name}: ${m.error}`);
  }

  for (const set of Object.keys(result.corpus.sets)) {
    const c = result.corpus.sets[set];
    const L = c.baseLength;
    out();
    out(`== ${SET_TITLES[set]} (${c.limits.min}–${c.limits.max} characters) ${'='.repeat(40)}`);
    if (c.bases < 2) {
      out('  fewer than two bases: skipped');
      continue;
    }
    out(`  ${c.bases} bases: ${Object.entries(c.basesPerSource).map(([l, n]) => `${n} from ${l}`).join(', ')}`);
    out(`  ${c.candidates} candidate pieces, ${c.examined} examined: ${c.duplicatesDropped} identical and ${c.overlappingDropped} overlapping (>= 20% shared 12-character shingles) dropped`);
    out(`  base length: min ${L.min}, quartiles ${L.p25}/${L.median}/${L.p75}, max ${L.max}, mean ${L.mean} characters`);
    const V = c.variantLength;
    out(`  ${int(c.variants)} variants (length min ${V.min}, median ${V.median}, max ${V.max}) = ${int(c.positives)} positive pairs; ${int(c.negatives)} negative pairs`);
    const skipped = Object.entries(c.skippedPerKind).filter(([, n]) => n > 0);
    if (skipped.length) out(`  kinds not applicable to some bases (skipped): ${skipped.map(([k, n]) => `${k} ${n}`).join(', ')}`);
    if (available.length === 0) continue;

    const colW = 20;
    out();
    out(pad('  k', 6) + available.map((m) => '| ' + pad(methodLabel(m), colW - 2)).join(''));
    out(pad('', 6) + available.map(() => '| ' + pad('  P     R     F1', colW - 2)).join(''));
    for (let k = 0; k <= result.kMax; k++) {
      const row = available.map((m) => {
        const p = m.sets[set].curve[k];
        return '| ' + pad(`${fmt(p.precision, 2).padStart(4)}  ${fmt(p.recall, 2)}  ${fmt(p.f1, 3)}`, colW - 2);
      });
      out(pad(`  ${k}`, 6) + row.join(''));
    }
    out(pad('  best', 6) + available.map((m) => {
      const b = m.sets[set].best;
      return '| ' + pad(`F1 ${fmt(b.f1)} at k=${b.k}`, colW - 2);
    }).join(''));
    out();
    const kindW = 30;
    out(pad(`  recall@k=${TARGETS.k} [median d]`, kindW) + available.map((m) => '| ' + pad(methodLabel(m), colW - 2)).join(''));
    for (const kind of result.corpus.groups) {
      const count = c.variantsPerKind[kind] || 0;
      const label = kind.includes('/') ? `    ${kind.split('/')[1]}` : kind;
      out(pad(`  ${label} (${count})`, kindW) + available.map((m) => {
        const s = m.sets[set].kinds[kind];
        return '| ' + pad(s.count ? `${fmt(s.recall[TARGETS.k], 2)} [${s.median}]` : '-', colW - 2);
      }).join(''));
    }
    out(pad('  negatives min/.1%/1%/median', kindW) + available.map((m) => {
      const d = m.sets[set].negativeDistance;
      return '| ' + pad(`${d.min}/${d.p001}/${d.p01}/${d.median}`, colW - 2);
    }).join(''));
  }

  out();
  out(`== Targets (the issue's, for 64-bit fingerprints; k = ${TARGETS.k}) ${'='.repeat(30)}`);
  const T = TARGETS;
  const rows = [
    ['documents F1 at k=3 >= 0.90', 'documentsF1AtK', (v) => fmt(v)],
    ['documents best F1 >= 0.97', 'documentsBestF1', (v) => fmt(v)],
    ['short texts F1 at k=3 >= 0.90', 'shortF1AtK', (v) => fmt(v)],
    [`demo d(text1, text2) <= ${T.demoSimilarMaxDistance}`, 'demoSimilar', String],
    [`demo d(text1, text3) >= ${T.demoDistinctMinDistance}`, 'demoDistinct', String],
  ];
  const labelW = 36;
  out(pad('', labelW) + available.map((m) => '| ' + pad(methodLabel(m), 18)).join(''));
  for (const [label, key, show] of rows) {
    out(pad(`  ${label}`, labelW) + available.map((m) => {
      const t = m.targets[key];
      return '| ' + pad(t ? `${show(t.value)} ${t.met ? 'met' : 'UNMET'}` : '-', 18);
    }).join(''));
  }
  if (available.some((m) => m.bits !== 64)) {
    out('  (a method of another width is measured at its own width: its k is not comparable to 64 bits)');
  }
  if (!result.methods.some((m) => m.name === 'default' && m.available)) {
    out('  The targets are for the default pipeline, which is not available in this build.');
  }
  out();
  out(`Runtime: ${result.seconds.total.toFixed(1)} s (corpus and variants ${result.seconds.corpus.toFixed(1)} s); fingerprinting: ${available.map((m) => `${m.name} ${Object.values(m.fingerprintSeconds).reduce((a, b) => a + b, 0).toFixed(2)} s`).join(', ')}`);
  out(`Node ${result.node} ${result.platform}; backends: ${available.map((m) => `${m.name}=${m.backend}`).join(', ')}`);
  if (result.command) out(`Reproduce: ${result.command}`);
  return lines.join('\n');
}

// ---- CLI ------------------------------------------------------------------

const USAGE = `usage: node bench/quality.js [--corpus FILE ...] [--config JSON ...] [--bases N] [--seed S] [--json OUT]
  --corpus FILE   UTF-8 text (.html files are reduced to text; a .jsonl or .ndjson file's records
                  are their text, content or body field, reduced to text when they hold HTML; a
                  directory is its .txt, .html and .jsonl files) to cut bases from, instead of the
                  default corpus; repeatable; prefix with documents: or short: to use it for one
                  set;
                  FILE man, news or gettext: the installed man pages' prose lines, the package's
                  sample, the zh_CN gettext messages installed (e.g. short:gettext)
  --config JSON   SimHash options for an extra method "default JSON", e.g. '{"weighting":"tf"}'; repeatable
  --bases N       at most N bases per set (default ${DEFAULTS.bases})
  --seed S        PRNG seed (default ${DEFAULTS.seed})
  --json OUT      also write every number to OUT`;

/** The error for the first --corpus argument whose file does not exist, or null. */
function missingCorpusFile(corpusArgs) {
  const missing = corpusArgs.find((c) => {
    const source = corpus.parseCorpusArg(c);
    return source.lines === undefined && !fs.existsSync(source.file);
  });
  return missing === undefined ? null : `--corpus ${missing}: no such file`;
}

function parseArgs(argv) {
  const opts = { corpus: [], configs: [], bases: DEFAULTS.bases, seed: DEFAULTS.seed, json: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value\n${USAGE}`);
      return argv[++i];
    };
    switch (arg) {
      case '--corpus': opts.corpus.push(value()); break;
      case '--config': {
        const text = value();
        let config;
        try {
          config = JSON.parse(text);
        } catch (err) {
          throw new Error(`--config ${text}: not JSON (${err.message})`);
        }
        if (config === null || typeof config !== 'object' || Array.isArray(config)) throw new Error(`--config ${text}: must be a JSON object`);
        opts.configs.push(config);
        break;
      }
      case '--bases': {
        opts.bases = Number(value());
        if (!Number.isInteger(opts.bases) || opts.bases < 2) throw new Error(`--bases must be an integer >= 2\n${USAGE}`);
        break;
      }
      case '--seed': opts.seed = value(); if (/^\d+$/.test(opts.seed)) opts.seed = Number(opts.seed); break;
      case '--json': opts.json = value(); break;
      case '-h': case '--help': opts.help = true; break;
      default: throw new Error(`unknown argument '${arg}'\n${USAGE}`);
    }
  }
  return opts;
}

function main(argv = process.argv.slice(2)) {
  let opts;
  try {
    opts = parseArgs(argv);
  } catch (err) {
    console.error(err.message);
    return 2;
  }
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  const missing = missingCorpusFile(opts.corpus);
  if (missing) {
    console.error(missing);
    return 2;
  }
  const result = runQualityBench({ ...opts, log: (line) => console.error(`[quality] ${line}`) });
  if (opts.json) {
    result.command = reproduceCommand({ corpusArgs: opts.corpus, configs: opts.configs, bases: opts.bases, seed: opts.seed, json: opts.json });
    writeJsonFile(opts.json, result, 1);
  }
  console.log(formatReport(result));
  if (opts.json) console.log(`JSON: ${opts.json}`);
  return 0;
}

module.exports = { runQualityBench, buildSets, formatReport, parseArgs, missingCorpusFile, reproduceCommand, TARGETS, DEMO, DEFAULTS, K_MAX };

if (require.main === module) process.exitCode = main();

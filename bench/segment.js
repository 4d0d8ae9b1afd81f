#!/usr/bin/env node
// bench/segment: word segmentation throughput, dictionary load time and memory,
// simhash-zh against the Node jieba bindings, on the same corpus in the same run.
//
//   node bench/segment.js [--corpus FILE]... [--reps N] [--rounds N] [--json FILE] [--build-nodejieba]
//
// Every case runs in a fresh process (so one's JIT, heap and caches do not help
// another), cuts the corpus line by line (returning JS strings, as every peer
// does), reps times after a warm-up pass, and reports its best pass. --rounds
// repeats all cases, interleaved, and keeps each case's best round: on a shared
// machine that is the measure least disturbed by other load.
//
// Corpus: by default the Debian package manpages-zh (all zh_CN and zh_TW pages,
// decompressed troff source: Chinese mixed with English and markup), installed
// with `apt-get install manpages-zh`; without it, the novel 围城 from nodejieba's
// test data and TypeScript's Chinese diagnostics.
//
// Peers: @node-rs/jieba and jieba-wasm (devDependencies), and nodejieba, which is
// not a dependency (its install compiles for minutes): --build-nodejieba builds it
// once from the pinned tarball in node_modules/.cache/simhash-zh/.
'use strict';
const { execFileSync, fork } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { manPages, nodejiebaText, typescriptDiagnostics } = require('./segment-corpora');
const { installedNodeDir } = require('../scripts/node-headers');

const root = path.join(__dirname, '..');
const NODEJIEBA_DIR = path.join(root, 'node_modules', '.cache', 'simhash-zh', 'nodejieba-build');

// ---------------------------------------------------------------------------
// Corpus.

/** The installed version of the Debian package manpages-zh, or null. */
function manpagesZhVersion() {
  try {
    return execFileSync('dpkg-query', ['-W', '-f', '${Version}', 'manpages-zh'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    return null;
  }
}

/** The man pages, only with manpages-zh installed (other packages' few zh pages are no corpus). */
function manPagesCorpus() {
  const version = manpagesZhVersion();
  if (!version) {
    console.error('bench/segment: manpages-zh is not installed (apt-get install manpages-zh); using the fallback corpus');
    return { lines: [] };
  }
  const { dirs, pages } = manPages();
  return { name: `Debian manpages-zh ${version} (${pages.length} zh_CN + zh_TW man pages, troff source)`, sources: dirs, lines: pages.flatMap((page) => page.split('\n')) };
}

function fallbackCorpus() {
  const weicheng = nodejiebaText('weicheng.utf8').split('\n');
  const diagnostics = typescriptDiagnostics();
  return { name: 'nodejieba weicheng.utf8 (围城) + TypeScript zh-cn/zh-tw diagnostics', sources: ['weicheng.utf8', 'typescript'], lines: [...weicheng, ...diagnostics] };
}

function loadCorpus(files) {
  let corpus;
  if (files.length > 0) {
    corpus = { name: files.join(', '), sources: files, lines: files.flatMap((f) => fs.readFileSync(f, 'utf8').split('\n')) };
  } else {
    corpus = manPagesCorpus();
    if (corpus.lines.length === 0) corpus = fallbackCorpus();
  }
  corpus.lines = corpus.lines.map((l) => l.replace(/\r$/, '')).filter((l) => l !== '');
  corpus.bytes = corpus.lines.reduce((n, l) => n + Buffer.byteLength(l), 0);
  return corpus;
}

// ---------------------------------------------------------------------------
// Cases (run in child processes).

const CASES = {
  'simhash-zh native': (hmm) => {
    const { Segmenter } = require(root);
    const s = new Segmenter({ backend: 'native' });
    return { ready: s, cut: (line) => s.cut(line, { hmm }).length };
  },
  'simhash-zh native forEachWord': (hmm) => {
    const { Segmenter } = require(root);
    const s = new Segmenter({ backend: 'native' });
    let n = 0;
    const visit = () => n++;
    return {
      ready: s,
      cut: (line) => {
        n = 0;
        s.forEachWord(line, hmm, visit);
        return n;
      },
    };
  },
  'simhash-zh js': (hmm) => {
    const { Segmenter } = require(root);
    const s = new Segmenter({ backend: 'js' });
    return { ready: s, cut: (line) => s.cut(line, { hmm }).length };
  },
  '@node-rs/jieba': (hmm) => {
    const { Jieba } = require('@node-rs/jieba');
    const { dict } = require('@node-rs/jieba/dict');
    const j = Jieba.withDict(dict);
    return { ready: j, cut: (line) => j.cut(line, hmm).length };
  },
  'jieba-wasm': (hmm) => {
    const w = require('jieba-wasm');
    w.cut('预热', false); // instantiates the module and its embedded dictionary
    return { ready: w, cut: (line) => w.cut(line, hmm).length };
  },
  nodejieba: (hmm) => {
    const nodejieba = require(NODEJIEBA_DIR);
    nodejieba.load();
    return { ready: nodejieba, cut: (line) => nodejieba.cut(line, hmm).length };
  },
};

// Modules each case needs, required before its clock starts: "ready" times the
// construction (dictionary read and set up), not the loading of code.
const PRELOAD = {
  '@node-rs/jieba': () => require('@node-rs/jieba'),
  'jieba-wasm': () => require('jieba-wasm'),
  nodejieba: () => require(NODEJIEBA_DIR),
};

function child() {
  const { name, hmm, reps, corpusFile } = JSON.parse(process.argv[3]);
  (PRELOAD[name] ?? (() => require(root)))();
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  const t0 = process.hrtime.bigint();
  const { cut } = CASES[name](hmm);
  const readyMs = Number(process.hrtime.bigint() - t0) / 1e6;
  global.gc?.();
  const rssMb = (process.memoryUsage().rss - rss0) / 1048576;
  // The corpus is read after the memory was measured, so that its garbage does not blur it.
  const lines = JSON.parse(fs.readFileSync(corpusFile, 'utf8'));
  const bytes = lines.reduce((n, l) => n + Buffer.byteLength(l), 0);
  let words = 0;
  for (const line of lines) words += cut(line); // warm-up
  const passes = [];
  for (let r = 0; r < reps; r++) {
    const start = process.hrtime.bigint();
    for (const line of lines) cut(line);
    passes.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  const best = Math.min(...passes);
  process.send({ name, hmm, readyMs, rssMb, words, mbps: bytes / 1e6 / best, passes });
}

function runCase(name, hmm, reps, corpusFile) {
  return new Promise((resolve, reject) => {
    const proc = fork(__filename, ['--child', JSON.stringify({ name, hmm, reps, corpusFile })], {
      execArgv: ['--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result = null;
    proc.on('message', (m) => (result = m));
    proc.on('exit', (code) => (result ? resolve(result) : reject(new Error(`${name} exited with ${code}`))));
  });
}

function buildNodejieba() {
  if (fs.existsSync(path.join(NODEJIEBA_DIR, 'build', 'Release', 'nodejieba.node'))) return;
  const { extractTar, nodejiebaFiles, cacheDir } = require('../scripts/dict/sources');
  nodejiebaFiles(); // fetches and checks the pinned tarball
  const data = fs.readFileSync(path.join(cacheDir, 'nodejieba-3.5.8.tgz'));
  const tar = zlib.gunzipSync(data);
  // Extract every regular file of the package.
  const wanted = {};
  for (let offset = 0; offset + 512 <= tar.length;) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const name = header.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    const size = parseInt(header.toString('utf8', 124, 136).replace(/\0.*$/s, '').trim() || '0', 8);
    if (name.startsWith('package/')) wanted[name] = name.slice('package/'.length);
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  const files = extractTar(data, wanted);
  for (const [rel, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(NODEJIEBA_DIR, rel)), { recursive: true });
    fs.writeFileSync(path.join(NODEJIEBA_DIR, rel), body);
  }
  console.log('building nodejieba 3.5.8 from its tarball (a few minutes)...');
  // The headers of the running Node when it has them (no download), as npm's nodedir would give.
  const nodedir = installedNodeDir();
  const headers = nodedir ? [`--nodedir=${nodedir}`] : [];
  execFileSync(process.execPath, [require.resolve('node-gyp/bin/node-gyp.js'), 'rebuild', '-j', String(os.cpus().length), ...headers], {
    cwd: NODEJIEBA_DIR,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function main(argv) {
  const arg = (flag, fallback) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : fallback;
  };
  const files = argv.flatMap((a, i) => (argv[i - 1] === '--corpus' ? [a] : []));
  const reps = Number(arg('--reps', 3));
  const rounds = Number(arg('--rounds', 1));
  if (argv.includes('--build-nodejieba')) buildNodejieba();
  const corpus = loadCorpus(files);
  const corpusFile = path.join(os.tmpdir(), `simhash-zh-bench-corpus-${process.pid}.json`);
  fs.writeFileSync(corpusFile, JSON.stringify(corpus.lines));

  const names = Object.keys(CASES).filter((n) => n !== 'nodejieba' || fs.existsSync(path.join(NODEJIEBA_DIR, 'build', 'Release', 'nodejieba.node')));
  const best = new Map();
  try {
    for (let round = 0; round < rounds; round++) {
      for (const hmm of [false, true]) {
        for (const name of names) {
          if (name.endsWith('forEachWord') && hmm) continue;
          const r = await runCase(name, hmm, reps, corpusFile);
          const key = `${name}|${hmm}`;
          const prev = best.get(key);
          best.set(key, prev && prev.mbps >= r.mbps ? { ...prev, readyMs: Math.min(prev.readyMs, r.readyMs) } : { ...r, readyMs: Math.min(prev?.readyMs ?? Infinity, r.readyMs) });
        }
      }
    }
  } finally {
    fs.rmSync(corpusFile, { force: true });
  }

  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(`bench/segment — ${new Date().toISOString()}`);
  console.log(`machine: ${cpu}, ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log(`corpus: ${corpus.name}`);
  console.log(`        ${corpus.lines.length} lines, ${(corpus.bytes / 1e6).toFixed(2)} MB of UTF-8, cut line by line; best of ${reps} passes, ${rounds} round(s)`);
  if (!names.includes('nodejieba')) console.log('nodejieba: not built (add --build-nodejieba to build it from its pinned tarball)');
  console.log('');
  const rows = [];
  for (const hmm of [false, true]) {
    const ref = best.get(`@node-rs/jieba|${hmm}`);
    const wasm = best.get(`jieba-wasm|${hmm}`);
    for (const name of names) {
      const r = best.get(`${name}|${hmm}`);
      if (!r) continue;
      rows.push({
        case: `${name}, hmm ${hmm ? 'on ' : 'off'}`,
        'MB/s': r.mbps.toFixed(1),
        'x @node-rs/jieba': ref ? (r.mbps / ref.mbps).toFixed(2) : '-',
        'x jieba-wasm': wasm ? (r.mbps / wasm.mbps).toFixed(2) : '-',
        'ready ms': r.readyMs.toFixed(1),
        'RSS +MB': r.rssMb.toFixed(1),
        words: r.words,
      });
    }
  }
  const cols = Object.keys(rows[0]);
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(width[i]) : String(c).padStart(width[i]))).join('  ');
  console.log(line(cols));
  for (const r of rows) console.log(line(cols.map((c) => r[c])));
  console.log('\n"ready ms": constructing the segmenter with its default dictionary (the module already required);');
  console.log('"RSS +MB": resident memory added by that. Reproduce: node bench/segment.js --rounds 3');
  const json = arg('--json');
  if (json) fs.writeFileSync(json, JSON.stringify({ date: new Date().toISOString(), cpu, node: process.version, corpus: { name: corpus.name, lines: corpus.lines.length, bytes: corpus.bytes }, reps, rounds, results: [...best.values()] }, null, 2) + '\n');
}

if (process.argv[2] === '--child') child();
else main(process.argv.slice(2)).catch((error) => {
  console.error(error);
  process.exit(1);
});

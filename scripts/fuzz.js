#!/usr/bin/env node
// Builds the libFuzzer targets in native/fuzz/ with clang -fsanitize=fuzzer,address,undefined
// (Debian's clang: `apt-get install -y clang`) against the core sources of native/sources.json,
// then runs each for a while, seeded from native/fuzz/corpus/<target>/.
//
//   npm run fuzz -- [--seconds N] [--target NAME]... [--jobs N] [--build-only] [--list]
//
// Each target runs for N seconds (default 60), `--jobs` at a time (default: the core count).
// New inputs go to build-fuzz/corpus/<target>/ (the seed folder is only read); a crash, a leak, a
// UBSan report, a timeout or an out-of-memory input stops that target and is saved under
// build-fuzz/artifacts/<target>/. Re-run one input with `build-fuzz/bin/<target> FILE`. Every input
// that once crashed belongs in the seed corpus (it is replayed first on every run) and in a
// regression test. Exits non-zero when any target failed.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');
const fuzzDir = path.join(root, 'native', 'fuzz');
const buildDir = path.join(root, 'build-fuzz');

// name -> harness file, the core headers it needs (a target whose code has not landed is skipped),
// and libFuzzer's -max_len.
const TARGETS = {
  simhash_chinese: { source: 'simhash_chinese.cc', needs: ['presets.h'], maxLen: 8192 },
  mysimhash64: { source: 'mysimhash64.cc', needs: ['presets.h'], maxLen: 8192 },
  mysimhash128: { source: 'mysimhash128.cc', needs: ['presets.h'], maxLen: 8192 },
  normalize: { source: 'normalize.cc', needs: ['normalize.h'], maxLen: 8192 },
  utf16: { source: 'utf16.cc', needs: ['utf16.h'], maxLen: 4096 },
  index_deserialize: { source: 'index_deserialize.cc', needs: ['index_format.h'], maxLen: 16384 },
  index_ops: { source: 'index_ops.cc', needs: ['simhash_index.h'], maxLen: 4096 },
  // Seeded at run time with test/support/small-dictionary.js (too big to commit: the format has a
  // 256 KiB character map and a 335 KiB HMM table); needs dist/ (npm run build:ts).
  dictionary_load: { source: 'dictionary_load.cc', needs: ['dictionary.h', 'segmenter.h'], maxLen: 1 << 20, seed: dictionarySeeds },
  // Segments over dict/jieba.dict, or over the small generated dictionary when that is not built.
  segmenter: { source: 'segmenter.cc', needs: ['segmenter.h'], maxLen: 8192, seed: dictionarySeeds },
  // The default pipeline (normalize, segment, weight, hash, sum), same dictionary as `segmenter`.
  default_pipeline: { source: 'default_pipeline.cc', needs: ['pipeline.h'], maxLen: 8192, seed: dictionarySeeds },
};

// Seed folder(s) made at run time for the dictionary targets; sets SIMHASH_ZH_FUZZ_DICT.
function dictionarySeeds(name) {
  const dir = path.join(buildDir, 'seeds', 'dictionary');
  const file = path.join(dir, 'small.dict');
  if (!fs.existsSync(file) || mtime(file) < mtime(path.join(root, 'test', 'support', 'small-dictionary.js'))) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, require(path.join(root, 'test', 'support', 'small-dictionary.js')).smallDictionary());
  }
  const real = path.join(root, 'dict', 'jieba.dict');
  process.env.SIMHASH_ZH_FUZZ_DICT = process.env.SIMHASH_ZH_FUZZ_DICT || (fs.existsSync(real) ? real : file);
  if (name !== 'dictionary_load') return [];
  const seeds = path.join(buildDir, 'seeds', name);
  fs.mkdirSync(seeds, { recursive: true });
  const bytes = fs.readFileSync(file);
  for (const mode of [0, 1, 3]) fs.writeFileSync(path.join(seeds, `small-mode${mode}`), Buffer.concat([Buffer.from([mode]), bytes]));
  return [seeds];
}

const SANITIZE = ['-fsanitize=address,undefined', '-fno-sanitize-recover=undefined', '-fno-omit-frame-pointer'];
const CXXFLAGS = ['-std=c++17', '-g', '-O1', '-ffp-contract=off', '-I', path.join(root, 'native', 'core')];

function parseArgs(argv) {
  const args = { seconds: 60, targets: [], jobs: Math.max(1, os.availableParallelism()), buildOnly: false, list: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--seconds') args.seconds = Number(value());
    else if (arg === '--target') args.targets.push(value());
    else if (arg === '--jobs') args.jobs = Number(value());
    else if (arg === '--build-only') args.buildOnly = true;
    else if (arg === '--list') args.list = true;
    else throw new Error(`unknown argument '${arg}'; see the comment at the top of scripts/fuzz.js`);
  }
  if (!(args.seconds > 0)) throw new Error('--seconds must be a positive number');
  if (!(Number.isInteger(args.jobs) && args.jobs > 0)) throw new Error('--jobs must be a positive integer');
  for (const t of args.targets) {
    if (!TARGETS[t]) throw new Error(`unknown target '${t}'; targets: ${Object.keys(TARGETS).join(', ')}`);
  }
  return args;
}

function available(name) {
  const t = TARGETS[name];
  if (t.seed && !fs.existsSync(path.join(root, 'dist', 'js', 'dict-builder.js'))) return 'not built: dist/ is missing (npm run build:ts)';
  const missing = [t.source && path.join(fuzzDir, t.source), ...t.needs.map((h) => path.join(root, 'native', 'core', h))]
    .filter((file) => !fs.existsSync(file));
  return missing.length === 0 ? null : `not built: ${missing.map((f) => path.relative(root, f)).join(', ')} missing`;
}

function findClang() {
  for (const cxx of [process.env.FUZZ_CXX, 'clang++'].filter(Boolean)) {
    if (spawnSync(cxx, ['--version'], { stdio: 'ignore' }).status === 0) return cxx;
  }
  throw new Error("clang++ not found; install Debian's clang (apt-get install -y clang) or set FUZZ_CXX");
}

function run(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}`))));
  });
}

async function pool(items, jobs, fn) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  }));
  return results;
}

const mtime = (file) => fs.statSync(file).mtimeMs;

function newest(dir, ext) {
  return Math.max(0, ...fs.readdirSync(dir).filter((f) => f.endsWith(ext)).map((f) => mtime(path.join(dir, f))));
}

// Compiles the core once (coverage-instrumented, no libFuzzer main), then links each harness.
async function build(cxx, names, jobs) {
  const sources = require(path.join(root, 'native', 'sources.json')).core;
  const objDir = path.join(buildDir, 'obj');
  const binDir = path.join(buildDir, 'bin');
  fs.mkdirSync(objDir, { recursive: true });
  fs.mkdirSync(binDir, { recursive: true });
  const headers = Math.max(newest(path.join(root, 'native', 'core'), '.h'), newest(fuzzDir, '.h'), mtime(__filename));
  // Harnesses may include test helpers (native/test/index_checker.h); the core does not.
  const harnessHeaders = Math.max(headers, newest(path.join(root, 'native', 'test'), '.h'));
  const objects = sources.map((src) => path.join(objDir, path.basename(src).replace(/\.cc$/, '.o')));
  const stale = sources.map((src, i) => [src, objects[i]])
    .filter(([src, obj]) => !fs.existsSync(obj) || mtime(obj) < Math.max(mtime(path.join(root, src)), headers));
  if (stale.length) console.log(`fuzz: compiling ${stale.length} core source(s) with ${cxx}`);
  await pool(stale, jobs, ([src, obj]) =>
    run(cxx, [...CXXFLAGS, ...SANITIZE, '-fsanitize=fuzzer-no-link', '-c', path.join(root, src), '-o', obj]));
  await pool(names, jobs, async (name) => {
    const harness = path.join(fuzzDir, TARGETS[name].source);
    const bin = path.join(binDir, name);
    const inputs = [harness, ...objects];
    if (fs.existsSync(bin) && mtime(bin) >= Math.max(harnessHeaders, ...inputs.map(mtime))) return;
    console.log(`fuzz: linking ${name}`);
    await run(cxx, [...CXXFLAGS, ...SANITIZE, '-fsanitize=fuzzer', ...inputs, '-o', bin]);
  });
}

// Runs one target for `seconds`; resolves to a summary row.
function fuzz(name, seconds) {
  const t = TARGETS[name];
  const seeds = path.join(fuzzDir, 'corpus', name);
  const work = path.join(buildDir, 'corpus', name);
  const artifacts = path.join(buildDir, 'artifacts', name) + path.sep;
  fs.mkdirSync(work, { recursive: true });
  fs.mkdirSync(artifacts, { recursive: true });
  const extra = t.seed ? t.seed(name) : [];
  const logFile = path.join(buildDir, `${name}.log`);
  const args = [
    `-max_total_time=${seconds}`, '-print_final_stats=1', `-artifact_prefix=${artifacts}`,
    '-timeout=20', '-rss_limit_mb=3072', `-max_len=${t.maxLen}`, '-use_value_profile=1',
    work, ...(fs.existsSync(seeds) ? [seeds] : []), ...extra,
  ];
  const env = {
    ...process.env,
    ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=0:allocator_may_return_null=0',
    UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1',
  };
  return new Promise((resolve) => {
    const started = Date.now();
    const log = fs.openSync(logFile, 'w');
    const child = spawn(path.join(buildDir, 'bin', name), args, { stdio: ['ignore', log, log], env });
    child.on('exit', (code, signal) => {
      fs.closeSync(log);
      const text = fs.readFileSync(logFile, 'utf8');
      const stat = (key) => Number((text.match(new RegExp(`stat::${key}:\\s*(\\d+)`)) || [])[1] ?? NaN);
      const cov = (text.match(/cov: (\d+) ft: (\d+) corp: (\d+)/g) || []).pop() || '';
      const crashes = fs.readdirSync(artifacts).map((f) => path.join(artifacts, f));
      const ok = code === 0 && !signal;
      if (!ok) {
        console.log(`\nfuzz: ${name} FAILED (exit ${code ?? signal}); last lines of ${path.relative(root, logFile)}:`);
        console.log(text.split('\n').slice(-60).join('\n'));
        for (const file of crashes) console.log(`fuzz: reproducer ${path.relative(root, file)}`);
      }
      resolve({ name, ok, execs: stat('number_of_executed_units'), seconds: (Date.now() - started) / 1000, cov, crashes });
    });
  });
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const wanted = args.targets.length ? args.targets : Object.keys(TARGETS);
  const names = [];
  for (const name of wanted) {
    const why = available(name);
    if (why) console.log(`fuzz: skipping ${name} (${why})`);
    else names.push(name);
  }
  if (args.list) {
    console.log(names.join('\n'));
    return;
  }
  if (names.length === 0) throw new Error('no fuzz target can be built');
  const cxx = findClang();
  await build(cxx, names, args.jobs);
  if (args.buildOnly) return;
  console.log(`fuzz: ${names.length} target(s) x ${args.seconds} s, ${args.jobs} at a time`);
  const rows = await pool(names, args.jobs, async (name) => {
    const row = await fuzz(name, args.seconds);
    console.log(`fuzz: ${name.padEnd(18)} ${row.ok ? 'ok    ' : 'FAILED'} ${String(row.execs).padStart(10)} execs ` +
      `in ${row.seconds.toFixed(0)} s  ${row.cov}`);
    return row;
  });
  const failed = rows.filter((r) => !r.ok);
  const execs = rows.reduce((sum, r) => sum + (Number.isFinite(r.execs) ? r.execs : 0), 0);
  console.log(`fuzz: ${execs} executions in all`);
  console.log(`fuzz: ${rows.length - failed.length} passed, ${failed.length} failed`);
  if (failed.length) process.exitCode = 1;
}

main().catch((error) => {
  console.error(`fuzz: ${error.message}`);
  process.exitCode = 1;
});

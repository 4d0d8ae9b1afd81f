#!/usr/bin/env node
'use strict';
// `npm run bench`: runs the segment, fingerprint, quality and index benchmarks one after
// the other, each in a fresh Node process (so no benchmark's JIT, heap or caches help or
// hurt another), collects their JSON in bench/results/, then writes bench/results/REPORT.md
// and the SVG charts (bench/report.js).
//
//   node bench/run.js [--only segment,fingerprint,quality,index] [--quick]
//
//   --only LIST   run these benchmarks only; the report still uses the last results of the
//                 others (each figure says when and by which command it was produced)
//   --quick       smaller sizes for a fast check (not the figures to publish)
//
// Each benchmark's console output is shown as it runs and kept in bench/results/NAME.txt;
// bench/results/run.json records the command, time and exit code of every benchmark.
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const RESULTS = path.join(__dirname, 'results');
const rel = (file) => path.relative(ROOT, file).split(path.sep).join('/');

/** What each benchmark runs: node arguments (relative to the repository root). */
const BENCHMARKS = {
  segment: {
    json: 'segment.json',
    args: ({ quick, json }) => ['bench/segment.js', '--json', json, ...(quick ? ['--reps', '1'] : ['--reps', '3'])],
  },
  fingerprint: {
    // bench/fingerprint.js writes bench/results/fingerprint.json unless given --json FILE.
    json: 'fingerprint.json',
    args: () => ['bench/fingerprint.js'],
  },
  quality: {
    json: 'quality.json',
    args: ({ quick, json }) => ['bench/quality.js', '--json', json, ...(quick ? ['--bases', '120'] : [])],
  },
  index: {
    json: 'index.json',
    args: ({ quick, json }) => [
      '--expose-gc', 'bench/index.js', '--json', json,
      ...(quick ? ['--native-size', '1000000', '--js-size', '200000', '--rounds', '3', '--dedup-size', '200000'] : []),
    ],
  },
};
const NAMES = Object.keys(BENCHMARKS);

const USAGE = `usage: node bench/run.js [--only ${NAMES.join(',')}] [--quick]
  --only LIST   comma-separated benchmarks to run (default: all); the report keeps the
                last results of the others
  --quick       smaller sizes for a fast check (segment 1 pass, quality 120 bases,
                index 1M native / 200k TS / dedup 200k; fingerprint unchanged)`;

function parseArgs(argv) {
  const opts = { only: NAMES, quick: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') opts.quick = true;
    else if (arg === '-h' || arg === '--help') opts.help = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
      if (!value) throw new Error('--only needs a list');
      const names = value.split(',').map((s) => s.trim()).filter(Boolean);
      const unknown = names.filter((n) => !NAMES.includes(n));
      if (unknown.length) throw new Error(`--only: unknown benchmark ${unknown.join(', ')} (known: ${NAMES.join(', ')})`);
      opts.only = NAMES.filter((n) => names.includes(n)); // in the standard order
    } else throw new Error(`unknown argument '${arg}'`);
  }
  return opts;
}

function shellQuote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0] ? cpus[0].model.trim() : 'unknown CPU',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.platform()}-${os.arch()}`,
    kernel: os.release(),
  };
}

/** 'loaded', or why the native addon does not load (checked in a child: this process stays clean). */
function nativeEngine(env) {
  const probe = "const l = require('./dist'); process.stdout.write(l.nativeLoadError ? String(l.nativeLoadError.message).split('\\n')[0] : 'loaded')";
  const r = spawnSync(process.execPath, ['-e', probe], { cwd: ROOT, encoding: 'utf8', env });
  return r.status === 0 ? r.stdout.trim() : `cannot load ./dist: ${(r.stderr || '').trim().split('\n').pop()}`;
}

/**
 * Copies the addon the benchmarks would load to a temporary file and points every child at it
 * (SIMHASH_ZH_ADDON_PATH), so that the whole run measures one build even when the tree is
 * rebuilt while it runs. Returns { env, addon, built, file } (file: the copy, to remove).
 */
function snapshotAddon() {
  if (process.env.SIMHASH_ZH_ADDON_PATH) return { env: process.env, addon: process.env.SIMHASH_ZH_ADDON_PATH, file: null };
  let source;
  try {
    source = require('node-gyp-build').resolve(ROOT);
  } catch {
    return { env: process.env, addon: null, file: null };
  }
  const file = path.join(os.tmpdir(), `simhash-zh-bench-${process.pid}.node`);
  fs.copyFileSync(source, file);
  return { env: { ...process.env, SIMHASH_ZH_ADDON_PATH: file }, addon: rel(source), built: fs.statSync(source).mtime.toISOString(), file };
}

/** Runs `node ...args` from the repository root, echoing and keeping its output. */
function runChild(args, logFile, env) {
  return new Promise((resolve) => {
    const log = fs.createWriteStream(logFile);
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      log.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      log.write(chunk);
    });
    child.on('error', (error) => log.end(() => resolve({ code: 1, signal: null, error: error.message })));
    child.on('close', (code, signal) => log.end(() => resolve({ code, signal })));
  });
}

function readManifest(file) {
  try {
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (data && typeof data === 'object' && data.benchmarks) return data;
  } catch {
    // none yet, or unreadable: start again
  }
  return { benchmarks: {} };
}

async function main(argv) {
  let opts;
  try {
    opts = parseArgs(argv);
  } catch (error) {
    console.error(`${error.message}\n${USAGE}`);
    return 2;
  }
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  fs.mkdirSync(RESULTS, { recursive: true });
  const manifestFile = path.join(RESULTS, 'run.json');
  const manifest = readManifest(manifestFile);
  const started = new Date();
  const loadStart = os.loadavg();
  let failed = 0;

  console.log(`bench/run: ${opts.only.join(', ')}${opts.quick ? ' (--quick)' : ''}, each in a fresh process`);
  const snapshot = snapshotAddon();
  const engine = nativeEngine(snapshot.env);
  if (engine !== 'loaded') console.warn(`bench/run: WARNING: the native engine does not load (${engine}); run \`npm run build\` first, or its figures will be missing`);
  else if (snapshot.file) console.log(`native addon: ${snapshot.addon} (built ${snapshot.built}), copied for this run`);
  for (const name of opts.only) {
    const bench = BENCHMARKS[name];
    const json = rel(path.join(RESULTS, bench.json));
    const args = bench.args({ quick: opts.quick, json });
    const command = ['node', ...args].map(shellQuote).join(' ');
    const logFile = path.join(RESULTS, `${name}.txt`);
    console.log(`\n=== ${name}: ${command}\n`);
    const t0 = Date.now();
    const load0 = os.loadavg();
    const { code, signal, error } = await runChild(args, logFile, snapshot.env);
    const seconds = (Date.now() - t0) / 1000;
    const ok = code === 0 && fs.existsSync(path.join(ROOT, json)) && fs.statSync(path.join(ROOT, json)).mtimeMs >= t0 - 1000;
    if (!ok) failed++;
    // --quick that changes nothing for this benchmark (fingerprint) does not mark its figures.
    const quick = opts.quick && JSON.stringify(args) !== JSON.stringify(bench.args({ quick: false, json }));
    manifest.benchmarks[name] = {
      command,
      quick,
      started: new Date(t0).toISOString(),
      finished: new Date().toISOString(),
      seconds,
      exitCode: code,
      signal: signal || null,
      error: error || (ok ? null : code === 0 ? `${json} was not written` : `exited with ${signal || code}`),
      json,
      log: rel(logFile),
      loadAverage: { start: load0, end: os.loadavg() },
      machine: machine(),
      nativeEngine: engine,
      addon: snapshot.addon ? { file: snapshot.addon, built: snapshot.built || null } : null,
    };
    console.log(`\n=== ${name}: ${ok ? 'done' : 'FAILED'} in ${seconds.toFixed(1)} s`);
  }

  if (snapshot.file) fs.rmSync(snapshot.file, { force: true });
  const seconds = (Date.now() - started.getTime()) / 1000;
  manifest.last = {
    command: ['npm', 'run', 'bench', ...(argv.length ? ['--', ...argv] : [])].map(shellQuote).join(' '),
    only: opts.only,
    quick: opts.quick,
    nativeEngine: engine,
    addon: snapshot.addon ? { file: snapshot.addon, built: snapshot.built || null } : null,
    started: started.toISOString(),
    seconds,
    loadAverage: { start: loadStart, end: os.loadavg() },
    machine: machine(),
  };
  fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2) + '\n');

  const { writeReport } = require('./report');
  const written = writeReport({ dir: RESULTS, out: RESULTS });
  console.log(`\nbench/run: ${opts.only.length} benchmark(s) in ${(seconds / 60).toFixed(1)} min${failed ? `, ${failed} FAILED` : ''}`);
  for (const file of written) console.log(`written: ${rel(file)}`);
  return failed ? 1 : 0;
}

module.exports = { BENCHMARKS, parseArgs };

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}

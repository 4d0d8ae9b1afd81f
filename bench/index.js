#!/usr/bin/env node
'use strict';
// SimHashIndex benchmark: bulk build, memory per entry, queries per second against a brute-force
// linear scan measured in the same process, and dedup of 1M fingerprints end to end. Each engine runs
// in a fresh process.
//
//   npm run build && npm run bench:index            # native at 10M, TS engine at 1M, k = 3
//   node bench/index.js --native-size 2000000 --js-size 500000 --rounds 3 --only native
//   node --expose-gc bench/index.js --json bench/results/index.json   # also every number as JSON
//
// Corpus: uniformly random 64-bit fingerprints from a seeded PRNG (mulberry32, seed 20240607), ids
// 0..n-1. Queries: half are stored fingerprints with 0..3 random bits flipped (each has at least one
// match), half are fresh random fingerprints (almost surely none). Dedup corpus: 1M fingerprints, 10%
// of them copies of an earlier one with 0..3 bits flipped. Throughput is reported against wall time and
// against this process's CPU time (user + system): on a shared machine the CPU figure is the honest
// "one core" number, and the wall figure shows what the load around us cost.
const { execFileSync } = require('node:child_process');
const os = require('node:os');

const { writeJsonFile } = require('./common');

const SEED = 20240607;
const K = 3;

function parseArgs(argv) {
  const args = { nativeSize: 10_000_000, jsSize: 1_000_000, queries: 200_000, rounds: 5, dedupSize: 1_000_000, batch: 10_000, only: undefined, case: undefined, json: undefined };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i];
    const value = argv[i + 1];
    const number = () => {
      const n = Number(value);
      if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${key} needs a positive integer`);
      i++;
      return n;
    };
    if (key === '--native-size') args.nativeSize = number();
    else if (key === '--js-size') args.jsSize = number();
    else if (key === '--queries') args.queries = number();
    else if (key === '--rounds') args.rounds = number();
    else if (key === '--dedup-size') args.dedupSize = number();
    else if (key === '--batch') args.batch = number();
    else if (key === '--only') (args.only = value), i++;
    else if (key === '--case') (args.case = value), i++;
    else if (key === '--json') (args.json = value), i++;
    else throw new Error(`unknown argument ${key}`);
  }
  return args;
}

function mulberry32(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** n random 64-bit fingerprints, written as 32-bit halves (little-endian hosts; the bench checks). */
function randomFingerprints(n, next) {
  const words = new BigUint64Array(n);
  const halves = new Uint32Array(words.buffer);
  for (let i = 0; i < halves.length; i++) halves[i] = next();
  return words;
}

function flipBits(fp, flips, next) {
  for (let i = 0; i < flips; i++) fp ^= 1n << BigInt(next() % 64);
  return fp;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/** Runs fn, returns { wall, cpu } in seconds (cpu = this process's user + system time). */
function timed(fn) {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const value = fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / 1e6, sys: cpu.system / 1e6, value };
}

function gc() {
  if (global.gc) global.gc();
}

function runCase(backend, args) {
  const lib = require('../dist');
  const { _internals } = require('../dist/simhash-index');
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('this benchmark writes words as little-endian halves');
  const n = backend === 'native' ? args.nativeSize : args.jsSize;
  const next = mulberry32(SEED);
  const fps = randomFingerprints(n, next);
  const ids = new Float64Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  const queries = new BigUint64Array(args.queries);
  for (let i = 0; i < args.queries; i++) {
    queries[i] = i % 2 === 0 ? flipBits(fps[next() % n], next() % (K + 1), next) : BigInt(next()) | (BigInt(next()) << 32n);
  }
  gc();
  const before = process.memoryUsage();

  // Bulk build.
  const index = new lib.SimHashIndex({ bits: 64, maxDistance: K, backend });
  const build = timed(() => index.addMany(ids, fps));
  gc();
  const after = process.memoryUsage();
  const engineBytes = _internals.engineOf(index).memoryBytes();
  const rssBytes = after.rss - before.rss;
  const heapBytes = after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers;

  // queryMany in batches, through the public API (result objects included).
  const rounds = [];
  let matches = 0;
  let hitQueries = 0;
  for (let r = 0; r < args.rounds; r++) {
    const t = timed(() => {
      let m = 0;
      let h = 0;
      for (let start = 0; start < queries.length; start += args.batch) {
        const results = index.queryMany(queries.subarray(start, start + args.batch));
        for (const list of results) {
          m += list.length;
          if (list.length > 0) h++;
        }
      }
      return [m, h];
    });
    [matches, hitQueries] = t.value;
    rounds.push(t);
  }
  // One query() call per fingerprint (crosses the boundary every time).
  const singleCount = Math.min(queries.length, 100_000);
  const single = timed(() => {
    let m = 0;
    for (let i = 0; i < singleCount; i++) m += index.query(queries[i]).length;
    return m;
  });

  // Brute force on the same index memory, same process, same query mix.
  const bruteCount = backend === 'native' ? Math.max(20, Math.round(2e8 / n)) : Math.max(20, Math.round(3e7 / n));
  const bruteQueries = queries.subarray(0, bruteCount);
  const brute = timed(() => _internals.bruteForceQueryMany(index, bruteQueries));
  const indexed = index.queryMany(bruteQueries);
  const bruteAgrees = JSON.stringify(brute.value) === JSON.stringify(indexed);

  // dedup of 1M fingerprints end to end (public API: validation, engine, result objects).
  const dn = args.dedupSize;
  const dedupNext = mulberry32(SEED + 1);
  const dedupFps = randomFingerprints(dn, dedupNext);
  for (let i = 1; i < dn; i++) {
    if (dedupNext() % 10 === 0) dedupFps[i] = flipBits(dedupFps[dedupNext() % i], dedupNext() % (K + 1), dedupNext);
  }
  gc();
  const dedup = timed(() => lib.dedup(dedupFps, { maxDistance: K, backend }));
  const clusterTime = timed(() => lib.cluster(dedupFps, { maxDistance: K, backend }));

  const qps = (t) => args.queries / t;
  return {
    backend,
    n,
    queries: args.queries,
    batch: args.batch,
    buildSeconds: build.wall,
    buildCpuSeconds: build.cpu,
    buildSysSeconds: build.sys,
    bytesPerEntryEngine: engineBytes / n,
    bytesPerEntryRss: rssBytes / n,
    bytesPerEntryHeap: heapBytes / n,
    qpsWallMedian: qps(median(rounds.map((t) => t.wall))),
    qpsCpuMedian: qps(median(rounds.map((t) => t.cpu))),
    qpsWallBest: qps(Math.min(...rounds.map((t) => t.wall))),
    qpsWallWorst: qps(Math.max(...rounds.map((t) => t.wall))),
    singleQps: singleCount / single.wall,
    singleQpsCpu: singleCount / single.cpu,
    matches,
    hitQueries,
    bruteCount,
    bruteQps: bruteCount / brute.wall,
    bruteQpsCpu: bruteCount / brute.cpu,
    bruteAgrees,
    dedupSize: dn,
    dedupSeconds: dedup.wall,
    dedupCpuSeconds: dedup.cpu,
    dedupKept: dedup.value.keep.length,
    dedupDropped: dedup.value.duplicates.length,
    clusterSeconds: clusterTime.wall,
    clusters: clusterTime.value.length,
    peakRssMB: process.memoryUsage().rss / 2 ** 20,
  };
}

function fmt(x, digits = 0) {
  return x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.case) {
    process.stdout.write(JSON.stringify(runCase(args.case, args)) + '\n');
    return;
  }
  const lib = require('../dist');
  const cases = (args.only ? [args.only] : ['native', 'js']).filter((b) => b === 'js' || !lib.nativeLoadError);
  if (lib.nativeLoadError && args.only !== 'js') console.log(`native engine unavailable: ${lib.nativeLoadError.message}`);
  const cpu = os.cpus()[0];
  const loadStart = os.loadavg();
  console.log('# SimHashIndex benchmark (bench/index.js)');
  console.log(`machine: ${cpu ? cpu.model : 'unknown CPU'}, ${os.cpus().length} cores, ${fmt(os.totalmem() / 2 ** 30, 1)} GiB, ` +
    `node ${process.version}, ${os.platform()}-${os.arch()}; load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`corpus: random 64-bit fingerprints (mulberry32 seed ${SEED}); native ${fmt(args.nativeSize)} entries, TS ${fmt(args.jsSize)}; ` +
    `k = ${K}, default layout (${K + 1} tables); ${fmt(args.queries)} queries (half stored fingerprints with 0..${K} bits flipped, ` +
    `half random) in batches of ${fmt(args.batch)}, ${args.rounds} rounds (median reported); dedup/cluster over ${fmt(args.dedupSize)} ` +
    `fingerprints, 10% near copies`);
  console.log(`reproduce: npm run build && node --expose-gc bench/index.js ${process.argv.slice(2).join(' ')}`.trim());
  console.log('');
  const results = [];
  for (const backend of cases) {
    const out = execFileSync(process.execPath, ['--expose-gc', __filename, '--case', backend, ...process.argv.slice(2)], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    results.push(JSON.parse(out.trim().split('\n').pop()));
  }
  for (const r of results) {
    console.log(`## ${r.backend} engine, ${fmt(r.n)} entries`);
    console.log(`bulk build (addMany)        ${fmt(r.buildSeconds, 2)} s wall (${fmt(r.buildCpuSeconds, 2)} s CPU, of which ` +
      `${fmt(r.buildSysSeconds, 2)} s system time: first-touch page faults)`);
    console.log(`memory                      ${fmt(r.bytesPerEntryEngine, 1)} bytes/entry held by the index; ` +
      `${fmt(r.bytesPerEntryRss, 1)} by RSS growth, ${fmt(r.bytesPerEntryHeap, 1)} by V8 heap + ArrayBuffers growth`);
    console.log(`queryMany                   ${fmt(r.qpsWallMedian)} queries/s wall (best ${fmt(r.qpsWallBest)}, worst ${fmt(r.qpsWallWorst)}), ` +
      `${fmt(r.qpsCpuMedian)} per CPU second; ${fmt(r.hitQueries)} of ${fmt(r.queries)} queries matched, ${fmt(r.matches)} matches`);
    console.log(`query (one call each)       ${fmt(r.singleQps)} queries/s wall, ${fmt(r.singleQpsCpu)} per CPU second`);
    console.log(`brute-force linear scan     ${fmt(r.bruteQps, 1)} queries/s wall (${r.bruteCount} queries, same answers: ${r.bruteAgrees}); ` +
      `index is ${fmt(r.qpsWallMedian / r.bruteQps)}× faster`);
    console.log(`dedup of ${fmt(r.dedupSize)}             ${fmt(r.dedupSeconds, 2)} s wall (${fmt(r.dedupCpuSeconds, 2)} s CPU): ` +
      `${fmt(r.dedupKept)} kept, ${fmt(r.dedupDropped)} dropped; cluster ${fmt(r.clusterSeconds, 2)} s, ${fmt(r.clusters)} clusters`);
    console.log(`peak RSS                    ${fmt(r.peakRssMB)} MiB`);
    console.log('');
  }
  console.log('## targets (issue 5)');
  const targets = [];
  const check = (ok, text) => {
    targets.push({ met: Boolean(ok), text });
    console.log(`${ok ? 'PASS' : 'FAIL'}  ${text}`);
  };
  for (const r of results) {
    if (r.backend === 'native') {
      check(r.qpsWallMedian >= 500_000, `native ≥ 500,000 queries/s at ${fmt(r.n)} (wall median ${fmt(r.qpsWallMedian)}, per CPU second ${fmt(r.qpsCpuMedian)})`);
      check(r.bytesPerEntryEngine <= 64 && r.bytesPerEntryRss <= 64, `native ≤ 64 bytes/entry (${fmt(r.bytesPerEntryEngine, 1)} held, ${fmt(r.bytesPerEntryRss, 1)} RSS)`);
      check(r.buildSeconds <= 5, `native bulk build ≤ 5 s (${fmt(r.buildSeconds, 2)} s wall, ${fmt(r.buildCpuSeconds, 2)} s CPU)`);
    } else {
      check(r.qpsWallMedian >= 100_000, `TS ≥ 100,000 queries/s at ${fmt(r.n)} (wall median ${fmt(r.qpsWallMedian)}, per CPU second ${fmt(r.qpsCpuMedian)})`);
    }
    check(r.bruteAgrees, `${r.backend}: index answers equal the linear scan on the benchmark queries`);
  }
  console.log(`load average at end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  if (args.json) {
    const { json, ...settings } = args;
    const data = {
      benchmark: 'simhash-zh index',
      date: new Date().toISOString(),
      machine: { cpu: cpu ? cpu.model : 'unknown CPU', cores: os.cpus().length, memoryGiB: os.totalmem() / 2 ** 30, node: process.version, platform: `${os.platform()}-${os.arch()}` },
      loadAverage: { start: loadStart, end: os.loadavg() },
      command: `node --expose-gc bench/index.js ${process.argv.slice(2).join(' ')}`.trim(),
      corpus: { kind: 'random 64-bit fingerprints', prng: 'mulberry32', seed: SEED, dedupNearCopies: 0.1 },
      k: K,
      settings,
      nativeLoadError: lib.nativeLoadError ? lib.nativeLoadError.message : null,
      results,
      targets,
    };
    writeJsonFile(json, data);
    console.log(`JSON: ${json}`);
  }
}

main();

#!/usr/bin/env node
// Soak test: 1,000,000 fingerprints (single, batch and async calls, both engines) and 100,000 index
// add/remove pairs (both engines) with resident memory stable: after a warm-up fifth, the RSS
// measured after each later round (after a full GC) stays within 10% of the RSS after warm-up.
//
//   npm run test:soak   (node --expose-gc --min-semi-space-size=16 --max-semi-space-size=16 test/soak.js)
//
// The young generation is pinned at 16 MB: V8 otherwise grows it once, late and for good (about 8 MB
// of heapTotal, a step in RSS with no live object behind it), which is V8 sizing, not a leak.
// Each line also shows the live JS heap (heapUsed) after warm-up and at the end.
//   SIMHASH_ZH_SOAK_SCALE=0.1  runs a tenth of the work (a quick local check)
//   node --expose-gc test/soak.js [fingerprints|index] [native|js]   runs only those phases
//
// Prints one line per phase and a closing "N passed, N failed"; exits non-zero on growth.
'use strict';
const path = require('node:path');
const lib = require(path.join(__dirname, '..', 'dist'));

if (typeof global.gc !== 'function') {
  console.error('soak: run with --expose-gc (npm run test:soak)');
  process.exit(2);
}

const SCALE = Number(process.env.SIMHASH_ZH_SOAK_SCALE || 1);
const ROUNDS = 20;
const WARMUP = 4; // rounds before the baseline (a fifth of the work): caches, pools and heaps fill up
const TOLERANCE = 0.1;
const BACKENDS = lib.nativeLoadError ? ['js'] : ['native', 'js'];
if (lib.nativeLoadError && process.env.SIMHASH_ZH_TEST_JS_ONLY !== '1') {
  console.error(`soak: the native engine did not load: ${lib.nativeLoadError.message}`);
  process.exit(1);
}

// Texts of varied length and script, made once (the pool itself is not what is measured).
const SAMPLES = ['相似度检测', 'SimHash算法实现', ' 高性能中文文本 ', 'Redis缓存高并发优化', 'text & <b>markup</b>',
  '2024年v1.2.3', '😀𠀀', 'a\uD800b', '\0', '北京大学生活研究所', ' English words, numbers 3.14! '];
const POOL = Array.from({ length: 4096 }, (_, i) => {
  let text = '';
  for (let k = 0; k < 1 + (i % 23); k++) text += SAMPLES[(i * 7 + k * 13) % SAMPLES.length];
  return text + i;
});

const mb = (bytes) => (bytes / 2 ** 20).toFixed(1);

function settle() {
  for (let i = 0; i < 3; i++) global.gc();
  return process.memoryUsage().rss;
}

/** Runs `round(r)` ROUNDS times; checks the RSS after each later round against the RSS after warm-up. */
async function phase(name, round) {
  const started = Date.now();
  let baseline = 0;
  let peak = 0;
  let heapBaseline = 0;
  const series = [];
  for (let r = 0; r < ROUNDS; r++) {
    await round(r);
    const rss = settle();
    series.push(mb(rss));
    if (r === WARMUP - 1) {
      baseline = rss;
      heapBaseline = process.memoryUsage().heapUsed;
    }
    else if (r >= WARMUP) peak = Math.max(peak, rss);
  }
  const growth = (peak - baseline) / baseline;
  const ok = growth <= TOLERANCE;
  console.log(`soak: ${ok ? 'ok    ' : 'FAILED'} ${name}: RSS ${mb(baseline)} MB after warm-up, peak ${mb(peak)} MB ` +
    `(${(growth * 100).toFixed(1)}%), JS heap ${mb(heapBaseline)} -> ${mb(process.memoryUsage().heapUsed)} MB, ` +
    `in ${((Date.now() - started) / 1000).toFixed(1)} s [${series.join(' ')}]`);
  return ok;
}

function fingerprintPhase(backend, total) {
  const perRound = Math.round(total / ROUNDS);
  const sims = [
    new lib.SimHash({ preset: 'SimHashChinese', backend }),
    new lib.SimHash({ preset: 'mysimhash', backend }),
    new lib.SimHash({ preset: 'mysimhash', bits: 128, backend }),
  ];
  return phase(`${total} fingerprints [${backend}]`, async (r) => {
    let done = 0;
    let check = 0n;
    // Half single calls, a quarter batches, a quarter async batches (with an abort now and then),
    // plus tokens() and new instances now and then.
    while (done < perRound / 2) {
      const sim = sims[done % 3];
      check ^= sim.fingerprint(POOL[(done + r) % POOL.length]);
      if (done % 1000 === 0) sim.tokens(POOL[done % POOL.length]);
      if (done % 5000 === 0) new lib.SimHash({ preset: 'mysimhash', backend }).fingerprint('x');
      done++;
    }
    for (let i = 0; done < (perRound * 3) / 4; i++) {
      const batch = POOL.slice((i * 256) % POOL.length, ((i * 256) % POOL.length) + 256);
      sims[i % 3].fingerprintMany(batch);
      done += batch.length;
    }
    for (let i = 0; done < perRound; i++) {
      const batch = POOL.slice((i * 512) % POOL.length, ((i * 512) % POOL.length) + 512);
      const controller = new AbortController();
      const pending = sims[i % 3].fingerprintManyAsync(batch, { signal: controller.signal });
      if (i % 10 === 9) controller.abort();
      await pending.catch((error) => {
        if (error.name !== 'AbortError') throw error;
      });
      done += batch.length;
    }
    if (check === -1n) console.log('unreachable');
  });
}

function indexPhase(backend, total) {
  const perRound = Math.round(total / ROUNDS);
  const WINDOW = 5000; // live entries once warm
  const index = new lib.SimHashIndex({ backend });
  const fps = new lib.SimHash({ preset: 'mysimhash', backend }).fingerprintMany(POOL);
  let next = 0;
  return phase(`${total} index add/remove pairs [${backend}]`, (r) => {
    for (let i = 0; i < perRound; i++) {
      const id = next++;
      index.add(id, fps[id % fps.length]);
      if (id >= WINDOW) index.remove(id - WINDOW);
      if (i % 997 === 0) index.query(fps[i % fps.length]);
    }
    if (r % 3 === 2) lib.SimHashIndex.deserialize(index.serialize(), { backend }).query(fps[0]);
    if (index.size !== Math.min(next, WINDOW)) throw new Error(`index size ${index.size}, expected ${Math.min(next, WINDOW)}`);
  });
}

async function main() {
  const args = process.argv.slice(2);
  const want = (name) => !args.some((a) => ['fingerprints', 'index'].includes(a)) || args.includes(name);
  const backends = BACKENDS.filter((b) => !args.some((a) => BACKENDS.includes(a)) || args.includes(b));
  const results = [];
  if (want('fingerprints')) {
    for (const backend of backends) results.push(await fingerprintPhase(backend, Math.round(1e6 * SCALE)));
  }
  if (!want('index')) {
    // not asked for
  } else if (typeof lib.SimHashIndex === 'function') {
    for (const backend of backends) results.push(await indexPhase(backend, Math.round(1e5 * SCALE)));
  } else {
    console.log('soak: skipped the index phase (SimHashIndex is not in dist)');
  }
  const failed = results.filter((ok) => !ok).length;
  console.log(`soak: ${results.length - failed} passed, ${failed} failed`);
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});

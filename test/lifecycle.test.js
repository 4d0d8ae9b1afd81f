'use strict';
// Lifecycle of the native addon (classic-level env-cleanup-hook-test.js, better-sqlite3
// 44.worker-threads.js): loading in several worker threads at once, exiting or terminating while
// async work is in flight, and native objects under --expose-gc churn. Each scenario runs in its own
// process or thread so a crash fails the test instead of killing mocha.
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { Worker } = require('node:worker_threads');
const { BACKENDS, lib } = require('./engines');

const DIST = path.join(__dirname, '..', 'dist');
const TEXTS = [
  '',
  'C++ SimHash算法实现 高性能中文文本相似度检测与去重',
  'Redis缓存高并发优化 后端服务性能调优实战教程',
  '我们在2024年发布了v1.2.3版本，support for English words & numbers 3.14！',
  'a\uD800b\0c 😀 𠀀',
  '北京大学生活研究所'.repeat(200),
];
const CONFIGS = [
  { preset: 'SimHashChinese', bits: 64 },
  { preset: 'mysimhash', bits: 64 },
  { preset: 'mysimhash', bits: 128 },
];
// The default word-segmenting pipeline too (the dictionary shared across threads), once it constructs.
for (const bits of [64, 128]) {
  try {
    new lib.SimHash({ bits, backend: BACKENDS[0] });
    CONFIGS.push({ bits });
  } catch (error) {
    if (error.code !== 'SIMHASH_ZH_NOT_IMPLEMENTED' && error.code !== 'SIMHASH_ZH_DICT_IO') throw error;
  }
}

/** Fingerprints of TEXTS for each config as decimal strings (what a worker sends back). */
function expected() {
  return CONFIGS.map((config) => {
    const sim = new lib.SimHash({ ...config, backend: 'native' });
    return TEXTS.map((text) => sim.fingerprint(text).toString());
  });
}

/** Runs `script` (a CommonJS body; `dist` is the package) in a fresh node; returns its result. */
function runChild(script, args = [], timeout = 60000) {
  const body = `const dist = require(${JSON.stringify(DIST)});\n${script}`;
  return spawnSync(process.execPath, [...args, '-e', body], { encoding: 'utf8', timeout, env: process.env });
}

/** Asserts a clean exit: code 0, no signal, nothing that looks like a crash on stderr. */
function assertClean(result, what) {
  const output = `${result.stdout}\n${result.stderr}`;
  assert.equal(result.error, undefined, `${what}: ${result.error}`);
  assert.equal(result.signal, null, `${what}: killed by ${result.signal}\n${output}`);
  assert.equal(result.status, 0, `${what}: exit code ${result.status}\n${output}`);
  assert.doesNotMatch(result.stderr, /FATAL|Segmentation fault|Abort|core dumped|AddressSanitizer|runtime error|napi_|Assertion/i,
    `${what}: crash output\n${result.stderr}`);
}

const nativeOnly = BACKENDS.includes('native') ? describe : describe.skip;

nativeOnly('lifecycle: worker threads', function () {
  this.timeout(120000);

  it('loads the addon in 4 worker threads at once; each computes the main thread\'s fingerprints', async () => {
    const want = expected();
    const source = `
      const { parentPort, workerData } = require('node:worker_threads');
      const dist = require(workerData.dist);
      if (dist.backend !== 'native') throw new Error('native engine did not load: ' + dist.nativeLoadError);
      const out = workerData.configs.map((config) => {
        const sim = new dist.SimHash({ ...config, backend: 'native' });
        const one = workerData.texts.map((text) => sim.fingerprint(text).toString());
        const many = Array.from(sim.fingerprintMany(workerData.texts));
        return { one, many: many.map(String) };
      });
      parentPort.postMessage(out);`;
    const results = await Promise.all(Array.from({ length: 4 }, () => new Promise((resolve, reject) => {
      const worker = new Worker(source, { eval: true, workerData: { dist: DIST, texts: TEXTS, configs: CONFIGS } });
      let message;
      worker.once('message', (m) => { message = m; });
      worker.once('error', reject);
      worker.once('exit', (code) => (code === 0 && message ? resolve(message) : reject(new Error(`worker exited with ${code}`))));
    })));
    for (const result of results) {
      result.forEach((perConfig, c) => {
        assert.deepEqual(perConfig.one, want[c], `worker fingerprints differ for ${JSON.stringify(CONFIGS[c])}`);
        const main = Array.from(new lib.SimHash({ ...CONFIGS[c], backend: 'native' }).fingerprintMany(TEXTS), String);
        assert.deepEqual(perConfig.many, main);
      });
    }
  });

  // Regression: a worker terminated while its batch runs. node-addon-api's AsyncWorker completes during
  // the environment's teardown, cannot settle the promise and, without NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS
  // (binding.gyp, CMakeLists.txt), throws out of a C callback: std::terminate aborted the whole process
  // in about 9 runs of 10. Runs in a child process so a regression fails this test, not mocha.
  it('a worker terminated while its async batch runs does not take the process down', () => {
    for (let round = 0; round < 5; round++) {
      const result = runChild(`
        const { Worker } = require('node:worker_threads');
        const source = \`
          const { parentPort, workerData } = require('node:worker_threads');
          const sim = new (require(workerData.dist).SimHash)({ preset: 'mysimhash', backend: 'native' });
          const texts = Array.from({ length: 20000 }, (_, i) => '相似度检测 text ' + i + ' '.repeat(i % 50));
          sim.fingerprintManyAsync(texts).then((out) => parentPort.postMessage(out.length), () => {});
          parentPort.postMessage('started');\`;
        let finished = 0;
        for (const mode of ['terminate at start', 'terminate when done']) {
          const worker = new Worker(source, { eval: true, workerData: { dist: ${JSON.stringify(DIST)} } });
          worker.on('message', (m) => {
            if (m === 'started' && mode === 'terminate at start') worker.terminate();
            if (typeof m === 'number') worker.terminate();
          });
          worker.on('exit', () => { if (++finished === 2) console.log('ok'); });
        }`);
      assertClean(result, `worker termination, round ${round}`);
      assert.match(result.stdout, /ok/);
    }
  });
});

nativeOnly('lifecycle: process exit while async work is in flight', function () {
  this.timeout(120000);

  const START = `
    const sim = new dist.SimHash({ preset: 'SimHashChinese', backend: 'native' });
    const texts = Array.from({ length: 50000 }, (_, i) => 'C++ SimHash算法实现 高性能中文文本相似度检测与去重 ' + i);
    const controller = new AbortController();
    const pending = [sim.fingerprintManyAsync(texts), sim.fingerprintManyAsync(texts, { signal: controller.signal })];
    pending.forEach((p) => p.catch(() => {}));`;

  it('process.exit() right after starting', () => {
    assertClean(runChild(`${START}\nprocess.exit(0);`), 'exit right away');
  });

  it('process.exit() a few milliseconds in, with an abort racing it', () => {
    assertClean(runChild(`${START}\nsetTimeout(() => { controller.abort(); process.exit(0); }, 5);`), 'exit after 5 ms');
  });

  it('the event loop drains: the batches finish and the process ends by itself', () => {
    const result = runChild(`${START}\nPromise.allSettled(pending).then((r) => console.log(r.map((x) => x.status).join(',')));`);
    assertClean(result, 'natural end');
    assert.match(result.stdout, /fulfilled,fulfilled/);
  });

  it('an uncaught exception while batches run ends the process with its own error, not a crash', () => {
    const result = runChild(`${START}\nsetTimeout(() => { throw new Error('boom from the test'); }, 1);`);
    assert.equal(result.signal, null, result.stderr);
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, /boom from the test/);
    assert.doesNotMatch(result.stderr, /FATAL|Segmentation fault|core dumped|AddressSanitizer/);
  });
});

describe('lifecycle: an index under --expose-gc churn', function () {
  this.timeout(180000);

  for (const backend of BACKENDS) {
    it(`[${backend}] survives thousands of indexes created, dropped and collected while one is kept`, function () {
      if (typeof lib.SimHashIndex !== 'function') this.skip(); // SimHashIndex is not in dist yet
      const result = runChild(`
        const { SimHashIndex, SimHash } = dist;
        const backend = ${JSON.stringify(backend)};
        const sim = new SimHash({ preset: 'mysimhash', backend });
        const keep = new SimHashIndex({ backend });
        const fps = sim.fingerprintMany(Array.from({ length: 2000 }, (_, i) => 'doc ' + i + ' 相似度检测'));
        keep.addMany(Array.from({ length: 2000 }, (_, i) => i), fps);
        let bytes = keep.serialize();
        for (let round = 0; round < 300; round++) {
          // Garbage: indexes built, queried, serialized and dropped without a word.
          for (let j = 0; j < 10; j++) {
            const tmp = new SimHashIndex({ backend, bits: j % 2 ? 128 : 64, maxDistance: j % 4 });
            for (let k = 0; k < 50; k++) tmp.add(k, BigInt(k * 7919 + round));
            tmp.query(5n);
            if (j === 0) SimHashIndex.deserialize(tmp.serialize(), { backend }).query(1n);
          }
          if (round % 10 === 0) {
            keep.remove(round);
            keep.add(round, fps[round]);
            bytes = keep.serialize();
          }
          global.gc();
        }
        const again = SimHashIndex.deserialize(bytes, { backend });
        if (keep.size !== 2000 || again.size !== 2000) throw new Error('size changed: ' + keep.size + ' ' + again.size);
        for (let i = 0; i < 2000; i += 97) {
          const found = keep.query(fps[i], 0).map((m) => m.id);
          if (!found.includes(i)) throw new Error('lost entry ' + i);
          if (keep.get(i) !== fps[i]) throw new Error('wrong fingerprint for ' + i);
        }
        console.log('ok');`, ['--expose-gc'], 170000);
      assertClean(result, 'gc churn');
      assert.match(result.stdout, /ok/);
    });
  }

  it('SimHash and Segmenter (small dictionary) objects survive the same churn', function () {
    const result = runChild(`
      const backends = ${JSON.stringify(BACKENDS)};
      const dict = require(${JSON.stringify(path.join(__dirname, 'support', 'small-dictionary.js'))}).smallDictionary();
      const segs = backends.map((backend) => new dist.Segmenter({ backend, dictionary: dict }));
      const keep = backends.map((backend) => new dist.SimHash({ preset: 'mysimhash', bits: 128, backend }));
      const want = keep.map((s) => s.fingerprint('相似度检测'));
      for (let round = 0; round < 200; round++) {
        for (const backend of backends) {
          for (let j = 0; j < 20; j++) new dist.SimHash({ preset: j % 2 ? 'mysimhash' : 'SimHashChinese', backend }).fingerprint('x' + j);
          if (round % 4 === 0) new dist.Segmenter({ backend, dictionary: dict }).cut('北京大学生活' + round);
        }
        global.gc();
        keep.forEach((s, i) => { if (s.fingerprint('相似度检测') !== want[i]) throw new Error('changed'); });
        segs.forEach((s) => { if (s.cut('北京大学生活').join('|') !== '北京大学|生活') throw new Error('segmenter changed'); });
      }
      console.log('ok');`, ['--expose-gc']);
    assertClean(result, 'SimHash churn');
    assert.match(result.stdout, /ok/);
  });

  (BACKENDS.includes('native') ? it : it.skip)('dropped default-pipeline instances are collected without an explicit gc: the addon reports their memory', function () {
    // A used instance holds native scratch: tables of up to about 650 KB, resident as far as its
    // texts touched them, plus buffers. Unreported, V8 saw only the small wrapper and let
    // thousands pile up (RSS grew by about 700 MB here before a collection).
    const result = runChild(`
      (async () => {
        const { SimHash } = dist;
        new SimHash({ backend: 'native' }).fingerprint('预热');
        const before = process.memoryUsage().rss;
        let peak = before;
        for (let i = 1; i <= 4000; i++) {
          new SimHash({ backend: 'native' }).fingerprint('方鸿渐到了家里，北京大学 SimHash');
          if (i % 50 === 0) {
            await new Promise((resolve) => setImmediate(resolve)); // finalizers run between turns
            peak = Math.max(peak, process.memoryUsage().rss);
          }
        }
        console.log('growth MB', Math.round((peak - before) / 1048576));
      })();`);
    assertClean(result, 'instance churn');
    const growth = Number(/growth MB (-?\d+)/.exec(result.stdout)[1]);
    // Under AddressSanitizer (npm run test:asan) freed memory waits in a quarantine: RSS says nothing.
    if (process.env.ASAN_OPTIONS === undefined) assert.ok(growth < 400, `RSS grew by ${growth} MB over 4000 dropped instances`);
  });

  (BACKENDS.includes('native') ? it : it.skip)('an instance used once for a short text holds only the scratch pages it touched, even in a loop that never yields', function () {
    // Finalizers wait for the event loop, so a synchronous loop keeps every instance's scratch.
    // Its large tables are zero pages until touched (native/core/zeroed_memory.h); allocated
    // whole, each instance held about 680 KB here (2000 of them: +1,330 MB RSS).
    const result = runChild(`
      const { SimHash } = dist;
      new SimHash({ backend: 'native' }).fingerprint('预热');
      const before = process.memoryUsage().rss;
      for (let i = 0; i < 2000; i++) {
        new SimHash({ backend: 'native', words: [['鸿渐道' + (i % 7), 100]] }).fingerprint('方鸿渐到了家里，北京大学 SimHash ' + i);
      }
      console.log('growth MB', Math.round((process.memoryUsage().rss - before) / 1048576));`);
    assertClean(result, 'synchronous instance loop');
    const growth = Number(/growth MB (-?\d+)/.exec(result.stdout)[1]);
    if (process.env.ASAN_OPTIONS === undefined) assert.ok(growth < 600, `RSS grew by ${growth} MB over 2000 instances in a synchronous loop`);
  });
});

describe('lifecycle: native memory exhaustion', function () {
  this.timeout(60000);
  // prlimit caps the child's address space; AddressSanitizer needs terabytes of it, so not there.
  const canCapMemory = BACKENDS.includes('native') && process.platform === 'linux' && process.env.ASAN_OPTIONS === undefined &&
    spawnSync('prlimit', ['--version']).status === 0;
  (canCapMemory ? it : it.skip)('a failed native allocation is an Error with code ERR_MEMORY_ALLOCATION_FAILED, not a crash, and the instance still works', function () {
    // A std::bad_alloc leaving a native method used to terminate the process (node-addon-api
    // rethrows only its own errors). The child caps its address space 250 MB above what it uses,
    // then hands the native engine a 100 M-unit text: 300 MB as UTF-8.
    const result = runChild(`
      const { execFileSync } = require('node:child_process');
      const fs = require('node:fs');
      (async () => {
        const sim = new dist.SimHash({ backend: 'native' });
        const small = sim.fingerprint('方鸿渐到了家里');
        await sim.fingerprintManyAsync(['预热', '线程池']); // the thread pool starts before the cap
        const big = '中文文本重复检测'.repeat(12_500_000);
        const used = Number(/VmSize:\\s+(\\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
        execFileSync('prlimit', ['--pid=' + process.pid, '--as=' + (used + 250 * 1048576)]);
        const outcome = async (call) => {
          try { await call(); return 'returned'; } catch (error) { return [error.constructor.name, error.code, error.message].join(' | '); }
        };
        console.log(JSON.stringify({
          fingerprint: await outcome(() => sim.fingerprint(big)),
          fingerprintMany: await outcome(() => sim.fingerprintMany(['短', big])),
          tokens: await outcome(() => sim.tokens(big)),
          fingerprintManyAsync: await outcome(() => sim.fingerprintManyAsync([big])),
          after: sim.fingerprint('方鸿渐到了家里') === small,
        }));
      })();`);
    assertClean(result, 'native allocation failure');
    const failed = 'Error | ERR_MEMORY_ALLOCATION_FAILED | out of memory in the native fingerprinter';
    assert.deepEqual(JSON.parse(result.stdout), {
      fingerprint: failed, fingerprintMany: failed, tokens: failed, fingerprintManyAsync: failed, after: true,
    });
  });
});

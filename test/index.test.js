'use strict';
// SimHashIndex, dedup and cluster: one suite for both engines, brute-force references on random and
// adversarial sets, persistence (round trips, truncation, corruption, cross-engine files), bad input,
// native == js parity on random operation sequences, and a worker thread. No timing here: speed is
// measured by bench/index.js.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { Worker } = require('node:worker_threads');
const { lib, forEachBackend, BACKENDS } = require('./engines');
const { _internals } = require('../dist/simhash-index');

const { SimHashIndex, SimHashError, dedup, cluster } = lib;

// ---- deterministic data --------------------------------------------------------------------------

function rng(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  next.int = (n) => next() % n;
  next.fp = (bits) => {
    let v = 0n;
    for (let i = 0; i < bits / 32; i++) v = (v << 32n) | BigInt(next());
    return v;
  };
  next.flip = (fp, flips, bits) => {
    for (let i = 0; i < flips; i++) fp ^= 1n << BigInt(next.int(bits));
    return fp;
  };
  return next;
}

/** random | clustered | duplicates | bucket (all equal but the low 12 bits: one bucket in every table) */
function makeSet(kind, n, bits, r) {
  const centers = Array.from({ length: 8 }, () => r.fp(bits));
  const out = [];
  for (let i = 0; i < n; i++) {
    if (kind === 'random') out.push(r.fp(bits));
    else if (kind === 'clustered') out.push(r.flip(centers[r.int(8)], r.int(7), bits));
    else if (kind === 'duplicates') out.push(centers[r.int(3)]);
    else out.push((centers[0] & ~0xfffn) | BigInt(r.int(4096)));
  }
  return out;
}

function popcount(x) {
  let c = 0;
  while (x) {
    x &= x - 1n;
    c++;
  }
  return c;
}

/** The reference: a list in insertion order, scanned. */
class Model {
  constructor() {
    this.entries = [];
  }
  add(id, fp) {
    this.remove(id);
    this.entries.push([id, fp]);
  }
  remove(id) {
    const i = this.entries.findIndex((e) => e[0] === id);
    if (i < 0) return false;
    this.entries.splice(i, 1);
    return true;
  }
  query(fp, k) {
    const out = [];
    this.entries.forEach(([id, v], order) => {
      const distance = popcount(v ^ fp);
      if (distance <= k) out.push({ id, distance, order });
    });
    out.sort((a, b) => a.distance - b.distance || a.order - b.order);
    return out.map(({ id, distance }) => ({ id, distance }));
  }
}

function refDedup(fps, k) {
  const kept = [];
  const keep = [];
  const duplicates = [];
  fps.forEach((fp, i) => {
    let best;
    for (const j of kept) {
      const d = popcount(fp ^ fps[j]);
      if (d <= k && (best === undefined || d < best.distance)) best = { index: i, of: j, distance: d };
    }
    if (best) duplicates.push(best);
    else {
      kept.push(i);
      keep.push(i);
    }
  });
  return { keep, duplicates };
}

function refCluster(fps, k) {
  const parent = fps.map((_, i) => i);
  const find = (x) => (parent[x] === x ? x : (parent[x] = find(parent[x])));
  for (let i = 0; i < fps.length; i++) {
    for (let j = 0; j < i; j++) {
      if (popcount(fps[i] ^ fps[j]) <= k) {
        const a = find(i);
        const b = find(j);
        parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
  }
  const groups = new Map();
  fps.forEach((_, i) => {
    const root = find(i);
    if (!groups.has(root)) groups.set(root, []);
    groups.get(root).push(i);
  });
  return [...groups.values()];
}

function toWords(fps, bits) {
  const w = bits / 64;
  const out = new BigUint64Array(fps.length * w);
  fps.forEach((fp, i) => {
    out[i * w] = BigInt.asUintN(64, fp);
    if (w === 2) out[i * w + 1] = fp >> 64n;
  });
  return out;
}

function expectCode(fn, code) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof SimHashError, `expected a SimHashError, got ${error}`);
    assert.equal(error.code, code, error.message);
    return true;
  });
}

function withTempDir(body) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'simhash-zh-index-'));
  try {
    return body(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Rewrites the payload checksum after an edit (so only the edited field is wrong). */
function fixPayloadCrc(buf) {
  const payloadEnd = buf.length - 4;
  buf.writeUInt32LE(zlib.crc32(buf.subarray(32, payloadEnd)) >>> 0, payloadEnd);
  return buf;
}

const CONFIGS = [
  { bits: 64, maxDistance: 3, tables: 4 },
  { bits: 64, maxDistance: 3, tables: 10 },
  { bits: 64, maxDistance: 0, tables: 1 },
  { bits: 64, maxDistance: 1, tables: 2 },
  { bits: 64, maxDistance: 8, tables: 9 },
  { bits: 64, maxDistance: 2, tables: 6 },
  { bits: 128, maxDistance: 3, tables: 4 },
  { bits: 128, maxDistance: 6, tables: 7 },
  { bits: 128, maxDistance: 16, tables: 17 },
  { bits: 128, maxDistance: 0, tables: 1 },
  { bits: 128, maxDistance: 3, tables: 10 },
];

// ---- one suite, both engines ---------------------------------------------------------------------

forEachBackend('SimHashIndex', (backend) => {
  it('adds, finds, replaces and removes; results by distance then insertion order', function () {
    const index = new SimHashIndex({ backend });
    assert.equal(index.backend, backend);
    assert.deepEqual([index.bits, index.maxDistance, index.tables, index.size], [64, 3, 4, 0]);
    index.add(10, 0xffn).add(20, 0xfen).add(30, 0n).add(40, 0xffn);
    assert.equal(index.size, 4);
    assert.ok(index.has(10) && !index.has(11));
    assert.equal(index.get(20), 0xfen);
    assert.equal(index.get(21), undefined);
    // Exact duplicates are kept, in insertion order.
    assert.deepEqual(index.query(0xffn), [{ id: 10, distance: 0 }, { id: 40, distance: 0 }, { id: 20, distance: 1 }]);
    assert.deepEqual(index.query(0xffn, 0), [{ id: 10, distance: 0 }, { id: 40, distance: 0 }]);
    // Replacing moves the id to the end of the insertion order.
    index.add(10, 0xffn);
    assert.equal(index.size, 4);
    assert.deepEqual(index.query(0xffn, 0), [{ id: 40, distance: 0 }, { id: 10, distance: 0 }]);
    index.add(40, 1n << 63n);
    assert.deepEqual(index.query(0xffn, 1), [{ id: 10, distance: 0 }, { id: 20, distance: 1 }]);
    assert.equal(index.remove(10), true);
    assert.equal(index.remove(10), false);
    assert.equal(index.size, 3);
    assert.deepEqual(index.query(0xffn), [{ id: 20, distance: 1 }]);
    assert.deepEqual([...index.entries()], [[20, 0xfen], [30, 0n], [40, 1n << 63n]]);
  });

  it('ids are safe integers up to 2^53 - 1; fingerprints span the full width', function () {
    const index = new SimHashIndex({ backend, bits: 128, maxDistance: 4 });
    const top = (1n << 128n) - 1n;
    index.add(Number.MAX_SAFE_INTEGER, top).add(0, 0n);
    assert.deepEqual(index.query(top ^ (1n << 127n) ^ 1n), [{ id: Number.MAX_SAFE_INTEGER, distance: 2 }]);
    assert.deepEqual(index.queryMany([0n, top]), [[{ id: 0, distance: 0 }], [{ id: Number.MAX_SAFE_INTEGER, distance: 0 }]]);
  });

  for (const config of CONFIGS) {
    for (const kind of ['random', 'clustered', 'duplicates', 'bucket']) {
      it(`equals brute force: ${kind}, ${config.bits} bits, k=${config.maxDistance}, ${config.tables} tables`, function () {
        const r = rng(config.bits * 1000 + config.maxDistance * 10 + config.tables + kind.length);
        for (const n of [0, 1, 127, 128, 129, 700]) {
          const fps = makeSet(kind, n, config.bits, r);
          const index = new SimHashIndex({ ...config, backend });
          const model = new Model();
          // Half in one bulk call, the rest one by one: segments, the tail and merges all serve.
          const half = n >> 1;
          index.addMany(fps.slice(0, half).map((_, i) => i * 3), fps.slice(0, half));
          for (let i = 0; i < n; i++) {
            if (i >= half) index.add(i * 3, fps[i]);
            model.add(i * 3, fps[i]);
          }
          const queries = [];
          for (let q = 0; q < 40; q++) {
            queries.push(n > 0 && q % 2 === 0 ? r.flip(fps[r.int(n)], q % (config.maxDistance + 2), config.bits) : makeSet(kind, 1, config.bits, r)[0]);
          }
          for (const k of new Set([0, config.maxDistance >> 1, config.maxDistance])) {
            const many = index.queryMany(queries, k);
            queries.forEach((fp, i) => {
              const expected = model.query(fp, k);
              assert.deepEqual(index.query(fp, k), expected);
              assert.deepEqual(many[i], expected);
            });
            assert.deepEqual(_internals.bruteForceQueryMany(index, queries, k), many);
          }
        }
      });
    }
  }

  it('add, remove, replace and addMany in any order equal the model (compaction included)', function () {
    for (const bits of [64, 128]) {
      const r = rng(bits + 7);
      const pool = makeSet('clustered', 300, bits, r);
      const index = new SimHashIndex({ backend, bits });
      const model = new Model();
      for (let step = 0; step < 1500; step++) {
        const id = r.int(400);
        const op = r.int(10);
        if (op < 5) {
          const fp = pool[r.int(pool.length)];
          index.add(id, fp);
          model.add(id, fp);
        } else if (op < 9) {
          assert.equal(index.remove(id), model.remove(id));
        } else {
          const ids = Array.from({ length: 200 }, () => r.int(500));
          const fps = ids.map(() => pool[r.int(pool.length)]);
          index.addMany(ids, op % 2 ? fps : toWords(fps, bits));
          ids.forEach((x, i) => model.add(x, fps[i]));
        }
        assert.equal(index.size, model.entries.length);
        assert.equal(index.has(id), model.entries.some((e) => e[0] === id));
        const q = r.flip(pool[r.int(pool.length)], r.int(4), bits);
        assert.deepEqual(index.query(q), model.query(q, 3));
      }
      assert.deepEqual([...index.entries()], model.entries);
    }
  });

  it('addMany and queryMany take BigUint64Array words (two per fingerprint at 128 bits, low first)', function () {
    const fps = [1n, (5n << 64n) | 7n, (1n << 128n) - 1n];
    const a = new SimHashIndex({ backend, bits: 128 }).addMany([1, 2, 3], fps);
    const b = new SimHashIndex({ backend, bits: 128 }).addMany(new Float64Array([1, 2, 3]), toWords(fps, 128));
    assert.deepEqual([...a.entries()], [...b.entries()]);
    assert.deepEqual(a.queryMany(toWords(fps, 128)), a.queryMany(fps));
    assert.deepEqual(a.queryMany(fps).map((m) => m[0]), [{ id: 1, distance: 0 }, { id: 2, distance: 0 }, { id: 3, distance: 0 }]);
    // A later repeat of an id in one batch wins.
    const c = new SimHashIndex({ backend }).addMany([5, 5], [1n, 2n]);
    assert.deepEqual([...c.entries()], [[5, 2n]]);
    assert.deepEqual(new SimHashIndex({ backend }).queryMany([]), []);
  });

  it('rejects bad input with TypeError/RangeError and leaves the index untouched', function () {
    assert.throws(() => new SimHashIndex({ backend, bits: 32 }), RangeError);
    assert.throws(() => new SimHashIndex({ backend, bits: '64' }), TypeError);
    assert.throws(() => new SimHashIndex({ backend, maxDistance: 9 }), /\[0, 8\] at 64 bits/);
    assert.throws(() => new SimHashIndex({ backend, maxDistance: 9 }), RangeError);
    assert.doesNotThrow(() => new SimHashIndex({ backend, bits: 128, maxDistance: 16 }));
    assert.throws(() => new SimHashIndex({ backend, bits: 128, maxDistance: 17 }), /\[0, 16\] at 128 bits/);
    assert.throws(() => new SimHashIndex({ backend, maxDistance: 1.5 }), RangeError);
    assert.throws(() => new SimHashIndex({ backend, maxDistance: '3' }), TypeError);
    assert.throws(() => new SimHashIndex({ backend, tables: 5 }), /one of 4, 10, 20, 35/);
    assert.throws(() => new SimHashIndex({ backend, maxDistanse: 3 }), /unknown option 'maxDistanse'/);
    assert.deepEqual(SimHashIndex.supportedTables(64, 3), [4, 10, 20, 35]);
    assert.deepEqual(SimHashIndex.supportedTables(64, 0), [1]);
    const index = new SimHashIndex({ backend }).add(1, 1n);
    assert.throws(() => index.add('1', 1n), TypeError);
    assert.throws(() => index.add(-1, 1n), RangeError);
    assert.throws(() => index.add(2 ** 53, 1n), RangeError);
    assert.throws(() => index.add(1.5, 1n), RangeError);
    assert.throws(() => index.add(2, 1), TypeError);
    assert.throws(() => index.add(2, 1n << 64n), /\[0, 2\^64\) for a 64-bit index/);
    assert.throws(() => index.add(2, -1n), RangeError);
    assert.throws(() => index.query(1), TypeError);
    assert.throws(() => index.query(1n << 64n), RangeError);
    assert.throws(() => index.query(1n, 4), /\[0, 3\] for this index/);
    assert.throws(() => index.query(1n, -1), RangeError);
    assert.throws(() => index.query(1n, '2'), TypeError);
    assert.throws(() => index.addMany([2, 3], [1n]), RangeError);
    assert.throws(() => index.addMany([2, 'x'], [1n, 2n]), TypeError);
    assert.throws(() => index.addMany([2, 3], [1n, 2]), TypeError);
    assert.throws(() => index.addMany([2, 3], new BigInt64Array(2)), TypeError);
    assert.throws(() => index.addMany('ab', [1n, 2n]), TypeError);
    assert.throws(() => new SimHashIndex({ backend, bits: 128 }).addMany([1], new BigUint64Array(3)), RangeError);
    assert.throws(() => index.queryMany([1n, 1n << 64n]), RangeError);
    assert.throws(() => index.remove('1'), TypeError);
    assert.throws(() => index.has(-1), RangeError);
    assert.deepEqual([...index.entries()], [[1, 1n]]);
  });

  describe('persistence', function () {
    function sample(bits, n = 60) {
      const r = rng(bits + 99);
      const index = new SimHashIndex({ backend, bits, maxDistance: 3, tables: 10 });
      makeSet('clustered', n, bits, r).forEach((fp, i) => index.add(i * 5 + 1, fp));
      index.remove(6);
      index.add(1, 12345n);
      return index;
    }

    for (const bits of [64, 128]) {
      it(`round-trips at ${bits} bits into both engines`, function () {
        const index = sample(bits);
        const bytes = index.serialize();
        assert.ok(Buffer.isBuffer(bytes));
        assert.equal(bytes.length, 32 + index.size * (8 + bits / 8) + 4);
        for (const other of BACKENDS) {
          const loaded = SimHashIndex.deserialize(bytes, { backend: other });
          assert.equal(loaded.backend, other);
          assert.deepEqual([loaded.bits, loaded.maxDistance, loaded.tables, loaded.size], [bits, 3, 10, index.size]);
          assert.deepEqual([...loaded.entries()], [...index.entries()]);
          assert.ok(loaded.serialize().equals(bytes));
          const queries = [...index.entries()].map(([, fp]) => fp);
          assert.deepEqual(loaded.queryMany(queries), index.queryMany(queries));
        }
        // An empty index too.
        const empty = new SimHashIndex({ backend, bits });
        assert.equal(SimHashIndex.deserialize(empty.serialize(), { backend }).size, 0);
      });
    }

    it('every truncation → SIMHASH_ZH_INDEX_TRUNCATED', function () {
      const bytes = sample(64, 20).serialize();
      for (let n = 0; n < bytes.length; n++) {
        // A fresh copy of exactly n bytes, so nothing past the end is readable.
        expectCode(() => SimHashIndex.deserialize(Buffer.from(bytes.subarray(0, n)), { backend }), 'SIMHASH_ZH_INDEX_TRUNCATED');
      }
    });

    it('every flipped bit → SIMHASH_ZH_INDEX_CORRUPT (or _VERSION in the version field)', function () {
      const bytes = sample(128, 12).serialize();
      for (let pos = 0; pos < bytes.length; pos++) {
        for (let bit = 0; bit < 8; bit++) {
          const bad = Buffer.from(bytes);
          bad[pos] ^= 1 << bit;
          expectCode(() => SimHashIndex.deserialize(bad, { backend }), pos >= 8 && pos < 12 ? 'SIMHASH_ZH_INDEX_VERSION' : 'SIMHASH_ZH_INDEX_CORRUPT');
        }
      }
    });

    it('wrong version, trailing bytes, repeated or oversized ids, garbage', function () {
      const bytes = sample(64, 10).serialize();
      const v2 = Buffer.from(bytes);
      v2.writeUInt32LE(2, 8);
      assert.throws(() => SimHashIndex.deserialize(v2, { backend }), /version 2 is not supported \(this build reads version 1\)/);
      expectCode(() => SimHashIndex.deserialize(Buffer.concat([bytes, Buffer.from([0])]), { backend }), 'SIMHASH_ZH_INDEX_CORRUPT');
      const repeated = Buffer.from(bytes);
      repeated.copy(repeated, 40, 32, 40);
      expectCode(() => SimHashIndex.deserialize(fixPayloadCrc(repeated), { backend }), 'SIMHASH_ZH_INDEX_CORRUPT');
      const huge = Buffer.from(bytes);
      huge.writeUInt32LE(0x200000, 36);
      expectCode(() => SimHashIndex.deserialize(fixPayloadCrc(huge), { backend }), 'SIMHASH_ZH_INDEX_CORRUPT');
      expectCode(() => SimHashIndex.deserialize(Buffer.from('hello, world, this is not an index file at all'), { backend }), 'SIMHASH_ZH_INDEX_CORRUPT');
      expectCode(() => SimHashIndex.deserialize(Buffer.alloc(0), { backend }), 'SIMHASH_ZH_INDEX_TRUNCATED');
      const r = rng(5);
      for (let i = 0; i < 300; i++) {
        const junk = Buffer.alloc(r.int(120));
        for (let j = 0; j < junk.length; j++) junk[j] = r.int(256);
        if (i % 2 && junk.length >= 12) bytes.copy(junk, 0, 0, 12);
        assert.throws(() => SimHashIndex.deserialize(junk, { backend }), SimHashError);
      }
      assert.throws(() => SimHashIndex.deserialize('bytes', { backend }), TypeError);
    });

    it('save is atomic and load reads it back; a damaged file fails with a code', function () {
      withTempDir((dir) => {
        const file = path.join(dir, 'index.shzi');
        const index = sample(64);
        index.save(file);
        assert.ok(fs.readFileSync(file).equals(index.serialize()));
        assert.deepEqual(fs.readdirSync(dir), ['index.shzi'], 'no temporary file left behind');
        // Overwriting replaces the whole file.
        new SimHashIndex({ backend }).add(7, 7n).save(file);
        for (const other of BACKENDS) assert.deepEqual([...SimHashIndex.load(file, { backend: other }).entries()], [[7, 7n]]);
        fs.truncateSync(file, 20);
        expectCode(() => SimHashIndex.load(file, { backend }), 'SIMHASH_ZH_INDEX_TRUNCATED');
        assert.throws(() => SimHashIndex.load(path.join(dir, 'missing'), { backend }), (e) => e.code === 'SIMHASH_ZH_INDEX_IO' && e.cause.code === 'ENOENT');
        assert.throws(() => index.save(path.join(dir, 'no', 'such', 'dir', 'x')), (e) => e.code === 'SIMHASH_ZH_INDEX_IO' && e.cause.code === 'ENOENT');
        assert.deepEqual(fs.readdirSync(dir), ['index.shzi']);
        assert.throws(() => index.save(''), TypeError);
      });
    });
  });
});

forEachBackend('dedup and cluster', (backend) => {
  for (const bits of [64, 128]) {
    for (const kind of ['random', 'clustered', 'duplicates', 'bucket']) {
      it(`equal their O(n^2) definitions: ${kind}, ${bits} bits`, function () {
        const r = rng(bits + kind.length * 13);
        const fps = makeSet(kind, 250, bits, r);
        for (const maxDistance of [0, 3, 6]) {
          const expected = refDedup(fps, maxDistance);
          assert.deepEqual(dedup(fps, { backend, bits, maxDistance }), expected);
          assert.deepEqual(dedup(toWords(fps, bits), { backend, bits, maxDistance }), expected);
          assert.deepEqual(cluster(fps, { backend, bits, maxDistance }), refCluster(fps, maxDistance));
        }
        assert.deepEqual(dedup(fps, { backend, bits, maxDistance: 3, tables: 10 }), refDedup(fps, 3));
      });
    }
  }

  it('dedups texts with a SimHash instance or options', function () {
    const simhash = new lib.SimHash({ preset: 'mysimhash', backend });
    const base = '高性能中文文本相似度检测与去重 SimHash 算法 实现 海量 网页 去重 的 经典 方法 之一';
    const texts = [base, base + ' 。', 'Redis缓存高并发优化 后端服务性能调优实战教程', base, 'completely different text about cats'];
    const fps = texts.map((t) => simhash.fingerprint(t));
    const expected = refDedup(fps, 3);
    assert.deepEqual(dedup(texts, { backend, simhash }), expected);
    assert.deepEqual(dedup(texts, { backend, simhash: { preset: 'mysimhash', backend } }), expected);
    assert.deepEqual(cluster(texts, { backend, simhash }), refCluster(fps, 3));
    assert.deepEqual(dedup(texts, { backend, simhash }).duplicates.find((d) => d.index === 3), { index: 3, of: 0, distance: 0 });
    const wide = new lib.SimHash({ preset: 'mysimhash', bits: 128, backend });
    assert.deepEqual(dedup(texts, { backend, simhash: wide, maxDistance: 6 }), refDedup(texts.map((t) => wide.fingerprint(t)), 6));
    assert.throws(() => dedup(texts, { backend, simhash: wide, bits: 64 }), RangeError);
  });

  it('handles empty input and rejects bad items and options', function () {
    assert.deepEqual(dedup([], { backend }), { keep: [], duplicates: [] });
    assert.deepEqual(cluster(new BigUint64Array(0), { backend }), []);
    assert.deepEqual(cluster([5n], { backend }), [[0]]);
    assert.throws(() => dedup(['a', 1n], { backend }), TypeError);
    assert.throws(() => dedup([1n, 'a'], { backend }), TypeError);
    assert.throws(() => dedup([1, 2], { backend }), TypeError);
    assert.throws(() => dedup('ab', { backend }), TypeError);
    assert.throws(() => dedup([1n << 64n], { backend }), RangeError);
    assert.throws(() => dedup([1n], { backend, maxDistance: 9 }), RangeError);
    assert.throws(() => dedup([1n], { backend, tables: 3 }), RangeError);
    assert.throws(() => dedup([1n], { backend, maxDistanse: 3 }), TypeError);
    assert.throws(() => cluster(new BigUint64Array(3), { backend, bits: 128 }), RangeError);
  });
});

// ---- native == js ----------------------------------------------------------------------------------

(BACKENDS.includes('native') ? describe : describe.skip)('SimHashIndex native == js parity', function () {
  it('random operation sequences give identical answers and identical bytes', function () {
    for (let seed = 1; seed <= 12; seed++) {
      const r = rng(seed * 7919);
      const bits = seed % 2 ? 64 : 128;
      const maxDistance = r.int(bits / 8 + 1);
      const tablesChoices = SimHashIndex.supportedTables(bits, maxDistance);
      const options = { bits, maxDistance, tables: tablesChoices[r.int(Math.min(2, tablesChoices.length))] };
      const native = new SimHashIndex({ ...options, backend: 'native' });
      const js = new SimHashIndex({ ...options, backend: 'js' });
      const pool = makeSet(['random', 'clustered', 'duplicates', 'bucket'][seed % 4], 500, bits, r);
      for (let step = 0; step < 600; step++) {
        const op = r.int(20);
        const id = r.int(800);
        if (op < 10) {
          const fp = pool[r.int(pool.length)];
          native.add(id, fp);
          js.add(id, fp);
        } else if (op < 14) {
          assert.equal(native.remove(id), js.remove(id));
        } else if (op < 15) {
          const ids = Array.from({ length: r.int(400) }, () => r.int(1000));
          const fps = ids.map(() => pool[r.int(pool.length)]);
          native.addMany(ids, fps);
          js.addMany(ids, fps);
        } else {
          const queries = Array.from({ length: 8 }, () => r.flip(pool[r.int(pool.length)], r.int(maxDistance + 2), bits));
          const k = r.int(maxDistance + 1);
          assert.deepEqual(native.queryMany(queries, k), js.queryMany(queries, k));
          assert.deepEqual(native.query(queries[0], k), js.query(queries[0], k));
        }
      }
      assert.equal(native.size, js.size);
      assert.ok(native.serialize().equals(js.serialize()), `seed ${seed}: identical files`);
      const words = toWords(pool, bits);
      for (const k of [0, maxDistance]) {
        assert.deepEqual(dedup(words, { bits, maxDistance: k, backend: 'native' }), dedup(words, { bits, maxDistance: k, backend: 'js' }));
        assert.deepEqual(cluster(words, { bits, maxDistance: k, backend: 'native' }), cluster(words, { bits, maxDistance: k, backend: 'js' }));
      }
    }
  });

  it('works in a worker thread (per-environment class, no shared JS state)', async function () {
    const script = `
      const { parentPort } = require('node:worker_threads');
      const { SimHashIndex, dedup } = require(${JSON.stringify(path.join(__dirname, '..', 'dist'))});
      const index = new SimHashIndex({ backend: 'native' }).addMany([1, 2, 3], [0n, 1n, 0xffn]);
      const copy = SimHashIndex.deserialize(index.serialize(), { backend: 'native' });
      parentPort.postMessage({ q: copy.query(0n), d: dedup([0n, 1n, 0xffn], { backend: 'native' }) });`;
    const results = await Promise.all(
      [0, 1].map(
        () =>
          new Promise((resolve, reject) => {
            const worker = new Worker(script, { eval: true });
            worker.once('message', resolve);
            worker.once('error', reject);
          }),
      ),
    );
    for (const result of results) {
      assert.deepEqual(result.q, [{ id: 1, distance: 0 }, { id: 2, distance: 1 }]);
      assert.deepEqual(result.d.keep, [0, 2]);
    }
  });
});

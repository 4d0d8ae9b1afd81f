'use strict';
// The bad-input matrix: every public entry point fed wrong types, null, numbers, objects with
// toString, lone surrogates, NUL bytes, a 100 MB string, invalid hex, unsupported widths, negative or
// fractional distances and thresholds, corrupt dictionary and index files. Each row names the
// expected error class (exactly, not a subclass) and `code`, or checks the value returned; every row
// runs on both engines.
//
// Argument errors are TypeError/RangeError with Node's codes (the TypeScript layer validates before
// any engine runs, so both engines throw alike): ERR_INVALID_ARG_TYPE (a wrong type, always a
// TypeError), ERR_INVALID_ARG_VALUE (the right type, a value not allowed: an unknown option, preset or
// enum value, an empty word) and ERR_OUT_OF_RANGE (a number out of range, always a RangeError). File
// and engine errors are SimHashError with a stable SIMHASH_ZH_* code.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { BACKENDS, forEachBackend, lib } = require('./engines');
const { smallDictionary } = require('./support/small-dictionary');

const { SimHash, SimHashIndex, Segmenter, SimHashError } = lib;

const TYPE = 'ERR_INVALID_ARG_TYPE';
const VALUE = 'ERR_INVALID_ARG_VALUE';
const RANGE = 'ERR_OUT_OF_RANGE';
const WITH_TO_STRING = { toString: () => 'text', valueOf: () => 'text' };
const NOT_TEXT = [
  ['undefined', undefined], ['null', null], ['a number', 42], ['NaN', NaN], ['a bigint', 42n], ['a boolean', true],
  ['an object with toString', WITH_TO_STRING], ['a String object', new String('text')], ['an array', ['text']],
  ['a symbol', Symbol('text')], ['a function', () => 'text'], ['a Buffer', Buffer.from('text')],
];

function expectThrow(fn, Class, code) {
  let thrown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  checkError(thrown, Class, code);
}

async function expectReject(promiseOrFn, Class, code) {
  let thrown;
  try {
    await (typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn);
  } catch (error) {
    thrown = error;
  }
  checkError(thrown, Class, code);
}

function checkError(error, Class, code) {
  assert.ok(error !== undefined, `expected ${Class.name}, nothing was thrown`);
  assert.equal(error.constructor, Class, `expected ${Class.name}, got ${error.constructor?.name}: ${error.message}`);
  assert.equal(error.code, code, `expected code ${code}, got ${error.code} (${error.message})`);
  assert.ok(typeof error.message === 'string' && error.message.length > 0, 'the error says why');
}

/** Replaces each lone surrogate with U+FFFD (what both engines must see). */
function wellFormed(text) {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

const PRESETS = [
  { preset: 'SimHashChinese', bits: 64 },
  { preset: 'mysimhash', bits: 64 },
  { preset: 'mysimhash', bits: 128 },
];

forEachBackend('bad input: SimHash options', (backend) => {
  const rows = [
    ['options is a string', 'mysimhash', TypeError, TYPE],
    ['options is null', null, TypeError, TYPE],
    ['options is an array', [], TypeError, TYPE],
    ['unknown option', { preset: 'mysimhash', bit: 64 }, TypeError, VALUE],
    ['unknown preset', { preset: 'simhash' }, TypeError, VALUE],
    ['preset is a number', { preset: 1 }, TypeError, TYPE],
    ['an option a preset does not take', { preset: 'mysimhash', html: false }, TypeError, VALUE],
    ['bits 0', { preset: 'mysimhash', bits: 0 }, RangeError, RANGE],
    ['bits 63', { preset: 'mysimhash', bits: 63 }, RangeError, RANGE],
    ['bits 129', { preset: 'mysimhash', bits: 129 }, RangeError, RANGE],
    ['bits -64', { preset: 'mysimhash', bits: -64 }, RangeError, RANGE],
    ['bits 64.5', { preset: 'mysimhash', bits: 64.5 }, RangeError, RANGE],
    ['bits NaN', { preset: 'mysimhash', bits: NaN }, RangeError, RANGE],
    ['bits "64"', { preset: 'mysimhash', bits: '64' }, TypeError, TYPE],
    ['bits 64n', { preset: 'mysimhash', bits: 64n }, TypeError, TYPE],
    ['bits null', { preset: 'mysimhash', bits: null }, TypeError, TYPE],
    ['SimHashChinese at 128 bits', { preset: 'SimHashChinese', bits: 128 }, RangeError, RANGE],
    ['unknown backend', { preset: 'mysimhash', backend: 'gpu' }, TypeError, VALUE],
    ['backend is a number', { preset: 'mysimhash', backend: 1 }, TypeError, TYPE],
    ['html "yes"', { html: 'yes' }, TypeError, VALUE],
    ['html 1', { html: 1 }, TypeError, TYPE],
    ['unknown weighting', { weighting: 'bm25' }, TypeError, VALUE],
    ['weighting null', { weighting: null }, TypeError, TYPE],
    ['unknown features', { features: 'all' }, TypeError, VALUE],
    ['unknown sketch', { sketch: 'bbit' }, TypeError, VALUE],
    ['sketch is a number', { sketch: 1 }, TypeError, TYPE],
    ['sketch with a preset', { preset: 'mysimhash', sketch: 'simhash' }, TypeError, VALUE],
    ['hmm "yes"', { hmm: 'yes' }, TypeError, TYPE],
    ['foldWidth 1', { foldWidth: 1 }, TypeError, TYPE],
    ['dropNumbers "no"', { dropNumbers: 'no' }, TypeError, TYPE],
    ['wholeUrls 0', { wholeUrls: 0 }, TypeError, TYPE],
    ['words is a string', { words: '新词' }, TypeError, TYPE],
    ['words with an empty word', { words: [''] }, TypeError, VALUE],
    ['words with a number', { words: [42] }, TypeError, TYPE],
    ['words with a negative frequency', { words: [['新词', -1]] }, RangeError, RANGE],
    ['words with an infinite frequency', { words: [['新词', Infinity]] }, RangeError, RANGE],
    ['words with a fractional frequency (Segmenter#addWord takes integers too)', { words: [['新词', 0.99]] }, RangeError, RANGE],
    ['words with a frequency above 2^32 - 1', { words: [['新词', 2 ** 32]] }, RangeError, RANGE],
    ['words with a string frequency', { words: [['新词', '5']] }, TypeError, TYPE],
    ['stopWords is a number', { stopWords: 42 }, TypeError, TYPE],
    ['stopWords "" (a path)', { stopWords: '' }, TypeError, VALUE],
    ['stopWords with a number', { stopWords: ['的', 1] }, TypeError, TYPE],
    ['dictionary ""', { dictionary: '' }, TypeError, VALUE],
    ['dictionary is a number', { dictionary: 42 }, TypeError, TYPE],
  ];
  for (const [what, options, Class, code, pending] of rows) {
    if (pending) {
      it(`${what} -> ${Class.name} ${code} (pending: ${pending})`);
      continue;
    }
    it(`${what} -> ${Class.name} ${code}`, () => {
      const given = options && typeof options === 'object' && !Array.isArray(options) ? { backend, ...options } : options;
      expectThrow(() => new SimHash(given), Class, code);
    });
  }
  it('the code is an own enumerable property, as on Node\'s own argument errors', () => {
    let ours;
    try {
      new SimHash({ backend, preset: 'simhash' });
    } catch (error) {
      ours = error;
    }
    let node;
    try {
      Buffer.alloc('1');
    } catch (error) {
      node = error;
    }
    assert.equal(node.code, TYPE);
    for (const error of [ours, node]) {
      assert.ok(Object.prototype.hasOwnProperty.call(error, 'code'));
      assert.ok(Object.keys(error).includes('code'));
    }
    assert.equal(ours.name, 'TypeError');
    assert.match(ours.message, /valid presets are 'SimHashChinese', 'mysimhash'/);
  });
});

forEachBackend('bad input: text', (backend) => {
  for (const { preset, bits } of PRESETS) {
    describe(`${preset} at ${bits} bits`, () => {
      const sim = new SimHash({ preset, bits, backend });
      const other = new SimHash({ preset, bits, backend: BACKENDS.find((b) => b !== backend) ?? backend });
      for (const [what, value] of NOT_TEXT) {
        it(`fingerprint/hex/binaryString/tokens(${what}) -> TypeError`, () => {
          for (const method of ['fingerprint', 'hex', 'binaryString', 'tokens']) expectThrow(() => sim[method](value), TypeError, TYPE);
        });
      }
      it('distance/similarity of a non-text non-bigint -> TypeError', () => {
        for (const [, value] of NOT_TEXT.filter(([, v]) => typeof v !== 'bigint')) {
          expectThrow(() => sim.distance(value, 'text'), TypeError, TYPE);
          expectThrow(() => sim.similarity('text', value), TypeError, TYPE);
        }
      });
      it('fingerprintMany of a non-array or with a non-string -> TypeError ERR_INVALID_ARG_TYPE', () => {
        for (const texts of ['text', null, undefined, 42, { length: 1, 0: 'a' }, new Set(['a']), ['a', null], ['a', 1], [WITH_TO_STRING]]) {
          expectThrow(() => sim.fingerprintMany(texts), TypeError, TYPE);
        }
        // eslint-disable-next-line no-sparse-arrays
        expectThrow(() => sim.fingerprintMany(['a', , 'b']), TypeError, TYPE);
      });
      it('fingerprintMany(Async) of a Proxy of an array, or of an array whose getters change it: each text read once, both engines alike', async () => {
        const texts = ['北京大学的研究', 'SimHash 中文去重', ''];
        const expected = other.fingerprintMany(texts);
        assert.deepEqual(sim.fingerprintMany(new Proxy(texts, {})), expected);
        assert.deepEqual(await sim.fingerprintManyAsync(new Proxy(texts, {})), expected);
        // A getter that rewrites the array while it is read: the texts are the ones read, once each.
        let reads = 0;
        const changing = [...texts];
        Object.defineProperty(changing, 1, { get: () => { reads++; changing[2] = 'changed'; return texts[1]; } });
        assert.deepEqual(sim.fingerprintMany(changing), other.fingerprintMany(texts.slice(0, 2).concat(['changed'])));
        assert.equal(reads, 1);
        // One that shrinks it: the length read first stands, so the missing text is not a string.
        const shrinking = [...texts];
        Object.defineProperty(shrinking, 0, { get: () => { shrinking.length = 1; return texts[0]; } });
        expectThrow(() => sim.fingerprintMany(shrinking), TypeError, TYPE);
      });
      it('fingerprintManyAsync: bad texts, bad options, bad signal -> TypeError with a code (rejected)', async () => {
        await expectReject(() => sim.fingerprintManyAsync('text'), TypeError, TYPE);
        await expectReject(() => sim.fingerprintManyAsync([1]), TypeError, TYPE);
        await expectReject(() => sim.fingerprintManyAsync(['a'], { sigal: undefined }), TypeError, VALUE);
        await expectReject(() => sim.fingerprintManyAsync(['a'], { signal: {} }), TypeError, TYPE);
        await expectReject(() => sim.fingerprintManyAsync(['a'], 'options'), TypeError, TYPE);
        await expectReject(() => sim.fingerprintManyAsync(['a'], null), TypeError, TYPE);
        await expectReject(() => sim.fingerprintManyAsync(['a'], { signal: AbortSignal.abort() }), DOMException, 20);
      });
      it('lone surrogates read as U+FFFD, identically in both engines', () => {
        for (const text of ['a\uD800b', '\uDC00', 'end\uD83D', '\uDE00\uD83D', '中\uDBFF\uDFFF\uD800文', '\uD800'.repeat(50)]) {
          const fp = sim.fingerprint(text);
          assert.equal(fp, sim.fingerprint(wellFormed(text)), JSON.stringify(text));
          assert.equal(fp, other.fingerprint(text), `engines differ on ${JSON.stringify(text)}`);
          assert.deepEqual(sim.tokens(text), sim.tokens(wellFormed(text)));
          assert.deepEqual(Array.from(sim.fingerprintMany([text, 'x'])).slice(0, bits / 64), Array.from(sim.fingerprintMany([wellFormed(text), 'x'])).slice(0, bits / 64));
        }
      });
      it('NUL characters are text like any other', () => {
        for (const text of ['\0', 'a\0b', '\0\0\0中文\0', 'x'.repeat(100) + '\0']) {
          const fp = sim.fingerprint(text);
          assert.equal(typeof fp, 'bigint');
          assert.equal(fp, other.fingerprint(text), `engines differ on ${JSON.stringify(text)}`);
          assert.ok(fp < 1n << BigInt(bits));
        }
        if (preset === 'mysimhash') assert.notEqual(sim.fingerprint('a\0b'), sim.fingerprint('ab'));
      });
    });
  }
});

forEachBackend('bad input: a 100 MB string', (backend) => {
  it('is fingerprinted once, the same as the other engine', function () {
    this.timeout(300000);
    const unit = '相似度检测 SimHash算法，高性能 text\n';
    const text = unit.repeat(Math.ceil((100 * 2 ** 20) / Buffer.byteLength(unit)));
    assert.ok(Buffer.byteLength(text) >= 100 * 2 ** 20);
    const fp = new SimHash({ preset: 'mysimhash', backend }).fingerprint(text);
    // The value both engines computed (the seed's int sums wrap around at this size, identically).
    assert.equal(fp, 2212969029096n);
  });
});

forEachBackend('bad input: fingerprints, hex and distances', (backend) => {
  const sim = new SimHash({ preset: 'mysimhash', backend });
  const rows = [
    ['hammingDistance(1, 2)', () => lib.hammingDistance(1, 2), TypeError, TYPE],
    ['hammingDistance(1.5, 0n)', () => lib.hammingDistance(1.5, 0n), TypeError, TYPE],
    ['hammingDistance(-1n, 0n)', () => lib.hammingDistance(-1n, 0n), RangeError, RANGE],
    ['hammingDistance(2^128, 0n)', () => lib.hammingDistance(1n << 128n, 0n), RangeError, RANGE],
    ['hammingDistance("ff", 0n)', () => lib.hammingDistance('ff', 0n), TypeError, TYPE],
    ['distance(-1n, 0n)', () => sim.distance(-1n, 0n), RangeError, RANGE],
    ['distance(2^64, 0n) at 64 bits', () => sim.distance(1n << 64n, 0n), RangeError, RANGE],
    ['distance(1.5, 0n)', () => sim.distance(1.5, 0n), TypeError, TYPE],
    ['isSimilar threshold -1', () => sim.isSimilar('a', 'b', -1), RangeError, RANGE],
    ['isSimilar threshold 100.5', () => sim.isSimilar('a', 'b', 100.5), RangeError, RANGE],
    ['isSimilar threshold NaN', () => sim.isSimilar('a', 'b', NaN), RangeError, RANGE],
    ['isSimilar threshold "90"', () => sim.isSimilar('a', 'b', '90'), TypeError, TYPE],
    ['isSimilar threshold null', () => sim.isSimilar('a', 'b', null), TypeError, TYPE],
    ['fromHex("xyz")', () => lib.fromHex('xyz'), TypeError, VALUE],
    ['fromHex of 15 digits', () => lib.fromHex('0123456789abcde'), TypeError, VALUE],
    ['fromHex of 17 digits', () => lib.fromHex('0123456789abcdef0'), TypeError, VALUE],
    ['fromHex with 0x', () => lib.fromHex('0x0123456789abcdef'), TypeError, VALUE],
    ['fromHex with a space', () => lib.fromHex(' 0123456789abcdef'), TypeError, VALUE],
    ['fromHex with g', () => lib.fromHex('0123456789abcdeg'), TypeError, VALUE],
    ['fromHex with a sign', () => lib.fromHex('-123456789abcdef'), TypeError, VALUE],
    ['fromHex of fullwidth digits', () => lib.fromHex('０１２３４５６７８９ａｂｃｄｅｆ'), TypeError, VALUE],
    ['fromHex(null)', () => lib.fromHex(null), TypeError, TYPE],
    ['fromHex(42)', () => lib.fromHex(42), TypeError, TYPE],
    ['fromHex(object with toString)', () => lib.fromHex({ toString: () => '0123456789abcdef' }), TypeError, TYPE],
    ['toHex(-1n)', () => lib.toHex(-1n), RangeError, RANGE],
    ['toHex(2^64, 64)', () => lib.toHex(1n << 64n, 64), RangeError, RANGE],
    ['toHex(1n, 63)', () => lib.toHex(1n, 63), RangeError, RANGE],
    ['toHex(1n, 0)', () => lib.toHex(1n, 0), RangeError, RANGE],
    ['toHex(1)', () => lib.toHex(1), TypeError, TYPE],
    ['toBinaryString(1n, 129)', () => lib.toBinaryString(1n, 129), RangeError, RANGE],
    ['toBinaryString(1n, "64")', () => lib.toBinaryString(1n, '64'), TypeError, TYPE],
    ['binaryStringDistance(1, "0")', () => lib.binaryStringDistance(1, '0'), TypeError, TYPE],
  ];
  for (const [what, fn, Class, code] of rows) {
    it(`${what} -> ${Class.name} ${code}`, () => expectThrow(fn, Class, code));
  }
  it('accepts a fractional threshold and the extremes', () => {
    assert.equal(sim.isSimilar('a', 'a', 99.5), true);
    assert.equal(sim.isSimilar('a', 'a', 100), true);
    assert.equal(typeof sim.isSimilar('a', 'b', 0), 'boolean');
    assert.equal(lib.fromHex('0123456789ABCDEF'), 0x0123456789abcdefn);
  });
});

forEachBackend('bad input: SimHashIndex', (backend) => {
  const index = () => new SimHashIndex({ backend });
  const optionRows = [
    ['bits 63', { bits: 63 }, RangeError, RANGE],
    ['bits 0', { bits: 0 }, RangeError, RANGE],
    ['bits 129', { bits: 129 }, RangeError, RANGE],
    ['maxDistance -1', { maxDistance: -1 }, RangeError, RANGE],
    ['maxDistance 1.5', { maxDistance: 1.5 }, RangeError, RANGE],
    ['maxDistance 9 at 64 bits', { maxDistance: 9 }, RangeError, RANGE],
    ['maxDistance 17 at 128 bits', { bits: 128, maxDistance: 17 }, RangeError, RANGE],
    ['maxDistance NaN', { maxDistance: NaN }, RangeError, RANGE],
    ['maxDistance "3"', { maxDistance: '3' }, TypeError, TYPE],
    ['tables 5 for maxDistance 3', { maxDistance: 3, tables: 5 }, RangeError, RANGE],
    ['tables -1', { tables: -1 }, RangeError, RANGE],
    ['tables "4"', { tables: '4' }, TypeError, TYPE],
    ['unknown option', { max: 3 }, TypeError, VALUE],
    ['unknown backend', { backend: 'gpu' }, TypeError, VALUE],
  ];
  for (const [what, options, Class, code] of optionRows) {
    it(`new SimHashIndex(${what}) -> ${Class.name} ${code}`, () => expectThrow(() => new SimHashIndex({ backend, ...options }), Class, code));
  }
  it('new SimHashIndex(null / a string) -> TypeError ERR_INVALID_ARG_TYPE', () => {
    expectThrow(() => new SimHashIndex(null), TypeError, TYPE);
    expectThrow(() => new SimHashIndex('64'), TypeError, TYPE);
  });
  const callRows = [
    ['add(-1, 0n)', (ix) => ix.add(-1, 0n), RangeError, RANGE],
    ['add(1.5, 0n)', (ix) => ix.add(1.5, 0n), RangeError, RANGE],
    ['add(2^53, 0n)', (ix) => ix.add(2 ** 53, 0n), RangeError, RANGE],
    ['add(NaN, 0n)', (ix) => ix.add(NaN, 0n), RangeError, RANGE],
    ['add("1", 0n)', (ix) => ix.add('1', 0n), TypeError, TYPE],
    ['add(null, 0n)', (ix) => ix.add(null, 0n), TypeError, TYPE],
    ['add(1, 1)', (ix) => ix.add(1, 1), TypeError, TYPE],
    ['add(1, "ff")', (ix) => ix.add(1, 'ff'), TypeError, TYPE],
    ['add(1, -1n)', (ix) => ix.add(1, -1n), RangeError, RANGE],
    ['add(1, 2^64) at 64 bits', (ix) => ix.add(1, 1n << 64n), RangeError, RANGE],
    ['addMany with a non-bigint', (ix) => ix.addMany([1, 2], [1n, 2]), TypeError, TYPE],
    ['addMany with lengths that differ', (ix) => ix.addMany([1, 2], [1n]), RangeError, VALUE],
    ['remove(-1)', (ix) => ix.remove(-1), RangeError, RANGE],
    ['remove("1")', (ix) => ix.remove('1'), TypeError, TYPE],
    ['query(1)', (ix) => ix.query(1), TypeError, TYPE],
    ['query(0n, -1)', (ix) => ix.query(0n, -1), RangeError, RANGE],
    ['query(0n, 1.5)', (ix) => ix.query(0n, 1.5), RangeError, RANGE],
    ['query(0n, 4) above the index maxDistance 3', (ix) => ix.query(0n, 4), RangeError, RANGE],
    ['query(0n, "2")', (ix) => ix.query(0n, '2'), TypeError, TYPE],
    ['queryMany("x")', (ix) => ix.queryMany('x'), TypeError, TYPE],
    ['queryMany([0n], 9)', (ix) => ix.queryMany([0n], 9), RangeError, RANGE],
    ['addMany("ids", [])', (ix) => ix.addMany('ids', []), TypeError, TYPE],
    ['addMany([-1], [0n])', (ix) => ix.addMany([-1], [0n]), RangeError, RANGE],
    ['addMany of 3 words at 128 bits', () => new SimHashIndex({ backend, bits: 128 }).addMany([1], new BigUint64Array(3)), RangeError, VALUE],
    ['has(1.5)', (ix) => ix.has(1.5), RangeError, RANGE],
    ['get("1")', (ix) => ix.get('1'), TypeError, TYPE],
    ['save("")', (ix) => ix.save(''), TypeError, VALUE],
    ['save(42)', (ix) => ix.save(42), TypeError, TYPE],
    ['SimHashIndex.load("")', () => SimHashIndex.load('', { backend }), TypeError, VALUE],
    ['SimHashIndex.load(null)', () => SimHashIndex.load(null, { backend }), TypeError, TYPE],
    ['supportedTables(64, 9)', () => SimHashIndex.supportedTables(64, 9), RangeError, RANGE],
    ['supportedTables(32, 3)', () => SimHashIndex.supportedTables(32, 3), RangeError, RANGE],
    ['dedup("text")', () => lib.dedup('text', { backend }), TypeError, TYPE],
    ['dedup of mixed strings and bigints', () => lib.dedup(['a', 1n], { backend }), TypeError, TYPE],
    ['dedup with an unknown option', () => lib.dedup([1n], { backend, distance: 3 }), TypeError, VALUE],
    ['dedup maxDistance 9', () => lib.dedup([1n], { backend, maxDistance: 9 }), RangeError, RANGE],
    ['dedup of texts at bits other than the SimHash\'s', () => lib.dedup(['a'], { backend, simhash: { backend, bits: 128 }, bits: 64 }), RangeError, RANGE],
    ['cluster simhash 42', () => lib.cluster([1n], { backend, simhash: 42 }), TypeError, TYPE],
  ];
  for (const [what, fn, Class, code] of callRows) {
    it(`${what} -> ${Class.name} ${code}`, () => expectThrow(() => fn(index()), Class, code));
  }

  describe('corrupt index files', () => {
    const source = new SimHashIndex({ backend });
    for (let i = 0; i < 20; i++) source.add(i, BigInt(i) * 0x9e3779b97f4a7c15n % (1n << 64n));
    const good = source.serialize();
    const edit = (fn) => {
      const copy = Buffer.from(good);
      fn(copy);
      return copy;
    };
    const rows = [
      ['empty', new Uint8Array(0), 'SIMHASH_ZH_INDEX_TRUNCATED'],
      ['the header alone', good.subarray(0, 32), 'SIMHASH_ZH_INDEX_TRUNCATED'],
      ['cut in the middle', good.subarray(0, good.length >> 1), 'SIMHASH_ZH_INDEX_TRUNCATED'],
      ['one byte short', good.subarray(0, good.length - 1), 'SIMHASH_ZH_INDEX_TRUNCATED'],
      ['a trailing byte', Buffer.concat([good, Buffer.alloc(1)]), 'SIMHASH_ZH_INDEX_CORRUPT'],
      ['bad magic', edit((b) => { b[1] ^= 0x20; }), 'SIMHASH_ZH_INDEX_CORRUPT'],
      ['version 2', edit((b) => { b[8] = 2; }), 'SIMHASH_ZH_INDEX_VERSION'],
      ['a flipped header bit', edit((b) => { b[13] ^= 1; }), 'SIMHASH_ZH_INDEX_CORRUPT'],
      ['a flipped payload bit', edit((b) => { b[40] ^= 1; }), 'SIMHASH_ZH_INDEX_CORRUPT'],
      ['text', Buffer.from('this is not an index file, it is text'), 'SIMHASH_ZH_INDEX_CORRUPT'],
      ['a dictionary file', Buffer.from(smallDictionary()), 'SIMHASH_ZH_INDEX_CORRUPT'],
    ];
    for (const [what, bytes, code] of rows) {
      it(`${what} -> SimHashError ${code}`, () => {
        expectThrow(() => SimHashIndex.deserialize(bytes, { backend }), SimHashError, code);
      });
    }
    it('not bytes -> TypeError ERR_INVALID_ARG_TYPE', () => {
      for (const value of [null, 'file', 42, [1, 2, 3], new Uint16Array(4)]) {
        expectThrow(() => SimHashIndex.deserialize(value, { backend }), TypeError, TYPE);
      }
      expectThrow(() => SimHashIndex.deserialize(good, { backend, bits: 64 }), TypeError, VALUE);
    });
    it('a missing file, or a directory that does not exist to save into -> SIMHASH_ZH_INDEX_IO, the file system error its cause', () => {
      expectThrow(() => SimHashIndex.load('/nonexistent/simhash-zh.idx', { backend }), SimHashError, 'SIMHASH_ZH_INDEX_IO');
      assert.throws(() => SimHashIndex.load('/nonexistent/simhash-zh.idx', { backend }), (e) => e.cause.code === 'ENOENT' && /nonexistent\/simhash-zh\.idx/.test(e.message));
      expectThrow(() => new SimHashIndex({ backend }).save('/nonexistent/dir/simhash-zh.idx'), SimHashError, 'SIMHASH_ZH_INDEX_IO');
    });
    it('the intact file loads and answers alike', () => {
      const loaded = SimHashIndex.deserialize(good, { backend });
      assert.equal(loaded.size, 20);
      assert.deepEqual(loaded.query(0n), source.query(0n));
    });
  });
});

forEachBackend('bad input: Segmenter and dictionaries', (backend) => {
  const dict = Buffer.from(smallDictionary());
  const edit = (fn) => {
    const copy = Buffer.from(dict);
    fn(copy);
    return copy;
  };
  const rows = [
    ['a truncated file', dict.subarray(0, 5000), SimHashError, 'SIMHASH_ZH_DICT_CORRUPT'],
    ['a header shorter than 96 bytes', dict.subarray(0, 50), SimHashError, 'SIMHASH_ZH_DICT_CORRUPT'],
    ['one byte short', dict.subarray(0, dict.length - 1), SimHashError, 'SIMHASH_ZH_DICT_CORRUPT'],
    ['a trailing byte', Buffer.concat([dict, Buffer.alloc(1)]), SimHashError, 'SIMHASH_ZH_DICT_CORRUPT'],
    ['a flipped bit (checksum)', edit((b) => { b[dict.length - 100] ^= 1; }), SimHashError, 'SIMHASH_ZH_DICT_CORRUPT'],
    ['version 9', edit((b) => { b[8] = 9; }), SimHashError, 'SIMHASH_ZH_DICT_VERSION'],
    ['text with four fields', Buffer.from('相似度 100 n extra\n'), SimHashError, 'SIMHASH_ZH_DICT_PARSE'],
    ['text with a negative frequency', Buffer.from('词 -5\n'), SimHashError, 'SIMHASH_ZH_DICT_PARSE'],
    ['text with a fractional frequency', Buffer.from('词 1.5\n'), SimHashError, 'SIMHASH_ZH_DICT_PARSE'],
    ['a missing file', '/nonexistent/simhash-zh.dict', SimHashError, 'SIMHASH_ZH_DICT_IO'],
    ['a directory', __dirname, SimHashError, 'SIMHASH_ZH_DICT_IO'],
    ['text that is not UTF-8', Buffer.from([0xe8, 0xaf, 0x8d, 0x20, 0x35, 0x0a, 0xff, 0x20, 0x35, 0x0a]), SimHashError, 'SIMHASH_ZH_DICT_ENCODING'],
    ['a number', 42, TypeError, TYPE],
    ['null', null, TypeError, TYPE],
    ['an object with toString', { toString: () => '/tmp/x.dict' }, TypeError, TYPE],
    ['an empty path', '', TypeError, VALUE],
  ];
  for (const [what, dictionary, Class, code] of rows) {
    it(`dictionary: ${what} -> ${Class.name}${code ? ' ' + code : ''}`, () => {
      expectThrow(() => new Segmenter({ backend, dictionary }), Class, code);
    });
  }
  it('the intact small dictionary loads and cuts', () => {
    assert.deepEqual(new Segmenter({ backend, dictionary: dict }).cut('北京大学生活'), ['北京大学', '生活']);
  });
  it('cut: not text -> TypeError; lone surrogates and NUL are cut like other characters', () => {
    const seg = new Segmenter({ backend, dictionary: dict });
    for (const [, value] of NOT_TEXT) expectThrow(() => seg.cut(value), TypeError, TYPE);
    expectThrow(() => seg.cut('text', { mode: 'fast' }), TypeError, VALUE);
    expectThrow(() => seg.cut('text', { mode: 1 }), TypeError, TYPE);
    expectThrow(() => seg.cut('text', { hmm: 1 }), TypeError, TYPE);
    expectThrow(() => seg.cut('text', { hmmm: true }), TypeError, VALUE);
    expectThrow(() => seg.cut('text', 'longest'), TypeError, TYPE);
    assert.equal(seg.cut('北京\uD800大学\0生活').join(''), '北京\uFFFD大学\0生活');
  });
  const optionRows = [
    ['options is a string', () => new Segmenter('jieba'), TypeError, TYPE],
    ['unknown option', () => new Segmenter({ backend, dictionary: dict, dict }), TypeError, VALUE],
    ['hmm "yes"', () => new Segmenter({ backend, dictionary: dict, hmm: 'yes' }), TypeError, TYPE],
    ['unknown backend', () => new Segmenter({ backend: 'wasm', dictionary: dict }), TypeError, VALUE],
    ['stopWords is a number', () => new Segmenter({ backend, dictionary: dict, stopWords: 42 }), TypeError, TYPE],
    ['stopWords with a number', () => new Segmenter({ backend, dictionary: dict, stopWords: ['的', 1] }), TypeError, TYPE],
  ];
  for (const [what, fn, Class, code] of optionRows) {
    it(`new Segmenter: ${what} -> ${Class.name} ${code}`, () => expectThrow(fn, Class, code));
  }
  const callRows = [
    ['addWord("")', (seg) => seg.addWord(''), RangeError, VALUE],
    ['addWord(42)', (seg) => seg.addWord(42), TypeError, TYPE],
    ['addWord("词", -1)', (seg) => seg.addWord('词', -1), RangeError, RANGE],
    ['addWord("词", 1.5)', (seg) => seg.addWord('词', 1.5), RangeError, RANGE],
    ['addWord("词", 2^32)', (seg) => seg.addWord('词', 2 ** 32), RangeError, RANGE],
    ['addWord("词", "5")', (seg) => seg.addWord('词', '5'), TypeError, TYPE],
    ['loadUserDict(42)', (seg) => seg.loadUserDict(42), TypeError, TYPE],
    ['entryIdf(1.5)', (seg) => seg.entryIdf(1.5), TypeError, VALUE],
    ['entryIdf("1")', (seg) => seg.entryIdf('1'), TypeError, TYPE],
    ['hasWord(null)', (seg) => seg.hasWord(null), TypeError, TYPE],
    ['forEachWord(42, true, fn)', (seg) => seg.forEachWord(42, true, () => {}), TypeError, TYPE],
    ['forEachWord("x", 1, fn)', (seg) => seg.forEachWord('x', 1, () => {}), TypeError, TYPE],
    ['forEachWord("x", true, 42)', (seg) => seg.forEachWord('x', true, 42), TypeError, TYPE],
  ];
  for (const [what, fn, Class, code] of callRows) {
    it(`${what} -> ${Class.name} ${code}`, () => expectThrow(() => fn(new Segmenter({ backend, dictionary: dict })), Class, code));
  }
});

forEachBackend('bad input: text dictionaries that are not UTF-8', (backend) => {
  const bytes = (...parts) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
  // A BOM, a CRLF line, then bad bytes on line 3.
  const badLine3 = bytes('\uFEFF北京大学 100\n', '生活 50\r\n', '坏', [0xe8, 0xaf], ' 5\n', '好 1\n');
  let tmp;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'simhash-zh-encoding-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const isEncodingError = (line, file) => (error) => {
    checkError(error, SimHashError, 'SIMHASH_ZH_DICT_ENCODING');
    assert.match(error.message, new RegExp(`\\bline ${line}\\b`));
    if (file !== undefined) assert.ok(error.message.includes(file), `the message names ${file}: ${error.message}`);
    return true;
  };
  const invalid = [
    ['a lone continuation byte', [0x80]],
    ['a truncated sequence at the end', [0xe5, 0x8c]],
    ['an overlong encoding', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a Latin-1 byte', [0xe9]],
    ['GBK', [0xb1, 0xb1, 0xbe, 0xa9]],
  ];
  for (const [what, bad] of invalid) {
    it(`dictionary bytes with ${what} -> SIMHASH_ZH_DICT_ENCODING naming the line`, () => {
      const text = bytes('词 5\n', 'x', bad, 'y 3\n');
      assert.throws(() => new Segmenter({ backend, dictionary: text }), isEncodingError(2));
    });
  }
  it('a dictionary file: the error names the file and the line (a BOM and CRLF do not count)', () => {
    const file = path.join(tmp, 'bad.txt');
    fs.writeFileSync(file, badLine3);
    assert.throws(() => new Segmenter({ backend, dictionary: file }), isEncodingError(3, file));
    assert.throws(() => new SimHash({ backend, dictionary: file }), isEncodingError(3, file));
    assert.throws(() => new Segmenter({ backend, dictionary: badLine3 }), isEncodingError(3));
  });
  it('a user dictionary (loadUserDict), as a path or bytes', () => {
    const file = path.join(tmp, 'user.txt');
    fs.writeFileSync(file, badLine3);
    const seg = new Segmenter({ backend });
    const before = ['北京大学', '生活', '好'].map((word) => seg.wordFreq(word));
    assert.throws(() => seg.loadUserDict(file), isEncodingError(3, file));
    assert.throws(() => seg.loadUserDict(badLine3), isEncodingError(3));
    assert.throws(() => seg.loadUserDict(bytes([0xff, 0xfe], '词 1\n')), isEncodingError(1));
    assert.deepEqual(['北京大学', '生活', '好'].map((word) => seg.wordFreq(word)), before, 'nothing was added');
    assert.equal(seg.hasWord('坏\uFFFD'), false, 'no word with U+FFFD was added');
  });
  it('a leading BOM is accepted and dropped; valid UTF-8 (4-byte characters too) loads', () => {
    const good = bytes('\uFEFF北京大学 100\r\n生活 50\n𠀀𠀁 20\n');
    const seg = new Segmenter({ backend, dictionary: good });
    assert.deepEqual(seg.cut('北京大学生活', { hmm: false }), ['北京大学', '生活']);
    assert.equal(seg.hasWord('北京大学'), true);
    assert.equal(seg.hasWord('𠀀𠀁'), true);
    const user = new Segmenter({ backend });
    assert.equal(user.loadUserDict(bytes('\uFEFF近似重复检测 1000\n')), 1);
    assert.equal(user.wordFreq('近似重复检测'), 1000);
    const file = path.join(tmp, 'good.txt');
    fs.writeFileSync(file, good);
    assert.deepEqual(new SimHash({ backend, dictionary: file }).fingerprint('北京大学生活'), new SimHash({ backend, dictionary: good }).fingerprint('北京大学生活'));
  });
});

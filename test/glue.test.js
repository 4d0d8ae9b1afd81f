'use strict';
// The addon's own functions, called directly (past the TypeScript layer, as a caller digging into
// an instance's private `engine` could): misuse throws or rejects, it never writes through a
// stale pointer or casts the wrong object. Each case crashed the process or wrote out of bounds
// before the glue read its arrays again after JS could run. The ids' single read is public API
// and runs on both engines.
const assert = require('node:assert/strict');
const { BACKENDS, forEachBackend, lib } = require('./engines');

const nativeOnly = BACKENDS.includes('native') ? describe : describe.skip;

/** Detaches a typed array's memory (its length becomes 0), as a transfer to another thread does. */
const detach = (array) => structuredClone(array.buffer, { transfer: [array.buffer] });

nativeOnly('native glue: misuse of the addon functions', function () {
  it('refuses a wrapped object of another class as the cancel token', function () {
    const engine = new lib.SimHash({ backend: 'native' }).engine;
    const index = new lib.SimHashIndex({ backend: 'native' });
    index.add(1, 0x1234n).add(2, 0x1234n);
    index.query(0x1234n);
    assert.throws(() => engine.fingerprintManyAsync(['中文文本'], new Uint32Array([4]), new BigUint64Array(1), 1, index.engine),
      { name: 'TypeError', message: 'expected a CancelToken object' });
  });

  it('rejects an async batch whose output was detached while it ran', async function () {
    const engine = new lib.SimHash({ backend: 'native' }).engine;
    const texts = Array.from({ length: 20000 }, (_, i) => `中文文本去重${i}`);
    const out = new BigUint64Array(texts.length);
    const pending = engine.fingerprintManyAsync([texts.join('')], new Uint32Array(texts.map((t) => t.length)), out, 2);
    detach(out);
    const settled = await Promise.allSettled(pending);
    const rejected = settled.filter((s) => s.status === 'rejected');
    assert.equal(rejected.length, 1, 'the last worker to finish rejects');
    assert.equal(rejected[0].reason.message, 'out was detached or resized during the batch');
  });

  it('reads the output of fingerprintMany again after the texts ran a getter that detached it', function () {
    const engine = new lib.SimHash({ backend: 'native' }).engine;
    const texts = Array.from({ length: 600 }, (_, i) => `t${i}`);
    const out = new BigUint64Array(texts.length);
    Object.defineProperty(texts, 3, { get: () => (detach(out), 'x') });
    assert.throws(() => engine.fingerprintMany(texts, out), { name: 'RangeError', message: 'out has the wrong length' });
  });

  it('fingerprintParts: parts that do not match the lengths throw, a getter that detaches the output is caught', function () {
    const native = new lib.SimHash({ backend: 'native' }).engine.native;
    const mismatch = { name: 'TypeError', message: 'parts must be strings as long as the lengths say' };
    const out = new BigUint64Array(2);
    assert.throws(() => native.fingerprintParts(['abc'], new Uint32Array([1, 1]), out), mismatch);
    assert.throws(() => native.fingerprintParts(['ab', 'c'], new Uint32Array([1, 1]), out), mismatch);
    assert.throws(() => native.fingerprintParts(['ab'], new Uint32Array([1, 0xffffffff]), out), mismatch);
    assert.throws(() => native.fingerprintParts([], new Uint32Array([0, 1]), out), mismatch);
    assert.throws(() => native.fingerprintParts([1], new Uint32Array([1, 0]), out), mismatch);
    assert.throws(() => native.fingerprintParts(['ab'], new Int32Array([1, 1]), out), { name: 'TypeError' });
    assert.throws(() => native.fingerprintParts(['ab'], new Uint32Array([2]), out), { name: 'RangeError' });
    native.fingerprintParts(['', 'ab', ''], new Uint32Array([0, 2]), out);
    assert.deepEqual(out, BigUint64Array.of(0n, native.fingerprint('ab')));
    // One text with texts of length 0 around it (read whole), and texts of length 0 after the last part.
    const four = new BigUint64Array(4);
    native.fingerprintParts(['ab'], new Uint32Array([0, 0, 2, 0]), four);
    assert.deepEqual(four, BigUint64Array.of(0n, 0n, native.fingerprint('ab'), 0n));
    native.fingerprintParts(['ab中c'], new Uint32Array([0, 2, 0, 2]), four);
    assert.deepEqual(four, BigUint64Array.of(0n, native.fingerprint('ab'), 0n, native.fingerprint('中c')));
    const parts = ['中文', '文本'];
    Object.defineProperty(parts, 1, { get: () => (detach(out), '文本') });
    assert.throws(() => native.fingerprintParts(parts, new Uint32Array([2, 2]), out), { name: 'RangeError', message: 'out has the wrong length' });
  });

  it('reads the segmenter output arrays at every call, so detached ones hold no words', function () {
    const native = new lib.Segmenter({ backend: 'native' }).engine.native;
    const ends = new Uint32Array(1024);
    const entries = new Int32Array(1024);
    native.setOutput(ends, entries);
    const text = '我们中出了一个叛徒 hello world';
    assert.ok(native.segment(text, text.length, 4) > 0);
    detach(ends);
    detach(entries);
    assert.throws(() => native.segment(text, text.length, 4), { name: 'RangeError' });
    assert.throws(() => native.segmentBytes(Buffer.from(text), 4), { name: 'RangeError' });
  });

  it('addWords reads the words once, before it writes the frequencies', function () {
    const native = new lib.Segmenter({ backend: 'native' }).engine.native;
    const memory = new ArrayBuffer(8 * 16);
    const freqs = new Float64Array(memory, 0, 1).fill(NaN); // NaN: the suggested frequency
    const after = new Float64Array(memory, 8, 15).fill(NaN);
    const words = ['甲乙'];
    Object.defineProperty(words, 0, { get() { for (let i = 1; i < 16; i++) words[i] = `词${i}`; return '甲乙'; } });
    native.addWords(words, freqs);
    assert.ok(freqs[0] > 0, 'the one word got its suggested frequency');
    assert.ok(after.every(Number.isNaN), 'nothing written past freqs');
  });
});

forEachBackend('SimHashIndex#addMany: each id read once', (backend) => {
  it('adds the id it checked, whatever a getter returns on a second read', function () {
    const index = new lib.SimHashIndex({ backend });
    let reads = 0;
    const ids = [1, 0];
    Object.defineProperty(ids, 1, { get: () => (reads++ === 0 ? 5 : -1) });
    index.addMany(ids, [0x10n, 0x20n]);
    assert.equal(reads, 1);
    assert.deepEqual([index.has(1), index.has(5), index.size], [true, true, 2]);
    assert.equal(lib.SimHashIndex.deserialize(index.serialize()).size, 2);
  });
});

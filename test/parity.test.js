'use strict';
// Native and TS engines give identical answers for every input (random properties).
const assert = require('node:assert/strict');
const fc = require('fast-check');
const { lib, BACKENDS, PROPERTY_RUNS } = require('./engines');
const { anyText } = require('./arbitraries');

const CONFIGS = [
  { preset: 'SimHashChinese', bits: 64 },
  { preset: 'mysimhash', bits: 64 },
  { preset: 'mysimhash', bits: 128 },
];

(BACKENDS.includes('native') ? describe : describe.skip)('native == js parity', function () {
  for (const config of CONFIGS) {
    describe(`${config.preset} at ${config.bits} bits`, function () {
      const native = new lib.SimHash({ ...config, backend: 'native' });
      const js = new lib.SimHash({ ...config, backend: 'js' });
      it(`fingerprint (${PROPERTY_RUNS} runs)`, function () {
        fc.assert(fc.property(anyText(80), (text) => native.fingerprint(text) === js.fingerprint(text)), { numRuns: PROPERTY_RUNS });
      });
      it(`tokens (${PROPERTY_RUNS} runs)`, function () {
        fc.assert(fc.property(anyText(60), (text) => {
          assert.deepEqual(native.tokens(text), js.tokens(text));
        }), { numRuns: PROPERTY_RUNS });
      });
      it(`fingerprintMany equals fingerprint (${PROPERTY_RUNS / 10} batches)`, function () {
        fc.assert(fc.property(fc.array(anyText(40), { maxLength: 20 }), (texts) => {
          const many = native.fingerprintMany(texts);
          assert.deepEqual(many, js.fingerprintMany(texts));
          const words = config.bits / 64;
          texts.forEach((text, i) => {
            let fp = many[i * words];
            if (words === 2) fp |= many[i * words + 1] << 64n;
            assert.equal(fp, js.fingerprint(text));
          });
        }), { numRuns: PROPERTY_RUNS / 10 });
      });
    });
  }
  it(`fingerprintManyAsync (texts copied once, shared by the workers) equals the TS engine (${PROPERTY_RUNS / 20} batches)`, async function () {
    for (const config of CONFIGS) {
      const native = new lib.SimHash({ ...config, backend: 'native' });
      const js = new lib.SimHash({ ...config, backend: 'js' });
      await fc.assert(fc.asyncProperty(fc.array(anyText(30), { maxLength: 30 }), async (texts) => {
        assert.deepEqual(await native.fingerprintManyAsync(texts), js.fingerprintMany(texts));
      }), { numRuns: PROPERTY_RUNS / 20 });
    }
  });
  it('a lone surrogate at a text boundary stays lone in the async batch', async function () {
    const native = new lib.SimHash({ preset: 'mysimhash', backend: 'native' });
    const texts = ['a\ud83d', '\ude00b'];
    assert.deepEqual(await native.fingerprintManyAsync(texts), BigUint64Array.from(['a\ufffd', '\ufffdb'], (t) => native.fingerprint(t)));
  });
  it('texts on both sides of the native read path switch (1M UTF-16 units) agree, surrogates at the ends', function () {
    // Up to 1M units the addon transcodes UTF-16 itself; longer texts go through N-API's UTF-8.
    const native = new lib.SimHash({ backend: 'native' });
    const js = new lib.SimHash({ backend: 'js' });
    const unit = '中文ＡＢ SimHash c 😀，\ud800x\udc00'; // CJK, full width, ASCII runs, a pair, lone halves
    const long = unit.repeat(Math.ceil(((1 << 20) + 8) / unit.length));
    for (const units of [(1 << 20) - 1, 1 << 20, (1 << 20) + 1]) {
      for (const text of [long.slice(0, units), '\udc00' + long.slice(1, units - 1) + '\ud83d']) {
        assert.equal(text.length, units);
        assert.equal(native.fingerprint(text), js.fingerprint(text), `${units} units`);
        assert.deepEqual(native.fingerprintMany([text, 'ab']), js.fingerprintMany([text, 'ab']));
      }
    }
  });
  it(`hammingDistance agrees (${PROPERTY_RUNS} runs)`, function () {
    const native = new lib.SimHash({ preset: 'mysimhash', bits: 128, backend: 'native' });
    const js = new lib.SimHash({ preset: 'mysimhash', bits: 128, backend: 'js' });
    const fp = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n });
    fc.assert(fc.property(fp, fp, (a, b) => native.distance(a, b) === js.distance(a, b)), { numRuns: PROPERTY_RUNS });
  });
});

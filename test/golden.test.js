'use strict';
// Golden vectors: outputs of the seeds' own code (compiled by scripts/golden/generate.js).
const assert = require('node:assert/strict');
const { lib, forEachBackend } = require('./engines');

const cpp = require('./golden/simhashchinese.json');
const java = require('./golden/mysimhash.json');

const inputOf = (c) => (c.repeat ? c.repeat.unit.repeat(c.repeat.count) : c.text);

describe('golden vectors', function () {
  it('cover at least 300 inputs per seed, including the three C++ demo texts', function () {
    assert.ok(cpp.cases.length >= 300);
    assert.equal(java.cases.length, cpp.cases.length);
    assert.deepEqual(cpp.cases.slice(0, 3).map((c) => c.hex), ['44e34ee71fb0789c', '54424ee71fc46a9c', '3c3946e70f865cb7']);
  });
});

forEachBackend('preset SimHashChinese matches the C++ seed', (backend) => {
  const simhash = new lib.SimHash({ preset: 'SimHashChinese', backend });
  it(`all ${cpp.cases.length} vectors`, function () {
    for (const c of cpp.cases) assert.equal(simhash.hex(inputOf(c)), c.hex, c.name);
  });
  it('the same vectors through fingerprintMany', function () {
    const texts = cpp.cases.map(inputOf);
    const many = simhash.fingerprintMany(texts);
    cpp.cases.forEach((c, i) => assert.equal(lib.toHex(many[i], 64), c.hex, c.name));
  });
});

forEachBackend('preset mysimhash matches the Java seed', (backend) => {
  for (const bits of [64, 128]) {
    const simhash = new lib.SimHash({ preset: 'mysimhash', bits, backend });
    const key = `bits${bits}`;
    const valid = java.cases.filter((c) => !c[key].error);
    it(`all ${valid.length} vectors at ${bits} bits (hex and binary string)`, function () {
      for (const c of valid) {
        const text = inputOf(c);
        assert.equal(simhash.hex(text), c[key].hex, c.name);
        assert.equal(simhash.binaryString(text), c[key].binary, c.name);
      }
    });
    it(`fingerprintMany at ${bits} bits (${bits / 64} word(s) per text, low word first)`, function () {
      const many = simhash.fingerprintMany(valid.map(inputOf));
      const words = bits / 64;
      valid.forEach((c, i) => {
        let fp = many[i * words];
        if (words === 2) fp |= many[i * words + 1] << 64n;
        assert.equal(lib.toHex(fp, bits), c[key].hex, c.name);
      });
    });
  }
  it('inputs where the seed throws (over 100,000 tokens) still get a fingerprint: the limit is lifted', function () {
    const failing = java.cases.filter((c) => c.bits64.error);
    assert.ok(failing.length >= 1);
    const simhash = new lib.SimHash({ preset: 'mysimhash', backend });
    for (const c of failing) assert.match(simhash.hex(inputOf(c)), /^[0-9a-f]{16}$/);
  });
});

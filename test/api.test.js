'use strict';
// The typed API: helpers, SimHash methods, option validation, bad input.
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { lib, forEachBackend } = require('./engines');

const ROOT = path.join(__dirname, '..');
const TEXT1 = 'C++ SimHash算法实现 高性能中文文本相似度检测与去重';
const TEXT2 = 'C++ SimHash算法实现 高性能中文文本查重与相似度检测（轻微优化）';
const TEXT3 = 'Redis缓存高并发优化 后端服务性能调优实战教程';

describe('fingerprint helpers', function () {
  it('toHex pads to 16 or 32 digits', function () {
    assert.equal(lib.toHex(0x1fn), '000000000000001f');
    assert.equal(lib.toHex(0x1fn, 128), '0000000000000000000000000000001f');
    assert.equal(lib.toHex(1n << 64n), '00000000000000010000000000000000');
    assert.throws(() => lib.toHex(1n << 64n, 64), RangeError);
    assert.throws(() => lib.toHex(-1n), RangeError);
    assert.throws(() => lib.toHex(5), TypeError);
    assert.throws(() => lib.toHex(1n, 63), RangeError);
  });
  it('fromHex is strict', function () {
    assert.equal(lib.fromHex('44e34ee71fb0789c'), 0x44e34ee71fb0789cn);
    assert.equal(lib.fromHex('44E34EE71FB0789C'), 0x44e34ee71fb0789cn);
    assert.equal(lib.fromHex('f'.repeat(32)), (1n << 128n) - 1n);
    for (const bad of ['xyz', '', '0x44e34ee71fb0789c', '44e34ee71fb0789', ' 44e34ee71fb0789c', 'g4e34ee71fb0789c', 12]) {
      assert.throws(() => lib.fromHex(bad), TypeError, String(bad));
    }
  });
  it('toBinaryString puts bit 0 first; binaryStringDistance returns -1 on unequal lengths', function () {
    assert.equal(lib.toBinaryString(1n), '1' + '0'.repeat(63));
    assert.equal(lib.toBinaryString(1n << 127n, 128), '0'.repeat(127) + '1');
    assert.equal(lib.binaryStringDistance('0110', '0101'), 2);
    assert.equal(lib.binaryStringDistance('01', '011'), -1);
    assert.throws(() => lib.binaryStringDistance('01', 1), TypeError);
  });
  it('hammingDistance counts differing bits up to 128', function () {
    assert.equal(lib.hammingDistance(0n, 0n), 0);
    assert.equal(lib.hammingDistance(0n, (1n << 64n) - 1n), 64);
    assert.equal(lib.hammingDistance(0n, (1n << 128n) - 1n), 128);
    assert.equal(lib.hammingDistance(0x44e34ee71fb0789cn, 0x54424ee71fc46a9cn), 10);
    assert.throws(() => lib.hammingDistance(1, 2n), TypeError);
    assert.throws(() => lib.hammingDistance(-1n, 2n), RangeError);
    assert.throws(() => lib.hammingDistance(1n << 128n, 2n), RangeError);
  });
  it('exports backend and nativeLoadError', function () {
    assert.ok(['native', 'js'].includes(lib.backend));
    if (lib.backend === 'native') assert.equal(lib.nativeLoadError, undefined);
  });
});

forEachBackend('SimHash', (backend) => {
  const cpp = new lib.SimHash({ preset: 'SimHashChinese', backend });
  it('reports its configuration', function () {
    assert.equal(cpp.backend, backend);
    assert.equal(cpp.bits, 64);
    assert.equal(cpp.preset, 'SimHashChinese');
  });
  it('distance, similarity and isSimilar on the C++ seed demo', function () {
    assert.equal(cpp.distance(TEXT1, TEXT2), 10);
    assert.equal(cpp.distance(TEXT1, cpp.fingerprint(TEXT3)), lib.hammingDistance(0x44e34ee71fb0789cn, 0x3c3946e70f865cb7n));
    assert.equal(cpp.similarity(TEXT1, TEXT2), (64 - 10) / 64 * 100);
    assert.equal(cpp.isSimilar(TEXT1, TEXT1), true);
    assert.equal(cpp.isSimilar(TEXT1, TEXT2), false); // 84.375% < 90%: the seed's code, not its article
    assert.equal(cpp.isSimilar(TEXT1, TEXT2, 80), true);
    assert.throws(() => cpp.isSimilar(TEXT1, TEXT2, 101), RangeError);
    assert.throws(() => cpp.isSimilar(TEXT1, TEXT2, '90'), TypeError);
    assert.throws(() => cpp.distance(TEXT1, 1n << 64n), RangeError);
    assert.throws(() => cpp.distance(TEXT1, 5), TypeError);
  });
  it('tokens: features with weights, merged in first-occurrence order', function () {
    const tokens = cpp.tokens('ab中ab');
    assert.deepEqual(tokens.map((t) => [t.token, t.weight]), [['a', 16], ['b', 16], ['中', 24]]);
    assert.equal(typeof tokens[0].hash, 'bigint');
    const java = new lib.SimHash({ preset: 'mysimhash', bits: 128, backend });
    assert.deepEqual(java.tokens('Hello, world. hello 你好'), [
      { token: 'Hello', weight: 1, hash: java.tokens('Hello')[0].hash, kind: 'word' },
      { token: 'world', weight: 1, hash: java.tokens('world')[0].hash, kind: 'word' },
      { token: 'hello', weight: 1, hash: java.tokens('hello')[0].hash, kind: 'word' },
      { token: '你', weight: 1, hash: java.tokens('你')[0].hash, kind: 'word' },
      { token: '好', weight: 1, hash: java.tokens('好')[0].hash, kind: 'word' },
    ]);
    // A Chinese-containing piece is split per UTF-16 unit, surrogate halves included.
    assert.deepEqual(java.tokens('中😀').map((t) => t.token), ['中', '\ud83d', '\ude00']);
  });
  it('hex is 16 digits at 64 bits and 32 at 128', function () {
    assert.equal(cpp.hex(TEXT1), '44e34ee71fb0789c');
    assert.match(new lib.SimHash({ preset: 'mysimhash', bits: 128, backend }).hex(TEXT1), /^[0-9a-f]{32}$/);
  });
  it('lone surrogates are treated as U+FFFD', function () {
    for (const preset of ['SimHashChinese', 'mysimhash']) {
      const simhash = new lib.SimHash({ preset, backend });
      assert.equal(simhash.fingerprint('中\ud800文'), simhash.fingerprint('中\ufffd文'), preset);
      assert.equal(simhash.fingerprint('\udc00'), simhash.fingerprint('\ufffd'), preset);
    }
  });
  it('empty and NUL inputs are defined', function () {
    assert.equal(cpp.fingerprint(''), 0n);
    assert.notEqual(cpp.fingerprint('\0'), 0n);
    const java = new lib.SimHash({ preset: 'mysimhash', backend });
    assert.equal(java.fingerprint(''), (1n << 64n) - 1n);
    assert.deepEqual(cpp.fingerprintMany([]), new BigUint64Array(0));
  });
  it('fingerprintMany gives each text its fingerprint: empty texts, texts joined or on their own, pairs split across texts', function () {
    // Short texts reach the native engine joined into parts, long ones on their own (lib/joined-texts.ts).
    const simhash = new lib.SimHash({ bits: 128, backend });
    const long = '长文本 long text '.repeat(70_000); // over 1M units: the native UTF-8 read
    const batch = ['', '', '中文\ud83d', '\ude00尾', 'x'.repeat(255) + '\ud83d', '\ude00' + '文'.repeat(255), '',
      long + '\ud800', '\udc00', '题目', ''];
    const expected = BigUint64Array.from(batch.flatMap((t) => {
      const fp = simhash.fingerprint(t);
      return [fp & 0xffffffffffffffffn, fp >> 64n];
    }));
    assert.deepEqual(simhash.fingerprintMany(batch), expected);
    assert.deepEqual(simhash.fingerprintMany(['', '']), new BigUint64Array(4));
  });
  it('a 16 MB input is fingerprinted like its pieces predict', function () {
    const unit = '近似重复检测 SimHash 指纹。';
    const big = unit.repeat(Math.ceil((16 << 20) / Buffer.byteLength(unit)));
    assert.equal(cpp.fingerprint(big), cpp.fingerprint(unit.repeat(3)));
  });
  it('rejects bad arguments with TypeError', function () {
    for (const bad of [undefined, null, 1, {}, [], Symbol('x'), { toString: () => 'x' }, Buffer.from('x')]) {
      assert.throws(() => cpp.fingerprint(bad), TypeError);
      assert.throws(() => cpp.tokens(bad), TypeError);
      assert.throws(() => cpp.fingerprintMany([bad]), TypeError);
    }
    assert.throws(() => cpp.fingerprintMany('abc'), TypeError);
  });
});

describe('SimHash options', function () {
  it('unknown options and presets are TypeErrors naming the valid ones', function () {
    assert.throws(() => new lib.SimHash({ preset: 'SimHashChinese', bitz: 64 }), /unknown option 'bitz'.*'preset', 'bits', 'backend'/);
    assert.throws(() => new lib.SimHash({ preset: 'simhash' }), (e) => e instanceof TypeError && /'SimHashChinese', 'mysimhash'/.test(e.message));
    assert.throws(() => new lib.SimHash({ preset: 'mysimhash', backend: 'wasm' }), (e) => e instanceof TypeError && /'native', 'js'/.test(e.message));
    assert.throws(() => new lib.SimHash('mysimhash'), TypeError);
  });
  it('bits other than 64/128 are RangeErrors', function () {
    for (const bits of [0, 32, 63, 96, 129, 64.5, -64]) {
      assert.throws(() => new lib.SimHash({ preset: 'mysimhash', bits }), RangeError, String(bits));
    }
    assert.throws(() => new lib.SimHash({ preset: 'mysimhash', bits: '64' }), TypeError);
    assert.throws(() => new lib.SimHash({ preset: 'SimHashChinese', bits: 128 }), RangeError);
  });
});

describe('loading', function () {
  const run = (code, env) =>
    execFileSync(process.execPath, ['-e', code], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' }).trim();
  it('SIMHASH_ZH_BACKEND=js forces the TS engine', function () {
    assert.equal(run("const s=require('./dist');console.log(s.backend, new s.SimHash({preset:'SimHashChinese'}).backend)", { SIMHASH_ZH_BACKEND: 'js' }), 'js js');
  });
  it('an invalid SIMHASH_ZH_BACKEND is a TypeError at load', function () {
    assert.match(run("try{require('./dist')}catch(e){console.log(e.name+' '+e.code+': '+e.message)}", { SIMHASH_ZH_BACKEND: 'gpu' }), /TypeError ERR_INVALID_ARG_VALUE: SIMHASH_ZH_BACKEND must be one of 'native', 'js'/);
  });
  it('import { SimHash } from "simhash-zh" works from ESM', function () {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e',
      "import { SimHash, backend } from 'simhash-zh'; console.log(typeof SimHash, typeof backend)"], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(out.trim(), 'function string');
  });
});

forEachBackend('fingerprintManyAsync', (backend) => {
  const simhash = new lib.SimHash({ preset: 'mysimhash', bits: 128, backend });
  const texts = Array.from({ length: 3000 }, (_, i) => `第${i}篇 近似重复检测 ${'SimHash 中文 文本 '.repeat(1 + (i % 40))}`);
  it('returns what fingerprintMany returns', async function () {
    assert.deepEqual(await simhash.fingerprintManyAsync(texts), simhash.fingerprintMany(texts));
    assert.deepEqual(await simhash.fingerprintManyAsync([]), new BigUint64Array(0));
  });
  it('the default pipeline too, over many chunks taken in turn by the workers', async function () {
    const pipeline = new lib.SimHash({ bits: 128, backend });
    const many = Array.from({ length: 7 }, () => texts).flat();
    assert.deepEqual(await pipeline.fingerprintManyAsync(many), pipeline.fingerprintMany(many));
  });
  it('empty texts, a text over 1M units (read as UTF-8 by N-API) and a pair split across parts', async function () {
    const long = '长文本 long text '.repeat(100_000); // 1.5M units
    const batch = ['', long + '\ud83d', '\ude00尾', '', '中', long.slice(0, 1 << 20), '\ude00'];
    const expected = BigUint64Array.from(batch.flatMap((t) => {
      const fp = simhash.fingerprint(t);
      return [fp & 0xffffffffffffffffn, fp >> 64n];
    }));
    assert.deepEqual(await simhash.fingerprintManyAsync(batch), expected);
  });
  it('keeps the event loop responsive: a timer fires while a large batch runs', async function () {
    const big = Array.from({ length: 20 }, () => texts).flat();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    let result;
    try {
      result = await simhash.fingerprintManyAsync(big);
    } finally {
      clearInterval(timer);
    }
    assert.ok(ticks >= 2, `timer fired ${ticks} times`);
    assert.deepEqual(result, simhash.fingerprintMany(big));
  });
  it('rejects with AbortError when the signal aborts, before or during the work', async function () {
    await assert.rejects(simhash.fingerprintManyAsync(texts, { signal: AbortSignal.abort() }), { name: 'AbortError' });
    const controller = new AbortController();
    const pending = simhash.fingerprintManyAsync(Array.from({ length: 20 }, () => texts).flat(), { signal: controller.signal });
    controller.abort();
    await assert.rejects(pending, { name: 'AbortError' });
  });
  it('joins short texts into parts; a text of 256 units or more is a part of its own (never longer than a text V8 holds)', function () {
    const { joinTexts, JOINED_UNITS } = require('../dist/joined-texts');
    const short = 'x'.repeat(10);
    const below = 'w'.repeat(255);
    const own = 'v'.repeat(256);
    const near = 'y'.repeat((1 << 20) - 5);
    const over = 'z'.repeat((1 << 20) + 3);
    const batch = ['', short, below, own, short, near, short, over, short, '', short, ''];
    const { parts, lengths } = joinTexts(batch);
    assert.deepEqual(Array.from(lengths), batch.map((t) => t.length));
    assert.deepEqual(parts, [short + below, own, short, near, short, over, short + short]);
    // Runs of short texts stop at JOINED_UNITS units.
    const many = Array.from({ length: 5000 }, () => below);
    const perPart = Math.floor(JOINED_UNITS / 255);
    const joined = joinTexts(many).parts;
    const expected = Array.from({ length: Math.floor(5000 / perPart) }, () => perPart * 255);
    if (5000 % perPart > 0) expected.push((5000 % perPart) * 255);
    assert.ok(expected.length > 2, 'several parts');
    assert.deepEqual(joined.map((p) => p.length), expected);
    assert.deepEqual(joinTexts([]), { parts: [], lengths: new Uint32Array(0) });
  });
  it('validates its arguments', async function () {
    await assert.rejects(simhash.fingerprintManyAsync('x'), TypeError);
    await assert.rejects(simhash.fingerprintManyAsync([1]), TypeError);
    await assert.rejects(simhash.fingerprintManyAsync([], { signal: {} }), TypeError);
    await assert.rejects(simhash.fingerprintManyAsync([], { sygnal: 1 }), TypeError);
  });
});

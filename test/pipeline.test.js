'use strict';
// The default pipeline: behaviour in both engines, and native == TS on random text and options.
const assert = require('node:assert/strict');
const fc = require('fast-check');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { lib, BACKENDS, forEachBackend, PROPERTY_RUNS } = require('./engines');
const { anyText, mixedText } = require('./arbitraries');

const TEXT1 = 'C++ SimHash算法实现 高性能中文文本相似度检测与去重';
const TEXT2 = 'C++ SimHash算法实现 高性能中文文本查重与相似度检测（轻微优化）';
const TEXT3 = 'Redis缓存高并发优化 后端服务性能调优实战教程';
/**
 * The default sketch written again from its description (README, Hashing), in BigInt: each
 * 32-bit word of a feature's 128-bit hash puts it in bin word >> (32 - log2 bits) with rank
 * word & (2^21 - 1); a bin keeps the smallest rank / weight (ties: smaller hash) and its bit is 1
 * where bits 21 and 22 of the winning word are 0; an empty bin takes the nearest full bin to its
 * right, or to its left where the top bit of fmix(i + φ) is set, and its bit is 1 where the top two
 * bits of fmix(h1 ^ (i + 1) * φ) are 0, h1 that bin's feature's first hash word.
 */
function minhashReference(tokens128, bits) {
  const M32 = 0xffffffffn;
  const M64 = (1n << 64n) - 1n;
  const mul32 = (a, b) => (a * b) & M32;
  const fmix = (h) => {
    h ^= h >> 16n; h = mul32(h, 0x85ebca6bn); h ^= h >> 13n; h = mul32(h, 0xc2b2ae35n); return h ^ (h >> 16n);
  };
  const GOLDEN = 0x9e3779b9n;
  const shift = bits === 128 ? 25n : 26n;
  const held = new Array(bits).fill(null);
  for (const { hash, weight } of tokens128) {
    if (weight <= 0) continue;
    const w = BigInt(weight);
    for (let r = 0n; r < 4n; r++) {
      const word = (hash >> (32n * r)) & M32;
      const bin = Number(word >> shift);
      const rank = word & 0x1fffffn;
      const h = held[bin];
      const smallerHash = h !== null && ((hash & M64) < (h.hash & M64) || ((hash & M64) === (h.hash & M64) && hash >> 64n < h.hash >> 64n));
      if (h === null || rank * h.weight < h.rank * w || (rank * h.weight === h.rank * w && smallerHash)) held[bin] = { rank, weight: w, hash, bit: ((word >> 21n) & 3n) === 0n ? 1n : 0n };
    }
  }
  if (held.every((h) => h === null)) return 0n;
  let value = 0n;
  for (let i = 0; i < bits; i++) {
    let bit;
    if (held[i] !== null) {
      bit = held[i].bit;
    } else {
      const step = fmix((BigInt(i) + GOLDEN) & M32) >> 31n ? bits - 1 : 1;
      let source = i;
      do source = (source + step) % bits; while (held[source] === null);
      bit = fmix((held[source].hash & M32) ^ mul32(BigInt(i + 1), GOLDEN)) >> 30n === 0n ? 1n : 0n;
    }
    value |= bit << BigInt(i);
  }
  return value;
}
const summary = (tokens) => tokens.map((t) => `${t.token}:${t.kind[0]}:${t.weight}`).join(' ');

forEachBackend('default pipeline', (backend) => {
  const simhash = new lib.SimHash({ backend });
  it('reports its configuration', function () {
    assert.equal(simhash.preset, 'default');
    assert.equal(simhash.bits, 64);
    assert.equal(simhash.backend, backend);
  });
  it('meets the C++ seed demo: text1~text2 within 6 bits, text3 at least 20 away', function () {
    assert.equal(simhash.hex(TEXT1), '4c82290cd2004208');
    assert.equal(simhash.distance(TEXT1, TEXT2), 3);
    assert.equal(simhash.distance(TEXT1, TEXT3), 22);
    assert.equal(simhash.isSimilar(TEXT1, TEXT2), true);
    assert.equal(simhash.isSimilar(TEXT1, TEXT3), false);
    const signed = new lib.SimHash({ backend, sketch: 'simhash' });
    assert.equal(signed.hex(TEXT1), '20fb5fb060b90a65');
    assert.equal(signed.distance(TEXT1, TEXT2), 6);
    assert.equal(signed.distance(TEXT1, TEXT3), 31);
  });
  it('drops the words made only of digits, full-width ones folded (dropNumbers: false keeps them)', function () {
    const text = '2010年第３版 共123页 v2 abc12 3.14';
    assert.deepEqual(simhash.tokens(text).map((t) => t.token), ['年', '版', '共', '页', 'v2', 'v', 'abc12', 'b', 'c']);
    const keep = new lib.SimHash({ backend, dropNumbers: false });
    // One digit is a stop word (cppjieba's list): '３' and '3' go either way.
    assert.deepEqual(keep.tokens(text).map((t) => t.token), ['2010', '年', '版', '共', '123', '页', 'v2', 'v', 'abc12', 'b', 'c', '14']);
    const [a, b] = ['临江地铁5号线一期开通运营 2020年', '临江地铁6号线一期开通运营 2021年'];
    assert.equal(simhash.distance(a, b), 0);
    assert.equal(keep.distance(a, b), 1);
    assert.equal(simhash.fingerprint('123 456'), 0n);
    assert.notEqual(keep.fingerprint('123 456'), 0n);
  });
  it('counts a URL as one word feature (wholeUrls: false segments it)', function () {
    const tokens = (h, text) => h.tokens(text).map((t) => t.token);
    assert.deepEqual(tokens(simhash, '详情见https://mp.weixin.qq.com/s/AbC12?x=1&y=%E4。点击查看'),
      ['详情', '详', '情', '见', 'https://mp.weixin.qq.com/s/abc12?x=1&y=%e4', '点击', '点', '击', '查看', '查']);
    // www. in any case, not inside a longer name or path; trailing punctuation is not the URL's.
    assert.deepEqual(tokens(simhash, '访问WWW.Example.com/a_(b)). 或 x.www.y'), ['访问', '访', '问', 'www.example.com/a_(b', 'x', 'www', 'w', 'y']);
    // After a full-width colon or comma (folded to ':' and ','), or in brackets, it starts a URL.
    const words = (text) => simhash.tokens(text).filter((t) => t.kind === 'word').map((t) => t.token);
    assert.deepEqual(words('官网：www.example.com，客服，www.help.cn'), ['www.example.com', '客服', 'www.help.cn']);
    assert.deepEqual(words('详见（www.a.org）。'), ['详见', 'www.a.org']);
    assert.deepEqual(words('见 a/www.b.cn 与 u@www.c.cn 与 a-www.d.cn'), ['www', 'cn', 'u@www.c.cn']); // each feature once, in first-occurrence order
    assert.deepEqual(tokens(simhash, 'svn+ssh://host/p, ftp:// 与 www'), ['svn', 's', 'v', 'n', 'ssh://host/p', 'ftp', 'f', 't', 'p', 'www', 'w']);
    const url = tokens(simhash, '见 https://a.b/c').find((t) => t.startsWith('http'));
    assert.equal(simhash.tokens('见 https://a.b/c').find((t) => t.token === url).kind, 'word');
    // A link added to a short text moves one feature, not a dozen.
    const post = '这款手机的续航真的很不错，推荐购买';
    const linked = `${post} https://item.example.com/p/12345.html?spm=a1z10`;
    assert.equal(simhash.distance(post, linked), 4);
    assert.equal(new lib.SimHash({ backend, wholeUrls: false }).distance(post, linked), 10);
    const split = new lib.SimHash({ backend, wholeUrls: false });
    // Segmented: its words and their letters ('a' is a stop word).
    assert.deepEqual(tokens(split, '见https://a.cn/x'), ['见', 'https', 'h', 't', 'p', 's', 'cn', 'c', 'n', 'x']);
    // Only word features count a URL whole: with character features alone it is its letters.
    const chars = new lib.SimHash({ backend, features: 'chars' });
    assert.deepEqual(tokens(chars, 'https://a.cn'), tokens(new lib.SimHash({ backend, features: 'chars', wholeUrls: false }), 'https://a.cn'));
    assert.throws(() => new lib.SimHash({ backend, wholeUrls: 'yes' }), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE');
  });
  it('counts an e-mail address as one word feature too (wholeUrls: false segments it)', function () {
    const words = (h, text) => h.tokens(text).filter((t) => t.kind === 'word').map((t) => t.token);
    assert.deepEqual(words(simhash, '请联系 Zhang.San-01@Mail.Example.COM.'), ['联系', 'zhang.san-01@mail.example.com']);
    assert.deepEqual(words(simhash, '写信给a@b.cn，或x_y%z+q@sub-d.example.org！'), ['写信给', 'a@b.cn', 'x_y%z+q@sub-d.example.org']);
    // Not an address: a version after '@', a domain of one label, a local part after a
    // local-part character, an '@' after Chinese; mailto: is a word before the address.
    assert.deepEqual(words(simhash, 'pkg@1.2.3 发布'), ['pkg', '发布']);
    assert.deepEqual(words(simhash, 'foo@bar 没有点 --x@y.com @北京大学'), ['foo', '没有', 'com', '北京大学']);
    assert.deepEqual(words(simhash, 'mailto:me@x.io'), ['mailto', 'me@x.io']);
    // A URL that holds an '@' stays one URL.
    assert.deepEqual(words(simhash, 'https://u@h.com/p 和 www.a.com/b@c.de'), ['https://u@h.com/p', 'www.a.com/b@c.de']);
    // Two copies of a ticket that differ in the sender's address: one feature apart.
    const ticket = '这个软件安装以后无法启动，提示缺少运行库，重装了两次还是一样。我的邮箱';
    const [a, b] = [`${ticket} zhang.san.1987@company-mail.com.cn`, `${ticket} li_si@qq.com`];
    assert.equal(simhash.distance(a, b), 2);
    const split = new lib.SimHash({ backend, wholeUrls: false });
    assert.equal(split.distance(a, b), 12);
    assert.deepEqual(words(split, 'zhang.san@qq.com'), ['zhang', 'san', 'qq', 'com']);
  });
  it('the minhash sketch is the one its description gives (a BigInt reimplementation over tokens())', function () {
    const texts = [TEXT1, TEXT2, TEXT3, '北京', '北京北京北京', 'a b c d e f g h 一二三四五六七八九十', '近似重复检测'.repeat(40)];
    for (const bits of [64, 128]) {
      const own = new lib.SimHash({ backend, bits });
      const wide = new lib.SimHash({ backend, bits: 128 });
      for (const text of texts) assert.equal(own.fingerprint(text), minhashReference(wide.tokens(text), bits), `${bits} bits: ${text.slice(0, 20)}`);
    }
  });
  it('the feature hash is MurmurHash3_x86_128 (murmurhash3js-revisited) of the UTF-32LE code points, h3 and h4 remixed', function () {
    const murmur = require('murmurhash3js-revisited');
    const fmix = (h) => {
      h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35); return (h ^ (h >>> 16)) >>> 0;
    };
    const utf32le = (cps) => {
      const view = new DataView(new ArrayBuffer(cps.length * 4));
      cps.forEach((cp, i) => view.setUint32(4 * i, cp, true));
      return new Uint8Array(view.buffer);
    };
    // The peer prints h1 h2 h3 h4 as 8 hex digits each; the hash is h4:h3:h2:h1.
    const expected = (cps) => {
      const [h1, h2, h3, h4] = murmur.x86.hash128(utf32le(cps)).match(/.{8}/g).map((h) => parseInt(h, 16));
      const words = [h1, h2, fmix((h3 ^ 0x9e3779b9) >>> 0), fmix((h4 ^ 0x7f4a7c15) >>> 0)];
      return words.reduce((value, word, i) => value | (BigInt(word) << BigInt(32 * i)), 0n);
    };
    const words = new lib.SimHash({ backend, bits: 128, features: 'words', stopWords: false });
    const chars = new lib.SimHash({ backend, bits: 128, features: 'chars', stopWords: false });
    const all = [];
    for (const text of ['的', '研究', '生命', '天安门', '北京大学', '中华人民共和国', 'a', 'ab', 'hello', 'simhash2024', '𠀀']) {
      const [token] = words.tokens(text);
      const cps = [...text].map((c) => c.codePointAt(0));
      assert.deepEqual([token.token, token.hash], [text, expected(cps)], text);
      all.push(token.hash);
      for (const { token: ch, hash } of chars.tokens(text)) {
        assert.equal(hash, expected([0x110000, ch.codePointAt(0)]), `character ${ch}`);
        all.push(hash);
      }
    }
    // The unmixed hash of one or two code points has h3 == h4: the remix keeps the sketch's four words apart.
    for (const hash of all) assert.notEqual((hash >> 64n) & 0xffffffffn, hash >> 96n);
  });
  it("sketch 'simhash' at 128 bits: the upper 32-bit halves are independent bits (agree about half the time)", function () {
    const { nodejiebaText } = require('../bench/segment-corpora');
    const lines = nodejiebaText('weicheng.utf8').split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
    const fps = new lib.SimHash({ backend, sketch: 'simhash', bits: 128 }).fingerprintMany(lines);
    let agree = 0;
    for (let i = 0; i < lines.length; i++) {
      const hi = fps[2 * i + 1];
      agree += 32 - lib.hammingDistance(hi & 0xffffffffn, hi >> 32n);
    }
    const share = agree / (32 * lines.length);
    assert.ok(share > 0.45 && share < 0.55, `bits 64-95 and 96-127 agree in ${share.toFixed(3)} of places`);
  });
  it('features: words and their characters (a one-character word as its character), stop words and punctuation dropped, race weights base^2', function () {
    // 北京's unit (its IDF x 64) is 298: 298^2 = 88804.
    assert.equal(summary(simhash.tokens('我爱北京天安门，北京大学！')),
      '爱:c:151321 北京:w:88804 北:c:624100 京:c:906304 天安门:w:330625 天:c:104329 安:c:190969 门:c:131769 北京大学:w:239121 学:c:160000');
    assert.equal(summary(new lib.SimHash({ backend, features: 'words' }).tokens('我爱北京天安门')), '爱:w:151321 北京:w:88804 天安门:w:330625');
    assert.equal(summary(new lib.SimHash({ backend, features: 'chars', weighting: 'uniform' }).tokens('北京北京')), '北:c:4096 京:c:4096');
    assert.equal(summary(new lib.SimHash({ backend, features: 'words', weighting: 'tf' }).tokens('北京 北京 上海')), '北京:w:16384 上海:w:4096');
    assert.equal(summary(new lib.SimHash({ backend, features: 'words', weighting: 'length' }).tokens('北京 ab')), '北京:w:2304 ab:w:256');
  });
  it("sketch 'simhash': weights base^1.5 (w * isqrt(w)), summed per bit", function () {
    const signed = (options) => new lib.SimHash({ backend, sketch: 'simhash', ...options });
    assert.equal(summary(signed().tokens('我爱北京天安门，北京大学！')),
      '爱:c:7391 北京:w:5066 北:c:22120 京:c:28560 天安门:w:13225 天:c:5491 安:c:8740 门:c:6897 北京大学:w:10758 学:c:8000');
    assert.equal(summary(signed({ features: 'chars', weighting: 'uniform' }).tokens('北京北京')), '北:c:512 京:c:512');
    assert.equal(summary(signed({ features: 'words', weighting: 'tf' }).tokens('北京 北京 上海')), '北京:w:1408 上海:w:512');
    assert.equal(summary(signed({ features: 'words', weighting: 'length' }).tokens('北京 ab')), '北京:w:288 ab:w:64');
    // An unknown ASCII unit is u = 765 (the median IDF x 64): one occurrence weighs u * isqrt(u) = 20655,
    // two weigh 1530 * 39 = 59670, four 3060 * 55 = 168300. 测's unit is 552: four weigh 2208 * 46 = 101568.
    assert.equal(summary(signed().tokens('test test test test 测测测测')), 'test:w:168300 t:c:59670 e:c:59670 s:c:59670 测:c:101568');
    assert.equal(summary(signed().tokens('x y '.repeat(50))), 'x:c:59670 y:c:59670');
  });
  it('an ASCII letter or digit counts as a character feature at most twice; words and Han characters count in full', function () {
    // An unknown ASCII unit is u = 765 (the median IDF x 64): one occurrence weighs 765^2 = 585225,
    // two (1530^2) 2340900, four 3060^2 = 9363600. 测's unit is 552: four weigh 2208^2 = 4875264.
    assert.equal(summary(simhash.tokens('tes 测')), 'tes:w:585225 t:c:585225 e:c:585225 s:c:585225 测:c:304704');
    assert.equal(summary(simhash.tokens('test test test test 测测测测')), 'test:w:9363600 t:c:2340900 e:c:2340900 s:c:2340900 测:c:4875264');
    // One-letter words are their letters: 50 occurrences count as two.
    assert.equal(summary(simhash.tokens('x y '.repeat(50))), 'x:c:2340900 y:c:2340900');
  });
  it('normalizes: markup, entities, width and case do not change the fingerprint', function () {
    const plain = '北京大学的SimHash研究，2024年。';
    assert.equal(simhash.fingerprint('<div class="x"><p>北京大学的<b>SimHash</b>研究&#xff0c;２０２４年。</p><script>var a = 1;</script></div>'), simhash.fingerprint(plain));
    assert.equal(simhash.fingerprint('ＳＩＭＨＡＳＨ　北京'), simhash.fingerprint('simhash 北京'));
    assert.notEqual(new lib.SimHash({ backend, html: false }).fingerprint('<p>北京</p>'), simhash.fingerprint('北京'));
  });
  it('stopWords: false keeps them; a custom list replaces the default', function () {
    assert.equal(summary(new lib.SimHash({ backend, features: 'words', stopWords: false }).tokens('我的北京')), '我:w:29929 的:w:3136 北京:w:88804');
    assert.equal(summary(new lib.SimHash({ backend, features: 'words', stopWords: ['北京'] }).tokens('我的北京')), '我:w:29929 的:w:3136');
  });
  it('words: added words are kept whole', function () {
    assert.equal(summary(new lib.SimHash({ backend, features: 'words' }).tokens('近似重复检测')), '近似:w:242064 重复:w:195364 检测:w:191844');
    assert.equal(summary(new lib.SimHash({ backend, features: 'words', words: ['近似重复检测'] }).tokens('近似重复检测')), '近似重复检测:w:585225');
  });
  it('userDict: a jieba user dictionary (path or bytes) adds its words before `words`, as `words` would', function () {
    const file = path.join(os.tmpdir(), `simhash-zh-userdict-${process.pid}.txt`);
    fs.writeFileSync(file, '\uFEFF近似重复检测 1000 n\n\n杭研大厦\n北京 0\n');
    try {
      const text = '网易杭研大厦的近似重复检测在北京';
      const fromFile = new lib.SimHash({ backend, features: 'words', userDict: file });
      assert.equal(summary(fromFile.tokens(text)), '网易:w:298116 杭研大厦:w:585225 近似重复检测:w:585225 北:w:156025 京:w:226576');
      const asWords = new lib.SimHash({ backend, features: 'words', words: [['近似重复检测', 1000], '杭研大厦', ['北京', 0]] });
      assert.equal(fromFile.fingerprint(text), asWords.fingerprint(text));
      const fromBytes = new lib.SimHash({ backend, features: 'words', userDict: fs.readFileSync(file) });
      assert.equal(fromBytes.fingerprint(text), asWords.fingerprint(text));
      // `words` come after the file: here they put 北京 back.
      const restored = new lib.SimHash({ backend, features: 'words', userDict: file, words: [['北京', 5000]] });
      assert.match(summary(restored.tokens(text)), / 北京:w:\d+$/);
    } finally {
      fs.rmSync(file, { force: true });
    }
    assert.throws(() => new lib.SimHash({ backend, userDict: path.join(os.tmpdir(), 'simhash-zh-no-such-userdict.txt') }),
      (e) => e.code === 'SIMHASH_ZH_DICT_IO' && /no-such-userdict/.test(e.message));
    assert.throws(() => new lib.SimHash({ backend, userDict: Buffer.from('好词 1\n坏词 x\n') }), (e) => e.code === 'SIMHASH_ZH_DICT_PARSE' && /line 2/.test(e.message));
    assert.throws(() => new lib.SimHash({ backend, userDict: Buffer.from([0x41, 0xff, 0x0a]) }), (e) => e.code === 'SIMHASH_ZH_DICT_ENCODING');
    assert.throws(() => new lib.SimHash({ backend, userDict: 42 }), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE');
    assert.throws(() => new lib.SimHash({ backend, userDict: '' }), (e) => e.code === 'ERR_INVALID_ARG_VALUE');
    assert.throws(() => new lib.SimHash({ backend, preset: 'mysimhash', userDict: Buffer.from('词\n') }), /does not apply to preset/);
  });
  it('stopWords: a stop-word file (path or bytes; a word per line) is the same as its list', function () {
    const file = path.join(os.tmpdir(), `simhash-zh-stopwords-${process.pid}.txt`);
    fs.writeFileSync(file, '\uFEFF北京\r\n\r\n  大学 \n');
    try {
      const text = '我的北京大学，北京的大学';
      const fromList = new lib.SimHash({ backend, stopWords: ['北京', '大学'] });
      assert.notEqual(fromList.fingerprint(text), new lib.SimHash({ backend }).fingerprint(text));
      assert.equal(new lib.SimHash({ backend, stopWords: file }).fingerprint(text), fromList.fingerprint(text));
      assert.equal(new lib.SimHash({ backend, stopWords: fs.readFileSync(file) }).fingerprint(text), fromList.fingerprint(text));
      assert.equal(summary(new lib.SimHash({ backend, features: 'words', stopWords: file }).tokens(text)), '我:w:29929 的:w:12544 北京大学:w:239121');
      // An empty file drops no stop word, as an empty list.
      assert.equal(new lib.SimHash({ backend, stopWords: Buffer.alloc(0) }).fingerprint(text), new lib.SimHash({ backend, stopWords: false }).fingerprint(text));
    } finally {
      fs.rmSync(file, { force: true });
    }
    assert.throws(() => new lib.SimHash({ backend, stopWords: path.join(os.tmpdir(), 'simhash-zh-no-such-stop.txt') }),
      (e) => e.code === 'SIMHASH_ZH_DICT_IO' && /no-such-stop/.test(e.message));
    assert.throws(() => new lib.SimHash({ backend, stopWords: Buffer.from([0x41, 0xff, 0x0a]) }), (e) => e.code === 'SIMHASH_ZH_DICT_ENCODING');
    assert.throws(() => new lib.SimHash({ backend, stopWords: '' }), (e) => e.code === 'ERR_INVALID_ARG_VALUE');
    assert.throws(() => new lib.SimHash({ backend, stopWords: 42 }), (e) => e instanceof TypeError && /a path or a Uint8Array/.test(e.message));
  });
  it('empty, punctuation-only, emoji-only and NUL texts fingerprint to 0', function () {
    for (const text of ['', '，。！', '😀👍', '\0', '   ']) assert.equal(simhash.fingerprint(text), 0n, JSON.stringify(text));
  });
  it('128 bits: the low 64 bits equal the 64-bit fingerprint computed from the same features', function () {
    const wide = new lib.SimHash({ backend, bits: 128 });
    const tokens64 = simhash.tokens(TEXT1);
    const tokens128 = wide.tokens(TEXT1);
    assert.deepEqual(tokens128.map((t) => BigInt.asUintN(64, t.hash)), tokens64.map((t) => t.hash));
    assert.match(wide.hex(TEXT1), /^[0-9a-f]{32}$/);
  });
  it('a 16 MB text with no punctuation is fingerprinted; weights saturate at (2^16 - 1)^2 (simhash: 2^26)', function () {
    const unit = '近似重复检测中文文本指纹';
    const big = unit.repeat(1 << 19);
    const tokens = simhash.tokens(big);
    assert.deepEqual(tokens.map((t) => t.token), simhash.tokens(unit).map((t) => t.token));
    assert.ok(tokens.every((t) => t.weight === 65535 ** 2));
    assert.equal(simhash.fingerprint(big), simhash.fingerprint(unit.repeat(1 << 12)));
    const signed = new lib.SimHash({ backend, sketch: 'simhash' });
    assert.ok(signed.tokens(big).every((t) => t.weight === 2 ** 26));
    assert.equal(signed.fingerprint(big), signed.fingerprint(unit.repeat(1 << 12)));
  });
  it('rejects bad options', function () {
    assert.throws(() => new lib.SimHash({ backend, weighting: 'bm25' }), (e) => e instanceof TypeError && /'tfidf', 'tf', 'length', 'uniform'/.test(e.message));
    assert.throws(() => new lib.SimHash({ backend, features: 'ngrams' }), TypeError);
    assert.throws(() => new lib.SimHash({ backend, sketch: 'bbit' }), (e) => e instanceof TypeError && /sketch must be one of 'minhash', 'simhash'/.test(e.message));
    assert.throws(() => new lib.SimHash({ backend, html: 'yes' }), TypeError);
    assert.throws(() => new lib.SimHash({ backend, hmm: 1 }), TypeError);
    assert.throws(() => new lib.SimHash({ backend, stopWords: 42 }), TypeError);
    assert.throws(() => new lib.SimHash({ backend, words: [['x', -1]] }), RangeError);
    assert.throws(() => new lib.SimHash({ backend, preset: 'mysimhash', weighting: 'tf' }), /does not apply to preset/);
    assert.throws(() => new lib.SimHash({ backend, dictionary: Buffer.from('SHZHDICT garbage') }), (e) => e.code === 'SIMHASH_ZH_DICT_CORRUPT');
  });
});

(BACKENDS.includes('native') ? describe : describe.skip)('default pipeline: native == js', function () {
  const options = fc.record({
    bits: fc.constantFrom(64, 128),
    html: fc.constantFrom('auto', true, false),
    weighting: fc.constantFrom('tfidf', 'tf', 'length', 'uniform'),
    features: fc.constantFrom('mixed', 'words', 'chars'),
    sketch: fc.constantFrom('minhash', 'simhash'),
    hmm: fc.boolean(),
    dropNumbers: fc.boolean(),
    wholeUrls: fc.boolean(),
    stopWords: fc.constantFrom(true, false, ['北京', 'the', '的']),
  }, { requiredKeys: [] });
  // The last few instances per option set, not all: thousands of option sets, each instance's
  // caches touched by random text (a few MB each), kept the test process at 20 GB, and then
  // spawning a child process failed with ENOMEM.
  const pairs = new Map();
  const pair = (o) => {
    const key = JSON.stringify(o);
    let found = pairs.get(key);
    if (found === undefined) {
      found = [new lib.SimHash({ ...o, backend: 'native' }), new lib.SimHash({ ...o, backend: 'js' })];
      if (pairs.size >= 64) pairs.delete(pairs.keys().next().value);
      pairs.set(key, found);
    }
    return found;
  };
  it(`fingerprints agree for random text and options (${PROPERTY_RUNS} runs)`, function () {
    fc.assert(fc.property(options, anyText(80), (o, text) => {
      const [native, js] = pair(o);
      return native.fingerprint(text) === js.fingerprint(text);
    }), { numRuns: PROPERTY_RUNS });
  });
  it(`tokens agree (${PROPERTY_RUNS} runs)`, function () {
    fc.assert(fc.property(options, mixedText(60), (o, text) => {
      const [native, js] = pair(o);
      assert.deepEqual(native.tokens(text), js.tokens(text));
    }), { numRuns: PROPERTY_RUNS });
  });
  it('words longer than 4096 bytes (hashed as decoded by the native engine) agree, at the boundary too', function () {
    const [native, js] = pair({ features: 'words', bits: 128 });
    for (const length of [4095, 4096, 4097, 4098, 4099, 4100, 10001]) {
      // One ASCII run: one word of `length` bytes, then a word that is not a run.
      const text = `${'ab1'.repeat(length).slice(0, length)} 北京`;
      const tokens = native.tokens(text);
      assert.equal(tokens.length, 2);
      assert.equal(tokens[0].token.length, length);
      assert.deepEqual(tokens, js.tokens(text), `length ${length}`);
    }
  });
  it(`fingerprintManyAsync agrees (${PROPERTY_RUNS / 20} batches)`, async function () {
    await fc.assert(fc.asyncProperty(options, fc.array(anyText(40), { maxLength: 20 }), async (o, texts) => {
      const [native, js] = pair(o);
      assert.deepEqual(await native.fingerprintManyAsync(texts), js.fingerprintMany(texts));
    }), { numRuns: PROPERTY_RUNS / 20 });
  });
});

(BACKENDS.includes('native') ? describe : describe.skip)('default pipeline on real text: native == js', function () {
  // The native engine caches what each character and dictionary word contributes, per engine
  // and across texts; whole documents of real text (hundreds of distinct words, so cache slots
  // are shared) must give exactly the TS engine's tokens and fingerprints.
  const { nodejiebaText } = require('../bench/segment-corpora');
  const lines = nodejiebaText('weicheng.utf8').split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  const configs = [{}, { bits: 128 }, { weighting: 'tf' }, { weighting: 'length', features: 'words' }, { features: 'chars', hmm: true },
    { stopWords: false, weighting: 'uniform', dropNumbers: false }, { stopWords: ['北京', '的', '了'] }, { sketch: 'simhash' }, { sketch: 'simhash', bits: 128 }];
  for (const config of configs) {
    it(`every line of 围城: fingerprints and tokens agree (${JSON.stringify(config)})`, function () {
      this.timeout(60000);
      const native = new lib.SimHash({ ...config, backend: 'native' });
      const js = new lib.SimHash({ ...config, backend: 'js' });
      assert.deepEqual(native.fingerprintMany(lines), js.fingerprintMany(lines));
      for (let i = 0; i < lines.length; i += 7) assert.deepEqual(native.tokens(lines[i]), js.tokens(lines[i]), `line ${i}`);
    });
  }
  it('golden: the fingerprints of every line of 围城 are pinned (the platform-independent contract)', function () {
    const crypto = require('node:crypto');
    const golden = [[{}, '49a15dc5f883ea96419e3345e35bcd77'], [{ bits: 128 }, 'fac8624a2510fdaa7d5a92cbb362a54c'],
      [{ sketch: 'simhash' }, '2e9b81a5700b2c25d2388d2aed9012fe'], [{ sketch: 'simhash', bits: 128 }, '6f8ba93675d07e257fdca0aa29e08f14']];
    for (const backend of BACKENDS) {
      for (const [config, digest] of golden) {
        const simhash = new lib.SimHash({ ...config, backend });
        const hexes = lines.map((line) => simhash.hex(line)).join('\n');
        assert.equal(crypto.createHash('sha256').update(hexes).digest('hex').slice(0, 32), digest, `${backend} ${JSON.stringify(config)}`);
      }
    }
  });
  it('golden: the fingerprints of the shipped news sample (digits in every text) are pinned', function () {
    const crypto = require('node:crypto');
    const news = fs.readFileSync(path.join(__dirname, '..', 'examples', 'news.jsonl'), 'utf8').trim().split('\n')
      .map((line) => JSON.parse(line)).map((r) => `${r.title}\n${r.text}`);
    const golden = [[{}, '47e070ca703772fbba0b35519c699cbb'], [{ dropNumbers: false }, '071f70153adf461d5820e2283f8900aa']];
    for (const backend of BACKENDS) {
      for (const [config, digest] of golden) {
        const simhash = new lib.SimHash({ ...config, backend });
        const hexes = news.map((text) => simhash.hex(text)).join('\n');
        assert.equal(crypto.createHash('sha256').update(hexes).digest('hex').slice(0, 32), digest, `${backend} ${JSON.stringify(config)}`);
      }
    }
  });
  it('words that share a cache slot are each counted, in every text of a batch', function () {
    // The native word cache: a slot of its own for each entry below 65,536, the rest sharing
    // 4,096 slots by entry modulo 4,096 (native/core/pipeline.cc).
    const segmenter = new lib.Segmenter({ backend: 'native' });
    const bySlot = new Map();
    let shared = null;
    for (const line of lines) {
      for (const word of segmenter.cut(line)) {
        const entry = segmenter.entryOf(word);
        if (entry < 65536 || [...word].length < 2) continue;
        const other = bySlot.get(entry % 4096);
        if (other !== undefined && other !== word) shared = [other, word];
        bySlot.set(entry % 4096, word);
      }
      if (shared) break;
    }
    assert.ok(shared, 'two dictionary words of entries above 65,535 with the same entry modulo 4096');
    const [a, b] = shared;
    const text = `${a}，${b}，${a}，${b}，${a}。`;
    const native = new lib.SimHash({ backend: 'native' });
    const js = new lib.SimHash({ backend: 'js' });
    assert.deepEqual(native.tokens(text), js.tokens(text));
    const batch = [text, `${b}，${a}。`, text];
    assert.deepEqual(native.fingerprintMany(batch), js.fingerprintMany(batch));
    assert.equal(native.fingerprintMany(batch)[2], native.fingerprint(text));
  });
  it('words without an entry (cached by their bytes, up to 15) agree: thousands of them, colliding, across a batch', function () {
    // 3,000 distinct Latin words of 2-20 letters (a fixed LCG), far more than the native cache's 1,024 slots.
    let state = 12345;
    const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 8;
    const words = new Set();
    while (words.size < 3000) {
      const length = 2 + (next() % 19);
      let word = '';
      for (let i = 0; i < length; i++) word += String.fromCharCode(97 + (next() % 26));
      words.add(word);
    }
    const list = [...words];
    assert.ok(list.some((w) => w.length === 15) && list.some((w) => w.length === 16));
    const texts = [];
    for (let t = 0; t < 200; t++) {
      const picked = [];
      for (let k = 0; k < 30; k++) picked.push(list[next() % list.length]);
      texts.push(`${lines[t % lines.length].slice(0, 40)} ${picked.join(' ')} 北京 ${picked.slice(0, 5).join(' ')}`);
    }
    const native = new lib.SimHash({ backend: 'native' });
    const js = new lib.SimHash({ backend: 'js' });
    assert.deepEqual(native.fingerprintMany(texts), js.fingerprintMany(texts));
    assert.deepEqual(native.fingerprintMany(texts), js.fingerprintMany(texts));  // the second pass: cached
    for (let t = 0; t < texts.length; t += 13) assert.deepEqual(native.tokens(texts[t]), js.tokens(texts[t]), `text ${t}`);
  });
});

describe('TS engine: word-character table', function () {
  it('WORD_BMP (filled range by range, cheap at load) equals isWordCodePoint on every BMP code point', function () {
    const { isWordCodePoint, WORD_BMP } = require('../dist/js/char-class');
    for (let c = 0; c < 0x10000; c++) assert.equal(WORD_BMP[c], isWordCodePoint(c) ? 1 : 0, `U+${c.toString(16)}`);
  });
});

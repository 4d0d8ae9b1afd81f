'use strict';
// Segmenter: jieba's answers (agreement with @node-rs/jieba on real text), the
// same tokens from both engines (fast-check), the binary dictionary's failure
// modes, the API's validation, and worker threads.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { Worker } = require('node:worker_threads');
const fc = require('fast-check');
const { lib, BACKENDS, forEachBackend, PROPERTY_RUNS } = require('./engines');
const { anyText, mixedText } = require('./arbitraries');
const { manPages, nodejiebaText, typescriptDiagnostics } = require('../bench/segment-corpora');
const DIFFERENCES = require('./fixtures/jieba-differences.json');

const { Segmenter, SimHashError } = lib;
const DICT = path.join(__dirname, '..', 'dict', 'jieba.dict');
/** jieba's bar: share of corpus lines whose tokens equal @node-rs/jieba's. */
const AGREEMENT = { false: 0.999, true: 0.995 };

const { Jieba } = require('@node-rs/jieba');
const { dict: jiebaDict } = require('@node-rs/jieba/dict');
const jieba = Jieba.withDict(jiebaDict);

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

// ---------------------------------------------------------------------------
// Text nobody here wrote: nodejieba's test data (the novel 围城, product
// reviews), TypeScript's Chinese diagnostics, and Debian's Chinese man pages
// when the machine has them (package manpages-zh).

function splitLines(text) {
  return text.split('\n').map((l) => l.replace(/\r$/, '')).filter((l) => l.trim() !== '');
}

function loadCorpora() {
  const weicheng = splitLines(nodejiebaText('weicheng.utf8'));
  const corpora = [
    { name: 'nodejieba weicheng.utf8, lines', lines: weicheng },
    { name: 'nodejieba weicheng.utf8, sentences', lines: weicheng.flatMap((l) => l.split(/(?<=[。！？；])/)).filter((s) => s.trim() !== '') },
    { name: 'nodejieba review.100', lines: splitLines(nodejiebaText('review.100')) },
    { name: 'nodejieba testlines.utf8', lines: splitLines(nodejiebaText('testlines.utf8')) },
    { name: 'typescript zh-cn + zh-tw diagnostics', lines: typescriptDiagnostics() },
  ];
  const man = manPages().pages.flatMap((page) => splitLines(page));
  // Every 4th line keeps the suite fast; bench/segment.js runs them all.
  if (man.length > 0) corpora.push({ name: 'Debian manpages-zh (every 4th line)', lines: man.filter((_, i) => i % 4 === 0) });
  return corpora;
}

describe('Segmenter: agreement with @node-rs/jieba', function () {
  this.timeout(300000);
  const corpora = loadCorpora();
  const expected = new Map();
  const jiebaCut = (corpus, hmm) => {
    const key = `${corpus.name}:${hmm}`;
    if (!expected.has(key)) expected.set(key, corpus.lines.map((line) => jieba.cut(line, hmm)));
    return expected.get(key);
  };
  const listed = (corpus, line, hmm) =>
    DIFFERENCES.corpus.find((d) => d.corpus === corpus && d.line === line && d.hmm === hmm);

  forEachBackend('corpus lines', (backend) => {
    const segmenter = new Segmenter({ backend });
    for (const hmm of [false, true]) {
      it(`cut(line, { hmm: ${hmm} }) equals jieba on >= ${AGREEMENT[hmm] * 100}% of lines, every difference listed`, function () {
        const report = [];
        for (const corpus of corpora) {
          const theirs = jiebaCut(corpus, hmm);
          let equal = 0;
          corpus.lines.forEach((line, i) => {
            const ours = segmenter.cut(line, { hmm });
            if (same(ours, theirs[i])) {
              equal++;
              return;
            }
            const entry = listed(corpus.name, i, hmm);
            assert.ok(entry, `unlisted difference in ${corpus.name} line ${i} (hmm ${hmm}):\n  jieba ${JSON.stringify(theirs[i])}\n  ours  ${JSON.stringify(ours)}`);
            assert.deepEqual(ours, entry.ours, `${corpus.name} line ${i}: the listed difference changed`);
          });
          const share = equal / corpus.lines.length;
          report.push(`${corpus.name}: ${equal}/${corpus.lines.length} (${(share * 100).toFixed(3)}%)`);
          assert.ok(share >= AGREEMENT[hmm], `${corpus.name}: ${(share * 100).toFixed(3)}% of lines agree, below ${AGREEMENT[hmm] * 100}%`);
        }
        if (process.env.SIMHASH_ZH_VERBOSE) console.log(`      ${report.join('\n      ')}`);
      });
    }

    it('every constructed difference in the fixture still differs as described', function () {
      for (const c of DIFFERENCES.constructed) {
        for (const hmm of c.hmm) {
          if (c.dictionary !== undefined) {
            const ours = new Segmenter({ backend, dictionary: Buffer.from(c.dictionary) }).cut(c.text, { hmm });
            assert.deepEqual(ours, c.ours, c.name);
            assert.deepEqual(Jieba.withDict(Buffer.from(c.dictionary)).cut(c.text, hmm), c.jieba, c.name);
            continue;
          }
          const text = c.repeat.repeat(c.times);
          const ours = segmenter.cut(text, { hmm });
          const theirs = jieba.cut(text, hmm);
          assert.ok(!same(ours, theirs), `${c.name} (hmm ${hmm}) no longer differs: update the fixture`);
          assert.equal(ours.join(''), text);
          if (c.firstDifferenceAt !== undefined) {
            let i = 0;
            let at = 0;
            while (ours[i] === theirs[i]) at += ours[i++].length;
            assert.equal(at, c.firstDifferenceAt, c.name);
          }
        }
      }
    });
  });
});

// ---------------------------------------------------------------------------

forEachBackend('Segmenter: jieba semantics', (backend) => {
  const s = new Segmenter({ backend });

  it('cuts as jieba does, with and without the HMM', function () {
    assert.deepEqual(s.cut('我们中出了一个叛徒', { hmm: false }), ['我们', '中', '出', '了', '一个', '叛徒']);
    assert.deepEqual(s.cut('我们中出了一个叛徒', { hmm: true }), ['我们', '中出', '了', '一个', '叛徒']);
    assert.deepEqual(s.cut('他来到了网易杭研大厦'), ['他', '来到', '了', '网易', '杭研', '大厦']);
    assert.deepEqual(s.cut('我来到北京清华大学', { hmm: false }), ['我', '来到', '北京', '清华大学']);
  });

  it('keeps runs of ASCII letters and digits whole, splits the rest as jieba-rs does', function () {
    assert.deepEqual(s.cut('abc网球拍卖会def', { hmm: false }), ['abc', '网球', '拍卖会', 'def']);
    assert.deepEqual(s.cut('x\r\n\ty', { hmm: false }), ['x', '\r\n', '\t', 'y']);
    assert.deepEqual(s.cut('C++和c#, iPhone15Pro 3.14%', { hmm: false }), ['C++', '和', 'c#', ',', ' ', 'iPhone15Pro', ' ', '3', '.', '14', '%']);
    assert.deepEqual(s.cut('WES-5.4.5 3.14%', { hmm: true }), ['WES-5', '.', '4.5', ' ', '3.14%']);
  });

  it('finds words that start with an ASCII character: the dictionary\'s, one added after use, a custom dictionary\'s', function () {
    // The native engine takes most ASCII characters as words of their own without walking the
    // trie; these are the ones it must not (jieba's 'c++' and '1号店', an added 'x光', 'hello').
    const t = new Segmenter({ backend });
    assert.deepEqual(t.cut('x光片和c++ 1号店', { hmm: false }), ['x', '光', '片', '和', 'c++', ' ', '1号店']);
    assert.equal(t.addWord('x光', 1000), 1000);
    assert.deepEqual(t.cut('x光片和c++ 1号店', { hmm: false }), ['x光', '片', '和', 'c++', ' ', '1号店']);
    const custom = new Segmenter({ backend, dictionary: Buffer.from('hello 100\n世界 100\nzz 5\n') });
    assert.deepEqual(custom.cut('xhelloy, hello世界 zzz', { hmm: false }), ['x', 'hello', 'y', ',', ' ', 'hello', '世界', ' ', 'zz', 'z']);
  });

  it("mode: 'longest' is forward maximum matching", function () {
    assert.deepEqual(s.cut('研究生命起源', { hmm: false }), ['研究', '生命', '起源']);
    assert.deepEqual(s.cut('研究生命起源', { hmm: false, mode: 'longest' }), ['研究生', '命', '起源']);
  });

  it('covers the input: the words join back to it (lone surrogates as U+FFFD)', function () {
    assert.deepEqual(s.cut('a\ud800b\udc00'), ['a', '\ufffd', 'b', '\ufffd']);
    assert.deepEqual(s.cut(''), []);
    assert.deepEqual(s.cut('\0😀中国'), ['\0', '😀', '中国']);
  });

  it('cutOffsets gives the end of each word in UTF-16 units', function () {
    assert.deepEqual([...s.cutOffsets('😀我们abc', { hmm: false })], [2, 4, 7]);
  });

  it('forEachWord reports byte offsets for bytes, UTF-16 offsets for strings, and entries', function () {
    const text = '我们爱😀北京abc';
    const seen = [];
    s.forEachWord(text, false, (start, end, entry) => seen.push([text.slice(start, end), entry]));
    assert.deepEqual(seen.map((w) => w[0]), ['我们', '爱', '😀', '北京', 'abc']);
    for (const [word, entry] of seen) assert.equal(entry, s.entryOf(word), word);
    const bytes = Buffer.from(text);
    const fromBytes = [];
    s.forEachWord(bytes, false, (start, end) => fromBytes.push(bytes.toString('utf8', start, end)));
    assert.deepEqual(fromBytes, seen.map((w) => w[0]));
    // An invalid byte reads as one U+FFFD and is its own word.
    const bad = Buffer.from([0xe4, 0xb8, 0x61, 0xff]);
    const ends = [];
    s.forEachWord(bad, true, (start, end) => ends.push(end));
    assert.deepEqual(ends, [1, 2, 3, 4]);
  });

  it('gives IDF values and stop words from the dictionary', function () {
    const entry = s.entryOf('中国');
    assert.ok(entry >= 0);
    assert.ok(s.entryIdf(entry) > 0 && Number.isInteger(s.entryIdf(entry)));
    assert.equal(s.entryIdf(-1), -1);
    assert.equal(s.entryOf('不是一个词语吧'), -1);
    assert.equal(s.isStopWord('的'), true);
    assert.equal(s.isStopWord('中国'), false);
    assert.ok(s.hasWord('中国'));
    assert.equal(s.wordFreq('不是一个词语吧'), 0);
  });

  it('addWord changes the cut of this segmenter only, as jieba add_word does', function () {
    const a = new Segmenter({ backend });
    const freq = a.addWord('中出');
    assert.ok(freq > 1);
    assert.deepEqual(a.cut('我们中出了一个叛徒', { hmm: false }), ['我们', '中出', '了', '一个', '叛徒']);
    assert.equal(a.addWord('叛徒', 0), 0);
    assert.deepEqual(a.cut('我们中出了一个叛徒', { hmm: false }), ['我们', '中出', '了', '一个', '叛', '徒']);
    assert.equal(a.addWord('区块链技术', 100000), 100000);
    assert.deepEqual(a.cut('区块链技术很火', { hmm: false }), ['区块链技术', '很', '火']);
    assert.equal(a.wordFreq('区块链技术'), 100000);
    assert.deepEqual(s.cut('我们中出了一个叛徒', { hmm: false }), ['我们', '中', '出', '了', '一个', '叛徒']);
  });

  it('loadUserDict reads jieba user dictionaries (path or bytes), naming a bad line', function () {
    const a = new Segmenter({ backend });
    assert.equal(a.loadUserDict(Buffer.from('云计算 5\n\n创新办 3 i\n韩玉赏鉴\n')), 3);
    assert.deepEqual(a.cut('李小福是创新办主任也是云计算方面的专家', { hmm: false }).filter((w) => w.length > 2), ['创新办', '云计算']);
    const file = path.join(os.tmpdir(), `simhash-zh-user-${process.pid}.txt`);
    fs.writeFileSync(file, '台中 1000\n');
    try {
      assert.equal(a.loadUserDict(file), 1);
    } finally {
      fs.rmSync(file, { force: true });
    }
    assert.throws(() => a.loadUserDict(Buffer.from('好词 1\n坏词 x\n')), (e) => e.code === 'SIMHASH_ZH_DICT_PARSE' && /line 2/.test(e.message));
    assert.throws(() => a.loadUserDict('/nonexistent/user.dict'), (e) => e.code === 'SIMHASH_ZH_DICT_IO');
    // The same as an option: a segmenter ready with the user's words.
    const b = new Segmenter({ backend, userDict: Buffer.from('云计算 5\n\n创新办 3 i\n韩玉赏鉴\n') });
    assert.deepEqual(b.cut('李小福是创新办主任也是云计算方面的专家', { hmm: false }), a.cut('李小福是创新办主任也是云计算方面的专家', { hmm: false }));
    assert.equal(b.wordFreq('韩玉赏鉴'), a.wordFreq('韩玉赏鉴'));
    assert.throws(() => new Segmenter({ backend, userDict: '/nonexistent/user.dict' }), (e) => e.code === 'SIMHASH_ZH_DICT_IO');
    assert.throws(() => new Segmenter({ backend, userDict: 7 }), (e) => e instanceof TypeError && /userDict must be a path or a Uint8Array/.test(e.message));
  });

  it('takes a dictionary in jieba text format, and custom stop words', function () {
    const custom = new Segmenter({ backend, dictionary: Buffer.from('我们 100\n中出 50\n叛徒 80\n一个 60\n'), stopWords: ['叛徒'] });
    assert.deepEqual(custom.cut('我们中出了一个叛徒', { hmm: false }), ['我们', '中出', '了', '一个', '叛徒']);
    assert.equal(custom.isStopWord('叛徒'), true);
    assert.equal(custom.isStopWord('的'), false);
    assert.ok(custom.entryIdf(custom.entryOf('叛徒')) > 0, 'IDF values carry over from the default dictionary');
    // Stop words from a file (a path or bytes, a word per line), as the list.
    const fromBytes = new Segmenter({ backend, stopWords: Buffer.from('\uFEFF叛徒\r\n\n 中出 \n') });
    assert.equal(fromBytes.isStopWord('叛徒') && fromBytes.isStopWord('中出'), true);
    assert.equal(fromBytes.isStopWord('的'), false);
    assert.throws(() => new Segmenter({ backend, stopWords: '/nonexistent/stop.txt' }), (e) => e.code === 'SIMHASH_ZH_DICT_IO');
    assert.throws(() => new Segmenter({ backend, stopWords: 7 }), (e) => e instanceof TypeError && /a path or a Uint8Array/.test(e.message));
    assert.throws(() => new Segmenter({ backend, dictionary: Buffer.from('好 1\n坏 1 x y\n') }),
      (e) => e instanceof SimHashError && e.code === 'SIMHASH_ZH_DICT_PARSE' && /line 2/.test(e.message));
  });

  it('validates its arguments', function () {
    assert.throws(() => s.cut(1), TypeError);
    assert.throws(() => s.cut(null), TypeError);
    assert.throws(() => s.cut('x', { mode: 'fast' }), TypeError);
    assert.throws(() => s.cut('x', { HMM: true }), /unknown option 'HMM'/);
    assert.throws(() => s.cut('x', { hmm: 1 }), TypeError);
    assert.throws(() => s.forEachWord(1, true, () => {}), TypeError);
    assert.throws(() => s.forEachWord('x', true, null), TypeError);
    assert.throws(() => s.addWord(1), TypeError);
    assert.throws(() => s.addWord(''), RangeError);
    assert.throws(() => s.addWord('词', -1), RangeError);
    assert.throws(() => s.addWord('词', 1.5), RangeError);
    assert.throws(() => new Segmenter({ backend, dictionary: 42 }), TypeError);
    assert.throws(() => new Segmenter({ backend, stopWords: 42 }), TypeError);
    assert.throws(() => new Segmenter({ backend, hmm: 'yes' }), TypeError);
  });

  it('a visitor cannot re-enter its segmenter; a throwing visitor stops the walk', function () {
    const a = new Segmenter({ backend });
    assert.throws(() => a.forEachWord('我们中出了一个叛徒', false, () => a.cut('再来')), /forEachWord/);
    assert.deepEqual(a.cut('我们'), ['我们']);
    let calls = 0;
    assert.throws(() => a.forEachWord('我们中出了一个叛徒'.repeat(2000), false, () => {
      if (++calls === 5000) throw new Error('stop here');
    }), /stop here/);
    assert.equal(calls, 5000);
    assert.deepEqual(a.cut('我们'), ['我们']);
  });

  it('segments 16 MB without punctuation in bounded memory', function () {
    this.timeout(120000);
    const base = nodejiebaText('weicheng.utf8').replace(/[^\u4e00-\u9fff]/g, '');
    let text = base;
    while (text.length < 16e6 / 3) text += base;
    const bytes = Buffer.from(text);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let words = 0;
    let last = 0;
    let peak = before;
    s.forEachWord(bytes, true, (start, end) => {
      assert.equal(start, last);
      last = end;
      if ((++words & 0xfffff) === 0) peak = Math.max(peak, process.memoryUsage().rss);
    });
    assert.equal(last, bytes.length);
    assert.ok(words > bytes.length / 9, `${words} words`);
    assert.ok(peak - before < 2 * bytes.length + (64 << 20), `resident memory grew by ${((peak - before) / 1048576).toFixed(0)} MB`);
  });
});

// ---------------------------------------------------------------------------

(BACKENDS.includes('native') ? describe : describe.skip)('Segmenter: native == js parity', function () {
  this.timeout(120000);
  const native = new Segmenter({ backend: 'native' });
  const js = new Segmenter({ backend: 'js' });
  const weicheng = nodejiebaText('weicheng.utf8');
  // Dictionary-heavy text: slices of the novel mixed with anything.
  const novel = fc.integer({ min: 0, max: weicheng.length - 16 }).map((i) => weicheng.substr(i, 1 + (i % 12)));
  const text = fc.array(fc.oneof(novel, anyText(6), mixedText(10)), { maxLength: 24 }).map((parts) => parts.join(''));
  const options = fc.record({ hmm: fc.boolean(), mode: fc.constantFrom('default', 'longest') });
  const visit = (s, input, hmm) => {
    const out = [];
    s.forEachWord(input, hmm, (start, end, entry) => out.push(start, end, entry));
    return out;
  };

  it(`cut (${PROPERTY_RUNS} runs)`, function () {
    fc.assert(fc.property(text, options, (t, o) => {
      const words = native.cut(t, o);
      assert.deepEqual(words, js.cut(t, o));
      assert.equal(words.join(''), t.toWellFormed());
    }), { numRuns: PROPERTY_RUNS });
  });

  it(`forEachWord over strings, with entries (${PROPERTY_RUNS} runs)`, function () {
    fc.assert(fc.property(text, fc.boolean(), (t, hmm) => {
      assert.deepEqual(visit(native, t, hmm), visit(js, t, hmm));
    }), { numRuns: PROPERTY_RUNS });
  });

  it(`forEachWord over UTF-8 bytes, invalid sequences included (${PROPERTY_RUNS} runs)`, function () {
    const bytes = fc.oneof(text.map((t) => Buffer.from(t)), fc.uint8Array({ maxLength: 60 }));
    fc.assert(fc.property(bytes, fc.boolean(), (b, hmm) => {
      const a = visit(native, b, hmm);
      assert.deepEqual(a, visit(js, b, hmm));
      assert.equal(a.length === 0 ? 0 : a[a.length - 2], b.length);
    }), { numRuns: PROPERTY_RUNS });
  });

  it(`addWord, then cut (${PROPERTY_RUNS} runs, the words accumulate)`, function () {
    const n = new Segmenter({ backend: 'native' });
    const j = new Segmenter({ backend: 'js' });
    // Words that start with ASCII characters too: they turn off the native engine's shortcut for them.
    const word = fc.oneof(novel, fc.string({ unit: fc.constantFrom(...'中国人民银行总行研究生命起源abc1x+光'), minLength: 1, maxLength: 6 }));
    const freq = fc.option(fc.integer({ min: 0, max: 5000000 }), { nil: undefined });
    fc.assert(fc.property(word, freq, text, options, (w, f, t, o) => {
      assert.equal(n.addWord(w, f), j.addWord(w, f));
      assert.deepEqual(n.cut(t, o), j.cut(t, o));
      assert.equal(n.entryOf(w) >= 0, true);
    }), { numRuns: PROPERTY_RUNS });
  });

  it('isStopWord, entryOf and entryIdf agree', function () {
    fc.assert(fc.property(fc.oneof(novel, anyText(4)), (w) => {
      assert.equal(native.isStopWord(w), js.isStopWord(w));
      assert.equal(native.entryOf(w), js.entryOf(w));
      assert.equal(native.entryIdf(native.entryOf(w)), js.entryIdf(js.entryOf(w)));
    }), { numRuns: PROPERTY_RUNS });
  });
});

// ---------------------------------------------------------------------------

describe('Segmenter: the binary dictionary', function () {
  const good = fs.readFileSync(DICT);
  const tmp = path.join(os.tmpdir(), `simhash-zh-dict-test-${process.pid}`);
  before(() => fs.mkdirSync(tmp, { recursive: true }));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const resign = (bytes) => {
    bytes.writeUInt32LE(zlib.crc32(bytes.subarray(16)) >>> 0, 12);
    return bytes;
  };
  const sectionOffset = (bytes, id) => {
    for (let i = 0; i < bytes.readUInt32LE(24); i++) {
      if (bytes.readUInt32LE(96 + i * 16) === id) return 96 + i * 16;
    }
    throw new Error(`no section ${id}`);
  };
  const cases = [
    ['truncated', 'SIMHASH_ZH_DICT_CORRUPT', /truncated/, () => good.subarray(0, good.length - 1000)],
    ['shorter than its header', 'SIMHASH_ZH_DICT_CORRUPT', /truncated/, () => good.subarray(0, 50)],
    ['a flipped byte', 'SIMHASH_ZH_DICT_CORRUPT', /checksum/, () => {
      const b = Buffer.from(good);
      b[b.length >> 1] ^= 0x20;
      return b;
    }],
    ['another version', 'SIMHASH_ZH_DICT_VERSION', /version 99/, () => {
      const b = Buffer.from(good);
      b.writeUInt32LE(99, 8);
      return b;
    }],
    ['bad magic', 'SIMHASH_ZH_DICT_CORRUPT', /magic/, () => {
      const b = Buffer.from(good);
      b[7] = 0x58;
      return b;
    }],
    ['a section outside the file (checksum fixed up)', 'SIMHASH_ZH_DICT_CORRUPT', /outside the file/, () => {
      const b = Buffer.from(good);
      b.writeUInt32LE(0x7ffffff8, sectionOffset(b, 3) + 4);
      return resign(b);
    }],
    ['a trie base past the end (checksum fixed up)', 'SIMHASH_ZH_DICT_CORRUPT', /trie slot/, () => {
      const b = Buffer.from(good);
      b.writeInt32LE(0x7fffffff, b.readUInt32LE(sectionOffset(b, 3) + 4) + 16 * 5);
      return resign(b);
    }],
    ['a child missing from its parent\'s filter (checksum fixed up)', 'SIMHASH_ZH_DICT_CORRUPT', /missing from its parent's child filter/, () => {
      // The root's filter emptied: every one-character child is then missing from it.
      const b = Buffer.from(good);
      b.writeInt32LE(0, b.readUInt32LE(sectionOffset(b, 3) + 4) + 12);
      return resign(b);
    }],
    ['an IDF out of range (checksum fixed up)', 'SIMHASH_ZH_DICT_CORRUPT', /entry 7 is invalid/, () => {
      const b = Buffer.from(good);
      b.writeInt32LE(2 ** 30, b.readUInt32LE(sectionOffset(b, 6) + 4) + 4 * 7);
      return resign(b);
    }],
    ['an HMM section of the wrong shape (checksum fixed up)', 'SIMHASH_ZH_DICT_CORRUPT', /HMM/, () => {
      const b = Buffer.from(good);
      b.writeInt32LE(0x4e01, b.readUInt32LE(sectionOffset(b, 8) + 4) + 20 * 4);
      return resign(b);
    }],
  ];

  it('a parent cycle, which validation lets through, segments the same in both engines and ends', function () {
    // Slots t (a three-character word), p (its parent) and g (p's parent, a child of the root):
    // g's parent becomes p. The engines' climbs from a word to its first character then go round
    // in circles; each gives up at its bound and takes no ASCII shortcut.
    const b = Buffer.from(good);
    const trieAt = b.readUInt32LE(sectionOffset(b, 3) + 4);
    const slots = b.readUInt32LE(sectionOffset(b, 3) + 12);
    const logFreqAt = b.readUInt32LE(sectionOffset(b, 4) + 4);
    const slot = (s, field) => b.readInt32LE(trieAt + 16 * s + 4 * field); // 0 base, 1 check, 2 entry, 3 children
    let t = 1;
    const isWordOfThree = (x) => slot(x, 2) >= 0 && b.readInt32LE(logFreqAt + 4 * slot(x, 2)) >= 0 && slot(x, 1) > 0 &&
      slot(slot(x, 1), 1) > 0 && slot(slot(slot(x, 1), 1), 1) === 0;
    while (t < slots && !isWordOfThree(t)) t++;
    const p = slot(t, 1);
    const g = slot(p, 1);
    b.writeInt32LE(p, trieAt + 16 * g + 4);
    b.writeInt32LE((slot(p, 3) | (1 << ((g - slot(p, 0)) & 31))) | 0, trieAt + 16 * p + 12);
    resign(b);
    const text = 'abc网球拍卖会 x光 c++ 1号店, hello世界';
    const words = BACKENDS.map((backend) => new Segmenter({ backend, dictionary: new Uint8Array(b), hmm: false }).cut(text));
    for (const w of words) {
      assert.equal(w.join(''), text);
      assert.deepEqual(w, words[0]);
    }
  });

  it('ignores sections it does not know (a later format may add some), even one listed twice, in both engines', function () {
    // Two entries of id 10 inserted into the section table; the data moves 32 bytes down.
    const count = good.readUInt32LE(24);
    const tableEnd = 96 + count * 16;
    const b = Buffer.alloc(good.length + 32);
    good.copy(b, 0, 0, tableEnd);
    good.copy(b, tableEnd + 32, tableEnd);
    for (let i = 0; i < count; i++) b.writeUInt32LE(good.readUInt32LE(96 + i * 16 + 4) + 32, 96 + i * 16 + 4);
    for (const at of [tableEnd, tableEnd + 16]) {
      b.writeUInt32LE(10, at);
      b.writeUInt32LE(tableEnd + 32, at + 4); // 8-aligned, inside the file, 0 bytes long
    }
    b.writeUInt32LE(count + 2, 24);
    b.writeUInt32LE(b.length, 16);
    resign(b);
    const text = '我来到北京清华大学';
    for (const backend of BACKENDS) {
      assert.deepEqual(new Segmenter({ backend, dictionary: new Uint8Array(b) }).cut(text), ['我', '来到', '北京', '清华大学']);
    }
    // A known section listed twice is still corrupt.
    b.writeUInt32LE(3, tableEnd);
    resign(b);
    for (const backend of BACKENDS) {
      assert.throws(() => new Segmenter({ backend, dictionary: new Uint8Array(b) }),
        (e) => e instanceof SimHashError && e.code === 'SIMHASH_ZH_DICT_CORRUPT' && /section 3 appears twice/.test(e.message));
    }
  });

  forEachBackend('rejects a damaged file with a stable code, never a crash', (backend) => {
    for (const [name, code, message, make] of cases) {
      it(name, function () {
        const bytes = make();
        const check = (e) => e instanceof SimHashError && e.code === code && message.test(e.message);
        assert.throws(() => new Segmenter({ backend, dictionary: new Uint8Array(bytes) }), check);
        const file = path.join(tmp, `${name.replace(/\W+/g, '-')}.dict`);
        fs.writeFileSync(file, bytes);
        assert.throws(() => new Segmenter({ backend, dictionary: file }), check);
      });
    }
    it('a missing file', function () {
      assert.throws(() => new Segmenter({ backend, dictionary: path.join(tmp, 'missing.dict') }), (e) => e.code === 'SIMHASH_ZH_DICT_IO');
    });
    it('the good file, given as a path or as bytes', function () {
      const file = path.join(tmp, 'copy.dict');
      fs.writeFileSync(file, good);
      const a = new Segmenter({ backend, dictionary: file });
      const b = new Segmenter({ backend, dictionary: new Uint8Array(good) });
      assert.deepEqual(a.cut('我们中出了一个叛徒'), b.cut('我们中出了一个叛徒'));
    });
  });
});

(BACKENDS.includes('native') ? describe : describe.skip)('Segmenter: worker threads', function () {
  it('works in workers, each with its own addon instance, sharing the mapped dictionary', async function () {
    this.timeout(60000);
    const code = `
      const { parentPort } = require('node:worker_threads');
      const { Segmenter } = require(${JSON.stringify(path.join(__dirname, '..', 'dist'))});
      const s = new Segmenter({ backend: 'native' });
      s.addWord('杭研大厦', 10);
      parentPort.postMessage([s.cut('他来到了网易杭研大厦'), s.cut('我们中出了一个叛徒', { hmm: false })]);`;
    const run = () => new Promise((resolve, reject) => {
      const worker = new Worker(code, { eval: true });
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const results = await Promise.all([run(), run(), run()]);
    for (const [a, b] of results) {
      assert.deepEqual(a, ['他', '来到', '了', '网易', '杭研大厦']);
      assert.deepEqual(b, ['我们', '中', '出', '了', '一个', '叛徒']);
    }
    assert.deepEqual(new Segmenter({ backend: 'native' }).cut('他来到了网易杭研大厦'), ['他', '来到', '了', '网易', '杭研', '大厦']);
  });
});

describe('Segmenter: an alphabet of more than 65,535 characters', function () {
  this.timeout(120000);
  // Alphabet ids do not fit 16 bits: nothing may narrow them (a tempting way to shrink the
  // per-character table). Here every supplementary character of U+20000..U+2A6DF is in
  // two words and every BMP character of U+3400..U+4DBF and U+4E00..U+9FFF in one, so the
  // supplementary ones are numbered first (more words) and the BMP ones from 42,721 up to 70,304:
  // those from about U+8A60 on get ids above 65,535.
  const chr = (cp) => String.fromCodePoint(cp);
  const lines = [];
  const SUPP_FIRST = 0x20000;
  const SUPP_LAST = 0x2a6df;
  for (let cp = SUPP_FIRST; cp < SUPP_LAST; cp++) lines.push(`${chr(cp)}${chr(cp + 1)} 3`);
  const bmpPairs = [];
  for (const [first, last] of [[0x3400, 0x4dbf], [0x4e00, 0x9fff]]) {
    for (let cp = first; cp < last; cp += 2) bmpPairs.push(chr(cp) + chr(cp + 1));
  }
  for (const word of bmpPairs) lines.push(`${word} 5`);
  const dictionary = Buffer.from(lines.join('\n') + '\n');
  // Words of the last characters (the widest ids), of the first BMP ones, and supplementary ones.
  const words = [...bmpPairs.slice(-40), ...bmpPairs.slice(0, 5), chr(SUPP_FIRST) + chr(SUPP_FIRST + 1), chr(SUPP_LAST - 1) + chr(SUPP_LAST)];
  // Each word twice, the second time after one of its characters was moved off the pairing.
  const text = words.join('') + '，' + words.map((w) => w + [...w][0]).join('');

  forEachBackend('wide ids', (backend) => {
    it('segments by every character id, wide ones included', function () {
      const segmenter = new Segmenter({ backend, dictionary });
      assert.deepEqual(segmenter.cut(words.join(''), { hmm: false }), words);
      const expected = [...words, '，'];
      for (const w of words) expected.push(w, [...w][0]);
      assert.deepEqual(segmenter.cut(text, { hmm: false }), expected);
      for (const w of words) assert.ok(segmenter.entryOf(w) >= 0, `${w} has an entry`);
    });
  });
});

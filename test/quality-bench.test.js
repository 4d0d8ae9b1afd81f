'use strict';
// The quality benchmark's harness (bench/quality.js): scores on hand-made distances,
// the variant kinds, corpus cutting and determinism, on a tiny inline corpus.
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const quality = require('../bench/quality');
const corpus = require('../bench/quality/corpus');
const variants = require('../bench/quality/variants');
const metrics = require('../bench/quality/metrics');

const ROOT = path.join(__dirname, '..');

// A tiny corpus for the harness (the benchmark itself runs on real text).
const PARAGRAPHS = [
  '清晨的小镇还笼罩在薄雾里，河边的石板路湿漉漉的。卖豆浆的老人推着车慢慢走过桥头，吆喝声在巷子里回荡。几个学生背着书包跑过，笑声惊起了屋檐下的麻雀。',
  '图书馆在周末延长开放时间，阅览室里坐满了准备考试的年轻人。管理员说，今年新增了两千册藏书，其中大部分是读者推荐的科普读物和地方志。',
  '这家面馆开了三十多年，招牌上的字已经褪色。老板每天凌晨四点起来熬汤，他说汤底的味道决定了一碗面的好坏，偷不得懒。熟客们都知道，去晚了就只剩清汤面了。',
  '暴雨过后，山里的溪水涨得很快。护林员沿着小路检查了每一座木桥，发现有一座桥的栏杆被冲断了。他们当天下午就用竹子搭了临时护栏，并在路口立了提示牌。',
  '火车站的候车大厅重新装修后，增加了充电座椅和母婴室。一位带着孩子的旅客说，以前排队接热水要等很久，现在每层都有饮水机，方便多了。',
  '老师傅修了一辈子钟表，柜台上摆满了拆开的零件。他用放大镜看着齿轮，一边说：“现在的年轻人都用手机看时间，可总有人舍不得家里的老座钟。”',
];
const SHORT_LINES = [
  '物流很快，包装完好，东西和描述的一样。',
  '味道一般，分量倒是挺足的，下次不会再点了。',
  '客服态度很好，耐心解答了我的问题！',
  '颜色比图片上深一点，不过质量不错，穿着很舒服。',
  '第二次购买了，一直用这个牌子，值得信赖。',
  '屏幕清晰，电池也耐用，就是充电器有点发热。',
];
const TEXT = PARAGRAPHS.join('\n') + '\n' + SHORT_LINES.join('\n') + '\n';
const LIMITS = { documents: { min: 60, max: 400 }, short: { min: 10, max: 120 } };
const SOURCES = [{ text: TEXT, label: 'inline test text' }];
const OPTIONS = { sources: SOURCES, limits: LIMITS, seed: 7, bases: 40 };

/** A 32-bit method that looks fingerprints up in a hand-made table (0 for other texts). */
function tableMethod(name, table) {
  return {
    name,
    bits: 32,
    backend: 'js',
    available: true,
    fingerprintWords: (texts) => Uint32Array.from(texts, (t) => table.get(t) ?? 0),
  };
}

describe('quality benchmark: scores', function () {
  it('computes precision, recall and F1 from distance histograms', function () {
    // positives at distances 0, 1, 3, 5; negatives at 2, 4, 20
    const pos = new Array(33).fill(0);
    const neg = new Array(33).fill(0);
    for (const d of [0, 1, 3, 5]) pos[d]++;
    for (const d of [2, 4, 20]) neg[d]++;
    const curve = metrics.scoreCurve(pos, neg, 16);
    assert.equal(curve.length, 17);
    assert.deepEqual(curve[0], { k: 0, tp: 1, fp: 0, fn: 3, tn: 3, precision: 1, recall: 0.25, f1: 0.4 });
    assert.deepEqual(curve[2], { k: 2, tp: 2, fp: 1, fn: 2, tn: 2, precision: 2 / 3, recall: 0.5, f1: 4 / 7 });
    assert.deepEqual(curve[3], { k: 3, tp: 3, fp: 1, fn: 1, tn: 2, precision: 0.75, recall: 0.75, f1: 0.75 });
    assert.deepEqual(curve[5], { k: 5, tp: 4, fp: 2, fn: 0, tn: 1, precision: 4 / 6, recall: 1, f1: 0.8 });
    assert.deepEqual(metrics.bestPoint(curve), curve[5]);
    // nothing flagged: no precision, F1 0
    const none = metrics.scoreCurve([0, 1], [0, 1], 0)[0];
    assert.equal(none.precision, null);
    assert.equal(none.f1, 0);
  });

  it('scores a hand-made set whose distances are known', function () {
    const set = {
      bases: [{ text: 'a' }, { text: 'b' }, { text: 'c' }],
      variants: [
        { base: 0, kind: 'typo', text: 'a1' },
        { base: 1, kind: 'typo', text: 'b1' },
        { base: 2, kind: 'boilerplate', detail: 'header', text: 'c1' },
      ],
    };
    // bases 0x0, 0xff, 0xffff0000: negatives at 8, 16, 24; variants at 1, 4, 0
    const words = Uint32Array.from([0x0, 0xff, 0xffff0000, 0x1, 0xf0, 0xffff0000]);
    const r = metrics.evaluateSet({ set, words, wordsPerText: 1, bits: 32, groups: variants.reportGroups(['boilerplate', 'typo']), kMax: 16 });
    assert.equal(r.positives, 3);
    assert.equal(r.negatives, 3);
    assert.deepEqual(r.negativeHistogram.flatMap((n, d) => Array(n).fill(d)), [8, 16, 24]);
    assert.deepEqual(r.positiveHistogram.flatMap((n, d) => Array(n).fill(d)), [0, 1, 4]);
    assert.deepEqual(r.curve[3], { k: 3, tp: 2, fp: 0, fn: 1, tn: 3, precision: 1, recall: 2 / 3, f1: 0.8 });
    assert.deepEqual(r.curve[8], { k: 8, tp: 3, fp: 1, fn: 0, tn: 2, precision: 0.75, recall: 1, f1: 6 / 7 });
    assert.equal(r.best.k, 4);
    assert.equal(r.best.f1, 1);
    assert.equal(r.kinds.typo.recall[3], 0.5);
    assert.equal(r.kinds.typo.recall[4], 1);
    assert.equal(r.kinds.boilerplate.recall[0], 1);
    assert.equal(r.kinds['boilerplate/header'].count, 1);
    assert.equal(r.kinds['boilerplate/footer'].count, 0);
    assert.equal(r.negativeDistance.min, 8);
    assert.equal(r.negativeDistance.median, 16);
  });

  it('counts 64- and 128-bit distances over all words', function () {
    const words = Uint32Array.from([0xffffffff, 0x0, 0x0, 0x1, 0x0, 0x0, 0x0, 0x80000000]);
    assert.equal(metrics.hamming(words, 2, 0, 1), 33);
    assert.equal(metrics.hamming(words, 4, 0, 1), 34);
    assert.equal(metrics.popcount32(0xffffffff), 32);
  });

  it('runs end to end with an injected method (all-equal fingerprints: recall 1, precision P/(P+N))', function () {
    const { sets } = quality.buildSets(OPTIONS);
    const constant = { name: 'constant', bits: 32, backend: 'js', available: true, fingerprintWords: (texts) => new Uint32Array(texts.length) };
    const result = quality.runQualityBench({ ...OPTIONS, methods: [constant] });
    for (const name of corpus.SETS) {
      const r = result.methods[0].sets[name];
      const P = sets[name].variants.length;
      const n = sets[name].bases.length;
      assert.equal(r.positives, P);
      assert.equal(r.negatives, (n * (n - 1)) / 2);
      assert.deepEqual(r.curve[0], { k: 0, tp: P, fp: r.negatives, fn: 0, tn: 0, precision: P / (P + r.negatives), recall: 1, f1: (2 * P) / (2 * P + r.negatives) });
    }
    assert.equal(result.methods[0].demo.text1text2, 0);
    assert.equal(result.methods[0].targets.demoSimilar.met, true);
    assert.equal(result.methods[0].targets.demoDistinct.met, false);
  });

  it('scores each variant against its own base (a table method)', function () {
    const { sets } = quality.buildSets(OPTIONS);
    const set = sets.short;
    const table = new Map();
    const fpOf = (i) => (1 << i % 31) >>> 0;
    set.bases.forEach((b, i) => table.set(b.text, fpOf(i)));
    // typo variants 1 bit off their base (bit 31), all others 5 bits off (bits 27-31)
    for (const v of set.variants) table.set(v.text, (fpOf(v.base) ^ (v.kind === 'typo' ? 0x80000000 : 0xf8000000)) >>> 0);
    const only = quality.runQualityBench({ ...OPTIONS, methods: [tableMethod('table', table)] }).methods[0].sets.short;
    assert.equal(only.kinds.typo.recall[1], 1);
    assert.equal(only.kinds.swap.recall[4], 0);
    assert.equal(only.kinds.swap.recall[5], 1);
  });
});

describe('quality benchmark: corpus', function () {
  it('splits sentences and clauses without losing characters', function () {
    const text = '他说：“走吧！”我们就走了。真的吗？是的，走了……\n下一段';
    assert.deepEqual(corpus.splitUnits(text), ['他说：“走吧！”', '我们就走了。', '真的吗？', '是的，走了……\n', '下一段']);
    assert.equal(corpus.splitUnits(text, 'clause').join(''), text);
    assert.deepEqual(corpus.splitUnits('是的，走了', 'clause'), ['是的，', '走了']);
  });

  it('decodes character references in sources and reduces HTML sources to text', function () {
    assert.equal(corpus.normalizeSource('标&#12288;签：好&amp;快&#x3002;&bogus;\r\n'), '标\u3000签：好&快。&bogus;\n');
    const html = '<html><head><title>t</title></head><body><h1>题</h1><p>一&nbsp;二</p><script>x</script></body></html>';
    assert.deepEqual(corpus.splitParagraphs(corpus.normalizeSource(html, 'html')), ['题', '一 二']);
  });

  it('cuts bases within the limits, without identical or overlapping ones', function () {
    // the whole text twice: every piece of the second copy repeats text of the first
    const built = corpus.buildCorpus({ sources: [{ text: TEXT + TEXT, label: 't' }], seed: 3, bases: 100, limits: LIMITS });
    const shingles = (t) => {
      const out = new Set();
      for (let i = 0; i + 12 <= t.length; i++) out.add(t.slice(i, i + 12));
      return out;
    };
    for (const name of corpus.SETS) {
      const set = built.sets[name];
      const texts = set.bases.map((b) => b.text);
      assert.ok(texts.length >= 2, name);
      assert.ok(set.duplicatesDropped + set.overlappingDropped >= 1, name);
      assert.equal(new Set(texts).size, texts.length);
      for (const t of texts) {
        assert.ok(t.length >= LIMITS[name].min && t.length <= LIMITS[name].max, `${name}: ${t.length}`);
      }
      const sets = texts.map(shingles);
      for (let i = 0; i < sets.length; i++) {
        for (let j = i + 1; j < sets.length; j++) {
          let shared = 0;
          for (const g of sets[i]) if (sets[j].has(g)) shared++;
          assert.ok(shared < corpus.OVERLAP_LIMIT * Math.max(sets[i].size, sets[j].size, 1), `${name}: bases ${i} and ${j} overlap`);
        }
      }
    }
  });
});

describe('quality benchmark: variants', function () {
  let sets;
  before(function () {
    sets = quality.buildSets(OPTIONS).sets;
  });
  const stripHtml = (html) => corpus.decodeEntities(
    html.replace(/<(script|style)\b[\s\S]*?<\/\1>/g, '').replace(/<!--[\s\S]*?-->/g, '').replace(/<[^>]*>/g, ''),
  ).replace(/[\s\u3000\u00a0]+/g, '');
  const squeeze = (t) => t.replace(/[\s\u3000\u00a0]+/g, '');
  const sortedChars = (t) => [...t].sort().join('');

  for (const name of corpus.SETS) {
    it(`makes every kind for the ${name} set, each different from its base`, function () {
      const { bases, variants: vs } = sets[name];
      const kinds = new Set(vs.map((v) => v.kind));
      assert.deepEqual([...kinds].sort(), [...variants.KINDS].sort());
      const placements = new Set(vs.filter((v) => v.kind === 'boilerplate').map((v) => v.detail));
      assert.deepEqual([...placements].sort(), [...variants.BOILERPLATE_PLACEMENTS].sort());
      for (const v of vs) assert.notEqual(v.text, bases[v.base].text, `${v.kind} of base ${v.base}`);
    });

    it(`applies exactly the change of each kind (${name})`, function () {
      const { bases, variants: vs } = sets[name];
      for (const v of vs) {
        const base = bases[v.base].text;
        const label = `${name} ${v.kind} of base ${v.base}`;
        switch (v.kind) {
          case 'boilerplate':
            assert.ok(v.text.includes(base), label);
            assert.equal(v.text.startsWith(base), v.detail === 'footer', label);
            assert.equal(v.text.endsWith(base), v.detail === 'header', label);
            break;
          case 'html':
            assert.match(v.text, /<[a-z]+[ >]/);
            assert.match(v.text, /&[a-z#0-9]+;/);
            assert.equal(stripHtml(v.text), squeeze(base), label);
            break;
          case 'width':
            assert.equal(variants.swapWidth(v.text), base, label);
            break;
          case 'punct': {
            const letters = (t) => t.replace(/[^\p{L}\p{N}]/gu, '');
            assert.equal(letters(v.text), letters(base), label);
            break;
          }
          case 'swap':
            assert.equal(sortedChars(v.text), sortedChars(base), label);
            break;
          case 'delete':
            assert.ok(v.text.length < base.length && base.length - v.text.length <= base.length * variants.EDIT_FRACTION, label);
            break;
          case 'insert':
            assert.ok(v.text.length > base.length && v.text.length - base.length <= base.length * variants.EDIT_FRACTION, label);
            break;
          case 'typo': {
            const a = [...v.text];
            const b = [...base];
            assert.equal(a.length, b.length, label);
            const changed = a.filter((ch, i) => ch !== b[i]).length;
            assert.equal(changed, Math.max(1, Math.round(b.length * variants.TYPO_RATE)), label);
            break;
          }
          default:
            assert.fail(`unexpected kind ${v.kind}`);
        }
      }
    });
  }

  it('is deterministic for a seed and changes with it', function () {
    const again = quality.buildSets(OPTIONS).sets;
    const other = quality.buildSets({ ...OPTIONS, seed: 8 }).sets;
    for (const name of corpus.SETS) {
      assert.deepEqual(again[name].variants, sets[name].variants);
      assert.deepEqual(again[name].bases, sets[name].bases);
      assert.notDeepEqual(other[name].variants.map((v) => v.text), sets[name].variants.map((v) => v.text));
    }
  });
});

describe('quality benchmark: methods and CLI', function () {
  it('compares the presets and simhash-js, and lists the default pipeline when it constructs', function () {
    const result = quality.runQualityBench({ ...OPTIONS, configs: [{ bits: 64 }] });
    const names = result.methods.map((m) => m.name);
    assert.deepEqual(names, ['default', 'default {"bits":64}', 'SimHashChinese', 'mysimhash', 'simhash-js']);
    const byName = Object.fromEntries(result.methods.map((m) => [m.name, m]));
    assert.equal(byName['simhash-js'].bits, 32);
    assert.equal(byName.SimHashChinese.bits, 64);
    for (const m of result.methods.filter((x) => x.available)) {
      for (const name of corpus.SETS) {
        assert.equal(m.sets[name].curve.length, quality.K_MAX + 1);
        assert.equal(m.sets[name].positives, result.corpus.sets[name].positives);
      }
    }
    for (const m of result.methods.filter((x) => !x.available)) assert.ok(m.error.length > 0);
    const report = quality.formatReport(result);
    assert.match(report, /Documents/);
    assert.match(report, /Short texts/);
    assert.match(report, /documents F1 at k=3 >= 0\.90/);
    assert.match(report, /(met|UNMET)/);
  });

  it('includes the default pipeline and --config methods whenever they construct', function () {
    const methodsLib = require('../bench/quality/methods');
    class FakeSimHash {
      constructor(options = {}) {
        if (options.preset === undefined && options.weighting === 'bogus') throw new RangeError('weighting must be one of ...');
        this.bits = options.bits || 64;
        this.backend = 'js';
      }
      fingerprintMany(texts) {
        return new BigUint64Array(texts.length * (this.bits / 64)).fill(5n);
      }
    }
    const methods = methodsLib.standardMethods({ configs: [{ weighting: 'tf', bits: 128 }, { weighting: 'bogus' }], lib: { SimHash: FakeSimHash }, peers: false });
    assert.deepEqual(methods.map((m) => [m.name, m.available]), [
      ['default', true],
      ['default {"weighting":"tf","bits":128}', true],
      ['default {"weighting":"bogus"}', false],
      ['SimHashChinese', true],
      ['mysimhash', true],
    ]);
    assert.match(methods[2].error, /weighting must be one of/);
    assert.equal(methods[1].bits, 128);
    assert.deepEqual([...methods[1].fingerprintWords(['x'])], [5, 0, 5, 0]);
    const result = quality.runQualityBench({ ...OPTIONS, methods });
    assert.equal(result.methods[1].wordsPerText, 4);
    assert.equal(result.methods[1].sets.short.curve[0].recall, 1);
  });

  it('parses its arguments', function () {
    const opts = quality.parseArgs(['--config', '{"weighting":"tf"}', '--bases', '12', '--seed', '5', '--corpus', 'short:x.txt']);
    assert.deepEqual(opts.configs, [{ weighting: 'tf' }]);
    assert.equal(opts.bases, 12);
    assert.equal(opts.seed, 5);
    assert.deepEqual(corpus.parseCorpusArg(opts.corpus[0]).sets, ['short']);
    assert.throws(() => quality.parseArgs(['--config', '[1]']), /JSON object/);
    assert.throws(() => quality.parseArgs(['--bases', '1']), /--bases/);
    assert.throws(() => quality.parseArgs(['--nope']), /unknown argument/);
  });

  it('reads a directory of text, HTML and JSONL files for --corpus (both benchmarks)', function () {
    const common = require('../bench/common');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'simhash-zh-corpus-'));
    try {
      fs.mkdirSync(path.join(dir, 'sub'));
      fs.writeFileSync(path.join(dir, 'b.txt'), '\uFEFF第一行。\n第二行。\n');
      fs.writeFileSync(path.join(dir, 'sub', 'a.jsonl'), '{"id":1,"text":"记录一\\n第二段"}\n\n{"content":"记录二"}\n{"body":"<p>带标签的&amp;记录</p><p>下一段</p>"}\n');
      fs.writeFileSync(path.join(dir, 'sub', 'c.html'), '<html><head><title>x</title></head><body><p>网页&amp;正文</p></body></html>');
      fs.writeFileSync(path.join(dir, 'skip.bin'), 'not read');
      fs.symlinkSync(path.join(dir, 'nowhere.txt'), path.join(dir, 'dangling.txt'));  // skipped
      fs.symlinkSync(dir, path.join(dir, 'sub', 'loop'));  // a link to a directory is not followed
      const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'simhash-zh-linked-'));
      fs.writeFileSync(path.join(outside, 'f.txt'), '链接的文件。');
      fs.symlinkSync(path.join(outside, 'f.txt'), path.join(dir, 'e.txt'));  // a link to a file is the file
      assert.deepEqual(common.corpusFiles(dir).map((f) => path.relative(dir, f)), ['b.txt', 'e.txt', path.join('sub', 'a.jsonl'), path.join('sub', 'c.html')]);
      fs.rmSync(outside, { recursive: true, force: true });  // e.txt now dangles: skipped below
      // bench/fingerprint: a line per text, a JSONL record whole.
      assert.deepEqual(common.corpusLines([path.join(dir, 'sub', 'a.jsonl')]).lines, ['记录一\n第二段', '记录二', '<p>带标签的&amp;记录</p><p>下一段</p>']);
      assert.deepEqual(common.corpusLines([path.join(dir, 'b.txt')]).lines, ['第一行。', '第二行。']);
      // bench/quality: the files' texts in order, each reduced by its own format.
      const source = corpus.parseCorpusArg(dir);
      const built = corpus.buildCorpus({ sources: [source], bases: 10, limits: { documents: { min: 1, max: 100 }, short: { min: 1, max: 100 } } });
      // A JSONL record with markup is reduced to text (its page's paragraphs); other records are kept as they are.
      assert.deepEqual(built.sources[0].paragraphs, 8);
      assert.deepEqual(built.sets.short.bases.map((b) => b.text), ['第一行。', '第二行。', '记录一', '第二段', '记录二', '带标签的&记录', '下一段', '网页&正文']);
      assert.equal(corpus.recordText('--plugin <x> 加载'), '--plugin <x> 加载');
      fs.writeFileSync(path.join(dir, 'sub', 'a.jsonl'), '{"id":1}\n');
      assert.throws(() => common.corpusLines([dir]), /a\.jsonl:1: no string field text, content, body/);
      fs.writeFileSync(path.join(dir, 'sub', 'a.jsonl'), '{"text":\n');
      assert.throws(() => common.corpusLines([dir]), /a\.jsonl:1: not JSON/);
      const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'simhash-zh-empty-'));
      assert.throws(() => common.corpusLines([empty]), /no \.txt, \.html or \.jsonl files/);
      fs.rmdirSync(empty);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a GB18030 (GBK) corpus file as such, and refuses one that is neither it nor UTF-8', function () {
    const common = require('../bench/common');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'simhash-zh-gbk-'));
    try {
      const gbk = path.join(dir, 'gbk.txt');
      fs.writeFileSync(gbk, Buffer.from('c4e3bac3cac0bde70ab1b1bea9b4f3d1a70a', 'hex')); // 你好世界\n北京大学\n in GBK
      assert.deepEqual(common.corpusLines([gbk]).lines, ['你好世界', '北京大学']);
      const bad = path.join(dir, 'bad.txt');
      fs.writeFileSync(bad, Buffer.from([0xff, 0xff, 0x81, 0x0a]));
      assert.throws(() => common.readCorpusText(bad), /bad\.txt: neither UTF-8 nor GB18030 text/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads gettext catalogs (.mo, either byte order) for --corpus gettext', function () {
    const { gettextMessages } = require('../bench/segment-corpora');
    // A .mo file: magic, revision, count, offsets of the original and translation tables, then
    // each table's (length, offset) pairs and the NUL-terminated strings.
    const mo = (pairs, little) => {
      const u32 = (v) => { const b = Buffer.alloc(4); little ? b.writeUInt32LE(v) : b.writeUInt32BE(v); return b; };
      const strings = pairs.flat().map((s) => Buffer.from(s, 'utf8'));
      const headerBytes = 28 + 16 * pairs.length;
      const offsets = [];
      let at = headerBytes;
      for (const s of strings) { offsets.push(at); at += s.length + 1; }
      const table = (column) => Buffer.concat(pairs.flatMap((_, i) => [u32(strings[2 * i + column].length), u32(offsets[2 * i + column])]));
      return Buffer.concat([u32(0x950412de), u32(0), u32(pairs.length), u32(28), u32(28 + 8 * pairs.length), u32(0), u32(0),
        table(0), table(1), ...strings.flatMap((s) => [s, Buffer.alloc(1)])]);
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'simhash-zh-gettext-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.mo'), mo([
        ['', 'Content-Type: text/plain; charset=UTF-8 项目版本信息的说明文字'],
        ['File not found', '找不到文件'],  // under 10 characters
        ['Cannot open %s', '无法打开文件 %s：\n  权限不够，请检查设置'],
        ['%d file', '已经复制了 %d 个文件到目标目录\0已经复制了 %d 个文件到目标目录中'],
      ], true));
      fs.writeFileSync(path.join(dir, 'b.mo'), mo([['Cannot open %s', '无法打开文件 %s： 权限不够，请检查设置']], false));
      fs.writeFileSync(path.join(dir, 'c.txt'), 'not a catalog');
      assert.deepEqual(gettextMessages(dir), ['已经复制了 %d 个文件到目标目录', '已经复制了 %d 个文件到目标目录中', '无法打开文件 %s： 权限不够，请检查设置']);
      assert.deepEqual(gettextMessages(path.join(dir, 'none')), []);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs from the command line on a user corpus and writes JSON', function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'simhash-zh-quality-'));
    try {
      const file = path.join(dir, 'corpus.txt');
      fs.writeFileSync(file, PARAGRAPHS.concat(PARAGRAPHS.map((p) => p.slice(20) + p.slice(0, 20))).join('\n') + '\n' + SHORT_LINES.join('\n'));
      const json = path.join(dir, 'out.json');
      const stdout = execFileSync(process.execPath, ['bench/quality.js', '--corpus', `short:${file}`, '--bases', '8', '--json', json], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      assert.match(stdout, /Reproduce: node bench\/quality\.js --corpus /);
      const result = JSON.parse(fs.readFileSync(json, 'utf8'));
      assert.equal(result.corpus.sets.short.bases, 8);
      assert.equal(result.corpus.sets.documents.bases, 0);
      assert.ok(result.methods.some((m) => m.name === 'mysimhash' && m.available));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('quality benchmark: the ideal-SimHash ceiling', function () {
  const ceiling = require('../bench/quality/ceiling');
  const { runCeiling, formatCeiling } = require('../bench/quality-ceiling');

  /** P(X <= k), X ~ Binomial(n, 1/2), exactly (BigInt), as a double. */
  function halfCdf(n, k) {
    let sum = 0n;
    let choose = 1n;
    for (let i = 0; i <= k; i++) {
      sum += choose;
      choose = (choose * BigInt(n - i)) / BigInt(i + 1);
    }
    return Number(sum) / 2 ** n;
  }

  it('computes binomial tails', function () {
    for (const k of [0, 3, 16, 31, 32, 40]) {
      const exact = halfCdf(64, k);
      assert.ok(Math.abs(ceiling.binomialCdf(64, 0.5, k) - exact) <= 1e-12 * Math.max(exact, 1e-300), `k = ${k}`);
    }
    // k = 1, n = 4, p = 0.1: 0.9^4 + 4 * 0.1 * 0.9^3.
    assert.ok(Math.abs(ceiling.binomialCdf(4, 0.1, 1) - (0.6561 + 0.2916)) < 1e-14);
    assert.equal(ceiling.binomialCdf(64, 0, 0), 1);
    assert.equal(ceiling.binomialCdf(64, 1, 63), 0);
    assert.equal(ceiling.binomialCdf(64, 0.3, 64), 1);
    assert.equal(ceiling.binomialCdf(64, 0.3, -1), 0);
  });

  it('builds weighted feature vectors and their cosine', function () {
    const a = ceiling.featureVector([{ hash: 1n, weight: 3 }, { hash: 2n, weight: 4 }]);
    const b = ceiling.featureVector([{ hash: 1n, weight: 1 }, { hash: 1n, weight: 2 }, { hash: 2n, weight: 4 }]);
    assert.deepEqual([...b], [[1n, 3], [2n, 4]]);
    assert.equal(ceiling.cosine(a, b), 1);
    assert.equal(ceiling.cosine(a, ceiling.featureVector([{ hash: 9n, weight: 5 }])), 0);
    assert.equal(ceiling.cosine(a, new Map()), 0);
    const c = ceiling.featureVector([{ hash: 1n, weight: 1 }, { hash: 2n, weight: 1 }]);
    assert.ok(Math.abs(ceiling.cosine(c, ceiling.featureVector([{ hash: 1n, weight: 7 }])) - Math.SQRT1_2) < 1e-15);
    assert.equal(ceiling.idealWithin(1, 64, 0), 1);
    assert.equal(ceiling.idealWithin(0, 64, 3), ceiling.binomialCdf(64, 0.5, 3));
  });

  it('computes the probability Jaccard (as its O(n^2) definition) and the MinHash model', function () {
    const definition = (a, b) => {
      let sum = 0;
      for (const [hash, x] of a) {
        const y = b.get(hash);
        if (!y) continue;
        let denominator = 0;
        for (const h of new Set([...a.keys(), ...b.keys()])) denominator += Math.max((a.get(h) || 0) / x, (b.get(h) || 0) / y);
        sum += 1 / denominator;
      }
      return sum;
    };
    const vector = (pairs) => ceiling.featureVector(pairs.map(([hash, weight]) => ({ hash: BigInt(hash), weight })));
    const a = vector([[1, 3], [2, 4], [3, 1], [5, 9]]);
    const b = vector([[1, 6], [2, 4], [4, 2], [5, 9], [6, 1]]);
    assert.ok(Math.abs(ceiling.probabilityJaccard(a, b) - definition(a, b)) < 1e-12);
    for (let seed = 1; seed <= 20; seed++) {
      const random = (n) => vector(Array.from({ length: n }, (_, i) => [(i * 7 + seed) % 13, 1 + ((i * 31 + seed * 17) % 11)]));
      const [x, y] = [random(9), random(7)];
      assert.ok(Math.abs(ceiling.probabilityJaccard(x, y) - definition(x, y)) < 1e-12, `seed ${seed}`);
    }
    assert.equal(ceiling.probabilityJaccard(a, a), 1);
    assert.equal(ceiling.probabilityJaccard(a, vector([[9, 1]])), 0);
    assert.equal(ceiling.probabilityJaccard(a, new Map()), 0);
    assert.equal(ceiling.idealWithinMinHash(1, 64, 0), 1);
    assert.equal(ceiling.idealWithinMinHash(0, 64, 3), ceiling.binomialCdf(64, 3 / 8, 3));
    const set = { bases: [{ text: 'a' }], variants: [{ base: 0, kind: 'typo' }] };
    const result = ceiling.ceilingForSet({ set, vectors: [a, b], distances: [2], bits: 64, k: 3, sketch: 'minhash' });
    assert.equal(result.sketch, 'minhash');
    assert.equal(result.ideal, ceiling.binomialCdf(64, (1 - ceiling.probabilityJaccard(a, b)) * (3 / 8), 3));
  });

  it('averages ideal and measured recall per kind', function () {
    const same = ceiling.featureVector([{ hash: 1n, weight: 2 }]);
    const other = ceiling.featureVector([{ hash: 2n, weight: 2 }]);
    const set = { bases: [{ text: 'a' }], variants: [{ base: 0, kind: 'typo' }, { base: 0, kind: 'typo' }, { base: 0, kind: 'swap' }] };
    const result = ceiling.ceilingForSet({ set, vectors: [same, same, other, same], distances: [0, 30, 2], bits: 64, k: 3 });
    const tail = ceiling.binomialCdf(64, 0.5, 3);
    assert.equal(result.positives, 3);
    assert.equal(result.measured, 2 / 3);
    assert.equal(result.ideal, (1 + tail + 1) / 3);
    assert.deepEqual(result.kinds, { typo: { count: 2, ideal: (1 + tail) / 2, measured: 0.5 }, swap: { count: 1, ideal: 1, measured: 1 } });
  });

  it('measures the same recall at k as the quality benchmark, kind by kind', function () {
    const result = runCeiling({ ...OPTIONS, k: 3 });
    const bench = quality.runQualityBench({ ...OPTIONS, presets: false, peers: false });
    const measured = bench.methods[0];
    assert.equal(result.methods[0].name, 'default');
    for (const name of corpus.SETS) {
      const mine = result.methods[0].sets[name];
      assert.equal(mine.positives, measured.sets[name].positives);
      assert.equal(mine.measured, measured.sets[name].curve[3].recall);
      for (const [kind, { ideal, measured: recall }] of Object.entries(mine.kinds)) {
        assert.equal(recall, measured.sets[name].kinds[kind].recall[3], `${name}/${kind}`);
        assert.ok(ideal >= 0 && ideal <= 1);
      }
      // Markup and width changes leave the features as they were: the ideal is certain.
      assert.equal(mine.kinds.html.ideal, 1);
      assert.equal(mine.kinds.width.ideal, 1);
    }
    assert.match(formatCeiling(result, 'node bench/quality-ceiling.js'), /Short texts: \d+ positive pairs/);
  });

  it('runs from the command line on a corpus for one set and writes JSON', function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'simhash-zh-ceiling-'));
    try {
      const file = path.join(dir, 'corpus.txt');
      fs.writeFileSync(file, SHORT_LINES.concat(PARAGRAPHS).join('\n') + '\n');
      const json = path.join(dir, 'out.json');
      const run = (args) => execFileSync(process.execPath, ['bench/quality-ceiling.js', ...args], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      const stdout = run(['--k', '5', '--corpus', `short:${file}`, '--bases', '8', '--json', json]);
      assert.match(stdout, /recall at k = 5/);
      assert.match(stdout, /Short texts: \d+ positive pairs/);
      assert.doesNotMatch(stdout, /Documents:/);
      assert.match(stdout, /Reproduce: node bench\/quality-ceiling\.js --k 5 --corpus short:/);
      const result = JSON.parse(fs.readFileSync(json, 'utf8'));
      assert.equal(result.k, 5);
      assert.deepEqual(Object.keys(result.methods[0].sets), ['short']);
      assert.throws(() => run(['--k', 'x']), /--k must be an integer/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

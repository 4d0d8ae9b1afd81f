'use strict';
// The `simhash-zh` command (dist/cli/main.js), spawned as users run it: exact outputs on small
// inputs, the bundled sample, exit codes and bad input.
const assert = require('node:assert/strict');
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { lib } = require('./engines');

const ROOT = path.join(__dirname, '..');
const MAIN = path.join(ROOT, 'dist', 'cli', 'main.js');
const SAMPLE = path.join(ROOT, 'examples', 'news.jsonl');

/** Runs the CLI; returns { code, stdout, stderr } (stdout as a string, or a Buffer with raw). */
function run(args, { input, cwd = ROOT, env } = {}) {
  const result = spawnSync(process.execPath, [MAIN, ...args], {
    cwd,
    input: input ?? '',
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** run(), without waiting: for checks that can go in parallel. */
function runAsync(args, { cwd = ROOT } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function jsonLines(text) {
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
}

const TEXTS = [
  '临江市地铁5号线一期工程今天上午9时正式开通运营。',
  'Mixed 中英文 text, with ＦＵＬＬ-width letters！',
  '',
  '<p>HTML&nbsp;标记 &amp; 实体</p>',
];

// What `dedup examples/news.jsonl --report` finds: each repost, markup, width/punctuation and edited
// copy, with the story it copies (the first record of that story) and the distance.
const SAMPLE_DUPLICATES = [
  ['n09', 'n01', 'repost: a source line above the text'],
  ['n12', 'n04', 'HTML markup and entities'],
  ['n15', 'n02', 'full-width digits, ASCII punctuation'],
  ['n19', 'n03', 'one sentence rewritten'],
  ['n22', 'n01', 'HTML markup'],
  ['n25', 'n06', 'one sentence edited'],
  ['n28', 'n07', 'full-width digits'],
  ['n31', 'n11', 'repost: boilerplate before and after'],
  ['n34', 'n10', 'ASCII punctuation'],
  ['n37', 'n14', 'a number changed'],
  ['n40', 'n23', 'repost: a prefix'],
  ['n43', 'n17', 'HTML markup and an editor line'],
  ['n45', 'n27', 'one sentence edited'],
  ['n47', 'n30', 'full-width digits'],
  ['n49', 'n35', 'repost: a prefix'],
  ['n51', 'n46', 'a sentence edited, ASCII punctuation'],
  ['n52', 'n18', 'HTML markup and a source line'],
  ['n53', 'n01', 'full-width digits, ASCII punctuation'],
];

describe('cli', function () {
  this.timeout(60000);
  let tmp;
  const sampleRecords = fs.readFileSync(SAMPLE, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));

  before(function () {
    assert.ok(fs.existsSync(MAIN), 'dist/cli/main.js is built (npm run build:ts)');
    assert.equal(fs.readFileSync(MAIN, 'utf8').split('\n')[0], '#!/usr/bin/env node');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'simhash-zh-cli-'));
  });
  after(function () {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  describe('fingerprint', function () {
    it('writes the API fingerprint of each line, ids = line numbers', function () {
      const simhash = new lib.SimHash();
      const { code, stdout, stderr } = run(['fingerprint'], { input: TEXTS.join('\n') + '\n' });
      assert.equal(code, 0, stderr);
      assert.equal(stderr, '');
      assert.deepEqual(jsonLines(stdout), TEXTS.map((text, i) => ({ id: i + 1, fingerprint: simhash.hex(text) })));
    });

    it('TSV, a preset at 128 bits, the TS engine', function () {
      const simhash = new lib.SimHash({ preset: 'mysimhash', bits: 128 });
      const { code, stdout } = run(['fingerprint', '--format', 'tsv', '--preset', 'mysimhash', '--bits', '128', '--backend', 'js'],
        { input: TEXTS.join('\n') });
      assert.equal(code, 0);
      assert.equal(stdout, TEXTS.map((text, i) => `${i + 1}\t${simhash.hex(text)}\n`).join(''));
    });

    it('JSONL: --field (repeatable) and --id; a BOM and CRLF line endings are read as such', function () {
      const file = path.join(tmp, 'crlf.jsonl');
      fs.writeFileSync(file, '\ufeff{"key":"a","title":"标题","body":"正文一"}\r\n\r\n{"key":7,"title":"T","body":"正文二"}\r\n');
      const simhash = new lib.SimHash();
      const { code, stdout, stderr } = run(['fingerprint', file, '--field', 'title', '--field', 'body', '--id', 'key']);
      assert.equal(code, 0, stderr);
      assert.deepEqual(jsonLines(stdout), [
        { id: 'a', fingerprint: simhash.hex('标题\n正文一') },
        { id: 7, fingerprint: simhash.hex('T\n正文二') },
      ]);
    });

    it('several files: ids are file:line; - is stdin', function () {
      const file = path.join(tmp, 'two.txt');
      fs.writeFileSync(file, '第一行\n第二行\n');
      const simhash = new lib.SimHash();
      const { code, stdout } = run(['fingerprint', file, '-'], { input: '标准输入' });
      assert.equal(code, 0);
      assert.deepEqual(jsonLines(stdout), [
        { id: `${file}:1`, fingerprint: simhash.hex('第一行') },
        { id: `${file}:2`, fingerprint: simhash.hex('第二行') },
        { id: '<stdin>:1', fingerprint: simhash.hex('标准输入') },
      ]);
    });

    it('invalid UTF-8 on stdin decodes to U+FFFD, never a crash', function () {
      const bytes = Buffer.from([0x61, 0xff, 0xfe, 0x62, 0xe4, 0xbd, 0x0a, 0xc0, 0xaf, 0xe4, 0xb8, 0xad, 0xed, 0xa0, 0x80, 0x0a]);
      const expected = bytes.toString('utf8').split('\n').filter(Boolean);
      assert.ok(expected[0].includes('\ufffd'));
      const simhash = new lib.SimHash();
      const { code, stdout, stderr } = run(['fingerprint'], { input: bytes });
      assert.equal(code, 0, stderr);
      assert.deepEqual(jsonLines(stdout), expected.map((text, i) => ({ id: i + 1, fingerprint: simhash.hex(text) })));
      const seg = run(['segment'], { input: bytes });
      assert.equal(seg.code, 0, seg.stderr);
      assert.deepEqual(jsonLines(seg.stdout)[0].words.join(''), expected[0]);
    });
  });

  describe('dedup on examples/news.jsonl', function () {
    it('--report names each near-duplicate, the story it copies and the distance', function () {
      const { code, stdout, stderr } = run(['dedup', 'examples/news.jsonl', '--report']);
      assert.equal(code, 0, stderr);
      const rows = jsonLines(stdout);
      assert.deepEqual(rows.map((r) => [r.id, r.duplicateOf]), SAMPLE_DUPLICATES.map(([id, of]) => [id, of]));
      for (const row of rows) assert.ok(row.distance >= 0 && row.distance <= 3, JSON.stringify(row));
      // The same as the library's dedup of the texts.
      const result = lib.dedup(sampleRecords.map((r) => r.text));
      assert.deepEqual(rows, result.duplicates.map((d) => ({ id: sampleRecords[d.index].id, duplicateOf: sampleRecords[d.of].id, distance: d.distance })));
    });

    it('writes the kept records byte for byte; --sample reads the same file; distinct stories are all kept', function () {
      const dropped = new Set(SAMPLE_DUPLICATES.map(([id]) => id));
      const lines = fs.readFileSync(SAMPLE, 'utf8').split('\n').filter(Boolean);
      const expected = lines.filter((line) => !dropped.has(JSON.parse(line).id)).join('\n') + '\n';
      const a = run(['dedup', 'examples/news.jsonl']);
      assert.equal(a.code, 0, a.stderr);
      assert.equal(a.stdout, expected);
      const b = run(['dedup', '--sample'], { cwd: tmp });
      assert.equal(b.stdout, expected);
      assert.equal(jsonLines(expected).length, 35);
    });

    it('TSV report; --max-distance 0 reports only the copies at distance 0', function () {
      const { code, stdout } = run(['dedup', '--sample', '--report', '--format', 'tsv', '-k', '0']);
      assert.equal(code, 0);
      const rows = stdout.trim().split('\n').map((line) => line.split('\t'));
      for (const row of rows) assert.equal(row[2], '0');
      assert.deepEqual(rows.map((r) => r[0]), ['n09', 'n12', 'n15', 'n22', 'n25', 'n28', 'n31', 'n34', 'n37', 'n40', 'n43', 'n47', 'n49', 'n52', 'n53']);
    });
  });

  it('cluster groups the sample: each story with its copies', function () {
    const { code, stdout, stderr } = run(['cluster', 'examples/news.jsonl']);
    assert.equal(code, 0, stderr);
    const groups = new Map();
    for (const [id, of] of SAMPLE_DUPLICATES) groups.set(of, [...(groups.get(of) ?? [of]), id]);
    const expected = [...groups.values()].sort((a, b) => a[0].localeCompare(b[0])).map((ids, i) => ({ cluster: i + 1, size: ids.length, ids }));
    assert.deepEqual(jsonLines(stdout), expected);
    const all = run(['cluster', '--sample', '--min-size', '1', '--format', 'tsv']);
    const rows = all.stdout.trim().split('\n').map((line) => line.split('\t'));
    assert.equal(rows.length, 53);
    assert.equal(new Set(rows.map((r) => r[0])).size, 35);
    assert.deepEqual(rows.slice(0, 5), [['1', 'n01'], ['1', 'n09'], ['1', 'n22'], ['1', 'n53'], ['2', 'n02']]);
  });

  it('compare: two files or two texts; distance and similarity as the API', function () {
    const simhash = new lib.SimHash();
    const [a, b] = [sampleRecords[0].text, sampleRecords[8].text];
    fs.writeFileSync(path.join(tmp, 'a.txt'), a);
    fs.writeFileSync(path.join(tmp, 'b.txt'), b);
    const { code, stdout } = run(['compare', 'a.txt', 'b.txt'], { cwd: tmp });
    assert.equal(code, 0);
    const distance = simhash.distance(a, b);
    assert.deepEqual(JSON.parse(stdout), {
      a: 'a.txt', b: 'b.txt', fingerprintA: simhash.hex(a), fingerprintB: simhash.hex(b),
      distance, similarity: simhash.similarity(a, b), similar: distance <= 3,
    });
    assert.equal(distance, 0);
    const signed = run(['compare', '--sketch', 'simhash', 'a.txt', 'b.txt'], { cwd: tmp });
    const simhashSketch = new lib.SimHash({ sketch: 'simhash' });
    assert.deepEqual(JSON.parse(signed.stdout).fingerprintA, simhashSketch.hex(a));
    assert.equal(JSON.parse(signed.stdout).distance, simhashSketch.distance(a, b));
    const t = run(['compare', '--text', '今天天气很好', '今天天气不错', '--format', 'tsv', '-k', '64']);
    const d = simhash.distance('今天天气很好', '今天天气不错');
    assert.equal(t.stdout, ['今天天气很好', '今天天气不错', simhash.hex('今天天气很好'), simhash.hex('今天天气不错'), d, (64 - d) / 64 * 100, true].join('\t') + '\n');
    // Words of digits are dropped unless --keep-numbers.
    const [x, y] = ['临江地铁5号线一期开通运营 2020年', '临江地铁6号线一期开通运营 2021年'];
    assert.equal(JSON.parse(run(['compare', '--text', x, y]).stdout).distance, 0);
    const kept = JSON.parse(run(['compare', '--keep-numbers', '--text', x, y]).stdout);
    const keep = new lib.SimHash({ dropNumbers: false });
    assert.deepEqual([kept.fingerprintA, kept.distance], [keep.hex(x), keep.distance(x, y)]);
    assert.notEqual(kept.distance, 0);
    assert.equal(run(['compare', '--keep-numbers', '--preset', 'mysimhash', '--text', x, y]).code, 2);
    // A URL is one feature unless --split-urls.
    const [post, linked] = ['这款手机的续航真的很不错，推荐购买', '这款手机的续航真的很不错，推荐购买 https://item.example.com/p/12345.html?spm=a1z10'];
    assert.equal(JSON.parse(run(['compare', '--text', post, linked]).stdout).distance, simhash.distance(post, linked));
    const split = JSON.parse(run(['compare', '--split-urls', '--text', post, linked]).stdout);
    const splitUrls = new lib.SimHash({ wholeUrls: false });
    assert.deepEqual([split.fingerprintB, split.distance], [splitUrls.hex(linked), splitUrls.distance(post, linked)]);
    assert.ok(split.distance > simhash.distance(post, linked));
    assert.equal(run(['compare', '--split-urls', '--preset', 'SimHashChinese', '--text', post, linked]).code, 2);
  });

  it('segment: the words (JSONL, TSV), --no-hmm, --mode longest, --features', function () {
    const text = '我来到北京清华大学，看到了 Apple 新品';
    const segmenter = new lib.Segmenter();
    const { code, stdout } = run(['segment'], { input: text });
    assert.equal(code, 0);
    assert.deepEqual(jsonLines(stdout), [{ id: 1, words: segmenter.cut(text) }]);
    assert.deepEqual(jsonLines(stdout)[0].words.slice(0, 4), ['我', '来到', '北京', '清华大学']);
    const tsv = run(['segment', '--format', 'tsv', '--no-hmm', '--mode', 'longest'], { input: text });
    assert.equal(tsv.stdout, `1\t${segmenter.cut(text, { hmm: false, mode: 'longest' }).filter((w) => w.trim()).join(' ')}\n`);
    const simhash = new lib.SimHash();
    const features = run(['segment', '--features'], { input: text });
    assert.deepEqual(jsonLines(features.stdout), [{
      id: 1,
      features: simhash.tokens(text).map((t) => ({ token: t.token, kind: t.kind, weight: t.weight, hash: lib.toHex(t.hash, 64) })),
    }]);
    assert.equal(run(['segment', '--preset', 'mysimhash'], { input: text }).code, 2);
  });

  it('--user-dict: a jieba user dictionary for the words and the fingerprints', function () {
    const dict = path.join(tmp, 'user.dict');
    fs.writeFileSync(dict, '杭研大厦 100 n\n近似重复检测\n');
    const text = '网易杭研大厦的近似重复检测';
    const words = run(['segment', '--user-dict', dict], { input: text });
    assert.equal(words.code, 0, words.stderr);
    assert.deepEqual(jsonLines(words.stdout), [{ id: 1, words: ['网易', '杭研大厦', '的', '近似重复检测'] }]);
    const simhash = new lib.SimHash({ userDict: dict });
    assert.notEqual(simhash.hex(text), new lib.SimHash().hex(text));
    const fingerprints = run(['fingerprint', '--user-dict', dict], { input: text });
    assert.deepEqual(jsonLines(fingerprints.stdout), [{ id: 1, fingerprint: simhash.hex(text) }]);
    const features = run(['segment', '--features', '--user-dict', dict], { input: text });
    assert.deepEqual(jsonLines(features.stdout)[0].features.filter((f) => f.kind === 'word').map((f) => f.token), ['网易', '杭研大厦', '近似重复检测']);
    const missing = run(['dedup', '--user-dict', path.join(tmp, 'no-such.dict')], { input: text });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^simhash-zh: cannot read user dictionary .*no-such\.dict/);
    assert.equal(run(['segment', '--user-dict', path.join(tmp, 'no-such.dict')], { input: text }).code, 1);
    assert.equal(run(['dedup', '--preset', 'mysimhash', '--user-dict', dict], { input: text }).code, 2);
    assert.equal(run(['segment', '--user-dict', ''], { input: text }).code, 2);
  });

  it('--stop-words: a stop-word file (one per line) replaces the default list', function () {
    const file = path.join(tmp, 'stop.txt');
    fs.writeFileSync(file, '\uFEFF北京\r\n\r\n  大学 \n');
    const text = '我的北京大学，北京的大学';
    const simhash = new lib.SimHash({ stopWords: ['北京', '大学'] });
    assert.notEqual(simhash.hex(text), new lib.SimHash().hex(text));
    const fingerprints = run(['fingerprint', '--stop-words', file], { input: text });
    assert.equal(fingerprints.code, 0, fingerprints.stderr);
    assert.deepEqual(jsonLines(fingerprints.stdout), [{ id: 1, fingerprint: simhash.hex(text) }]);
    const features = run(['segment', '--features', '--stop-words', file], { input: text });
    // The file replaced the default list: 我 and 的 are kept (one-character words count as their character).
    const list = jsonLines(features.stdout)[0].features;
    assert.deepEqual(list.filter((f) => f.kind === 'word').map((f) => f.token), ['北京大学']);
    assert.deepEqual(list.filter((f) => f.kind === 'char').map((f) => f.token), ['我', '的', '北', '京', '大', '学']);
    assert.equal(run(['fingerprint', '--stop-words', path.join(tmp, 'no-such-stop.txt')], { input: text }).code, 1);
    fs.writeFileSync(path.join(tmp, 'bad-stop.txt'), Buffer.from([0x61, 0xff, 0x0a]));
    const bad = run(['fingerprint', '--stop-words', path.join(tmp, 'bad-stop.txt')], { input: text });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /bad-stop\.txt line 1: not valid UTF-8/);
    assert.equal(run(['segment', '--stop-words', file], { input: text }).code, 2, 'words do not drop stop words');
    assert.equal(run(['dedup', '--preset', 'SimHashChinese', '--stop-words', file], { input: text }).code, 2);
  });

  it('parity: no differences on the sample (or says the native engine is missing)', function () {
    const { code, stdout, stderr } = run(['parity', '--sample']);
    if (lib.nativeLoadError !== undefined) {
      assert.equal(code, 1);
      assert.match(stderr, /native engine is not available/);
      return;
    }
    assert.equal(code, 0, stderr);
    assert.equal(stdout, '');
    assert.match(stderr, /^simhash-zh parity: 53 records, no differences: .*\(default pipeline, 64 bits\)\n$/);
    const preset = run(['parity', '--preset', 'SimHashChinese'], { input: TEXTS.join('\n') });
    assert.equal(preset.code, 0, preset.stderr);
    assert.match(preset.stderr, /4 records, no differences.*preset SimHashChinese/);
  });

  describe('bad input and usage', function () {
    const bad = ['{"id":1,"text":"甲"}', '{"id":2,"text":', '{"id":3,"text":"乙"}', '[1,2]', '{"id":5}', '{"id":6,"text":"丙"}'].join('\n');

    it('a malformed JSONL line: its line number, exit 1', function () {
      const { code, stdout, stderr } = run(['fingerprint', '--jsonl'], { input: bad });
      assert.equal(code, 1);
      assert.equal(jsonLines(stdout).length, 1, 'records before it were written');
      assert.match(stderr, /^simhash-zh: <stdin>:2: invalid JSON \(.*\) \(--skip-invalid skips such lines\)\n$/);
      const file = path.join(tmp, 'bad.jsonl');
      fs.writeFileSync(file, bad);
      const r = run(['dedup', file]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, new RegExp(`^simhash-zh: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: invalid JSON`));
    });

    it('--encoding reads GBK/GB18030 and Big5; bytes not valid in the encoding are counted in a warning', function () {
      const text = '你好世界，北京大学。';
      const gbk = Buffer.from('c4e3bac3cac0bde7a3acb1b1bea9b4f3d1a7a1a3', 'hex'); // the text in GBK
      const expected = run(['fingerprint', '-q'], { input: `${text}\n${text}\n` });
      const input = Buffer.concat([gbk, Buffer.from('\n'), gbk, Buffer.from('\n')]);
      for (const label of ['gb18030', 'gbk', 'GB2312']) {
        const r = run(['fingerprint', '-q', '--encoding', label], { input });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, expected.stdout);
        assert.equal(r.stderr, '');
      }
      // Read as UTF-8, GBK is mostly invalid: the records are still written, with a warning.
      const asUtf8 = run(['fingerprint', '-q'], { input });
      assert.equal(asUtf8.code, 0);
      assert.equal(jsonLines(asUtf8.stdout).length, 2);
      assert.equal(asUtf8.stderr, 'simhash-zh fingerprint: 2 lines (first: <stdin>:1): bytes that are not valid utf-8, read as U+FFFD ' +
        '(a GBK or GB18030 file: --encoding gb18030; Big5: --encoding big5)\n');
      // A U+FFFD that the text holds is a character like any other.
      assert.equal(run(['fingerprint', '-q'], { input: '替换字符\ufffd\n' }).stderr, '');
      const big5 = run(['fingerprint', '-q', '--encoding', 'big5'], { input: Buffer.from('a741a66e0a', 'hex') });
      assert.equal(big5.stdout, run(['fingerprint', '-q'], { input: '你好\n' }).stdout);
      // compare reads its files in the encoding too.
      const file = path.join(tmp, 'gbk.txt');
      fs.writeFileSync(file, gbk);
      const compared = JSON.parse(run(['compare', '--encoding', 'gb18030', file, file]).stdout);
      assert.equal(compared.fingerprintA, jsonLines(expected.stdout)[0].fingerprint);
      assert.match(run(['compare', file, '-'], { input: text }).stderr, new RegExp(`^simhash-zh compare: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: bytes that are not valid utf-8`));
      const bad = run(['dedup', '--encoding', 'utf-16le'], { input: 'x\n' });
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--encoding must name one of utf-8, gb18030, gbk, big5, shift_jis, euc-jp, euc-kr .*got 'utf-16le'/);
    });

    it('an id that JSON cannot hold exactly, a field through the prototype, a directory on stdin, a later file failing', function () {
      const big = run(['dedup', '--jsonl', '--report'], { input: '{"id":1234567890123456789,"text":"甲"}\n{"id":1234567890123456790,"text":"甲"}\n' });
      assert.equal(big.code, 1);
      assert.match(big.stderr, /<stdin>:1: field "id" \(the id\) is the number 1234567890123456800, which is not an integer below 2\^53 .*write it as a string/);
      assert.match(run(['fingerprint', '--jsonl'], { input: '{"id":1e400,"text":"x"}\n' }).stderr, /is the number Infinity, which is not an integer/);
      assert.deepEqual(jsonLines(run(['fingerprint', '--jsonl'], { input: '{"id":9007199254740991,"text":"x"}\n' }).stdout).map((r) => r.id), [9007199254740991]);
      assert.match(run(['fingerprint', '--field', 'constructor'], { input: '{"text":"x"}\n' }).stderr, /<stdin>:1: field "constructor" is missing/);
      assert.match(run(['fingerprint', '--id', '__proto__'], { input: '{"text":"x"}\n' }).stderr, /<stdin>:1: field "__proto__" \(the id\) is missing/);
      const dir = spawnSync(process.execPath, [MAIN, 'fingerprint'], { stdio: [fs.openSync(tmp, 'r'), 'pipe', 'pipe'], encoding: 'utf8' });
      assert.equal(dir.status, 1);
      assert.equal(dir.stderr, "simhash-zh: cannot read '<stdin>': is a directory\n");
      if (fs.existsSync('/proc/self/mem')) {
        // A file that opens but cannot be read (EIO): the records of the files before it are written first.
        const two = path.join(tmp, 'two.txt');
        fs.writeFileSync(two, '北京\n上海\n');
        const r = run(['fingerprint', two, '/proc/self/mem']);
        assert.equal(r.code, 1);
        assert.equal(jsonLines(r.stdout).length, 2);
        assert.match(r.stderr, /cannot read '\/proc\/self\/mem'/);
      }
    });

    it('--skip-invalid continues and counts the skipped lines on stderr', function () {
      const { code, stdout, stderr } = run(['fingerprint', '--jsonl', '--skip-invalid'], { input: bad });
      assert.equal(code, 0);
      assert.deepEqual(jsonLines(stdout).map((r) => r.id), [1, 3, 6]);
      assert.match(stderr, /^simhash-zh fingerprint: skipped 3 invalid lines \(first: <stdin>:2: invalid JSON/);
    });

    it('a record without the field, or with a non-string text', function () {
      const r = run(['fingerprint', '--jsonl'], { input: '{"text":1}\n' });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /<stdin>:1: field "text" is a number, not a string/);
      const s = run(['fingerprint', '--id', 'key'], { input: '{"text":"x"}\n' });
      assert.equal(s.code, 1);
      assert.match(s.stderr, /<stdin>:1: field "key" \(the id\) is missing/);
    });

    it('a missing file: a message naming it, exit 1, nothing written', function () {
      const { code, stdout, stderr } = run(['dedup', 'examples/news.jsonl', 'no-such-file.jsonl']);
      assert.equal(code, 1);
      assert.equal(stdout, '');
      assert.equal(stderr, "simhash-zh: cannot read 'no-such-file.jsonl': no such file or directory\n");
      assert.equal(run(['compare', 'examples/news.jsonl', 'nope.txt']).stderr, "simhash-zh: cannot read 'nope.txt': no such file or directory\n");
      assert.match(run(['fingerprint', 'examples']).stderr, /cannot read 'examples': is a directory/);
    });

    it('unknown flags and bad values: usage, exit 2', async function () {
      const cases = [
        ['dedup', '--bogus'],
        ['dedup', '--sample', '-x'],
        ['dedup', '--sample', '--max-distance', '9'],
        ['dedup', '--sample', '--bits', '32'],
        ['dedup', '--sample', '--preset', 'nope'],
        ['dedup', '--sample', '--preset', 'mysimhash', '--html', 'true'],
        ['dedup', '--sample', '--sketch', 'bbit'],
        ['dedup', '--sample', '--preset', 'mysimhash', '--sketch', 'simhash'],
        ['segment', '--sketch', 'simhash'],
        ['fingerprint', '--sample', '--format', 'xml'],
        ['fingerprint', '--sample', '--bits'],
        ['compare', 'a.txt'],
        ['parity', '--sample', '--backend', 'js'],
        ['frobnicate'],
        [],
      ];
      const results = await Promise.all(cases.map((args) => runAsync(args)));
      cases.forEach((args, i) => {
        const { code, stdout, stderr } = results[i];
        assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
        assert.equal(stdout, '');
        assert.match(stderr, /^simhash-zh: .*\nUsage: simhash-zh /, args.join(' '));
      });
      assert.match(results[0].stderr, /^simhash-zh: unknown option '--bogus'\nUsage: simhash-zh dedup/);
    });

    it('--help per command and overall, --version names the engine', async function () {
      const cases = [['--help'], ['dedup', '--help'], ['help', 'cluster'], ['parity', '-h'], ['--version']];
      const results = await Promise.all(cases.map((args) => runAsync(args)));
      for (const { code, stdout } of results.slice(0, 4)) {
        assert.equal(code, 0);
        assert.match(stdout, /^Usage: simhash-zh /);
      }
      assert.match(results[1].stdout, /--max-distance K/);
      assert.match(results[4].stdout, new RegExp(`^simhash-zh ${require('../package.json').version}\nengine: ${lib.backend}`));
    });
  });

  it('--progress draws the bar and the summary on stderr (off when piped)', function () {
    const { code, stderr } = run(['dedup', '--sample', '--progress']);
    assert.equal(code, 0);
    assert.match(stderr, /dedup {2}53 records {2}35 kB \/ 35 kB .*\[#{20}\] 100% {2}ETA 0:00/);
    assert.match(stderr, /simhash-zh dedup: 53 records, 35 kept, 18 near-duplicates dropped \(max distance 3\) in \d+\.\d s\n$/);
    assert.equal(run(['dedup', '--sample']).stderr, '');
  });
});

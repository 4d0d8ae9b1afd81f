#!/usr/bin/env node
'use strict';
/*
 * Golden-vector generator for simhash-zh.
 *
 * Compiles the ORIGINAL seed code (extracted at run time from the two seed
 * articles; the seed code itself is never committed and is only written to a
 * temporary directory), runs it over a deterministic list of inputs and
 * records its outputs:
 *
 *   test/golden/simhashchinese.json  <- C++ class SimHashChinese (seed 000)
 *   test/golden/mysimhash.json       <- Java class mysimhash     (seed 001)
 *
 * Usage:
 *   node scripts/golden/generate.js [--seeds DIR] [--out DIR] [--check] [--keep-tmp]
 *
 *   --seeds DIR  directory holding the seed articles (default: <repo>/../shared/seeds)
 *   --out DIR    where to write the JSON files (default: <repo>/test/golden)
 *   --check      do not write; compare the regenerated vectors with the files in --out
 *   --keep-tmp   keep the temporary build directory (its path is printed)
 *
 * Needs: Node.js >= 20, g++ (C++11), javac/java (17). No npm dependencies.
 * Exits non-zero on any failure.
 */

const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const GENERATOR = 'scripts/golden/generate.js';
const CPP_SEED = '000_d4776c7712e71bbf.txt';
const JAVA_SEED = '001_d40f3658eda02fcb.txt';

// ---------------------------------------------------------------------------
// command line
// ---------------------------------------------------------------------------
function parseArgs(argv) {
  const opts = {
    seeds: path.resolve(REPO_ROOT, '..', 'shared', 'seeds'),
    out: path.join(REPO_ROOT, 'test', 'golden'),
    check: false,
    keepTmp: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--seeds' || a === '--out') {
      const v = argv[++i];
      if (!v) fail(`${a} needs a directory argument`);
      opts[a.slice(2)] = path.resolve(v);
    } else if (a.startsWith('--seeds=')) {
      opts.seeds = path.resolve(a.slice('--seeds='.length));
    } else if (a.startsWith('--out=')) {
      opts.out = path.resolve(a.slice('--out='.length));
    } else if (a === '--check') {
      opts.check = true;
    } else if (a === '--keep-tmp') {
      opts.keepTmp = true;
    } else if (a === '-h' || a === '--help') {
      process.stdout.write(
        'usage: node scripts/golden/generate.js [--seeds DIR] [--out DIR] [--check] [--keep-tmp]\n');
      process.exit(0);
    } else {
      fail(`unknown argument: ${a}`);
    }
  }
  return opts;
}

class GoldenError extends Error {}
function fail(msg) {
  throw new GoldenError(msg);
}
function assert(cond, msg) {
  if (!cond) fail(`assertion failed: ${msg}`);
}

// ---------------------------------------------------------------------------
// seed extraction
// ---------------------------------------------------------------------------
function splitLines(text) {
  return text.replace(/\r\n?/g, '\n').split('\n');
}

/** The C++ class: from "#ifndef SIM_HASH_CHINESE_HPP" to the first "#endif" line. */
function extractCpp(article) {
  const lines = splitLines(article);
  const start = lines.findIndex((l) => l.trim() === '#ifndef SIM_HASH_CHINESE_HPP');
  if (start < 0) fail(`${CPP_SEED}: no "#ifndef SIM_HASH_CHINESE_HPP" line`);
  let end = -1;
  for (let i = start + 1; i < lines.length; i++) {
    if (lines[i].trim() === '#endif') { end = i; break; }
  }
  if (end < 0) fail(`${CPP_SEED}: no "#endif" after the #ifndef`);
  const code = lines.slice(start, end + 1).join('\n') + '\n';
  for (const needle of ['class SimHashChinese', 'uint64_t GetSimHash(const std::string& text)',
    'std::string HashToHex(uint64_t hash)']) {
    if (!code.includes(needle)) fail(`${CPP_SEED}: extracted code lacks "${needle}"`);
  }
  if (/\bint\s+main\s*\(/.test(code)) fail(`${CPP_SEED}: extracted class unexpectedly contains main()`);
  return code;
}

/** The Java class: from "package test;" to the last "}" before the line starting with 参考资料. */
function extractJava(article) {
  const lines = splitLines(article);
  const start = lines.findIndex((l) => l.trim() === 'package test;');
  if (start < 0) fail(`${JAVA_SEED}: no "package test;" line`);
  let stop = -1;
  for (let i = start + 1; i < lines.length; i++) {
    if (lines[i].startsWith('参考资料')) { stop = i; break; }
  }
  if (stop < 0) fail(`${JAVA_SEED}: no line starting with 参考资料 after the class`);
  let code = lines.slice(start, stop).join('\n');
  const lastBrace = code.lastIndexOf('}');
  if (lastBrace < 0) fail(`${JAVA_SEED}: no closing brace found`);
  code = code.slice(0, lastBrace + 1) + '\n';
  if (!/public class mysimhash\b/.test(code)) fail(`${JAVA_SEED}: no "public class mysimhash"`);
  // crude brace balance check (the class has no braces inside strings except in the
  // regex, where "\\{" and "\\}" appear once each, so they cancel out)
  const opens = (code.match(/\{/g) || []).length;
  const closes = (code.match(/\}/g) || []).length;
  if (opens !== closes) fail(`${JAVA_SEED}: unbalanced braces in extracted class (${opens} vs ${closes})`);
  return code;
}

// ---------------------------------------------------------------------------
// deterministic PRNG (mulberry32)
// ---------------------------------------------------------------------------
function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------
// inputs
// ---------------------------------------------------------------------------
const TEXT1 = 'C++ SimHash算法实现 高性能中文文本相似度检测与去重';
const TEXT2 = 'C++ SimHash算法实现 高性能中文文本查重与相似度检测（轻微优化）';
const TEXT3 = 'Redis缓存高并发优化 后端服务性能调优实战教程';
const EXPECTED_CPP = {
  cpp_demo_text1: '44e34ee71fb0789c',
  cpp_demo_text2: '54424ee71fc46a9c',
  cpp_demo_text3: '3c3946e70f865cb7',
  empty: '0000000000000000',
};

const STOP_WORDS = ['的', '了', '是', '我', '你', '他', '它', '和', '与', '及', '就', '都', '而', '且',
  '所以', '因为', '但是', '于是'];

const ASCII_PUNCT = [];
for (let c = 0x21; c <= 0x7e; c++) {
  const ch = String.fromCharCode(c);
  if (!/[A-Za-z0-9]/.test(ch)) ASCII_PUNCT.push(ch);
}

function cp(n) { return String.fromCodePoint(n); }
function range(a, b) { const s = []; for (let c = a; c <= b; c++) s.push(cp(c)); return s.join(''); }
function hex4(n) { return n.toString(16).toUpperCase().padStart(4, '0'); }

const COMMON_ZH = '中文文本相似度检测算法实现高性能去重网页查重分词权重指纹哈希海量数据处理服务器后端缓存并发优化'
  + '今天天气很好我们一起去公园散步吧这是一个简单的例子用于测试程序能否正确处理汉字字符串北京上海广州深圳'
  + '人工智能机器学习深度神经网络自然语言处理搜索引擎推荐系统数据库索引';

const ZH_PARAGRAPH = 'SimHash是工业级海量文本去重、相似度检索的核心局部敏感哈希算法。原生字符级SimHash对中文文本识别精度极低，'
  + '无法适配生产场景！本文基于纯C++11实现自带中文精准分词、权重加权、停用词过滤的企业级工具库，无第三方依赖、跨平台、高性能；'
  + '所以我们认为它是一个好的方案，因为它和业务场景都很契合，但是仍然需要测试。\n';
const EN_PARAGRAPH = 'The quick brown fox jumps over the lazy dog. SimHash is a locality sensitive hashing technique '
  + 'used for near-duplicate detection of web pages (Charikar, 2002); similar documents get fingerprints '
  + 'with a small Hamming distance, e.g. 3 bits out of 64! Is that "good enough"? It depends: 50% of cases, '
  + "maybe more... [citation needed] {sic} key=value; a_b-c#d&e%f/g\n";
const HTML_UNIT = '<html><head><meta charset="utf-8"><title>测试 Test</title>'
  + '<script>var x = 1 && 2; // 注释</script></head><body><header>网站 Header</header>'
  + '<h1>中文标题 Title</h1><div class="c"><p>段落文本 paragraph -_- text -- more_text #tag &amp; 100% '
  + '<a href="/path/to">链接 link</a><br/><span>&lt;内容&gt;</span></p><pre>code_block</pre></div>'
  + '<ul><li>第一项 item</li></ul></body></html>\n';

function buildCases() {
  const rng = mulberry32(0x5eed2024);
  const randInt = (n) => Math.floor(rng() * n); // 0..n-1
  const pick = (arr) => arr[randInt(arr.length)];

  const cases = [];
  const add = (name, text) => cases.push({ name, text });
  const addRepeat = (name, unit, count) => cases.push({ name, repeat: { unit, count } });

  // --- the C++ article's demo texts
  add('cpp_demo_text1', TEXT1);
  add('cpp_demo_text2', TEXT2);
  add('cpp_demo_text3', TEXT3);

  // --- empty and whitespace
  add('empty', '');
  const WS = [['space', ' '], ['spaces3', '   '], ['tab', '\t'], ['newline', '\n'], ['vtab', '\v'],
    ['formfeed', '\f'], ['cr', '\r'], ['crlf', '\r\n'], ['ideographic_space', '\u3000'],
    ['ideographic_space_x3', '\u3000\u3000\u3000'], ['nbsp', '\u00a0'],
    ['all_ascii_ws', ' \t\n\v\f\r'], ['all_ws_mixed', ' \t\n\v\f\r\u3000 \u3000\t']];
  for (const [n, t] of WS) add(`ws_${n}`, t);
  add('ws_around_words', '  \t hello \n world \r\n');
  add('ws_tab_separated', 'alpha\tbeta\tgamma');
  add('ws_ideographic_between_zh', '中文\u3000文本\u3000测试');
  add('ws_ideographic_between_en', 'abc\u3000def');

  // --- ASCII
  add('ascii_word', 'hello');
  add('ascii_single_letter', 'a');
  add('ascii_two_words', 'hello world');
  add('ascii_hello_world_punct', 'Hello, World!');
  add('ascii_pangram', 'The quick brown fox jumps over the lazy dog');
  add('ascii_repeated_word', 'test test test test');
  add('ascii_digits', '0123456789');
  add('ascii_number_pi', '3.14159');
  add('ascii_mixed_case', 'SimHash simhash SIMHASH');
  add('ascii_sentence_with_punct', 'Wait... what?! (Really) [yes] {no}; key=value: "q" \'s\'');
  add('ascii_all_punct', ASCII_PUNCT.join(''));
  add('ascii_all_printable', range(0x20, 0x7e));
  ASCII_PUNCT.forEach((p) => {
    add(`punct_alone_${hex4(p.charCodeAt(0))}`, p);
    add(`punct_between_${hex4(p.charCodeAt(0))}`, `ab${p}cd`);
  });

  // --- control characters (incl. NUL and DEL)
  for (let c = 0; c <= 0x1f; c++) add(`ctrl_between_${hex4(c)}`, `x${String.fromCharCode(c)}y`);
  add('ctrl_between_007F', 'x\u007fy');
  add('ctrl_nul_alone', '\u0000');
  add('ctrl_nul_x3', '\u0000\u0000\u0000');
  add('ctrl_del_alone', '\u007f');
  add('ctrl_nul_in_zh', '中\u0000文');
  add('ctrl_all_c0_and_del', range(0, 0x1f) + '\u007f');

  // --- 2-byte UTF-8
  add('utf8_2b_latin1_80_BF', range(0x80, 0xbf));
  add('utf8_2b_latin1_C0_FF', range(0xc0, 0xff));
  for (const c of [0x80, 0x81, 0xa0, 0xa9, 0xbf, 0xc0, 0xe9, 0xff, 0x7ff]) {
    add(`utf8_2b_alone_${hex4(c)}`, cp(c));
  }
  add('utf8_2b_cafe', 'café crème brûlée');
  add('utf8_2b_greek', 'αβγ δέλτα Ελληνικά');
  add('utf8_2b_cyrillic', 'Привет мир');
  add('utf8_2b_hebrew_arabic', 'שלום مرحبا');

  // --- 3-byte UTF-8
  add('utf8_3b_zh_word', '中文');
  add('utf8_3b_zh_sentence', '今天天气很好我们一起去公园散步吧');
  add('utf8_3b_fullwidth_FF01_FF5E', range(0xff01, 0xff5e));
  add('utf8_3b_fullwidth_word', 'ＳｉｍＨａｓｈ１２３');
  add('utf8_3b_cjk_punct', '。，！、「」');
  add('utf8_3b_cjk_punct_in_text', '你好，世界！「引用」、结束。');
  add('utf8_3b_radicals_2E80', range(0x2e80, 0x2e99) + range(0x2e9b, 0x2ef3));
  add('utf8_3b_strokes_31C0', range(0x31c0, 0x31e3));
  add('utf8_3b_cjk_symbols_3000_303F', range(0x3000, 0x303f));
  add('utf8_3b_halfwidth_katakana', range(0xff61, 0xff9f));
  add('utf8_3b_kana', 'ひらがな カタカナ テスト');
  add('utf8_3b_hangul', '한국어 텍스트');
  for (const c of [0x800, 0x2e80, 0x31c0, 0x3000, 0x3001, 0x3002, 0x4dff, 0x4e00, 0x9fa5, 0x9fa6,
    0x9fff, 0xe000, 0xfeff, 0xff00, 0xff01, 0xffef, 0xfff0, 0xfffd, 0xffff]) {
    add(`utf8_3b_alone_${hex4(c)}`, cp(c));
  }
  add('utf8_3b_9FA6_in_ascii', 'ab\u9fa6cd');
  add('utf8_3b_fullwidth_in_ascii', 'abＡcd');

  // --- 4-byte UTF-8
  add('utf8_4b_emoji_grin', '😀');
  add('utf8_4b_emoji_thumbs_skin', '👍🏽');
  add('utf8_4b_emoji_family_zwj', '👨‍👩‍👧');
  add('utf8_4b_ext_b', '𠀀𪚥');
  add('utf8_4b_ext_b_20000', '𠀀');
  add('utf8_4b_ext_b_2A6A5', '𪚥');
  add('utf8_4b_10000', cp(0x10000));
  add('utf8_4b_10FFFF', cp(0x10ffff));
  add('utf8_4b_emoji_in_zh', '今天😀很开心👍🏽');
  add('utf8_4b_emoji_in_ascii', 'good 😀 day 👨‍👩‍👧 ok');
  add('utf8_4b_emoji_run', '😀😁😂🤣😃😄😅😆');
  add('utf8_4b_ext_b_in_zh', '古字𠀀和𪚥字');

  // --- stop words
  STOP_WORDS.forEach((w, i) => {
    add(`stop_alone_${String(i).padStart(2, '0')}`, w);
    add(`stop_ctx_${String(i).padStart(2, '0')}`, `今天${w}天气`);
  });
  add('stop_all_concat', STOP_WORDS.join(''));
  add('stop_all_spaced', STOP_WORDS.join(' '));
  add('stop_sentence1', '我的书是你的，他和她都来了');
  add('stop_sentence2', '因为下雨所以我们不去了，但是明天就去，于是大家都很高兴');
  add('stop_sentence3', '它与它及它而且它');
  add('stop_misaligned_after_2b', 'é的是了');
  add('stop_only_de_x5', '的的的的的');

  // --- HTML
  add('html_page_full', [
    '<!DOCTYPE html>',
    '<html lang="zh-CN">',
    '<head>',
    '<meta charset="utf-8">',
    '<title>SimHash 测试页面</title>',
    '<script type="text/javascript">var a = 1 && b; // comment</script>',
    '</head>',
    '<body>',
    '<header class="top">网站标题 &amp; Logo</header>',
    '<h1>中文文本相似度检测</h1>',
    '<div id="main"><p>SimHash算法是一种局部敏感哈希 -_- 用于网页去重 -- 非常高效。</p>',
    '<pre>code_block #1 100% done</pre>',
    '</pre></meta></header></h1>',
    '<ul><li>第一项</li><li>第二项</li></ul>',
    '<a href="http://example.com/path?x=1&y=2">链接</a><br/>',
    '<span>&lt;escaped&gt; &quot;quotes&quot; &#20013;&#x6587; &nbsp;</span>',
    '</div>',
    '</body>',
    '</html>',
  ].join('\n'));
  add('html_page_en', '<html><head><title>Hello</title></head><body><h2>Header two</h2>'
    + '<p>Some <b>bold</b> text &amp; more.</p><h3>Third</h3><br><div>end</div></body></html>');
  add('html_page_crlf', '<html>\r\n<body>\r\n<p>行一</p>\r\n<p>行二</p>\r\n</body>\r\n</html>\r\n');
  const TAGS = ['<html>', '</html>', '<html', '/html', '<h1>', '</h1>', '<h2>', '</h2>', '<h3>', '</h3>',
    '<ul>', '</ul>', '<br>', '<br/>', '</br>', '<head>', '</head>', '<li>', '</li>', '<link>',
    '<div>', '</div>', '<a>', '</a>', '<abbr>', '<p>', '</p>', '<param>', '<body>', '</body>',
    '<script>', '</script>', '/scirpt', '<title>', '</title>', '<pre>', '</pre>', '<meta>',
    '<meta charset="utf-8">', '</meta>', '<header>', '</header>', '<span>', '</span>',
    '-_-', '--', '---', '_', '#', '&', '%', '/', '<', '>', '&amp;', '&lt;', '&gt;', '&nbsp;',
    '&quot;', '&#20013;', '&#x4e2d;'];
  TAGS.forEach((t, i) => {
    const n = String(i).padStart(2, '0');
    add(`html_tag_${n}_alone`, t);
    add(`html_tag_${n}_ctx`, `foo${t}bar 中${t}文`);
  });

  // --- mixed Chinese / English
  add('mixed_1', '我在用Java写simhash算法，效果还不错');
  add('mixed_2', 'Node.js 20 支持 ES2023 特性，比如 Array.prototype.findLast()');
  add('mixed_3', 'GitHub上有很多open source项目，例如React、Vue和Angular。');
  add('mixed_4', '价格：￥100元/月（含税）；折扣50%！');
  add('mixed_5', 'email: test@example.com 电话：010-12345678');
  add('mixed_6', 'C++11标准引入了auto、lambda和std::move等新特性');
  add('mixed_7', '第1章 Introduction 引言\n第2章 Methods 方法\n');
  add('mixed_8', 'HTTP/1.1 200 OK\nContent-Type: text/html; charset=utf-8\n\n<p>你好</p>');
  add('mixed_9', 'SELECT * FROM users WHERE name = \'张三\' AND age > 18;');
  add('mixed_10', '{"key": "值", "arr": [1, 2, 3], "nested": {"a": "中文"}}');
  add('mixed_11', 'a中b文c字d符e');
  add('mixed_12', '2024年12月31日 23:59:59 UTC+8');

  // --- byte-boundary strings: every string of length 1 and 2 over a small alphabet
  //     (1-, 2-, 3- and 4-byte UTF-8 chars, including U+0080 whose lead byte is 0xC2)
  const B = [['a', 'a'], ['u0080', '\u0080'], ['e_acute', 'é'], ['u07FF', '\u07ff'],
    ['zh', '中'], ['ufffd', '\ufffd'], ['emoji', '😀']];
  for (const [n1, c1] of B) add(`bound_${n1}`, c1);
  for (const [n1, c1] of B) for (const [n2, c2] of B) add(`bound_${n1}_${n2}`, c1 + c2);
  add('bound_ab_zh', 'ab中');
  add('bound_abc_zh', 'abc中');
  add('bound_a_e_acute_at_end', 'aé');
  add('bound_zh_then_2b_at_end', '中文é');
  add('bound_emoji_zh_zh', '😀中文');
  add('bound_2b_x3', 'ééé');
  add('bound_2b_x3_a', 'éééa');
  for (let len = 3; len <= 4; len++) {
    for (let k = 0; k < 12; k++) {
      const parts = [];
      const names = [];
      for (let j = 0; j < len; j++) { const [n, c] = pick(B); names.push(n); parts.push(c); }
      const name = `bound_r${len}_${k}_${names.join('_')}`;
      add(name, parts.join(''));
    }
  }

  // --- random strings from mixed alphabets
  const ALPHABETS = {
    lower: () => cp(0x61 + randInt(26)),
    upper: () => cp(0x41 + randInt(26)),
    digit: () => cp(0x30 + randInt(10)),
    punct: () => pick(ASCII_PUNCT),
    space: () => pick([' ', ' ', ' ', '\t', '\n', '\r', '\v', '\f', '\u3000']),
    ctrl: () => pick([cp(randInt(0x20)), '\u007f', '\u0000']),
    latin1: () => cp(0x80 + randInt(0x80)),
    greek: () => cp(0x391 + randInt(0x39)),
    cyrillic: () => cp(0x410 + randInt(0x40)),
    zh_common: () => COMMON_ZH[randInt(COMMON_ZH.length)],
    zh_any: () => cp(0x4e00 + randInt(0x9fff - 0x4e00 + 1)),
    zh_punct: () => pick(['。', '，', '！', '、', '「', '」', '《', '》', '？', '：', '；', '（', '）', '…', '—']),
    fullwidth: () => cp(0xff01 + randInt(0x5e)),
    halfwidth: () => cp(0xff61 + randInt(0x3f)),
    radical: () => cp(0x2e80 + randInt(0x1a)),
    stroke: () => cp(0x31c0 + randInt(0x24)),
    misc3: () => cp(pick([0x800, 0xe000, 0xfffd, 0xfeff, 0x20ac, 0x2603, 0x3042, 0x30a2])),
    emoji: () => cp(0x1f600 + randInt(0x50)),
    extb: () => cp(0x20000 + randInt(0xa6e0)),
    astral: () => cp(pick([0x10000, 0x10ffff, 0x1d11e, 0x1f9ff])),
    stop: () => pick(STOP_WORDS),
    html: () => pick(TAGS),
    enword: () => pick(['the', 'simhash', 'hash', 'text', 'java', 'node', 'data', 'web', 'page']),
    zwj: () => pick(['\u200d', '\ufe0f', '\u{1f3fd}']),
  };
  const alphaNames = Object.keys(ALPHABETS);
  const PRESETS = [
    ['zh_common', 'zh_punct', 'space'],
    ['zh_common', 'lower', 'space', 'punct'],
    ['zh_any', 'emoji', 'extb'],
    ['lower', 'upper', 'digit', 'space', 'punct'],
    ['enword', 'space', 'punct'],
    ['zh_common', 'stop', 'zh_punct'],
    ['html', 'zh_common', 'enword', 'space'],
    ['latin1', 'lower', 'zh_common'],
    ['fullwidth', 'zh_common', 'lower'],
    ['emoji', 'zwj', 'zh_common', 'space'],
    ['ctrl', 'lower', 'zh_common'],
    ['greek', 'cyrillic', 'space', 'latin1'],
    ['radical', 'stroke', 'zh_punct', 'halfwidth'],
    ['misc3', 'astral', 'latin1', 'punct'],
  ];
  const RANDOM_COUNT = 140;
  for (let k = 0; k < RANDOM_COUNT; k++) {
    let set;
    if (k < PRESETS.length * 2) {
      set = PRESETS[k % PRESETS.length];
    } else {
      const m = 1 + randInt(5);
      set = [];
      while (set.length < m) {
        const a = pick(alphaNames);
        if (!set.includes(a)) set.push(a);
      }
    }
    let len;
    if (k === 0) len = 0;
    else if (k === 1) len = 1;
    else if (k === 2 || k === 3) len = 2000;
    else len = Math.floor(2000 * Math.pow(rng(), 3));
    const cps = [];
    while (cps.length < len) {
      const piece = ALPHABETS[pick(set)]();
      for (const ch of piece) cps.push(ch);
    }
    const text = cps.slice(0, len).join('');
    add(`random_${String(k).padStart(3, '0')}_len${len}_${set.join('+')}`, text);
  }

  // --- large inputs (~100 KB of UTF-8), stored as unit x count
  const kb100 = (unit) => Math.ceil(100000 / Buffer.byteLength(unit, 'utf8'));
  addRepeat('large_zh_paragraph_100k', ZH_PARAGRAPH, kb100(ZH_PARAGRAPH));
  addRepeat('large_en_paragraph_100k', EN_PARAGRAPH, kb100(EN_PARAGRAPH));
  addRepeat('large_html_mixed_100k', HTML_UNIT, kb100(HTML_UNIT));
  const EMOJI_UNIT = '😀👍🏽👨‍👩‍👧𠀀𪚥中文 emoji テスト Ελληνικά café\n';
  addRepeat('large_emoji_mixed_100k', EMOJI_UNIT, kb100(EMOJI_UNIT));
  const FW_UNIT = 'ＳｉｍＨａｓｈ中文ＡＢＣ１２３';
  addRepeat('large_fullwidth_no_separators_100k', FW_UNIT, kb100(FW_UNIT));
  // one separator-free segment containing a CJK char: the Java seed splits it into one token
  // per UTF-16 unit, so this is exactly 100000 tokens (the most its array holds) ...
  const JAVA_LIMIT_UNIT = '中' + 'a'.repeat(99);
  addRepeat('large_java_tokens_exactly_100000', JAVA_LIMIT_UNIT, 1000);
  // ... and this is 100100 tokens: ArrayIndexOutOfBoundsException in the Java seed
  addRepeat('large_java_tokens_100100_overflow', JAVA_LIMIT_UNIT, 1001);
  // 63 UTF-16 units (= Java tokens) per 64-byte unit: 1600 x 63 = 100800 tokens -> overflow
  const ALNUM_UNIT = '中abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  addRepeat('large_java_overflow_alnum_100800_tokens', ALNUM_UNIT, 1600);

  return cases;
}

function caseText(c) {
  return c.repeat ? c.repeat.unit.repeat(c.repeat.count) : c.text;
}

function isWellFormed(s) {
  if (typeof s.isWellFormed === 'function') return s.isWellFormed();
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}

function validateCases(cases) {
  assert(cases.length >= 320, `need at least 320 cases, have ${cases.length}`);
  const names = new Set();
  let large = 0;
  for (const c of cases) {
    assert(typeof c.name === 'string' && c.name.length > 0, 'case without a name');
    assert(!names.has(c.name), `duplicate case name ${c.name}`);
    names.add(c.name);
    const t = caseText(c);
    assert(typeof t === 'string', `${c.name}: text is not a string`);
    assert(isWellFormed(t), `${c.name}: input is not well-formed Unicode`);
    if (c.repeat) {
      assert(Number.isInteger(c.repeat.count) && c.repeat.count > 0, `${c.name}: bad repeat count`);
      if (Buffer.byteLength(t, 'utf8') >= 90000) large++;
    }
  }
  assert(large >= 4, `need at least 4 large (~100 KB) inputs, have ${large}`);
  for (const n of Object.keys(EXPECTED_CPP)) assert(names.has(n), `missing case ${n}`);
}

// ---------------------------------------------------------------------------
// helpers for running tools
// ---------------------------------------------------------------------------
function run(cmd, args, opts = {}) {
  try {
    return execFileSync(cmd, args, {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...opts,
    });
  } catch (e) {
    const out = [e.stdout, e.stderr].filter(Boolean).join('\n');
    fail(`command failed: ${cmd} ${args.join(' ')}\n${out || e.message}`);
  }
  return ''; // unreachable
}

function versionLine(cmd, args) {
  // java -version prints on stderr
  let r;
  try {
    r = require('child_process').spawnSync(cmd, args, { encoding: 'utf8' });
  } catch (e) {
    fail(`cannot run ${cmd}: ${e.message}`);
  }
  if (r.error) fail(`cannot run ${cmd}: ${r.error.message}`);
  const text = `${r.stdout || ''}${r.stderr || ''}`.trim();
  const first = text.split('\n')[0].trim();
  if (!first) fail(`${cmd} ${args.join(' ')} printed nothing`);
  return first;
}

// ---------------------------------------------------------------------------
// C++
// ---------------------------------------------------------------------------
const CPP_HARNESS = `// golden-vector harness (generated by ${GENERATOR}); not the article's main()
#include "simhash_chinese.hpp"
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

static bool readU32(std::istream& in, uint32_t& v) {
    unsigned char b[4];
    if (!in.read(reinterpret_cast<char*>(b), 4)) return false;
    v = (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
    return true;
}

int main(int argc, char** argv) {
    if (argc != 2) { std::cerr << "usage: harness INPUT.bin\\n"; return 2; }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) { std::cerr << "cannot open " << argv[1] << "\\n"; return 2; }
    uint32_t count = 0;
    if (!readU32(in, count)) { std::cerr << "truncated header\\n"; return 3; }
    SimHashChinese simHash;
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t n = 0;
        if (!readU32(in, n)) { std::cerr << "truncated length at case " << i << "\\n"; return 3; }
        std::string text(n, '\\0');
        if (n > 0 && !in.read(&text[0], n)) { std::cerr << "truncated data at case " << i << "\\n"; return 3; }
        std::cout << simHash.HashToHex(simHash.GetSimHash(text)) << "\\n";
    }
    char extra;
    if (in.read(&extra, 1)) { std::cerr << "trailing bytes after last case\\n"; return 3; }
    std::cout << "END " << count << "\\n";
    return 0;
}
`;

function runCpp(tmp, cppCode, cases) {
  const dir = path.join(tmp, 'cpp');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'simhash_chinese.hpp'), cppCode);
  fs.writeFileSync(path.join(dir, 'harness.cpp'), CPP_HARNESS);

  // input: u32le count, then per case u32le byte length + UTF-8 bytes (NUL-safe)
  const chunks = [];
  const head = Buffer.alloc(4);
  head.writeUInt32LE(cases.length, 0);
  chunks.push(head);
  for (const c of cases) {
    const bytes = Buffer.from(caseText(c), 'utf8');
    const len = Buffer.alloc(4);
    len.writeUInt32LE(bytes.length, 0);
    chunks.push(len, bytes);
  }
  const inputFile = path.join(dir, 'input.bin');
  fs.writeFileSync(inputFile, Buffer.concat(chunks));

  const builds = {};
  for (const opt of ['-O2', '-O0']) {
    const exe = path.join(dir, `harness${opt}`);
    // -fsigned-char: the seed's FNV loop does (uint64_t)c on a plain char; on x86-64 char is
    // signed (the reference behaviour). Forcing it keeps the vectors identical on ARM hosts.
    run('g++', ['-std=c++11', opt, '-fsigned-char', '-o', exe, path.join(dir, 'harness.cpp')]);
    const out = run(exe, [inputFile]);
    const lines = out.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const end = lines.pop();
    if (end !== `END ${cases.length}`) fail(`C++ ${opt} harness: bad trailer "${end}"`);
    if (lines.length !== cases.length) fail(`C++ ${opt}: ${lines.length} outputs for ${cases.length} cases`);
    lines.forEach((l, i) => {
      if (!/^[0-9a-f]{16}$/.test(l)) fail(`C++ ${opt}: case ${cases[i].name}: bad output "${l}"`);
    });
    builds[opt] = lines;
  }
  let diffs = 0;
  cases.forEach((c, i) => {
    if (builds['-O2'][i] !== builds['-O0'][i]) {
      diffs++;
      process.stderr.write(`C++ -O2/-O0 MISMATCH ${c.name}: ${builds['-O2'][i]} vs ${builds['-O0'][i]}\n`);
    }
  });
  if (diffs) fail(`C++ -O2 and -O0 builds disagree on ${diffs} case(s)`);
  return builds['-O2'];
}

// ---------------------------------------------------------------------------
// Java
// ---------------------------------------------------------------------------
const JAVA_HARNESS = `// golden-vector harness (generated by ${GENERATOR})
import test.mysimhash;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Base64;
import java.util.List;

public class GoldenHarness {
    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Paths.get(args[0]), StandardCharsets.US_ASCII);
        StringBuilder out = new StringBuilder();
        int n = 0;
        for (String line : lines) {
            int colon = line.indexOf(':');
            String idx = line.substring(0, colon);
            byte[] bytes = Base64.getDecoder().decode(line.substring(colon + 1));
            String text = new String(bytes, StandardCharsets.UTF_8);
            out.append(idx);
            for (int bits : new int[] {64, 128}) {
                out.append('\\t');
                try {
                    mysimhash h = new mysimhash(text, bits);
                    out.append("OK ").append(h.intSimHash.toString(16)).append(' ').append(h.strSimHash);
                } catch (Throwable t) {
                    out.append("ERR ").append(t.getClass().getSimpleName());
                }
            }
            out.append('\\n');
            n++;
        }
        out.append("END ").append(n).append('\\n');
        System.out.print(out);
        System.out.flush();
    }
}
`;

function runJava(tmp, javaCode, cases) {
  const dir = path.join(tmp, 'java');
  fs.mkdirSync(path.join(dir, 'test'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'classes'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'test', 'mysimhash.java'), javaCode);
  fs.writeFileSync(path.join(dir, 'GoldenHarness.java'), JAVA_HARNESS);
  // -encoding UTF-8 matters: the seed's regex contains 。，！ literally
  run('javac', ['-encoding', 'UTF-8', '-nowarn', '-d', path.join(dir, 'classes'),
    path.join(dir, 'test', 'mysimhash.java'), path.join(dir, 'GoldenHarness.java')]);

  const inputFile = path.join(dir, 'input.txt');
  fs.writeFileSync(inputFile, cases.map((c, i) =>
    `${i}:${Buffer.from(caseText(c), 'utf8').toString('base64')}\n`).join(''));
  const out = run('java', ['-Xss16m', '-cp', path.join(dir, 'classes'), 'GoldenHarness', inputFile]);
  const lines = out.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const end = lines.pop();
  if (end !== `END ${cases.length}`) fail(`Java harness: bad trailer "${end}"`);
  if (lines.length !== cases.length) fail(`Java: ${lines.length} outputs for ${cases.length} cases`);

  return lines.map((line, i) => {
    const name = cases[i].name;
    const parts = line.split('\t');
    if (parts.length !== 3 || parts[0] !== String(i)) fail(`Java: case ${name}: malformed line`);
    const res = {};
    [[64, parts[1]], [128, parts[2]]].forEach(([bits, field]) => {
      const key = `bits${bits}`;
      if (field.startsWith('ERR ')) {
        const err = field.slice(4);
        if (!/^[A-Za-z0-9_$]+$/.test(err)) fail(`Java: case ${name}/${bits}: odd error "${err}"`);
        res[key] = { error: err };
        return;
      }
      const m = /^OK ([0-9a-f]+) ([01]+)$/.exec(field);
      if (!m) fail(`Java: case ${name}/${bits}: malformed result "${field.slice(0, 80)}"`);
      const hex = m[1].padStart(bits / 4, '0');
      const binary = m[2];
      if (hex.length !== bits / 4) fail(`Java: case ${name}/${bits}: hex too long`);
      if (binary.length !== bits) fail(`Java: case ${name}/${bits}: binary has ${binary.length} chars`);
      // strSimHash is bit 0 first; check it agrees with intSimHash
      const v = BigInt('0x' + hex);
      for (let b = 0; b < bits; b++) {
        const bit = (v >> BigInt(b)) & 1n ? '1' : '0';
        if (binary[b] !== bit) fail(`Java: case ${name}/${bits}: hex and binary disagree at bit ${b}`);
      }
      res[key] = { hex, binary };
    });
    return res;
  });
}

// ---------------------------------------------------------------------------
// output
// ---------------------------------------------------------------------------
function inputFields(c) {
  return c.repeat ? { repeat: { unit: c.repeat.unit, count: c.repeat.count } } : { text: c.text };
}

function serialize(header, cases) {
  const head = JSON.stringify(header, null, 2);
  // header without its closing brace, then one case per line
  return `${head.slice(0, -2)},\n  "cases": [\n${cases.map((c) => `    ${JSON.stringify(c)}`).join(',\n')}\n  ]\n}\n`;
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const cppArticle = fs.readFileSync(path.join(opts.seeds, CPP_SEED), 'utf8');
  const javaArticle = fs.readFileSync(path.join(opts.seeds, JAVA_SEED), 'utf8');
  const cppCode = extractCpp(cppArticle);
  const javaCode = extractJava(javaArticle);

  const cases = buildCases();
  validateCases(cases);

  const compiler = versionLine('g++', ['--version']);
  const java = versionLine('java', ['-version']);

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'simhash-zh-golden-'));
  let cppOut;
  let javaOut;
  try {
    cppOut = runCpp(tmp, cppCode, cases);
    javaOut = runJava(tmp, javaCode, cases);
  } finally {
    if (opts.keepTmp) process.stdout.write(`kept temporary build directory: ${tmp}\n`);
    else fs.rmSync(tmp, { recursive: true, force: true });
  }

  // sanity checks against known values
  const byName = new Map(cases.map((c, i) => [c.name, i]));
  for (const [name, hex] of Object.entries(EXPECTED_CPP)) {
    const got = cppOut[byName.get(name)];
    if (got !== hex) fail(`C++ sanity: ${name} gave ${got}, expected ${hex}`);
  }
  const emptyJ = javaOut[byName.get('empty')];
  if (!(emptyJ.bits64.hex === 'f'.repeat(16) && emptyJ.bits64.binary === '1'.repeat(64)
    && emptyJ.bits128.hex === 'f'.repeat(32) && emptyJ.bits128.binary === '1'.repeat(128))) {
    fail(`Java sanity: empty string should give all ones, got ${JSON.stringify(emptyJ)}`);
  }
  const overflow = javaOut[byName.get('large_java_tokens_100100_overflow')];
  if (overflow.bits64.error !== 'ArrayIndexOutOfBoundsException') {
    fail(`Java sanity: 100100-token input should overflow, got ${JSON.stringify(overflow.bits64)}`);
  }
  const atLimit = javaOut[byName.get('large_java_tokens_exactly_100000')];
  if (atLimit.bits64.error || atLimit.bits128.error) {
    fail('Java sanity: 100000-token input should not overflow');
  }

  const cppDoc = serialize(
    { seed: CPP_SEED, generator: GENERATOR, compiler },
    cases.map((c, i) => ({ name: c.name, ...inputFields(c), hex: cppOut[i] })));
  const javaDoc = serialize(
    { seed: JAVA_SEED, generator: GENERATOR, java },
    cases.map((c, i) => ({ name: c.name, ...inputFields(c), bits64: javaOut[i].bits64, bits128: javaOut[i].bits128 })));
  // round-trip check: the JSON must reproduce the exact inputs
  for (const doc of [cppDoc, javaDoc]) {
    const parsed = JSON.parse(doc);
    assert(parsed.cases.length === cases.length, 'case count after JSON round trip');
    parsed.cases.forEach((pc, i) => {
      assert(pc.name === cases[i].name, `name mismatch after round trip at ${i}`);
      assert(caseText(pc) === caseText(cases[i]), `${pc.name}: input changed in JSON round trip`);
    });
  }

  const files = [
    ['simhashchinese.json', cppDoc],
    ['mysimhash.json', javaDoc],
  ];
  const LIMIT = 900 * 1024;
  for (const [f, doc] of files) {
    const size = Buffer.byteLength(doc, 'utf8');
    if (size > LIMIT) fail(`${f} would be ${size} bytes (> ${LIMIT})`);
  }

  let mismatched = 0;
  if (opts.check) {
    for (const [f, doc] of files) {
      const p = path.join(opts.out, f);
      const old = fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : null;
      if (old !== doc) {
        mismatched++;
        process.stderr.write(`${p}: differs from the regenerated vectors\n`);
      }
    }
  } else {
    fs.mkdirSync(opts.out, { recursive: true });
    for (const [f, doc] of files) fs.writeFileSync(path.join(opts.out, f), doc);
  }

  // summary
  const errCounts = {};
  let javaErrCases = 0;
  javaOut.forEach((r) => {
    let any = false;
    for (const k of ['bits64', 'bits128']) {
      if (r[k].error) { any = true; errCounts[`${k}:${r[k].error}`] = (errCounts[`${k}:${r[k].error}`] || 0) + 1; }
    }
    if (any) javaErrCases++;
  });
  const p = (s) => process.stdout.write(`${s}\n`);
  p(`seeds:     ${opts.seeds}`);
  p(`compiler:  ${compiler} (g++ -std=c++11 -O2 and -O0 agree on all cases)`);
  p(`java:      ${java}`);
  p(`cases:     ${cases.length} (${cases.filter((c) => c.repeat).length} stored as repeat)`);
  p(`C++:       text1=${cppOut[byName.get('cpp_demo_text1')]} text2=${cppOut[byName.get('cpp_demo_text2')]} `
    + `text3=${cppOut[byName.get('cpp_demo_text3')]}`);
  p(`Java:      ${javaErrCases} case(s) with errors ${JSON.stringify(errCounts)}`);
  javaOut.forEach((r, i) => {
    if (r.bits64.error || r.bits128.error) p(`           error in ${cases[i].name}`);
  });
  for (const [f, doc] of files) {
    p(`${opts.check ? 'checked' : 'wrote'}:     ${path.join(opts.out, f)} (${Buffer.byteLength(doc, 'utf8')} bytes)`);
  }
  if (mismatched) fail(`${mismatched} golden file(s) out of date; rerun without --check`);
}

try {
  main();
} catch (e) {
  process.stderr.write(`golden generator FAILED: ${e instanceof GoldenError ? e.message : (e && e.stack) || e}\n`);
  process.exit(1);
}

'use strict';
// The default pipeline's normalization: exact cases, and native == TS on random markup.
const assert = require('node:assert/strict');
const fc = require('fast-check');
const { BACKENDS, PROPERTY_RUNS } = require('./engines');
const { normalize: normalizeJs } = require('../dist/js/normalize');

const HTML_MODES = { auto: 0, true: 1, false: 2 };
const engines = {
  js: (text, o) => normalizeJs(text, o),
  native: (text, o) => require('../dist/native').requireNativeAddon().normalize(text, HTML_MODES[String(o.html)], o.foldWidth, o.lowercase),
};
const DEFAULTS = { html: 'auto', foldWidth: true, lowercase: true };

for (const backend of BACKENDS) {
  describe(`normalize [${backend}]`, function () {
    const normalize = (text, options = {}) => engines[backend](text, { ...DEFAULTS, ...options });
    it('strips tags, comments, script and style bodies; decodes entities', function () {
      assert.equal(normalize('<p>北京<b>大学</b></p><!-- x --><script type="a">if (a<b) {}</script>&amp;&lt;p&gt;&#x4E2D;&#25991;'),
        ' 北京大学   &<p>中文');
      assert.equal(normalize('<div class="a>b">x</div>'), ' x ');
      assert.equal(normalize('<STYLE>p{}</STYLE>a'), ' a');
      assert.equal(normalize('&#0;&#xD800;&#1114112;&unknown;&amp'), '\ufffd\ufffd\ufffd&unknown;&amp');
    });
    it("html: 'auto' leaves text without markup alone; false never strips; true always does", function () {
      assert.equal(normalize('a < b and c > d'), 'a < b and c > d');
      assert.equal(normalize('x<y'), 'x<y');
      assert.equal(normalize('<p>a</p>', { html: false }), '<p>a</p>');
      assert.equal(normalize('a &lt; b', { html: false }), 'a &lt; b');
      assert.equal(normalize('a &lt; b'), 'a < b');
    });
    it("html: 'auto' takes a bare tag of another element for text (placeholders), any other markup for HTML", function () {
      // Placeholders of technical text stay, and so do their words.
      assert.equal(normalize('删去导出名称中的 @<n>。'), '删去导出名称中的 @<n>。');
      assert.equal(normalize('用法: cmd <input> <output> <n/>'), '用法: cmd <input> <output> <n/>');
      assert.equal(normalize('Map<String, Integer>'), 'map<string, integer>');
      // Bare tags HTML writes without attributes or closing tags; closing tags, attributes, comments, doctypes.
      assert.equal(normalize('<P>一<li>二<br/>三<hr />'), ' 一 二 三 ');
      assert.equal(normalize('<input type="text"> <n>'), '   ');
      assert.equal(normalize('<choices>甲</choices>'), ' 甲 ');
      assert.equal(normalize('<!DOCTYPE html><n>'), '  ');
      assert.equal(normalize('<!-- x --><n>'), '  ');
      // An entity marks the text as HTML too; true strips every tag.
      assert.equal(normalize('x &amp; <n>'), 'x &  ');
      assert.equal(normalize('<n> <file>', { html: true }), '   ');
    });
    it('folds full-width forms and the ideographic space, lowercases ASCII', function () {
      assert.equal(normalize('ＡＢＣ１２３！　Ｘ'), 'abc123! x');
      assert.equal(normalize('ＡＢＣ　', { foldWidth: false }), 'ＡＢＣ　');
      assert.equal(normalize('ABC Ä', { lowercase: false }), 'ABC Ä');
      assert.equal(normalize('ABC Ä'), 'abc Ä');
    });
    it('turns lone surrogates into U+FFFD and keeps NUL', function () {
      assert.equal(normalize('a\ud800b\0'), 'a\ufffdb\0');
    });
    it('is linear on text full of unclosed markup', function () {
      const text = '<a'.repeat(200000) + '&#'.repeat(200000);
      assert.equal(normalize(text), text);
    });
  });
}

(BACKENDS.includes('native') ? describe : describe.skip)('normalize: native == js', function () {
  const piece = fc.oneof(
    fc.constantFrom('<', '>', '&', ';', '#', 'x', '"', "'", '/', '!', '-', '<!--', '-->', '<script>', '</script>', '<style a="1">',
      '</STYLE>', '<p>', '</p>', '<b>', '</b>', '<br/>', '<n>', '<File>', '<Br >', '<input type=x>', '</item>', '<T, U>', '=', '&amp;', '&nbsp;', '&#x1F600;', '&#12290;', '&#0;', '&lt;', 'Ａ', '　', 'A', '中', '\ud800', '\0'),
    fc.string({ maxLength: 3 }),
    fc.string({ unit: 'binary', maxLength: 3 }),
  );
  const markup = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));
  const options = fc.record({ html: fc.constantFrom('auto', true, false), foldWidth: fc.boolean(), lowercase: fc.boolean() });
  it(`agrees on random markup (${PROPERTY_RUNS} runs)`, function () {
    fc.assert(fc.property(markup, options, (text, o) => engines.native(text, o) === engines.js(text, o)), { numRuns: PROPERTY_RUNS });
  });
});

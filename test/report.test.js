'use strict';
// bench/report.js on a tiny hand-made set of results (test/fixtures/bench-report/): the SVG
// charts are well-formed XML with the expected series and finite, in-bounds coordinates, and
// REPORT.md has the expected table rows.
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const FIXTURE = path.join(__dirname, 'fixtures', 'bench-report');
const CHARTS = ['quality-documents.svg', 'quality-short.svg', 'throughput.svg', 'index.svg'];
const COORDINATES = ['x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'width', 'height'];

/**
 * A strict little XML reader, enough for the charts: declaration, elements with double-quoted
 * attributes, text, comments. Throws on anything else, on unbalanced tags and on bare '&'.
 * Returns the elements in document order as { name, attrs, text, parent }.
 */
function parseXml(source) {
  const token = /<\?xml[^?]*\?>|<!--[\s\S]*?-->|<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|[^<]+/y;
  const attr = /\s+([\w:.-]+)="([^"<]*)"/g;
  const entity = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;
  const elements = [];
  const stack = [];
  let roots = 0;
  let pos = 0;
  while (pos < source.length) {
    token.lastIndex = pos;
    const m = token.exec(source);
    if (!m || m.index !== pos) throw new Error(`not well-formed at offset ${pos}: ${JSON.stringify(source.slice(pos, pos + 40))}`);
    pos = token.lastIndex;
    const [whole, closing, name, attrText, selfClosing] = m;
    if (whole.startsWith('<?') || whole.startsWith('<!--')) continue;
    if (!whole.startsWith('<')) {
      if (entity.test(whole)) throw new Error(`bare & in text: ${JSON.stringify(whole)}`);
      if (stack.length === 0 && whole.trim()) throw new Error(`text outside the root: ${JSON.stringify(whole)}`);
      if (stack.length) stack[stack.length - 1].text += whole;
      continue;
    }
    if (closing) {
      const open = stack.pop();
      if (!open || open.name !== name) throw new Error(`</${name}> closes <${open ? open.name : 'nothing'}>`);
      continue;
    }
    const attrs = {};
    for (const [, key, value] of attrText.matchAll(attr)) {
      if (key in attrs) throw new Error(`duplicate attribute ${key} on <${name}>`);
      if (entity.test(value)) throw new Error(`bare & in attribute ${key}`);
      attrs[key] = value;
    }
    if (stack.length === 0 && ++roots > 1) throw new Error('more than one root element');
    const element = { name, attrs, text: '', parent: stack[stack.length - 1] || null };
    elements.push(element);
    if (!selfClosing) stack.push(element);
  }
  if (stack.length) throw new Error(`unclosed <${stack.map((e) => e.name).join('> <')}>`);
  return elements;
}

const unescape = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

describe('bench/report.js', function () {
  this.timeout(10000);
  let out;
  const svg = {};
  let report;

  before(function () {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'simhash-zh-report-'));
    execFileSync(process.execPath, [path.join(ROOT, 'bench', 'report.js'), '--dir', FIXTURE, '--out', out], { encoding: 'utf8' });
    for (const file of CHARTS) svg[file] = fs.readFileSync(path.join(out, file), 'utf8');
    report = fs.readFileSync(path.join(out, 'REPORT.md'), 'utf8');
  });

  after(function () {
    if (out) fs.rmSync(out, { recursive: true, force: true });
  });

  it('writes every chart as well-formed SVG with finite coordinates inside its view box', function () {
    for (const file of CHARTS) {
      const elements = parseXml(svg[file]);
      const root = elements[0];
      assert.equal(root.name, 'svg', file);
      assert.equal(root.attrs.xmlns, 'http://www.w3.org/2000/svg', file);
      const [vx, vy, vw, vh] = root.attrs.viewBox.split(/\s+/).map(Number);
      assert.deepEqual([vx, vy], [0, 0], file);
      assert.ok(vw > 0 && vh > 0 && Number(root.attrs.width) === vw && Number(root.attrs.height) === vh, file);
      const inBox = (v, max, what) => {
        assert.ok(Number.isFinite(v), `${file}: ${what} = ${v}`);
        assert.ok(v >= -1 && v <= max + 1, `${file}: ${what} = ${v} outside 0..${max}`);
      };
      let shapes = 0;
      for (const e of elements.slice(1)) {
        for (const key of COORDINATES) {
          if (!(key in e.attrs)) continue;
          const value = Number(e.attrs[key]);
          inBox(value, /^(x|x1|x2|cx|width)$/.test(key) ? vw : vh, `<${e.name} ${key}>`);
          if (key === 'width' || key === 'height' || key === 'r') assert.ok(value >= 0, `${file}: negative ${key}`);
        }
        if (e.name === 'path') {
          assert.match(e.attrs.d, /^M[\d.\s ML-]+$/, `${file}: path data`);
          const numbers = e.attrs.d.match(/-?[\d.]+/g).map(Number);
          assert.equal(numbers.length % 2, 0, file);
          numbers.forEach((v, i) => inBox(v, i % 2 ? vh : vw, 'path point'));
        }
        if (['rect', 'line', 'path', 'circle'].includes(e.name)) shapes++;
      }
      assert.ok(shapes > 20, `${file}: ${shapes} shapes`);
      assert.doesNotMatch(svg[file], /NaN|Infinity|undefined|null/, file);
    }
  });

  it('draws precision and recall for each available method, with a legend', function () {
    for (const file of ['quality-documents.svg', 'quality-short.svg']) {
      const elements = parseXml(svg[file]);
      const series = elements.filter((e) => e.name === 'g' && e.attrs.class === 'series').map((e) => unescape(e.attrs['data-name']));
      assert.deepEqual(series, ['default precision', 'default recall', 'simhash-js precision', 'simhash-js recall'], file);
      for (const g of elements.filter((e) => e.name === 'g' && e.attrs.class === 'series')) {
        const points = elements.filter((e) => e.parent === g && (e.name === 'circle' || e.name === 'rect')).length;
        const path = elements.find((e) => e.parent === g && e.name === 'path');
        assert.ok(path, `${file}: a line for ${g.attrs['data-name']}`);
        // 17 points for k = 0..16, less those where precision is undefined (nothing flagged).
        const expected = { 'simhash-js precision': file === 'quality-documents.svg' ? 16 : 15 }[g.attrs['data-name']] ?? 17;
        assert.equal(points, expected, `${file}: points of ${g.attrs['data-name']}`);
      }
      const legend = elements.filter((e) => e.name === 'text' && e.parent && e.parent.attrs.class === 'legend').map((e) => unescape(e.text));
      for (const label of ['default (simhash-zh)', 'simhash-js (32-bit)', 'precision', 'recall']) assert.ok(legend.includes(label), `${file}: legend ${label}`);
      assert.ok(!legend.some((l) => l.startsWith('mysimhash')), `${file}: an unavailable method is not drawn`);
      const ticks = elements.filter((e) => e.name === 'text' && e.parent && e.parent.attrs.class === 'ticks').map((e) => e.text);
      for (let k = 0; k <= 16; k++) assert.ok(ticks.includes(String(k)), `${file}: tick k=${k}`);
      assert.ok(ticks.includes('0.0') && ticks.includes('1.0'), `${file}: y ticks`);
    }
  });

  it('draws the throughput and index bars, ours and the peers', function () {
    // { section title: { bar label: value } }
    const bars = (file) => {
      const elements = parseXml(svg[file]);
      const out = {};
      for (const section of elements.filter((e) => e.name === 'g' && e.attrs.class === 'section')) {
        out[unescape(section.attrs['data-name'])] = Object.fromEntries(elements
          .filter((e) => e.name === 'g' && e.attrs.class === 'bar' && e.parent === section)
          .map((e) => [unescape(e.attrs['data-name']), Number(e.attrs['data-value'])]));
      }
      return out;
    };
    const throughput = bars('throughput.svg');
    assert.deepEqual(throughput, {
      'Word segmentation, cut line by line, HMM off: Test corpus (2.00 MB)': { 'simhash-zh native': 25, 'simhash-zh TS engine': 8, '@node-rs/jieba': 10, 'jieba-wasm': 4 },
      'Word segmentation, cut line by line, HMM on: Test corpus (2.00 MB)': { 'simhash-zh native': 20, 'simhash-zh TS engine': 6, '@node-rs/jieba': 12, 'jieba-wasm': 3 },
      // MiB/s in fingerprint.json, MB/s (10^6 bytes) in the chart
      'Fingerprinting documents, default pipeline: tiny.utf8 (0.100 MB)': { 'simhash-zh native': 12, 'simhash-zh TS engine': 5, '@node-rs/jieba cut only (no hashing)': 4, 'simhash-js hash (32-bit)': 2 },
    }); // no nodejieba bar: it was not measured
    const index = Object.assign({}, ...Object.values(bars('index.svg')));
    assert.equal(index['native, index queryMany (10M)'], 600000);
    assert.equal(index['native, brute-force scan (10M)'], 20);
    assert.equal(index['TS engine, index queryMany (1M)'], 90000);
    assert.equal(index['native, index: build 10M + queries'], 4 + 200000 / 600000);
    assert.equal(index['native, brute-force scan: queries'], 200000 / 20);
    assert.equal(index['TS engine, cluster (1M)'], 3);
    assert.equal(Object.keys(bars('index.svg')).length, 3);
    assert.match(svg['index.svg'], />1M</, 'log-scale ticks');
  });

  it('writes REPORT.md with the headline, targets and per-benchmark tables and commands', function () {
    const rows = [
      // headline
      '| Word segmentation, native `cut` (HMM off) | 25.0 MB/s | @node-rs/jieba 10.0 MB/s | 2.50× | ≥ 2×: met |',
      '| Word segmentation, TS engine `cut` (HMM off) | 8.00 MB/s | jieba-wasm 4.00 MB/s | 2.00× | ≥ 1.5×: met |',
      '| Fingerprint, default pipeline, native | 12.0 MB/s | @node-rs/jieba `cut` alone 4.00 MB/s | 3.00× | ≥ 3×: met |',
      '| Fingerprint, default pipeline, TS engine | 5.00 MB/s | simhash-js 2.00 MB/s | 2.50× | ≥ 5×: **unmet** |',
      '| Near-duplicate F1 at k = 3, documents (300–5000 chars) | 0.934 | simhash-js (32-bit) 0.255 | +0.679 vs best other | ≥ 0.90: met |',
      '| Index queries, native, 10M entries, k = 3 | 600,000/s | brute-force scan 20.0/s | 30,000× | ≥ 500,000/s: met |',
      '| Index queries, TS engine, 1M entries, k = 3 | 90,000/s | brute-force scan 60.0/s | 1,500× | ≥ 100,000/s: **unmet** |',
      // targets
      '| segment | native default dictionary ready ≤ 20 ms | 10.0 ms | met |',
      '| fingerprint | default TS engine ≥ 5× simhash-js | 2.50× | **unmet** |',
      '| quality | default: documents F1 at k = 3 ≥ 0.9 | 0.934 | met |',
      '| index | native ≤ 64 bytes/entry | 60.0 held, 61.0 RSS | met |',
      // sections
      '| simhash-zh native, HMM off | 25.0 | 2.50× | 6.25× | 10.0 | 20.0 | 1,000 |',
      '| @node-rs/jieba, HMM on | 12.0 | 1.00× | 4.00× | 200 | 45.0 | 1,000 |',
      '| default | simhash-zh | 12.0 | 3.00× | 350,000 | 630,000 (1.80×) | 5.00 | 2.50× |',
      '| native | 10,000,000 | 4.00 s | 60.0 | 600,000 | 720,000 | 300,000 | 20.0 | 30,000× | 2.00 s | 3.00 s | 900 |',
      '| typo | 8 | 0.900 [2] | 0.150 [2] |',
    ];
    const lines = report.split('\n');
    for (const row of rows) assert.ok(lines.includes(row), `REPORT.md lacks the row\n${row}`);
    assert.match(report, /^# simhash-zh benchmark report$/m);
    assert.match(report, /\*\*Machine:\*\* 2 × Test CPU, 8 GiB RAM, Node v20\.0\.0, linux-x64/);
    assert.match(report, /^18 of 21 met\.$/m);
    for (const command of ['node bench/segment.js --json bench/results/segment.json --reps 3', 'node bench/fingerprint.js', 'node bench/quality.js --json bench/results/quality.json', 'node --expose-gc bench/index.js --json bench/results/index.json']) {
      assert.ok(report.includes(`\`${command}\``), `command ${command}`);
    }
    for (const chart of CHARTS) assert.ok(report.includes(`](${chart})`), `link to ${chart}`);
    assert.match(report, /Not available: mysimhash \(not built in this fixture\)/);
  });
});

#!/usr/bin/env node
'use strict';
// Writes bench/results/REPORT.md and the SVG charts from the benchmarks' JSON files
// (bench/run.js calls it at the end; it also runs alone on the last results):
//
//   node bench/report.js [--dir bench/results] [--out DIR]
//
// Reads run.json (the commands bench/run.js ran), segment.json, fingerprint.json,
// quality.json and index.json from --dir, each optional, and writes REPORT.md,
// quality-documents.svg, quality-short.svg, throughput.svg and index.svg to --out
// (default: --dir). The charts are plain SVG written here, no dependencies.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const DEFAULT_DIR = path.join(__dirname, 'results');
const MIB = 1024 * 1024;
// bench/fingerprint.js reports MiB/s (its keys say so: nativeMiBps, ...); the report shows MB/s (10^6 bytes), as bench/segment.js measures.
const mb = (mibps) => (mibps * MIB) / 1e6;

/** The commands bench/run.js runs, for results produced without a run.json. */
const DEFAULT_COMMANDS = {
  segment: 'node bench/segment.js --json bench/results/segment.json --reps 3',
  fingerprint: 'node bench/fingerprint.js',
  quality: 'node bench/quality.js --json bench/results/quality.json',
  index: 'node --expose-gc bench/index.js --json bench/results/index.json',
};

/** Targets of the issues (quality's come with its JSON). */
const TARGETS = {
  segment: { nativeVsNodeRs: 2, jsVsWasm: 1.5, nativeReadyMs: 20, jsReadyMs: 60, rssMb: 40 },
  fingerprint: { nativeVsJieba: 3, titlesPerSecond: 300_000, asyncSpeedup: 1.7, jsVsSimhashJs: 5 },
  index: { nativeQps: 500_000, nativeBytesPerEntry: 64, nativeBuildSeconds: 5, jsQps: 100_000 },
};

// ---------------------------------------------------------------------------
// Formatting.

function num(x, digits = 0) {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** About three significant digits: 1,234 / 123 / 12.3 / 1.23. */
function sig(x) {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  const a = Math.abs(x);
  return num(x, a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
}

const times = (x) => (Number.isFinite(x) ? `${x >= 100 ? num(x) : x >= 10 ? x.toFixed(1) : x.toFixed(2)}×` : '–');
const status = (met) => (met === null || met === undefined ? 'n/a' : met ? 'met' : '**unmet**');
const mdEscape = (s) => String(s).replace(/\|/g, '\\|');

/** A markdown table: columns [{ title, align: 'l'|'r' }], rows of cells. */
function mdTable(columns, rows) {
  const head = `| ${columns.map((c) => c.title).join(' | ')} |`;
  const rule = `|${columns.map((c) => (c.align === 'r' ? '---:' : ':---')).join('|')}|`;
  return [head, rule, ...rows.map((r) => `| ${r.map((cell) => mdEscape(cell ?? '–')).join(' | ')} |`)].join('\n');
}

// ---------------------------------------------------------------------------
// SVG (hand-written: text, lines, rects, paths).

function esc(s) {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A coordinate: rounded, and never NaN or Infinity in a chart. */
function c(x) {
  if (!Number.isFinite(x)) throw new Error(`chart coordinate is not finite: ${x}`);
  return String(Math.round(x * 10) / 10);
}

function attrs(a) {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => ` ${k}="${esc(v)}"`)
    .join('');
}

const text = (x, y, s, a = {}) => `<text${attrs({ x: c(x), y: c(y), ...a })}>${esc(s)}</text>`;
const line = (x1, y1, x2, y2, a = {}) => `<line${attrs({ x1: c(x1), y1: c(y1), x2: c(x2), y2: c(y2), ...a })}/>`;
const rect = (x, y, w, h, a = {}) => `<rect${attrs({ x: c(x), y: c(y), width: c(Math.max(0, w)), height: c(Math.max(0, h)), ...a })}/>`;

function svgDocument(width, height, title, body) {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12" fill="#222">`,
    `<title>${esc(title)}</title>`,
    rect(0, 0, width, height, { fill: '#ffffff' }),
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

const PALETTE = ['#1f6fd1', '#e07b00', '#2a9d4b', '#c0392b', '#7b4fb8', '#8c564b', '#d6408f', '#7f7f7f', '#17a2b8'];
const METHOD_COLORS = { default: '#1f6fd1', SimHashChinese: '#e07b00', mysimhash: '#2a9d4b', 'simhash-js': '#c0392b' };

/**
 * Precision and recall against k, one colour per method; solid = precision,
 * dashed = recall. series: [{ name, color, bold, curve: [{ k, precision, recall }] }].
 */
function qualityChart({ title, subtitle, series, kMax, markK, note }) {
  const W = 860;
  const H = 500;
  const L = 64;
  const T = 70;
  const PW = 540;
  const PH = 340;
  const x = (k) => L + (k / kMax) * PW;
  const PAD = 8; // keeps lines at 1.0 off the frame
  const y = (v) => T + PAD + (1 - v) * (PH - PAD);
  const out = [];
  out.push(text(L, 26, title, { 'font-size': 16, 'font-weight': 'bold' }));
  out.push(text(L, 44, subtitle, { 'font-size': 12, fill: '#555' }));
  // Grid and axes.
  out.push('<g class="grid" stroke="#e3e3e3" stroke-width="1">');
  for (let v = 0; v <= 1.0001; v += 0.1) out.push(line(L, y(v), L + PW, y(v)));
  for (let k = 0; k <= kMax; k++) out.push(line(x(k), T, x(k), T + PH));
  out.push('</g>');
  out.push('<g class="axes" stroke="#444" stroke-width="1">', line(L, T + PH, L + PW, T + PH), line(L, T, L, T + PH), '</g>');
  out.push('<g class="ticks" font-size="11" fill="#444">');
  for (let i = 0; i <= 10; i += 2) out.push(text(L - 8, y(i / 10) + 4, (i / 10).toFixed(1), { 'text-anchor': 'end' }));
  for (let k = 0; k <= kMax; k++) out.push(text(x(k), T + PH + 16, String(k), { 'text-anchor': 'middle' }));
  out.push('</g>');
  out.push(text(L + PW / 2, T + PH + 38, 'k: duplicate iff Hamming distance ≤ k', { 'text-anchor': 'middle', 'font-size': 12 }));
  out.push(text(18, T + PH / 2, 'precision (solid), recall (dashed)', { 'text-anchor': 'middle', transform: `rotate(-90 18 ${c(T + PH / 2)})`, 'font-size': 12 }));
  if (markK !== undefined) {
    out.push(line(x(markK), T, x(markK), T + PH, { stroke: '#888', 'stroke-width': 1, 'stroke-dasharray': '2 3' }));
    out.push(text(x(markK), T - 6, `k = ${markK} (target)`, { 'font-size': 11, fill: '#666', 'text-anchor': 'middle' }));
  }
  // Series: one path per run of defined points (precision is undefined where nothing is flagged).
  const pathOf = (points) => {
    const runs = [];
    let run = [];
    for (const p of points) {
      if (p) run.push(p);
      else if (run.length) runs.push(run), (run = []);
    }
    if (run.length) runs.push(run);
    return runs.map((r) => r.map(([px, py], i) => `${i ? 'L' : 'M'}${c(px)} ${c(py)}`).join(' ')).join(' ');
  };
  for (const s of series) {
    for (const metric of ['precision', 'recall']) {
      const points = s.curve.map((p) => (p[metric] === null || p[metric] === undefined ? null : [x(p.k), y(p[metric])]));
      const width = s.bold ? 2.6 : 1.6;
      out.push(`<g class="series"${attrs({ 'data-name': `${s.name} ${metric}`, stroke: s.color, fill: s.color })}>`);
      const d = pathOf(points);
      if (d) out.push(`<path${attrs({ d, fill: 'none', 'stroke-width': width, 'stroke-dasharray': metric === 'recall' ? '6 4' : undefined, 'stroke-linejoin': 'round' })}/>`);
      for (const p of points) {
        if (!p) continue;
        if (metric === 'precision') out.push(`<circle${attrs({ cx: c(p[0]), cy: c(p[1]), r: s.bold ? 3 : 2.2, stroke: 'none' })}/>`);
        else out.push(rect(p[0] - 2.2, p[1] - 2.2, 4.4, 4.4, { fill: '#fff', 'stroke-width': 1.2 }));
      }
      out.push('</g>');
    }
  }
  // Legend.
  const LX = L + PW + 24;
  let ly = T + 6;
  out.push('<g class="legend">');
  out.push(text(LX, ly, 'Methods', { 'font-weight': 'bold' }));
  ly += 20;
  for (const s of series) {
    out.push(line(LX, ly - 4, LX + 26, ly - 4, { stroke: s.color, 'stroke-width': s.bold ? 2.6 : 1.6 }));
    out.push(text(LX + 34, ly, s.label || s.name, { 'font-weight': s.bold ? 'bold' : undefined }));
    ly += 20;
  }
  ly += 10;
  out.push(text(LX, ly, 'Lines', { 'font-weight': 'bold' }));
  ly += 20;
  out.push(line(LX, ly - 4, LX + 26, ly - 4, { stroke: '#444', 'stroke-width': 1.6 }), `<circle${attrs({ cx: c(LX + 13), cy: c(ly - 4), r: 2.2, fill: '#444' })}/>`);
  out.push(text(LX + 34, ly, 'precision'));
  ly += 20;
  out.push(line(LX, ly - 4, LX + 26, ly - 4, { stroke: '#444', 'stroke-width': 1.6, 'stroke-dasharray': '6 4' }), rect(LX + 10.8, ly - 6.2, 4.4, 4.4, { fill: '#fff', stroke: '#444', 'stroke-width': 1.2 }));
  out.push(text(LX + 34, ly, 'recall'));
  out.push('</g>');
  if (note) note.forEach((n, i) => out.push(text(L, T + PH + 62 + i * 16, n, { 'font-size': 11, fill: '#555' })));
  return svgDocument(W, H, title, out);
}

/** Ticks of a linear axis from 0: a nice step and the axis end. */
function linearTicks(max) {
  if (!(max > 0)) return { hi: 1, step: 0.2 };
  const raw = max / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  const step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 ? 2.5 : norm <= 5 ? 5 : 10) * mag;
  return { hi: Math.ceil(max / step - 1e-9) * step, step };
}

/** 1.23M, 200k, 12.5, 0.25: at most three significant digits, no trailing zeros. */
function shortNumber(v) {
  const trim = (x) => String(Number(x.toPrecision(3)));
  if (v >= 1e9) return `${trim(v / 1e9)}G`;
  if (v >= 1e6) return `${trim(v / 1e6)}M`;
  if (v >= 1e3) return `${trim(v / 1e3)}k`;
  return trim(v);
}

/**
 * Horizontal bars in sections, each with its own axis (linear from 0, or log).
 * sections: [{ title, unit, scale: 'linear'|'log', bars: [{ label, value, ours, note }] }].
 */
function barChart({ title, subtitle, sections, footer = [] }) {
  const W = 960;
  const LABEL = 290;
  const BAR = 400;
  const X0 = 20 + LABEL;
  const BH = 18;
  const GAP = 7;
  const out = [];
  let yy = 26;
  out.push(text(20, yy, title, { 'font-size': 16, 'font-weight': 'bold' }));
  yy += 20;
  if (subtitle) out.push(text(20, yy, subtitle, { fill: '#555' })), (yy += 16);
  // Legend.
  yy += 8;
  out.push('<g class="legend">', rect(20, yy - 10, 14, 12, { fill: '#1f6fd1' }), text(40, yy, 'simhash-zh'));
  out.push(rect(130, yy - 10, 14, 12, { fill: '#9a9a9a' }), text(150, yy, 'peer / baseline (measured in the same run)'), '</g>');
  yy += 14;
  for (const section of sections) {
    const bars = section.bars.filter((b) => b);
    yy += 26;
    out.push(`<g class="section"${attrs({ 'data-name': section.title })}>`);
    out.push(text(20, yy, `${section.title}${section.scale === 'log' ? ', log scale' : ''}`, { 'font-weight': 'bold', 'font-size': 13 }));
    yy += 10;
    const values = bars.map((b) => b.value).filter((v) => Number.isFinite(v) && v > 0);
    let scale;
    let ticks;
    if (section.scale === 'log' && values.length) {
      let lo = 10 ** Math.floor(Math.log10(Math.min(...values)));
      let hi = 10 ** Math.ceil(Math.log10(Math.max(...values)));
      if (hi <= lo) hi = lo * 10;
      if (lo === Math.min(...values) && lo > 1e-12) lo /= 10; // a bar of length 0 would hide the value
      scale = (v) => (BAR * Math.log10(v / lo)) / Math.log10(hi / lo);
      ticks = [];
      for (let t = lo; t <= hi * 1.0001; t *= 10) ticks.push(t);
    } else {
      const { hi, step } = linearTicks(values.length ? Math.max(...values) : 1);
      scale = (v) => (BAR * v) / hi;
      ticks = [];
      for (let t = 0; t <= hi + step / 2; t += step) ticks.push(t);
    }
    const top = yy;
    const bottom = top + bars.length * (BH + GAP);
    out.push('<g class="grid" stroke="#e6e6e6" stroke-width="1">');
    for (const t of ticks) out.push(line(X0 + scale(t), top, X0 + scale(t), bottom));
    out.push('</g>');
    for (const b of bars) {
      const ok = Number.isFinite(b.value) && b.value > 0;
      out.push(`<g class="bar"${attrs({ 'data-name': b.label, 'data-value': ok ? String(b.value) : 'n/a' })}>`);
      out.push(text(X0 - 8, yy + BH - 5, b.label, { 'text-anchor': 'end', 'font-weight': b.ours ? 'bold' : undefined }));
      if (ok) {
        const w = Math.max(1, scale(b.value));
        out.push(rect(X0, yy, w, BH, { fill: b.ours ? '#1f6fd1' : '#9a9a9a' }));
        out.push(text(X0 + w + 6, yy + BH - 5, `${shortNumber(b.value)} ${section.unit}${b.note ? ` (${b.note})` : ''}`, { 'font-size': 11 }));
      } else {
        out.push(text(X0 + 6, yy + BH - 5, 'not measured', { 'font-size': 11, fill: '#888' }));
      }
      out.push('</g>');
      yy += BH + GAP;
    }
    out.push(line(X0, bottom, X0 + BAR, bottom, { stroke: '#444' }));
    out.push('<g class="ticks" font-size="10" fill="#555">');
    for (const t of ticks) out.push(text(X0 + scale(t), bottom + 13, shortNumber(t), { 'text-anchor': 'middle' }));
    out.push('</g>');
    out.push('</g>');
    yy = bottom + 18;
  }
  yy += 8;
  for (const f of footer) out.push(text(20, (yy += 16), f, { 'font-size': 11, fill: '#555' }));
  return svgDocument(W, Math.ceil(yy + 16), title, out);
}

// ---------------------------------------------------------------------------
// Reading the results.

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw new Error(`${file}: ${error.message}`);
  }
}

function load(dir) {
  const run = readJson(path.join(dir, 'run.json')) || { benchmarks: {} };
  const data = { run };
  for (const name of ['segment', 'fingerprint', 'quality', 'index']) {
    const file = path.join(dir, `${name}.json`);
    const json = readJson(file);
    const entry = run.benchmarks && run.benchmarks[name];
    data[name] = json && {
      json,
      file,
      command: entry ? entry.command : DEFAULT_COMMANDS[name],
      date: (entry && entry.finished) || json.date || fs.statSync(file).mtime.toISOString(),
      seconds: entry ? entry.seconds : null,
      quick: entry ? entry.quick : false,
      failed: entry ? entry.exitCode !== 0 : false,
      loadAverage: entry && entry.loadAverage,
      addon: entry && entry.addon,
      nativeEngine: entry && entry.nativeEngine,
    };
  }
  return data;
}

function provenance(d) {
  const bits = [`\`${d.command}\``, `run ${d.date.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`];
  if (d.seconds !== null) bits.push(`${d.seconds.toFixed(0)} s`);
  if (d.loadAverage) bits.push(`load average ${d.loadAverage.start[0].toFixed(2)} → ${d.loadAverage.end[0].toFixed(2)}`);
  if (d.addon && d.addon.built) bits.push(`addon built ${d.addon.built.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`);
  if (d.nativeEngine && d.nativeEngine !== 'loaded') bits.push(`**native engine not loaded: ${d.nativeEngine}**`);
  if (d.quick) bits.push('**--quick sizes**');
  if (d.failed) bits.push('**the last run of this benchmark failed: these are older results**');
  return bits.join(' · ');
}

// ---------------------------------------------------------------------------
// Sections.

const SEG_LABELS = {
  'simhash-zh native': 'simhash-zh native',
  'simhash-zh native forEachWord': 'simhash-zh native forEachWord',
  'simhash-zh js': 'simhash-zh TS engine',
  '@node-rs/jieba': '@node-rs/jieba',
  'jieba-wasm': 'jieba-wasm',
  nodejieba: 'nodejieba',
};
const SEG_ORDER = Object.keys(SEG_LABELS);

function segmentFacts(seg) {
  const results = seg.json.results || [];
  const get = (name, hmm) => results.find((r) => r.name === name && Boolean(r.hmm) === hmm);
  const facts = { get, targets: [] };
  const T = TARGETS.segment;
  const nat = get('simhash-zh native', false);
  const js = get('simhash-zh js', false);
  const rs = get('@node-rs/jieba', false);
  const wasm = get('jieba-wasm', false);
  const add = (target, measured, met) => facts.targets.push({ bench: 'segment', target, measured, met });
  if (nat && rs) add(`native \`cut\` ≥ ${T.nativeVsNodeRs}× @node-rs/jieba (HMM off)`, `${sig(nat.mbps)} vs ${sig(rs.mbps)} MB/s = ${times(nat.mbps / rs.mbps)}`, nat.mbps / rs.mbps >= T.nativeVsNodeRs);
  if (js && wasm) add(`TS engine \`cut\` ≥ ${T.jsVsWasm}× jieba-wasm (HMM off)`, `${sig(js.mbps)} vs ${sig(wasm.mbps)} MB/s = ${times(js.mbps / wasm.mbps)}`, js.mbps / wasm.mbps >= T.jsVsWasm);
  if (nat) add(`native default dictionary ready ≤ ${T.nativeReadyMs} ms`, `${sig(nat.readyMs)} ms`, nat.readyMs <= T.nativeReadyMs);
  if (js) add(`TS default dictionary ready ≤ ${T.jsReadyMs} ms`, `${sig(js.readyMs)} ms`, js.readyMs <= T.jsReadyMs);
  if (nat) add(`native dictionary resident memory ≤ ${T.rssMb} MB`, `${sig(nat.rssMb)} MB`, nat.rssMb <= T.rssMb);
  if (js) add(`TS dictionary resident memory ≤ ${T.rssMb} MB`, `${sig(js.rssMb)} MB`, js.rssMb <= T.rssMb);
  return facts;
}

function segmentSection(seg) {
  const j = seg.json;
  const { get } = segmentFacts(seg);
  const lines = ['## Word segmentation (`bench/segment.js`)', '', provenance(seg), ''];
  lines.push(`Corpus: ${j.corpus.name}: ${num(j.corpus.lines)} lines, ${sig(j.corpus.bytes / 1e6)} MB of UTF-8, cut line by line (every peer returns JS strings). ` +
    `Each case in a fresh process; best of ${j.reps} passes after a warm-up, ${j.rounds} round(s). MB = 10⁶ bytes.`, '');
  const rows = [];
  for (const hmm of [false, true]) {
    const rs = get('@node-rs/jieba', hmm);
    const wasm = get('jieba-wasm', hmm);
    for (const name of SEG_ORDER) {
      const r = get(name, hmm);
      if (!r) continue;
      rows.push([`${SEG_LABELS[name]}, HMM ${hmm ? 'on' : 'off'}`, sig(r.mbps), rs ? times(r.mbps / rs.mbps) : '–', wasm ? times(r.mbps / wasm.mbps) : '–', sig(r.readyMs), sig(r.rssMb), num(r.words)]);
    }
  }
  lines.push(mdTable([
    { title: 'case' }, { title: 'MB/s', align: 'r' }, { title: '× @node-rs/jieba', align: 'r' }, { title: '× jieba-wasm', align: 'r' },
    { title: 'ready ms', align: 'r' }, { title: 'RSS +MB', align: 'r' }, { title: 'words', align: 'r' },
  ], rows));
  lines.push('', '"ready ms": constructing the segmenter with its default dictionary (module already loaded); "RSS +MB": resident memory that adds.');
  if (!(j.results || []).some((r) => r.name === 'nodejieba')) lines.push('nodejieba was not built on this machine (`node bench/segment.js --build-nodejieba` builds it once).');
  return lines.join('\n');
}

function fingerprintConfigs(fp) {
  return Object.keys(fp.json).filter((k) => fp.json[k] && typeof fp.json[k] === 'object' && 'nativeMiBps' in fp.json[k]);
}

function fingerprintFacts(fp) {
  const j = fp.json;
  const T = TARGETS.fingerprint;
  const d = j.default;
  const targets = [];
  const add = (target, measured, met) => targets.push({ bench: 'fingerprint', target, measured, met });
  if (d) {
    add(`default native ≥ ${T.nativeVsJieba}× @node-rs/jieba \`cut\` alone`, `${times(d.nativeVsJieba)}`, d.nativeVsJieba >= T.nativeVsJieba);
    add(`default native titles (≤ 64 chars) ≥ ${num(T.titlesPerSecond)}/s on one core`, `${num(d.titlesPerSecond)}/s`, d.titlesPerSecond >= T.titlesPerSecond);
    add(`\`fingerprintManyAsync\` ≥ ${T.asyncSpeedup}× one core (2 cores)`, `${times(d.asyncSpeedup)}`, d.asyncSpeedup >= T.asyncSpeedup);
    add(`default TS engine ≥ ${T.jsVsSimhashJs}× simhash-js`, `${times(d.jsVsSimhashJs)}`, d.jsVsSimhashJs >= T.jsVsSimhashJs);
  }
  return { targets };
}

function fingerprintSection(fp) {
  const j = fp.json;
  const c = j.corpus || {};
  const lines = ['## Fingerprinting (`bench/fingerprint.js`)', '', provenance(fp), ''];
  lines.push(`Corpus: ${(c.sources || []).map((s) => `\`${path.basename(s)}\``).join(', ')}: ${num(c.documents)} documents (${sig((c.documentBytes || 0) / 1e6)} MB), ` +
    `${num(c.titles)} titles of ≤ 64 characters cut from them${c.distinctTitles && c.distinctTitles < c.titles ? ` (${num(c.distinctTitles)} distinct, repeated for a batch of at least ${num(c.minTitleBatch)})` : ''}. One process; every case runs in ${j.rounds || 3} interleaved rounds, a round's figure is the median of 5 runs (3 for the TS engine), each of at least 20 ms of calls, after a warm-up of at least 0.25 s and 3 calls, and each case keeps its best round. ` +
    'MB = 10⁶ bytes (bench/fingerprint.js prints MiB/s; converted here).', '');
  const rows = [
    ['@node-rs/jieba `cut` (HMM off), no hashing', 'peer', sig(mb(j.jiebaMiBps)), '1.00×', '–', '–', '–', '–'],
    ['simhash-js `hash` (32-bit)', 'peer', sig(mb(j.simhashJsMiBps)), '–', '–', '–', sig(mb(j.simhashJsMiBps)), '1.00×'],
  ];
  for (const name of fingerprintConfigs(fp)) {
    const r = j[name];
    rows.push([name, 'simhash-zh', sig(mb(r.nativeMiBps)), times(r.nativeVsJieba), num(r.titlesPerSecond), `${num(r.asyncTitlesPerSecond)} (${times(r.asyncSpeedup)})`, sig(mb(r.jsMiBps)), times(r.jsVsSimhashJs)]);
  }
  lines.push(mdTable([
    { title: 'pipeline' }, { title: '' }, { title: 'native MB/s', align: 'r' }, { title: '× jieba cut', align: 'r' }, { title: 'titles/s, one core', align: 'r' },
    { title: 'titles/s async, all cores', align: 'r' }, { title: 'TS engine MB/s', align: 'r' }, { title: '× simhash-js', align: 'r' },
  ], rows));
  if (j.paired && j.paired.nativeVsJieba != null) {
    lines.push('', `Paired: each peer and the default pipeline timed alternately, once each, ${j.paired.pairs} times; the median ratio is ` +
      `${times(j.paired.nativeVsJieba)} jieba \`cut\` (native) and ${times(j.paired.jsVsSimhashJs)} simhash-js (TS engine). Load that comes and goes ` +
      'moves it less than the best rounds above, on which the targets are judged.');
  }
  const m = j.mixedText;
  if (m) {
    lines.push('', `Mixed Chinese/English text (TypeScript's zh-CN and zh-TW diagnostic messages, ${num(m.documents)} documents of about 1,500 characters, ` +
      `${sig(m.bytes / 1e6)} MB; no target): the default pipeline, native, ${sig(mb(m.defaultNativeMiBps))} MB/s against jieba \`cut\` ${sig(mb(m.jiebaMiBps))} MB/s, ` +
      `${times(m.defaultNativeVsJieba)}` + (m.pairedDefaultNativeVsJieba != null ? ` (paired ${times(m.pairedDefaultNativeVsJieba)}).` : '.'));
  }
  const e = j.eventLoop;
  if (e && e['native:documents'] != null) {
    const ms = (v) => `${sig(v)} ms`;
    lines.push('', 'The event loop during one `fingerprintManyAsync` batch (the longest gap between the ticks of a 1 ms timer, median of 3 batches; no target): ' +
      `native ${ms(e['native:documents'])} over the documents and ${ms(e['native:titles'])} over the titles; the TS engine, which yields between slices of about 8 ms ` +
      `and never splits a text, ${ms(e['js:documents'])} and ${ms(e['js:titles'])} (the longest document, ${num(e.longestDocumentChars)} characters, takes ${ms(e['js:longestDocument'])} alone).`);
  }
  if (j.machine) lines.push('', `Machine as the benchmark saw it: ${j.machine}.`);
  return lines.join('\n');
}

function methodLabel(m) {
  return m.bits && m.bits !== 64 ? `${m.name} (${m.bits}-bit)` : m.name;
}

function qualitySection(q) {
  const j = q.json;
  const k = j.targets.k;
  const methods = j.methods.filter((m) => m.available);
  const lines = ['## Near-duplicate quality (`bench/quality.js`)', '', provenance(q), ''];
  lines.push('Corpus (real text, pinned registry tarballs):');
  for (const s of j.corpus.sources) lines.push(`- ${s.label}: ${num(s.characters)} characters`);
  lines.push('');
  for (const [set, title] of [['documents', 'Documents'], ['short', 'Short texts']]) {
    const c = j.corpus.sets[set];
    if (c) lines.push(`- ${title} (${c.limits.min}–${c.limits.max} characters): ${c.bases} bases, ${num(c.positives)} positive pairs (one variant per kind of change: ${Object.keys(j.corpus.kinds).join(', ')}), ${num(c.negatives)} negative pairs.`);
  }
  lines.push('', `"Duplicate iff Hamming distance ≤ k"; seed ${j.seed}. A method of another width (simhash-js: 32 bits) is measured at its own width, so its k is not comparable.`, '');
  const at = (m, set) => m.sets[set] && m.sets[set].curve[k];
  const rows = methods.map((m) => {
    const d = at(m, 'documents');
    const s = at(m, 'short');
    const bd = m.sets.documents && m.sets.documents.best;
    const bs = m.sets.short && m.sets.short.best;
    return [methodLabel(m), m.backend,
      d ? sig(d.precision) : '–', d ? sig(d.recall) : '–', d ? d.f1.toFixed(3) : '–', bd ? `${bd.f1.toFixed(3)} (k=${bd.k})` : '–',
      s ? sig(s.precision) : '–', s ? sig(s.recall) : '–', s ? s.f1.toFixed(3) : '–', bs ? `${bs.f1.toFixed(3)} (k=${bs.k})` : '–',
      m.demo ? `${m.demo.text1text2} / ${m.demo.text1text3}` : '–'];
  });
  lines.push(mdTable([
    { title: 'method' }, { title: 'engine' },
    { title: `docs P@${k}`, align: 'r' }, { title: `docs R@${k}`, align: 'r' }, { title: `docs F1@${k}`, align: 'r' }, { title: 'docs best F1', align: 'r' },
    { title: `short P@${k}`, align: 'r' }, { title: `short R@${k}`, align: 'r' }, { title: `short F1@${k}`, align: 'r' }, { title: 'short best F1', align: 'r' },
    { title: 'demo d(1,2) / d(1,3)', align: 'r' },
  ], rows));
  const missing = j.methods.filter((m) => !m.available);
  if (missing.length) lines.push('', `Not available: ${missing.map((m) => `${m.name} (${m.error})`).join('; ')}.`);
  // Recall per kind of change at k.
  for (const [set, title] of [['documents', 'documents'], ['short', 'short texts']]) {
    const c = j.corpus.sets[set];
    if (!c || !methods.some((m) => m.sets[set])) continue;
    lines.push('', `Recall at k = ${k} per kind of change, ${title} [median distance]:`, '');
    const groups = j.corpus.groups || Object.keys(methods[0].sets[set].kinds);
    lines.push(mdTable([{ title: 'kind' }, { title: 'pairs', align: 'r' }, ...methods.map((m) => ({ title: methodLabel(m), align: 'r' }))],
      groups.filter((g) => !g.includes('/')).map((g) => [g, num(c.variantsPerKind[g] || 0), ...methods.map((m) => {
        const s = m.sets[set] && m.sets[set].kinds[g];
        return s && s.count ? `${sig(s.recall[k])} [${s.median}]` : '–';
      })])));
  }
  lines.push('', '![Precision and recall against k, documents](quality-documents.svg)', '', '![Precision and recall against k, short texts](quality-short.svg)');
  lines.push('', `Charts: \`node bench/report.js\` from \`${path.basename(q.file)}\`, produced by \`${q.command}\`.`);
  return lines.join('\n');
}

function qualityTargets(q) {
  const j = q.json;
  const T = j.targets;
  const d = j.methods.find((m) => m.name === 'default' && m.available);
  if (!d) return [{ bench: 'quality', target: 'default pipeline available', measured: 'not available', met: false }];
  const rows = [
    [`documents F1 at k = ${T.k} ≥ ${T.documentsF1AtK}`, 'documentsF1AtK', (v) => v.toFixed(3)],
    [`documents best F1 over k ≥ ${T.documentsBestF1}`, 'documentsBestF1', (v) => v.toFixed(3)],
    [`short texts F1 at k = ${T.k} ≥ ${T.shortF1AtK}`, 'shortF1AtK', (v) => v.toFixed(3)],
    [`demo d(text1, text2) ≤ ${T.demoSimilarMaxDistance}`, 'demoSimilar', String],
    [`demo d(text1, text3) ≥ ${T.demoDistinctMinDistance}`, 'demoDistinct', String],
  ];
  return rows.filter(([, key]) => d.targets[key]).map(([target, key, show]) => ({ bench: 'quality', target: `default: ${target}`, measured: show(d.targets[key].value), met: d.targets[key].met }));
}

function indexFacts(ix) {
  const T = TARGETS.index;
  const targets = [];
  const add = (target, measured, met) => targets.push({ bench: 'index', target, measured, met });
  for (const r of ix.json.results || []) {
    if (r.backend === 'native') {
      add(`native ≥ ${num(T.nativeQps)} queries/s at ${shortNumber(r.n)} entries`, `${num(r.qpsWallMedian)}/s wall (${num(r.qpsCpuMedian)} per CPU s)`, r.qpsWallMedian >= T.nativeQps);
      add(`native ≤ ${T.nativeBytesPerEntry} bytes/entry`, `${sig(r.bytesPerEntryEngine)} held, ${sig(r.bytesPerEntryRss)} RSS`, r.bytesPerEntryEngine <= T.nativeBytesPerEntry && r.bytesPerEntryRss <= T.nativeBytesPerEntry);
      add(`native bulk build of ${shortNumber(r.n)} ≤ ${T.nativeBuildSeconds} s`, `${r.buildSeconds.toFixed(2)} s`, r.buildSeconds <= T.nativeBuildSeconds);
    } else {
      add(`TS ≥ ${num(T.jsQps)} queries/s at ${shortNumber(r.n)} entries`, `${num(r.qpsWallMedian)}/s wall (${num(r.qpsCpuMedian)} per CPU s)`, r.qpsWallMedian >= T.jsQps);
    }
    add(`${r.backend === 'native' ? 'native' : 'TS'}: index answers = brute-force scan`, r.bruteAgrees ? 'equal' : 'DIFFERENT', r.bruteAgrees);
  }
  return { targets };
}

const ENGINE = { native: 'native', js: 'TS engine' };

function indexSection(ix) {
  const j = ix.json;
  const lines = ['## Index (`bench/index.js`)', '', provenance(ix), ''];
  const s = j.settings || {};
  lines.push(`Corpus: ${j.corpus ? `${j.corpus.kind} (${j.corpus.prng}, seed ${j.corpus.seed})` : 'random 64-bit fingerprints'}; k = ${j.k}; ` +
    `${num(s.queries)} queries, half near a stored fingerprint, half random, in batches of ${num(s.batch)}, median of ${s.rounds} rounds; ` +
    `brute force = linear scan over the same memory, same process, same query mix; dedup and cluster over ${num(s.dedupSize)} fingerprints with 10% near copies. Each engine in a fresh process.`, '');
  const rows = (j.results || []).map((r) => [ENGINE[r.backend] || r.backend, num(r.n), `${r.buildSeconds.toFixed(2)} s`, sig(r.bytesPerEntryEngine),
    num(r.qpsWallMedian), num(r.qpsCpuMedian), num(r.singleQps), sig(r.bruteQps), times(r.qpsWallMedian / r.bruteQps),
    `${r.dedupSeconds.toFixed(2)} s`, `${r.clusterSeconds.toFixed(2)} s`, num(r.peakRssMB)]);
  lines.push(mdTable([
    { title: 'engine' }, { title: 'entries', align: 'r' }, { title: 'bulk build', align: 'r' }, { title: 'bytes/entry', align: 'r' },
    { title: 'queryMany q/s', align: 'r' }, { title: 'q per CPU s', align: 'r' }, { title: 'query() q/s', align: 'r' },
    { title: 'brute force q/s', align: 'r' }, { title: '× brute force', align: 'r' }, { title: `dedup ${shortNumber(s.dedupSize || 0)}`, align: 'r' },
    { title: 'cluster', align: 'r' }, { title: 'peak RSS MiB', align: 'r' },
  ], rows));
  if (j.nativeLoadError) lines.push('', `Native engine unavailable in this run: ${j.nativeLoadError}`);
  lines.push('', '![Index: queries per second and build time against a brute-force scan](index.svg)');
  return lines.join('\n');
}

// ---------------------------------------------------------------------------
// Charts.

function qualityCharts(q) {
  const j = q.json;
  const methods = j.methods.filter((m) => m.available);
  const out = {};
  for (const [set, title] of [['documents', 'Documents'], ['short', 'Short texts']]) {
    const c = j.corpus.sets[set];
    const ms = methods.filter((m) => m.sets[set]);
    if (!c || ms.length === 0) continue;
    let extra = 0;
    const series = ms.map((m) => ({
      name: m.name,
      label: methodLabel(m) + (m.name === 'default' ? ' (simhash-zh)' : m.name === 'SimHashChinese' || m.name === 'mysimhash' ? ' preset' : ''),
      color: METHOD_COLORS[m.name] || PALETTE[4 + (extra++ % (PALETTE.length - 4))],
      bold: m.name === 'default',
      curve: m.sets[set].curve,
    }));
    out[`quality-${set}.svg`] = qualityChart({
      title: `${title} (${c.limits.min}–${c.limits.max} characters): precision and recall against k`,
      subtitle: `${c.bases} real-text bases, ${num(c.positives)} near-duplicate pairs, ${num(c.negatives)} different pairs; seed ${j.seed}`,
      series,
      kMax: j.kMax,
      markK: j.targets.k,
      note: [
        `Each pair is called a duplicate iff its Hamming distance ≤ k. 64-bit fingerprints${ms.some((m) => m.bits !== 64) ? '; simhash-js is 32-bit (its k is not comparable)' : ''}.`,
        `Produced by: ${q.command}`,
      ],
    });
  }
  return out;
}

function throughputChart(seg, fp) {
  const sections = [];
  const footer = [];
  if (seg) {
    const { get } = segmentFacts(seg);
    for (const hmm of [false, true]) {
      const rs = get('@node-rs/jieba', hmm);
      const bars = ['simhash-zh native', 'simhash-zh js', '@node-rs/jieba', 'jieba-wasm', 'nodejieba'].map((name) => {
        const r = get(name, hmm);
        if (!r) return null;
        return { label: SEG_LABELS[name], value: r.mbps, ours: name.startsWith('simhash-zh'), note: rs && name !== '@node-rs/jieba' ? `${times(r.mbps / rs.mbps)} @node-rs/jieba` : '' };
      });
      sections.push({ title: `Word segmentation, cut line by line, HMM ${hmm ? 'on' : 'off'}: ${shortCorpus(seg.json.corpus)}`, unit: 'MB/s', scale: 'linear', bars });
    }
    footer.push(`Segmentation: ${seg.command}`);
  }
  if (fp) {
    const j = fp.json;
    const d = j.default || j[fingerprintConfigs(fp)[0]];
    const name = j.default ? 'default' : fingerprintConfigs(fp)[0];
    sections.push({
      title: `Fingerprinting documents, ${name} pipeline: ${(j.corpus.sources || []).map((s) => path.basename(s)).join(', ')} (${sig((j.corpus.documentBytes || 0) / 1e6)} MB)`,
      unit: 'MB/s',
      scale: 'linear',
      bars: [
        d && { label: 'simhash-zh native', value: mb(d.nativeMiBps), ours: true, note: `${times(d.nativeVsJieba)} jieba cut` },
        d && { label: 'simhash-zh TS engine', value: mb(d.jsMiBps), ours: true, note: `${times(d.jsVsSimhashJs)} simhash-js` },
        { label: '@node-rs/jieba cut only (no hashing)', value: mb(j.jiebaMiBps), ours: false },
        { label: 'simhash-js hash (32-bit)', value: mb(j.simhashJsMiBps), ours: false },
      ],
    });
    footer.push(`Fingerprinting: ${fp.command}`);
  }
  if (sections.length === 0) return null;
  return barChart({
    title: 'Throughput against the peers (MB/s of UTF-8 input, higher is better)',
    subtitle: 'Every bar of a section measured in the same run on the same corpus; MB = 10⁶ bytes.',
    sections,
    footer,
  });
}

/** "Debian manpages-zh 1.6.4 (…)" → "Debian manpages-zh 1.6.4 (12.0 MB)". */
function shortCorpus(corpus) {
  let name = corpus.name.replace(/\s*\(.*$/, '');
  if (name.length > 50) name = `${name.slice(0, 49)}…`;
  return `${name} (${sig(corpus.bytes / 1e6)} MB)`;
}

function indexChart(ix) {
  const results = ix.json.results || [];
  if (results.length === 0) return null;
  const qps = [];
  const total = [];
  const secs = [];
  const engineOf = (r) => ENGINE[r.backend] || r.backend;
  for (const r of results) {
    const e = engineOf(r);
    const n = shortNumber(r.n);
    qps.push({ label: `${e}, index queryMany (${n})`, value: r.qpsWallMedian, ours: true, note: `${times(r.qpsWallMedian / r.bruteQps)} brute force` });
    qps.push({ label: `${e}, index query() each (${n})`, value: r.singleQps, ours: true });
    qps.push({ label: `${e}, brute-force scan (${n})`, value: r.bruteQps, ours: false });
  }
  for (const r of results) {
    const e = engineOf(r);
    const indexSeconds = r.buildSeconds + r.queries / r.qpsWallMedian;
    const bruteSeconds = r.queries / r.bruteQps;
    total.push({ label: `${e}, index: build ${shortNumber(r.n)} + queries`, value: indexSeconds, ours: true, note: `${times(bruteSeconds / indexSeconds)} faster` });
    total.push({ label: `${e}, brute-force scan: queries`, value: bruteSeconds, ours: false, note: `from ${r.bruteCount} timed queries` });
  }
  for (const r of results) {
    const e = engineOf(r);
    secs.push({ label: `${e}, dedup (${shortNumber(r.dedupSize)})`, value: r.dedupSeconds, ours: true });
    secs.push({ label: `${e}, cluster (${shortNumber(r.dedupSize)})`, value: r.clusterSeconds, ours: true });
  }
  const queries = results[0].queries;
  return barChart({
    title: `SimHashIndex against a brute-force scan (64-bit, k = ${ix.json.k})`,
    subtitle: 'Random 64-bit fingerprints; half the queries near a stored one. Each engine in a fresh process, wall time.',
    sections: [
      { title: 'Queries per second (higher is better)', unit: 'queries/s', scale: 'log', bars: qps },
      { title: `Seconds to build and answer ${shortNumber(queries)} queries (lower is better)`, unit: 's', scale: 'log', bars: total },
      { title: 'Seconds for dedup and cluster, end to end (lower is better)', unit: 's', scale: 'linear', bars: secs },
    ],
    footer: [
      'A brute-force scan needs no build; its time for all the queries is projected from the queries it was timed on.',
      `Produced by: ${ix.command}`,
    ],
  });
}

// ---------------------------------------------------------------------------
// The report.

function machineLine(data) {
  const m = (data.run.last && data.run.last.machine) || Object.values(data.run.benchmarks || {}).map((b) => b.machine).find(Boolean);
  if (m) return `${m.cores} × ${m.cpu}, ${m.memoryGiB} GiB RAM, Node ${m.node}, ${m.platform}${m.kernel ? ` (kernel ${m.kernel})` : ''}`;
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0] ? cpus[0].model.trim() : 'unknown CPU'}, ${sig(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${os.platform()}-${os.arch()} (machine running the report; no run.json)`;
}

function headline(data) {
  const rows = [];
  const { segment: seg, fingerprint: fp, quality: q, index: ix } = data;
  if (seg) {
    const { get } = segmentFacts(seg);
    const T = TARGETS.segment;
    const nat = get('simhash-zh native', false);
    const js = get('simhash-zh js', false);
    const rs = get('@node-rs/jieba', false);
    const wasm = get('jieba-wasm', false);
    if (nat && rs) rows.push(['Word segmentation, native `cut` (HMM off)', `${sig(nat.mbps)} MB/s`, `@node-rs/jieba ${sig(rs.mbps)} MB/s`, times(nat.mbps / rs.mbps), `≥ ${T.nativeVsNodeRs}×: ${status(nat.mbps / rs.mbps >= T.nativeVsNodeRs)}`]);
    if (js && wasm) rows.push(['Word segmentation, TS engine `cut` (HMM off)', `${sig(js.mbps)} MB/s`, `jieba-wasm ${sig(wasm.mbps)} MB/s`, times(js.mbps / wasm.mbps), `≥ ${T.jsVsWasm}×: ${status(js.mbps / wasm.mbps >= T.jsVsWasm)}`]);
    if (nat && js && rs) rows.push(['Dictionary ready to use, native / TS', `${sig(nat.readyMs)} / ${sig(js.readyMs)} ms`, `@node-rs/jieba ${sig(rs.readyMs)} ms`, times(rs.readyMs / nat.readyMs) + ' faster', `≤ ${T.nativeReadyMs} / ${T.jsReadyMs} ms: ${status(nat.readyMs <= T.nativeReadyMs && js.readyMs <= T.jsReadyMs)}`]);
  }
  if (fp && fp.json.default) {
    const d = fp.json.default;
    const T = TARGETS.fingerprint;
    rows.push(['Fingerprint, default pipeline, native', `${sig(mb(d.nativeMiBps))} MB/s`, `@node-rs/jieba \`cut\` alone ${sig(mb(fp.json.jiebaMiBps))} MB/s`, times(d.nativeVsJieba), `≥ ${T.nativeVsJieba}×: ${status(d.nativeVsJieba >= T.nativeVsJieba)}`]);
    rows.push(['Fingerprint, default pipeline, TS engine', `${sig(mb(d.jsMiBps))} MB/s`, `simhash-js ${sig(mb(fp.json.simhashJsMiBps))} MB/s`, times(d.jsVsSimhashJs), `≥ ${T.jsVsSimhashJs}×: ${status(d.jsVsSimhashJs >= T.jsVsSimhashJs)}`]);
    const m = fp.json.mixedText;
    if (m) rows.push(['Fingerprint, mixed Chinese/English text, native', `${sig(mb(m.defaultNativeMiBps))} MB/s`, `@node-rs/jieba \`cut\` alone ${sig(mb(m.jiebaMiBps))} MB/s`, times(m.defaultNativeVsJieba), '–']);
    rows.push(['Titles (≤ 64 chars) fingerprinted, native, one core', `${num(d.titlesPerSecond)}/s`, '–', '–', `≥ ${num(T.titlesPerSecond)}/s: ${status(d.titlesPerSecond >= T.titlesPerSecond)}`]);
  }
  if (q) {
    const j = q.json;
    const k = j.targets.k;
    const d = j.methods.find((m) => m.name === 'default' && m.available);
    const others = j.methods.filter((m) => m.available && m.name !== 'default');
    for (const [set, title, target] of [['documents', 'documents', j.targets.documentsF1AtK], ['short', 'short texts', j.targets.shortF1AtK]]) {
      if (!d || !d.sets[set]) continue;
      const f1 = d.sets[set].curve[k].f1;
      const peers = others.filter((m) => m.sets[set]).map((m) => `${methodLabel(m)} ${m.sets[set].curve[k].f1.toFixed(3)}`).join(', ');
      const best = Math.max(...others.filter((m) => m.sets[set]).map((m) => m.sets[set].curve[k].f1));
      const c = j.corpus.sets[set];
      rows.push([`Near-duplicate F1 at k = ${k}, ${title} (${c.limits.min}–${c.limits.max} chars)`, f1.toFixed(3), peers || '–', Number.isFinite(best) ? `${f1 - best >= 0 ? '+' : ''}${(f1 - best).toFixed(3)} vs best other` : '–', `≥ ${target.toFixed(2)}: ${status(f1 >= target)}`]);
    }
  }
  if (ix) {
    const T = TARGETS.index;
    for (const r of ix.json.results || []) {
      const target = r.backend === 'native' ? T.nativeQps : T.jsQps;
      rows.push([`Index queries, ${ENGINE[r.backend] || r.backend}, ${shortNumber(r.n)} entries, k = ${ix.json.k}`, `${num(r.qpsWallMedian)}/s`, `brute-force scan ${sig(r.bruteQps)}/s`, times(r.qpsWallMedian / r.bruteQps), `≥ ${num(target)}/s: ${status(r.qpsWallMedian >= target)}`]);
    }
  }
  if (rows.length === 0) return '_No results yet: run `npm run bench`._';
  return mdTable([{ title: 'Measure' }, { title: 'simhash-zh', align: 'r' }, { title: 'Peer, same run' }, { title: 'Ratio', align: 'r' }, { title: 'Target' }], rows);
}

function buildReport(data, charts) {
  const { segment: seg, fingerprint: fp, quality: q, index: ix } = data;
  const last = data.run.last;
  const lines = ['# simhash-zh benchmark report', ''];
  lines.push(`Generated ${new Date().toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')} by \`node bench/report.js\`${last ? ` after \`${last.command}\` (${(last.seconds / 60).toFixed(1)} min${last.quick ? ', **--quick sizes: not figures to publish**' : ''})` : ''}.`, '');
  lines.push(`- **Machine:** ${machineLine(data)}.`);
  if (last && last.loadAverage) lines.push(`- **Load average** (1/5/15 min) at start ${last.loadAverage.start.map((x) => x.toFixed(2)).join(' ')}, at end ${last.loadAverage.end.map((x) => x.toFixed(2)).join(' ')}. The machine is shared and noisy: compare the ratios against peers measured in the same run rather than absolute figures across runs.`);
  lines.push(`- **Corpora:** segmentation: ${seg ? seg.json.corpus.name : 'not run'}; fingerprinting: ${fp ? (fp.json.corpus.sources || []).map((s) => `\`${path.basename(s)}\``).join(', ') : 'not run'}; quality: ${q ? q.json.corpus.sources.map((s) => s.label).join('; ') : 'not run'}; index: ${ix ? 'random 64-bit fingerprints (seeded)' : 'not run'}.`);
  const builds = new Set(['segment', 'fingerprint', 'quality', 'index'].filter((n) => data[n]).map((n) => (data[n].addon && data[n].addon.built) || '?'));
  if (last && last.addon) {
    lines.push(`- **Native addon:** \`${last.addon.file}\`${last.addon.built ? ` built ${last.addon.built.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}` : ''}, copied at the start of a run so that the run measures one build` +
      (builds.size > 1 ? '; **the figures below come from more than one run and build** (each section says which).' : '.'));
  }
  if (last && last.nativeEngine && last.nativeEngine !== 'loaded') lines.push(`- **The native engine did not load in this run:** ${last.nativeEngine}. Its figures are missing or stale.`);
  lines.push('- **Each benchmark ran in a fresh Node process**, one after the other; the command under each heading reproduces its figures.');
  lines.push('', '## Headline', '', headline(data), '');
  lines.push('![Throughput against the peers](throughput.svg)', '');
  const targets = [
    ...(seg ? segmentFacts(seg).targets : []),
    ...(fp ? fingerprintFacts(fp).targets : []),
    ...(q ? qualityTargets(q) : []),
    ...(ix ? indexFacts(ix).targets : []),
  ];
  const met = targets.filter((t) => t.met).length;
  lines.push('## Targets', '', `${met} of ${targets.length} met.`, '');
  lines.push(mdTable([{ title: 'benchmark' }, { title: 'target' }, { title: 'measured' }, { title: '' }], targets.map((t) => [t.bench, t.target, t.measured, status(t.met)])), '');
  for (const [d, section, name] of [[seg, segmentSection, 'segment'], [fp, fingerprintSection, 'fingerprint'], [q, qualitySection, 'quality'], [ix, indexSection, 'index']]) {
    if (d) lines.push(section(d), '');
    else lines.push(`## ${name}`, '', `Not run yet: \`npm run bench -- --only ${name}\`.`, '');
    if ((name === 'fingerprint' || name === 'segment') && d) lines.push('Chart: [`throughput.svg`](throughput.svg) (under Headline).', '');
  }
  lines.push('## Charts', '');
  for (const [file, from] of Object.entries(charts)) lines.push(`- [\`${file}\`](${file}): ${from}`);
  lines.push('', '## Reproduce', '', '```sh', 'npm run build            # native addon, TS engine, dictionary', 'npm run bench            # all four benchmarks, this report and the charts (about 10 min)',
    'npm run bench -- --only quality,index --quick   # a subset, smaller sizes', 'node bench/report.js     # the report again from bench/results/*.json', '```', '');
  return lines.join('\n');
}

/** Writes REPORT.md and the charts; returns the files written. */
function writeReport({ dir = DEFAULT_DIR, out = dir } = {}) {
  const data = load(dir);
  fs.mkdirSync(out, { recursive: true });
  const files = {};
  const from = {};
  if (data.quality) {
    for (const [file, svg] of Object.entries(qualityCharts(data.quality))) (files[file] = svg), (from[file] = `\`${data.quality.command}\``);
  }
  const tp = throughputChart(data.segment, data.fingerprint);
  if (tp) (files['throughput.svg'] = tp), (from['throughput.svg'] = [data.segment, data.fingerprint].filter(Boolean).map((d) => `\`${d.command}\``).join(' and '));
  const ix = data.index && indexChart(data.index);
  if (ix) (files['index.svg'] = ix), (from['index.svg'] = `\`${data.index.command}\``);
  files['REPORT.md'] = buildReport(data, from);
  const written = [];
  for (const [name, body] of Object.entries(files)) {
    const file = path.join(out, name);
    fs.writeFileSync(file, body);
    written.push(file);
  }
  return written;
}

function main(argv) {
  let dir = DEFAULT_DIR;
  let out = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dir' && argv[i + 1]) dir = path.resolve(argv[++i]);
    else if (argv[i] === '--out' && argv[i + 1]) out = path.resolve(argv[++i]);
    else if (argv[i] === '-h' || argv[i] === '--help') {
      console.log('usage: node bench/report.js [--dir DIR (default bench/results)] [--out DIR (default --dir)]');
      return 0;
    } else {
      console.error(`unknown argument '${argv[i]}'\nusage: node bench/report.js [--dir DIR] [--out DIR]`);
      return 2;
    }
  }
  const written = writeReport({ dir, out: out || dir });
  for (const file of written) console.log(`written: ${path.relative(process.cwd(), file) || file}`);
  return 0;
}

module.exports = { writeReport, buildReport, qualityChart, barChart, load, TARGETS };

if (require.main === module) process.exitCode = main(process.argv.slice(2));

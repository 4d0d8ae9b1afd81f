'use strict';
// Near-duplicate variants of a base text, the kinds a crawler meets. Each variant
// applies exactly one kind of change; a kind that cannot apply to a base (no
// sentence short enough to delete, no punctuation to change, ...) is skipped for
// that base and counted.
const { rngFor } = require('./prng');
const { splitUnits } = require('./corpus');
const boilerplate = require('./boilerplate');

const KINDS = ['boilerplate', 'html', 'punct', 'width', 'delete', 'insert', 'swap', 'typo'];

/** Boilerplate variants are split evenly over three placements, reported separately too. */
const BOILERPLATE_PLACEMENTS = ['header', 'footer', 'header+footer'];

const KIND_DESCRIPTIONS = {
  boilerplate: 'site boilerplate as a header, a footer or both (1/3 each): crumbs, source/author/date, editor, ' +
    'copyright/ICP, disclaimer, URLs, follow/share lines (1-3 lines each); for short texts a short prefix/suffix',
  html: 'HTML page: <p>/<div class>, <br>, <span>/<strong>, comments, <script>/<style> bodies, entities (&nbsp; &amp; &#12290; &ldquo; ...)',
  punct: 'Chinese punctuation -> ASCII (60%), dropped (10%) or another mark (10%); ASCII after CJK -> Chinese',
  width: 'full-/half-width swap: U+FF01-FF5E <-> ASCII, U+3000 <-> space',
  delete: 'one sentence deleted (clause in a one-sentence short text), at most 1/4 of the length',
  insert: "one sentence of another base inserted, at most 1/4 of the base's length",
  swap: 'two sentences (clauses in a one-sentence short text) swapped',
  typo: '~1% of characters mistyped: a frequent corpus character or a Unicode neighbour (±1-2, same radical block)',
};

/** Longest sentence that delete/insert may move, as a fraction of the base's length. */
const EDIT_FRACTION = 0.25;
const TYPO_RATE = 0.01;

const isCjk = (ch) => ch >= '\u4e00' && ch <= '\u9fff';

/**
 * Sentence units of a text (clauses when a short text has a single sentence), each split
 * into its body and trailing whitespace, so swapping bodies keeps the paragraph breaks.
 */
function unitsOf(text, set) {
  let pieces = splitUnits(text, 'sentence');
  if (set === 'short' && pieces.filter((p) => p.trim()).length < 2) pieces = splitUnits(text, 'clause');
  const units = [];
  for (const piece of pieces) {
    const m = /^([\s\S]*?)([\s\u3000]*)$/.exec(piece);
    if (m[1] === '' && units.length > 0) units[units.length - 1].tail += m[2];
    else units.push({ body: m[1], tail: m[2] });
  }
  return units;
}

const joinUnits = (units) => units.map((u) => u.body + u.tail).join('');

// ---- boilerplate ----------------------------------------------------------

function withBoilerplate(text, set, rng, header, footer) {
  if (set === 'documents') {
    return (header ? boilerplate.documentHeader(rng) + '\n' : '') + text + (footer ? '\n' + boilerplate.documentFooter(rng) : '');
  }
  return (header ? boilerplate.shortHeader(rng) : '') + text + (footer ? boilerplate.shortFooter(rng) : '');
}

// ---- HTML -----------------------------------------------------------------

const ENTITY_CHOICES = {
  '。': [0.3, '&#12290;'],
  '，': [0.1, '&#65292;'],
  '“': [0.5, '&ldquo;'],
  '”': [0.5, '&rdquo;'],
  '‘': [0.5, '&lsquo;'],
  '’': [0.5, '&rsquo;'],
  '—': [0.5, '&mdash;'],
  '…': [0.5, '&hellip;'],
  '·': [0.5, '&middot;'],
  '　': [0.5, '&#12288;'],
  ' ': [0.5, '&nbsp;'],
  '"': [0.5, '&quot;'],
};

/** Escapes text for HTML, replacing some characters by character references. */
function toHtmlText(text, rng) {
  let out = '';
  for (const ch of text) {
    if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ENTITY_CHOICES[ch] && rng.chance(ENTITY_CHOICES[ch][0])) out += ENTITY_CHOICES[ch][1];
    else if (isCjk(ch) && rng.chance(0.003)) out += `&#x${ch.codePointAt(0).toString(16).toUpperCase()};`;
    else out += ch;
  }
  return out;
}

function styleBlock(rng) {
  return rng.pick([
    () => `<style type="text/css">body{font-family:"PingFang SC","Microsoft YaHei",sans-serif;line-height:1.8;color:#${rng.hex(3)}}.article p{text-indent:2em;margin:0 0 1em}.share-box{display:none}</style>`,
    () => `<style>\n  .content{font-size:16px;padding:0 ${rng.range(8, 24)}px}\n  .content p{margin:12px 0}\n  a{color:#${rng.hex(6)};text-decoration:none}\n</style>`,
    () => `<style>#main-${rng.hex(4)} .title{font-weight:bold} .footer,.nav{background:#f5f5f5}</style>`,
  ])();
}

function scriptBlock(rng) {
  return rng.pick([
    () => `<script>var _hmt=_hmt||[];(function(){var hm=document.createElement("script");hm.src="https://hm.baidu.com/hm.js?${rng.hex(32)}";var s=document.getElementsByTagName("script")[0];s.parentNode.insertBefore(hm,s);})();</script>`,
    () => `<script type="text/javascript">\n  var shareConfig = { title: "分享到朋友圈", desc: "点击阅读全文", id: ${rng.range(100000, 9999999)} };\n  if (window.innerWidth < 768) { document.body.className += " mobile"; }\n</script>`,
    () => `<script>window.__INITIAL_STATE__={"articleId":"${rng.hex(12)}","channel":"新闻","tips":"请在浏览器中打开","comments":${rng.range(0, 999)}};</script>`,
    () => `<script src="https://static.${rng.pick(['example-cdn', 'assets'])}.com/js/app.${rng.hex(8)}.js?v=${rng.digits(3)}&amp;t=${rng.digits(10)}"></script>`,
  ])();
}

const PARAGRAPH_TAGS = [
  ['<p>', '</p>'],
  ['<p style="text-indent:2em;">', '</p>'],
  ['<div class="para">', '</div>'],
  ['<p class="text">', '</p>'],
  ['<section><p>', '</p></section>'],
];

/** One paragraph's sentences, with occasional <br> and inline markup. */
function htmlParagraph(paragraph, rng) {
  const sentences = splitUnits(paragraph, 'sentence');
  const styled = rng.chance(0.25) ? rng.int(sentences.length) : -1;
  let body = '';
  sentences.forEach((sentence, i) => {
    let html = toHtmlText(sentence, rng);
    if (i === styled) {
      html = rng.pick([
        (h) => `<strong>${h}</strong>`,
        (h) => `<span style="color:#${rng.hex(6)};">${h}</span>`,
        (h) => `<b>${h}</b>`,
        (h) => `<font face="宋体">${h}</font>`,
      ])(html);
    }
    if (i > 0 && rng.chance(0.1)) body += rng.pick(['<br>', '<br/>', '<br />\n']);
    body += html;
  });
  return body;
}

function htmlDocument(text, rng) {
  const indent = rng.chance(0.5) ? '\n    ' : '';
  const parts = [];
  parts.push('<!DOCTYPE html>\n<html lang="zh-CN">\n<head>\n<meta charset="utf-8">');
  parts.push('<meta name="viewport" content="width=device-width, initial-scale=1.0">');
  parts.push(styleBlock(rng));
  parts.push(scriptBlock(rng));
  parts.push('</head>\n<body>');
  parts.push(`<div class="${rng.pick(['article-content', 'content', 'TRS_Editor', 'rich_media_content'])}" id="${rng.pick(['artibody', 'js_content', 'main', 'content'])}">`);
  if (rng.chance(0.5)) parts.push('<!-- 正文开始 -->');
  for (const paragraph of text.split('\n')) {
    const [open, close] = rng.pick(PARAGRAPH_TAGS);
    parts.push(indent + open + htmlParagraph(paragraph, rng) + close);
    if (rng.chance(0.05)) parts.push(`<img src="https://img.example.com/${rng.hex(12)}.jpg?w=640&amp;h=${rng.range(300, 480)}" alt="">`);
  }
  parts.push('<p>&nbsp;</p>');
  if (rng.chance(0.5)) parts.push('<!-- 正文结束 -->');
  parts.push('</div>');
  parts.push(scriptBlock(rng));
  parts.push('</body>\n</html>');
  return parts.join('\n');
}

function htmlShort(text, rng) {
  const clauses = splitUnits(text, 'clause');
  const br = clauses.length > 1 && rng.chance(0.3) ? 1 + rng.int(clauses.length - 1) : -1;
  let body = clauses.map((c, i) => (i === br ? '<br>' : '') + toHtmlText(c, rng)).join('');
  if (!body.includes('&')) {
    // at least one character reference: a CJK character or punctuation mark in decimal form
    const spots = [...body.matchAll(/[\u3000-\u303f\u4e00-\u9fff\uff01-\uff5e]/g)];
    if (spots.length > 0) {
      const { index } = rng.pick(spots);
      body = body.slice(0, index) + `&#${body.codePointAt(index)};` + body.slice(index + 1);
    }
  }
  const [open, close] = rng.pick([
    ['<div class="comment-content"><p>', '</p></div>'],
    ['<span class="content">', '</span>'],
    ['<p>', '</p>'],
    ['<div class="weibo-text">', '&nbsp;</div>'],
    ['<li class="item"><a href="/item?id=1&amp;from=list">', '</a></li>'],
  ]);
  let html = open + body + close;
  if (rng.chance(0.5)) html = styleBlock(rng) + '\n' + html + '\n' + scriptBlock(rng);
  return html;
}

// ---- punctuation and width ------------------------------------------------

const PUNCT_TO_ASCII = {
  '，': ',', '。': '.', '：': ':', '；': ';', '！': '!', '？': '?', '“': '"', '”': '"', '‘': "'", '’': "'",
  '（': '(', '）': ')', '、': ',', '《': '"', '》': '"', '【': '[', '】': ']', '—': '-', '…': '...',
  '「': '"', '」': '"', '『': '"', '』': '"', '～': '~', '·': '.',
};
const PUNCT_SWAPS = {
  '，': ['、', '；', '。'], '。': ['！', '；', '，'], '！': ['。', '？'], '？': ['。', '！'], '；': ['，', '。'],
  '：': ['，'], '、': ['，'], '“': ['「'], '”': ['」'], '‘': ['『'], '’': ['』'], '《': ['“'], '》': ['”'],
  '（': ['【'], '）': ['】'], '—': ['－'], '…': ['。'],
};
const ASCII_TO_PUNCT = { ',': '，', '.': '。', ':': '：', ';': '；', '!': '！', '?': '？', '(': '（', ')': '）' };

function changePunctuation(text, rng) {
  const chars = [...text];
  let out = '';
  chars.forEach((ch, i) => {
    if (PUNCT_TO_ASCII[ch] !== undefined) {
      const u = rng.next();
      if (u < 0.6) out += PUNCT_TO_ASCII[ch];
      else if (u < 0.7) out += '';
      else if (u < 0.8) out += rng.pick(PUNCT_SWAPS[ch] || [ch]);
      else out += ch;
    } else if (ASCII_TO_PUNCT[ch] !== undefined && i > 0 && isCjk(chars[i - 1]) && rng.chance(0.6)) {
      out += ASCII_TO_PUNCT[ch];
    } else {
      out += ch;
    }
  });
  return out;
}

/** Swaps widths: full-width forms U+FF01–FF5E and U+3000 to ASCII, ASCII to full-width. */
function swapWidth(text) {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0);
    if (c >= 0xff01 && c <= 0xff5e) out += String.fromCharCode(c - 0xfee0);
    else if (c === 0x3000) out += ' ';
    else if (c >= 0x21 && c <= 0x7e) out += String.fromCharCode(c + 0xfee0);
    else if (c === 0x20) out += '\u3000';
    else out += ch;
  }
  return out;
}

// ---- sentence edits -------------------------------------------------------

function deleteSentence(text, set, rng) {
  const units = unitsOf(text, set);
  const limit = text.length * EDIT_FRACTION;
  const candidates = [];
  units.forEach((u, i) => {
    if (u.body.trim().length >= 2 && u.body.length <= limit) candidates.push(i);
  });
  if (units.length < 2 || candidates.length === 0) return null;
  const i = rng.pick(candidates);
  const out = units.slice();
  out[i] = { body: '', tail: out[i].tail };
  return joinUnits(out);
}

function swapSentences(text, set, rng) {
  const units = unitsOf(text, set);
  const candidates = units.map((u, i) => i).filter((i) => units[i].body.trim().length > 0);
  if (candidates.length < 2) return null;
  for (let attempt = 0; attempt < 20; attempt++) {
    const [i, j] = rng.sample(candidates, 2);
    if (units[i].body === units[j].body) continue;
    const out = units.map((u) => ({ ...u }));
    out[i].body = units[j].body;
    out[j].body = units[i].body;
    return joinUnits(out);
  }
  return null;
}

function insertSentence(text, set, rng, bases, self) {
  if (bases.length < 2) return null;
  const limit = text.length * EDIT_FRACTION;
  for (let attempt = 0; attempt < 30; attempt++) {
    let donor = rng.int(bases.length - 1);
    if (donor >= self) donor++;
    const candidates = unitsOf(bases[donor].text, set).filter((u) => u.body.trim().length >= 2 && u.body.length <= limit);
    if (candidates.length === 0) continue;
    const inserted = rng.pick(candidates).body.replace(/^[\s\u3000]+/, '');
    const units = unitsOf(text, set);
    const at = rng.int(units.length + 1);
    const out = units.slice();
    out.splice(at, 0, { body: inserted, tail: '' });
    return joinUnits(out);
  }
  return null;
}

// ---- typos ----------------------------------------------------------------

/** The most frequent CJK characters of a set, most frequent first. */
function frequentCharacters(bases, count = 1000) {
  const freq = new Map();
  for (const { text } of bases) for (const ch of text) if (isCjk(ch)) freq.set(ch, (freq.get(ch) || 0) + 1);
  return [...freq.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, count).map(([ch]) => ch);
}

function mistype(text, rng, common) {
  const chars = [...text];
  let positions = [];
  chars.forEach((ch, i) => {
    if (isCjk(ch)) positions.push(i);
  });
  if (positions.length === 0) {
    // text without CJK (a user corpus may have some): a letter becomes its neighbour
    chars.forEach((ch, i) => {
      if (/[a-zA-Z]/.test(ch)) positions.push(i);
    });
    if (positions.length === 0) return null;
    const n = Math.max(1, Math.round(chars.length * TYPO_RATE));
    for (const i of rng.sample(positions, n)) chars[i] = String.fromCharCode(chars[i].charCodeAt(0) ^ 1);
    return chars.join('');
  }
  const n = Math.max(1, Math.round(chars.length * TYPO_RATE));
  for (const i of rng.sample(positions, n)) {
    const original = chars[i];
    let replacement = original;
    for (let attempt = 0; attempt < 10 && replacement === original; attempt++) {
      if (common.length > 1 && rng.chance(0.5)) {
        replacement = rng.pick(common);
      } else {
        const cp = original.codePointAt(0) + (rng.chance(0.5) ? 1 : -1) * rng.range(1, 2);
        if (cp >= 0x4e00 && cp <= 0x9fff) replacement = String.fromCodePoint(cp);
      }
    }
    chars[i] = replacement;
  }
  return chars.join('');
}

// ---- driver ---------------------------------------------------------------

/** Groups that recall is reported for: each kind, and boilerplate by placement. */
function reportGroups(kinds = KINDS) {
  const groups = [];
  for (const kind of kinds) {
    groups.push(kind);
    if (kind === 'boilerplate') for (const p of BOILERPLATE_PLACEMENTS) groups.push(`${kind}/${p}`);
  }
  return groups;
}

/** One variant of `text`: a string, { text, detail }, or null where the kind does not apply. */
function makeVariant(kind, text, ctx) {
  const { set, rng } = ctx;
  switch (kind) {
    case 'boilerplate': {
      const detail = ctx.placement || BOILERPLATE_PLACEMENTS[rng.int(BOILERPLATE_PLACEMENTS.length)];
      return { text: withBoilerplate(text, set, rng, detail !== 'footer', detail !== 'header'), detail };
    }
    case 'html': return set === 'documents' ? htmlDocument(text, rng) : htmlShort(text, rng);
    case 'punct': return changePunctuation(text, rng);
    case 'width': return swapWidth(text);
    case 'delete': return deleteSentence(text, set, rng);
    case 'insert': return insertSentence(text, set, rng, ctx.bases, ctx.index);
    case 'swap': return swapSentences(text, set, rng);
    case 'typo': return mistype(text, rng, ctx.common);
    default: throw new RangeError(`unknown variant kind '${kind}'; valid kinds are ${KINDS.join(', ')}`);
  }
}

/**
 * Variants of every base of a set: one per (base, kind) where the kind applies.
 * Returns { variants: [{ base, kind, detail?, text }], skipped: { kind: count } }.
 * Boilerplate placements rotate over the bases in a seeded order, so each gets a third.
 */
function makeVariants(set, bases, { seed = 1, kinds = KINDS } = {}) {
  const common = frequentCharacters(bases);
  const variants = [];
  const skipped = Object.fromEntries(kinds.map((k) => [k, 0]));
  const offset = rngFor(seed, 'placement', set).int(BOILERPLATE_PLACEMENTS.length);
  bases.forEach((base, index) => {
    const placement = BOILERPLATE_PLACEMENTS[(index + offset) % BOILERPLATE_PLACEMENTS.length];
    for (const kind of kinds) {
      const rng = rngFor(seed, 'variant', set, index, kind);
      const made = makeVariant(kind, base.text, { set, rng, bases, index, common, placement });
      const text = made !== null && typeof made === 'object' ? made.text : made;
      if (text === null || text === base.text) skipped[kind]++;
      else if (typeof made === 'object') variants.push({ base: index, kind, detail: made.detail, text });
      else variants.push({ base: index, kind, text });
    }
  });
  return { variants, skipped };
}

module.exports = {
  KINDS,
  BOILERPLATE_PLACEMENTS,
  KIND_DESCRIPTIONS,
  EDIT_FRACTION,
  TYPO_RATE,
  unitsOf,
  changePunctuation,
  swapWidth,
  htmlDocument,
  htmlShort,
  frequentCharacters,
  makeVariant,
  makeVariants,
  reportGroups,
};

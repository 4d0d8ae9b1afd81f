'use strict';
// Chinese text nobody here wrote, read the same way by the segmentation benchmark
// (bench/segment.js) and the segmenter's agreement test (test/segmenter.test.js):
// Debian's Chinese man pages (package manpages-zh, when installed), nodejieba's test
// data and TypeScript's Chinese diagnostics. Each caller cuts the text into lines
// its own way (the test's line numbers are pinned in test/fixtures/jieba-differences.json).
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { nodejiebaFiles } = require('../scripts/dict/sources');

const MAN_DIRS = ['/usr/share/man/zh_CN', '/usr/share/man/zh_TW'];

/**
 * Every zh_CN and zh_TW man page installed, as decompressed troff source, in a fixed
 * order (folder, section, file name); `dirs`: the folders that exist.
 */
function manPages() {
  const dirs = [];
  const pages = [];
  for (const dir of MAN_DIRS) {
    if (!fs.existsSync(dir)) continue;
    dirs.push(dir);
    for (const section of fs.readdirSync(dir).sort()) {
      const sub = path.join(dir, section);
      if (!fs.statSync(sub).isDirectory()) continue;
      for (const file of fs.readdirSync(sub).sort()) {
        if (!file.endsWith('.gz')) continue;
        try {
          pages.push(zlib.gunzipSync(fs.readFileSync(path.join(sub, file))).toString('utf8'));
        } catch {
          // a symlink to a missing page: skip it
        }
      }
    }
  }
  return { dirs, pages };
}

const GETTEXT_DIR = '/usr/share/locale/zh_CN/LC_MESSAGES';

/**
 * The distinct translations (msgstr) in every zh_CN gettext catalog installed, whitespace
 * collapsed, of 10-400 characters with at least 6 ideographs (UI messages, mostly short), in
 * code-unit order; [] when none are installed. Read straight from the .mo files' tables.
 */
function gettextMessages(dir = GETTEXT_DIR) {
  if (!fs.existsSync(dir)) return [];
  const messages = new Set();
  for (const file of fs.readdirSync(dir).sort()) {
    if (!file.endsWith('.mo')) continue;
    const b = fs.readFileSync(path.join(dir, file));
    if (b.length < 20) continue;
    const little = b.readUInt32LE(0) === 0x950412de;
    const u32 = (at) => (little ? b.readUInt32LE(at) : b.readUInt32BE(at));
    const count = u32(8);
    const translations = u32(16);
    for (let i = 0; i < count && translations + 8 * i + 8 <= b.length; i++) {
      const length = u32(translations + 8 * i);
      const offset = u32(translations + 8 * i + 4);
      if (offset + length > b.length) continue;
      for (const form of b.toString('utf8', offset, offset + length).split('\0')) {
        const text = form.split(/\s+/).filter(Boolean).join(' ');
        const ideographs = (text.match(/[\u4e00-\u9fff]/g) || []).length;
        if (text.length >= 10 && text.length <= 400 && ideographs >= 6 && !text.includes('Content-Type')) messages.add(text);
      }
    }
  }
  return [...messages].sort();
}

/** One of nodejieba's test files (weicheng.utf8, review.100, testlines.utf8) as text. */
function nodejiebaText(name) {
  return fs.readFileSync(nodejiebaFiles()[name], 'utf8');
}

/** TypeScript's zh-cn and zh-tw diagnostic messages. */
function typescriptDiagnostics() {
  return ['zh-cn', 'zh-tw'].flatMap((locale) =>
    Object.values(require(`typescript/lib/${locale}/diagnosticMessages.generated.json`)));
}

module.exports = { manPages, gettextMessages, nodejiebaText, typescriptDiagnostics };

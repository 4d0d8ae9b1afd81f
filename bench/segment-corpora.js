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

/** One of nodejieba's test files (weicheng.utf8, review.100, testlines.utf8) as text. */
function nodejiebaText(name) {
  return fs.readFileSync(nodejiebaFiles()[name], 'utf8');
}

/** TypeScript's zh-cn and zh-tw diagnostic messages. */
function typescriptDiagnostics() {
  return ['zh-cn', 'zh-tw'].flatMap((locale) =>
    Object.values(require(`typescript/lib/${locale}/diagnosticMessages.generated.json`)));
}

module.exports = { manPages, nodejiebaText, typescriptDiagnostics };

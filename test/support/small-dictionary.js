'use strict';
// A small valid binary dictionary (16 words, synthetic HMM costs) made with lib/js/dict-builder.ts:
// about 600 KB, most of it the format's fixed character map and HMM table. Used by the bad-input
// tests (as the base of corrupt files) and by scripts/fuzz.js (seed of the dictionary targets).
const path = require('node:path');

const dist = path.join(__dirname, '..', '..', 'dist');

function smallDictionary() {
  const builder = require(path.join(dist, 'js', 'dict-builder.js'));
  const format = require(path.join(dist, 'dictionary.js'));
  const cost = (x) => Math.round(x * format.HMM_SCALE);
  const M = format.HMM_MISSING;
  const emit = new Int32Array((format.HMM_LAST_CP - format.HMM_FIRST_CP + 1) * 4);
  for (let i = 0; i < emit.length; i++) emit[i] = i % 97 === 0 ? M : cost(8 + ((i * 7919) % 613) / 100);
  const words = ['相似度', '检测', '文本', '中文', '高性能', '算法', '实现', '去重', '北京', '大学', '北京大学', '生活',
    'SimHash', '2024年', '的', '了'].map((word, i) => ({ word, freq: 10 + i * 37 }));
  return builder.buildDictionary({
    words,
    idf: new Map([['相似度', 9 * format.IDF_SCALE], ['检测', 7 * format.IDF_SCALE], ['只在IDF里', 11 * format.IDF_SCALE]]),
    idfMedian: 8 * format.IDF_SCALE,
    hmm: {
      start: [cost(0.26), M, M, cost(1.47)],
      trans: [M, cost(0.51), cost(0.92), M, cost(0.59), M, M, cost(0.81), M, cost(0.33), cost(1.26), M, cost(0.72), M, M, cost(0.67)],
      emit,
    },
    stopWords: ['的', '了', '只是停用词'],
  });
}

module.exports = { smallDictionary };

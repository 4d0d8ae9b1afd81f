#!/usr/bin/env node
// Fingerprints the C++ seed article's three demo texts with both engines and
// both seed presets, and prints distances: `node examples/demo.js`.
'use strict';
const { SimHash, backend, nativeLoadError } = require('..');

const texts = [
  'C++ SimHash算法实现 高性能中文文本相似度检测与去重',
  'C++ SimHash算法实现 高性能中文文本查重与相似度检测（轻微优化）',
  'Redis缓存高并发优化 后端服务性能调优实战教程',
];

console.log(`default engine: ${backend}${nativeLoadError ? ` (native did not load: ${nativeLoadError.message})` : ''}`);
for (const options of [{ preset: 'SimHashChinese' }, { preset: 'mysimhash', bits: 64 }, { preset: 'mysimhash', bits: 128 }]) {
  for (const engine of ['native', 'js']) {
    if (engine === 'native' && nativeLoadError) continue;
    const simhash = new SimHash({ ...options, backend: engine });
    const hexes = texts.map((text) => simhash.hex(text));
    console.log(`${options.preset}/${simhash.bits} [${engine}]: ${hexes.join(' ')}  ` +
      `d(1,2)=${simhash.distance(texts[0], texts[1])} d(1,3)=${simhash.distance(texts[0], texts[2])}`);
  }
}

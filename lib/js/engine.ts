// The pure-TypeScript engine: same answers as the native addon, everywhere.
import type { Engine, FingerprintEngine } from '../engine';
import { hammingDistanceJs } from '../fingerprint';
import type { DictReader } from './dict-reader';
import { MySimHashJs } from './mysimhash';
import { DefaultPipelineJs } from './pipeline';
import { SimHashChineseJs } from './simhash-chinese';

export const jsEngine: Engine = {
  backend: 'js',
  createFingerprinter(config): FingerprintEngine {
    switch (config.preset) {
      case 'SimHashChinese':
        return new SimHashChineseJs();
      case 'mysimhash':
        return new MySimHashJs(config.bits);
    }
  },
  createPipeline(config): FingerprintEngine {
    return new DefaultPipelineJs(config.dictionary as DictReader, {
      bits: config.bits,
      normalize: { html: config.html, foldWidth: config.foldWidth, lowercase: config.lowercase },
      weighting: config.weighting,
      features: config.features,
      sketch: config.sketch,
      hmm: config.hmm,
      dropNumbers: config.dropNumbers,
      wholeUrls: config.wholeUrls,
      useStopWords: config.useStopWords,
      ...(config.stopWords ? { stopWords: config.stopWords } : {}),
      userWords: config.userWords,
    });
  },
  hammingDistance: hammingDistanceJs,
};

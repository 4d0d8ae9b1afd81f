// The pure-TypeScript engine: same answers as the native addon, everywhere.
import type { Engine, FingerprintEngine } from '../engine';
import { hammingDistanceJs } from '../fingerprint';
import { MySimHashJs } from './mysimhash';
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
  hammingDistance: hammingDistanceJs,
};

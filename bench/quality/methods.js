'use strict';
// The fingerprinting methods the benchmark compares. A method is
//   { name, bits, backend, options, fingerprintWords(texts) -> Uint32Array }
// with bits/32 words per text (a simhash-zh one also has tokens(text), its SimHash#tokens);
// an unavailable one is { name, available: false, error }.
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');

function loadLib() {
  return require(path.join(ROOT, 'dist'));
}

/** Wraps a simhash-zh SimHash instance; fingerprintMany is one native call per batch. */
function fromSimHash(name, options, lib = loadLib()) {
  let instance;
  try {
    instance = new lib.SimHash(options);
  } catch (err) {
    return { name, options, available: false, error: err.code ? `${err.code}: ${err.message}` : err.message };
  }
  return {
    name,
    options,
    available: true,
    bits: instance.bits,
    backend: instance.backend,
    fingerprintWords(texts) {
      const fps = instance.fingerprintMany(texts);
      return new Uint32Array(fps.buffer, fps.byteOffset, fps.length * 2);
    },
    tokens: (text) => instance.tokens(text),
  };
}

/** simhash-js as published: 32-bit fingerprints from 4-character shingles (its defaults). */
function simhashJs() {
  let SimHashJs;
  let version;
  try {
    SimHashJs = require('simhash-js').SimHash;
    version = require('simhash-js/package.json').version;
  } catch (err) {
    return { name: 'simhash-js', available: false, error: `not installed (${err.message.split('\n')[0]})` };
  }
  const hasher = new SimHashJs();
  return {
    name: 'simhash-js',
    options: { package: `simhash-js@${version}` },
    available: true,
    bits: 32,
    backend: 'js',
    fingerprintWords(texts) {
      const out = new Uint32Array(texts.length);
      // hash() returns undefined for '' and a hex string for one shingle; >>> 0 is what
      // the package itself applies to its result.
      for (let i = 0; i < texts.length; i++) out[i] = hasher.hash(texts[i]) >>> 0;
      return out;
    },
  };
}

function configName(config) {
  return `default ${JSON.stringify(config)}`;
}

/**
 * The methods of a run: the default pipeline (when constructing it does not throw),
 * one per extra configuration, the two presets and simhash-js.
 */
function standardMethods({ configs = [], presets = true, peers = true, lib = loadLib() } = {}) {
  const methods = [fromSimHash('default', undefined, lib)];
  for (const config of configs) methods.push(fromSimHash(configName(config), config, lib));
  if (presets) {
    methods.push(fromSimHash('SimHashChinese', { preset: 'SimHashChinese' }, lib));
    methods.push(fromSimHash('mysimhash', { preset: 'mysimhash', bits: 64 }, lib));
  }
  if (peers) methods.push(simhashJs());
  return methods;
}

module.exports = { fromSimHash, simhashJs, standardMethods, configName, loadLib };

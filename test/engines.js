'use strict';
// Runs one suite against both engines (bufferutil's `use(native)` / `use(fallback)` pattern).
// The native engine is required unless SIMHASH_ZH_TEST_JS_ONLY=1: a build that
// silently fails to load must turn the suite red, not skip it.
const lib = require('../dist');

const BACKENDS = process.env.SIMHASH_ZH_TEST_JS_ONLY === '1' ? ['js'] : ['native', 'js'];

function forEachBackend(title, body) {
  for (const backend of BACKENDS) {
    describe(`${title} [${backend}]`, function () {
      body(backend);
    });
  }
}

/** Number of fast-check runs per property (at least 10,000 in CI). */
const PROPERTY_RUNS = Number(process.env.SIMHASH_ZH_PROPERTY_RUNS || 10000);

module.exports = { lib, BACKENDS, forEachBackend, PROPERTY_RUNS };

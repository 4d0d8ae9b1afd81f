#!/usr/bin/env node
// npm install hook: use a prebuilt binary or build the addon; never fail the
// install because a binary is missing. Without a working addon the TypeScript
// engine serves and `nativeLoadError` says why. Set SIMHASH_ZH_REQUIRE_NATIVE=1
// to make a failed build fail the install (CI does).
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const bin = require.resolve('node-gyp-build/bin.js');
const result = spawnSync(process.execPath, [bin], { cwd: path.join(__dirname, '..'), stdio: 'inherit' });
if (result.status !== 0) {
  if (process.env.SIMHASH_ZH_REQUIRE_NATIVE === '1') process.exit(result.status ?? 1);
  console.warn('simhash-zh: no prebuilt binary for this platform and the native build failed; ' +
    "the TypeScript engine will serve (require('simhash-zh').nativeLoadError tells why).");
}

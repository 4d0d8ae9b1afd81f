#!/usr/bin/env node
// Builds the addon with AddressSanitizer + UndefinedBehaviorSanitizer (g++, node-gyp, in
// build-asan-addon/, leaving build/ alone) and runs the whole mocha suite against it.
//
//   npm run test:asan [-- mocha arguments]
//
// Node itself is not instrumented, so the ASan runtime is preloaded (LD_PRELOAD) and leak checking is
// off (V8 keeps memory until exit by design). UBSan reports are fatal (-fno-sanitize-recover). The
// tests load this build through SIMHASH_ZH_ADDON_PATH (lib/native.ts), and child processes the
// tests spawn inherit all of it.
'use strict';
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { installedNodeDir } = require('./node-headers');

const root = path.join(__dirname, '..');
const work = path.join(root, 'build-asan-addon');
const SANITIZE = '-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer';

function runtime(name) {
  const file = execFileSync(process.env.CXX || 'g++', [`-print-file-name=${name}`], { encoding: 'utf8' }).trim();
  if (!path.isAbsolute(file) || !fs.existsSync(file)) throw new Error(`${name} not found (g++ -print-file-name)`);
  return file;
}

function build() {
  // A gyp project whose sources are the real ones (symlinked), so node-gyp's build/ lands here.
  fs.mkdirSync(work, { recursive: true });
  fs.copyFileSync(path.join(root, 'binding.gyp'), path.join(work, 'binding.gyp'));
  const link = path.join(work, 'native');
  if (!fs.existsSync(link)) fs.symlinkSync(path.join(root, 'native'), link, 'dir');
  const nodeGyp = require.resolve('node-gyp/bin/node-gyp.js', { paths: [root] });
  const args = [nodeGyp, 'rebuild', '--jobs', 'max'];
  // Use the headers next to this node when it has them (no download).
  const nodedir = installedNodeDir();
  if (nodedir) args.push(`--nodedir=${nodedir}`);
  const env = {
    ...process.env,
    CFLAGS: `${SANITIZE} -g -O1`,
    CXXFLAGS: `${SANITIZE} -g -O1`,
    LDFLAGS: '-fsanitize=address,undefined',
  };
  const result = spawnSync(process.execPath, args, { cwd: work, env, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`the sanitizer build failed (node-gyp exited with ${result.status})`);
  const addon = path.join(work, 'build', 'Release', 'simhash_zh.node');
  if (!fs.readFileSync(addon).includes('__asan_init')) throw new Error(`${addon} is not instrumented`);
  return addon;
}

function main() {
  if (process.platform !== 'linux') throw new Error('test:asan runs on Linux (LD_PRELOAD of the gcc ASan runtime)');
  const addon = build();
  const env = {
    ...process.env,
    SIMHASH_ZH_ADDON_PATH: addon,
    LD_PRELOAD: [runtime('libasan.so'), process.env.LD_PRELOAD].filter(Boolean).join(' '),
    ASAN_OPTIONS: 'detect_leaks=0:halt_on_error=1:abort_on_error=1:detect_stack_use_after_return=0',
    UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1',
    // Property tests are slower under ASan; a few thousand runs still cover them.
    SIMHASH_ZH_PROPERTY_RUNS: process.env.SIMHASH_ZH_PROPERTY_RUNS || '2000',
  };
  const check = spawnSync(process.execPath, ['-e',
    "const l = require('./dist'); if (l.backend !== 'native') { console.error(l.nativeLoadError); process.exit(1); }"],
  { cwd: root, env, stdio: 'inherit' });
  if (check.status !== 0) throw new Error('the sanitizer build does not load');
  console.log(`test:asan: mocha against ${path.relative(root, addon)} (ASan + UBSan)`);
  const mocha = require.resolve('mocha/bin/mocha.js', { paths: [root] });
  const result = spawnSync(process.execPath, [mocha, ...process.argv.slice(2)], { cwd: root, env, stdio: 'inherit' });
  process.exitCode = result.status ?? 1;
}

try {
  main();
} catch (error) {
  console.error(`test:asan: ${error.message}`);
  process.exitCode = 1;
}

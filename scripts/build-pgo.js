#!/usr/bin/env node
// Rebuilds the addon with GCC's profile-guided optimization: an instrumented build, a training
// run on the shipped sample (scripts/pgo-train.js), then the build that uses the profile. The
// profile only steers the compiler's branch layout and inlining; no result depends on it (the
// parity and golden tests run against this build). The default pipeline is 5-7% faster.
//
//   node scripts/build-pgo.js              (npm run build:pgo; `npm ci` in a checkout runs it too)
//   node scripts/build-pgo.js --prebuild   (npm run prebuild: the same, built by prebuildify)
//
// Runs where the addon was built from source with GCC and the dictionary is built; otherwise it
// says why and leaves the build as it is (--prebuild: prebuilds without a profile). Set
// SIMHASH_ZH_PGO=0 to skip it. If any step fails, the addon is rebuilt the plain way, so an
// instrumented binary is never left behind.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { installedNodeDir } = require('./node-headers');

const root = path.join(__dirname, '..');
const addon = path.join(root, 'build', 'Release', 'simhash_zh.node');

function skip(why) {
  console.log(`build:pgo: skipped (${why})`);
  process.exit(0);
}

/** The C++ compiler node-gyp's make uses, if it is GCC. */
function isGcc() {
  const cxx = process.env.CXX || 'c++';
  const result = spawnSync(cxx, ['--version'], { encoding: 'utf8' });
  return result.status === 0 && /Free Software Foundation|\bg\+\+/.test(result.stdout);
}

function nodeGyp() {
  try {
    return require.resolve('node-gyp/bin/node-gyp.js', { paths: [root] });
  } catch {
    return null;
  }
}

/** Runs node with `args` in the project, with Node's own headers for node-gyp unless npm passes its nodedir. */
function spawnNode(args, env, stdio) {
  const nodedir = process.env.npm_config_nodedir ? null : installedNodeDir();
  const headers = nodedir ? { npm_config_nodedir: nodedir } : {};
  return spawnSync(process.execPath, args, { cwd: root, env: { ...process.env, ...headers, ...env }, stdio, encoding: 'utf8' });
}

function run(what, args, env = {}) {
  const result = spawnNode(args, env, ['ignore', 'pipe', 'pipe']);
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.split('\n').slice(-30).join('\n');
    throw new Error(`${what} failed (exit ${result.status}):\n${output}`);
  }
}

/** Flags added to the environment's own (node-gyp's make appends CXXFLAGS and LDFLAGS). */
function withFlags(cxxflags, ldflags = '') {
  const join = (a, b) => [a, b].filter(Boolean).join(' ');
  return { CXXFLAGS: join(process.env.CXXFLAGS, cxxflags), LDFLAGS: join(process.env.LDFLAGS, ldflags) };
}

/** The last build: node-gyp's, or with --prebuild prebuildify's (prebuilds/, as `npm run prebuild` ships). */
function finalBuild(prebuild, gyp) {
  if (!prebuild) return [gyp, 'rebuild'];
  return [require.resolve('prebuildify/bin.js', { paths: [root] }), '--napi', '--strip'];
}

/** Why a profile cannot be made here, or null. */
function whyNot(prebuild, gyp) {
  if (process.env.SIMHASH_ZH_PGO === '0') return 'SIMHASH_ZH_PGO=0';
  if (!prebuild && !fs.existsSync(addon)) return 'the addon was not built from source here';
  if (!fs.existsSync(path.join(root, 'dict', 'jieba.dict'))) return 'dict/jieba.dict is not built: run npm run build:dict';
  if (!isGcc()) return 'the compiler is not GCC';
  if (!gyp) return 'node-gyp is not installed';
  return null;
}

function main() {
  const prebuild = process.argv.includes('--prebuild');
  // `npm pack` and `npm publish` run prepare too: they ship sources and prebuilds, not build/.
  if (!prebuild && ['pack', 'publish'].includes(process.env.npm_command)) skip(`npm ${process.env.npm_command}`);
  const gyp = nodeGyp();
  const plainBuild = () => {
    const plain = spawnNode(finalBuild(prebuild, gyp), {}, 'inherit');
    if (plain.status !== 0) process.exit(plain.status ?? 1);
  };
  const why = whyNot(prebuild, gyp);
  if (why) {
    if (!prebuild) skip(why);
    console.log(`build:pgo: prebuilding without a profile (${why})`);
    plainBuild();
    return;
  }

  const started = Date.now();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'simhash-zh-pgo-'));
  try {
    run('the instrumented build', [gyp, 'rebuild'],
      withFlags(`-fprofile-generate -fprofile-update=single -fprofile-dir=${profile}`, '-fprofile-generate'));
    run('the training run', [path.join(__dirname, 'pgo-train.js')], { SIMHASH_ZH_ADDON_PATH: addon });
    // -fprofile-partial-training: code the training did not run is optimized as without a profile.
    // The same build directory, so the objects' paths find their profiles.
    run('the optimized build', finalBuild(prebuild, gyp),
      withFlags(`-fprofile-use -fprofile-partial-training -fprofile-dir=${profile} -Wno-missing-profile`));
    const what = prebuild ? 'prebuilds/' : path.relative(root, addon);
    console.log(`build:pgo: built ${what} with a profile from examples/news.jsonl in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    console.warn(`build:pgo: ${error.message}\nbuild:pgo: building without a profile`);
    plainBuild();
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

main();

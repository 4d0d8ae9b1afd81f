#!/usr/bin/env node
// Tests the package as users get it (npm run test:pack):
//   1. in a temporary copy of the project (the work tree's build/ and prebuilds/ are never touched),
//      `npm run prebuild` (prebuildify --napi --strip, profile-guided: scripts/build-pgo.js) and `npm pack`, then once more without the
//      prebuilds;
//   2. checks the tarball: compiled TS, prebuilds/linux-x64, the dictionary (when built), the
//      native sources for a source build, and no tests, benchmarks, fuzz corpora or build output;
//   3. installs each tarball into an empty project with no compiler on PATH (only node and npm;
//      no g++, cc, make or python) and --prefer-offline:
//        with the prebuild    -> installs with no build step; the native engine serves;
//        without a prebuild   -> the install still succeeds; the TS engine serves and
//                                nativeLoadError says why;
//        prebuild deleted     -> (from the first install) the TS engine serves, error kept;
//        without a prebuild and SIMHASH_ZH_REQUIRE_NATIVE=1 -> the install fails, as asked.
// Set SIMHASH_ZH_PACK_KEEP=1 to keep the temporary folder for a look.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { installedNodeDir } = require('./node-headers');

const root = path.join(__dirname, '..');
const pkg = require(path.join(root, 'package.json'));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'simhash-zh-pack-'));
const platformDir = `${process.platform}-${process.arch}`;
let passed = 0;
let failed = 0;

function check(ok, what, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`test:pack: ${ok ? 'ok  ' : 'FAIL'} ${what}${!ok && detail ? `\n${detail}` : ''}`);
  return ok;
}

/** An environment with the parent npm's variables removed (they would leak prefix, scripts, etc.). */
function cleanEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || key === 'INIT_CWD' || key === 'PYTHON' || key.startsWith('SIMHASH_ZH_')) continue;
    env[key] = value;
  }
  return { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...extra };
}

/** PATH with only node, npm and sh (npm runs scripts with `sh`): no compiler, make or python. */
function bareBin() {
  const bin = path.join(tmp, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  fs.symlinkSync('/bin/sh', path.join(bin, 'sh'));
  const npmCli = findNpmCli();
  fs.writeFileSync(path.join(bin, 'npm'), `#!/bin/sh\nexec "${process.execPath}" "${npmCli}" "$@"\n`, { mode: 0o755 });
  return bin;
}

function findNpmCli() {
  const candidates = [
    process.env.npm_execpath,
    path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
  ].filter(Boolean);
  for (const file of candidates) if (fs.existsSync(file) && /npm-cli\.js$/.test(file)) return fs.realpathSync(file);
  const which = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
  const real = which && fs.realpathSync(which);
  if (real && /npm-cli\.js$/.test(real)) return real;
  throw new Error('cannot find npm-cli.js');
}

function run(cmd, args, options) {
  const result = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 2 ** 20, ...options });
  result.output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  return result;
}

function mustRun(what, cmd, args, options) {
  const result = run(cmd, args, options);
  if (result.status !== 0) {
    throw new Error(`${what} failed (exit ${result.status}):\n${result.output.split('\n').slice(-40).join('\n')}`);
  }
  return result;
}

// --- 1. stage, prebuild, pack ---------------------------------------------------------------------

const SKIP = new Set(['node_modules', '.git', 'prebuilds', 'build']);
function stageCopy() {
  const stage = path.join(tmp, 'stage');
  fs.cpSync(root, stage, {
    recursive: true,
    filter: (src) => {
      const rel = path.relative(root, src);
      const top = rel.split(path.sep)[0];
      return !(SKIP.has(top) || top.startsWith('build-') || rel.endsWith('.tgz') || rel === path.join('bench', 'results'));
    },
  });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
  return stage;
}

function nodeDirEnv() {
  const nodedir = installedNodeDir();
  return nodedir ? { npm_config_nodedir: nodedir } : {};
}

function pack(stage, dest) {
  fs.mkdirSync(dest, { recursive: true });
  const result = mustRun('npm pack', 'npm', ['pack', '--json', '--pack-destination', dest],
    { cwd: stage, env: cleanEnv(nodeDirEnv()) });
  const info = JSON.parse(result.stdout.slice(result.stdout.indexOf('[')))[0];
  return { file: path.join(dest, info.filename), files: info.files.map((f) => f.path), size: info.size };
}

// --- 2. tarball contents --------------------------------------------------------------------------

function checkContents(files, withPrebuild, stage) {
  const has = (p) => files.includes(p);
  const any = (re) => files.some((f) => re.test(f));
  const label = withPrebuild ? 'tarball' : 'tarball without prebuilds';
  check(has('package.json') && has('README.md'), `${label}: package.json and README.md`);
  check(has('dist/index.js') && has('dist/index.d.ts'), `${label}: compiled TS (dist/index.js, dist/index.d.ts)`);
  check(has('scripts/install.js') && has('binding.gyp') && has('native/sources.json'), `${label}: install hook and build files`);
  const sources = require(path.join(stage, 'native', 'sources.json'));
  const missing = [...sources.core, ...sources.addon].filter((f) => !has(f));
  check(missing.length === 0, `${label}: every native source for a source build`, `missing: ${missing.join(', ')}`);
  const prebuilds = files.filter((f) => f.startsWith(`prebuilds/${platformDir}/`) && f.endsWith('.node'));
  if (withPrebuild) check(prebuilds.length === 1, `${label}: one prebuilds/${platformDir}/*.node`, files.filter((f) => f.startsWith('prebuilds/')).join('\n'));
  else check(!any(/^prebuilds\//), `${label}: no prebuilds/`);
  if (fs.existsSync(path.join(stage, 'dict', 'jieba.dict'))) {
    check(has('dict/jieba.dict'), `${label}: the dictionary dict/jieba.dict`, 'add "dict/jieba.dict" to package.json "files"');
  } else {
    console.log('test:pack: note dict/jieba.dict is not built here, so its packing is not checked');
  }
  const junk = files.filter((f) => /^(test|bench|\.ci|\.github|build|build-[^/]*|node_modules|native\/(test|fuzz))\//.test(f) ||
    /\.(tgz|log|o|a)$/.test(f) || /^scripts\/(?!install\.js$)/.test(f) || /(^|\/)\.DS_Store$/.test(f));
  check(junk.length === 0, `${label}: no tests, benchmarks, fuzz corpora, scripts or build output`, junk.slice(0, 20).join('\n'));
  return prebuilds[0];
}

// --- 3. installs ----------------------------------------------------------------------------------

function makeApp(name) {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `pack-check-${name}`, version: '1.0.0', private: true }));
  return dir;
}

function install(app, tarball, env) {
  return run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--foreground-scripts', '--loglevel=notice', tarball], { cwd: app, env });
}

const TEXTS = ['C++ SimHash算法实现 高性能中文文本相似度检测与去重', 'Redis缓存高并发优化 后端服务性能调优实战教程', 'a\uD800b\0 😀'];
const CONFIGS = [{ preset: 'SimHashChinese' }, { preset: 'mysimhash' }, { preset: 'mysimhash', bits: 128 }];

/** Fingerprints from the work tree's TS engine: what an installed package must compute. */
function expectedFingerprints() {
  const lib = require(path.join(root, 'dist'));
  return CONFIGS.map((c) => TEXTS.map((t) => new lib.SimHash({ ...c, backend: 'js' }).fingerprint(t).toString()));
}

/** Runs a probe in the app with the bare PATH; returns its JSON report. */
function probe(app, env) {
  const script = `
    const lib = require('simhash-zh');
    const dir = require('path').dirname(require.resolve('simhash-zh/package.json'));
    const report = { backend: lib.backend, loadError: lib.nativeLoadError ? String(lib.nativeLoadError.message) : null };
    try { report.binary = require('node-gyp-build').path(dir); } catch (e) { report.binary = null; }
    report.fingerprints = ${JSON.stringify(CONFIGS)}.map((c) => ${JSON.stringify(TEXTS)}.map((t) => new lib.SimHash(c).fingerprint(t).toString()));
    try { new lib.SimHash({ preset: 'mysimhash', backend: 'native' }); report.nativeError = null; }
    catch (e) { report.nativeError = { name: e.name, code: e.code, hasCause: e.cause instanceof Error }; }
    if (typeof lib.SimHashIndex === 'function') {
      const index = new lib.SimHashIndex();
      index.add(1, 5n);
      report.index = lib.SimHashIndex.deserialize(index.serialize()).query(4n).map((m) => m.id);
    }
    if (require('fs').existsSync(require('path').join(dir, 'dict', 'jieba.dict'))) {
      report.cut = new lib.Segmenter().cut('北京大学生活').join('|');
    }
    console.log('PROBE' + JSON.stringify(report));`;
  const result = run('node', ['-e', script], { cwd: app, env });
  const line = result.stdout.split('\n').find((l) => l.startsWith('PROBE'));
  if (result.status !== 0 || !line) throw new Error(`probe failed (exit ${result.status}):\n${result.output}`);
  return JSON.parse(line.slice(5));
}

function main() {
  console.log(`test:pack: working in ${tmp}`);
  const stage = stageCopy();
  console.log('test:pack: npm run prebuild (profile-guided prebuildify --napi --strip) in a copy of the project');
  mustRun('npm run prebuild', 'npm', ['run', 'prebuild'], { cwd: stage, env: cleanEnv(nodeDirEnv()), stdio: ['ignore', 'pipe', 'pipe'] });
  const withPrebuild = pack(stage, path.join(tmp, 'with'));
  console.log(`test:pack: packed ${path.basename(withPrebuild.file)} (${withPrebuild.files.length} files, ${(withPrebuild.size / 2 ** 20).toFixed(1)} MB)`);
  const prebuild = checkContents(withPrebuild.files, true, stage);
  fs.rmSync(path.join(stage, 'prebuilds'), { recursive: true, force: true });
  fs.rmSync(path.join(stage, 'build'), { recursive: true, force: true });
  const withoutPrebuild = pack(stage, path.join(tmp, 'without'));
  checkContents(withoutPrebuild.files, false, stage);

  const bin = bareBin();
  const bare = cleanEnv({ PATH: bin });
  const tools = run('/bin/sh', ['-c', 'for t in g++ gcc cc c++ clang clang++ make python3 python; do command -v $t && exit 1; done; exit 0'], { env: bare });
  check(tools.status === 0, 'the bare PATH has node, npm and sh but no compiler, make or python', tools.output);
  const want = expectedFingerprints();

  // With the prebuild: no build step, native engine.
  const app1 = makeApp('with-prebuild');
  const i1 = install(app1, withPrebuild.file, bare);
  check(i1.status === 0, 'install with the prebuild, no compiler: succeeds', i1.output);
  const installed = path.join(app1, 'node_modules', 'simhash-zh');
  check(i1.status === 0 && !fs.existsSync(path.join(installed, 'build')) && !/gyp (info|ERR)/.test(i1.output),
    'install with the prebuild: no build step ran', i1.output);
  const p1 = probe(app1, bare);
  check(p1.backend === 'native' && p1.loadError === null, 'with the prebuild: the native engine serves', JSON.stringify(p1));
  check(p1.binary === path.join(installed, prebuild), `with the prebuild: the addon loads from ${prebuild}`, String(p1.binary));
  check(JSON.stringify(p1.fingerprints) === JSON.stringify(want), 'with the prebuild: fingerprints equal the work tree\'s', JSON.stringify(p1.fingerprints));
  if (p1.index !== undefined) check(JSON.stringify(p1.index) === '[1]', 'with the prebuild: SimHashIndex works', JSON.stringify(p1.index));
  if (p1.cut !== undefined) check(p1.cut === '北京大学|生活', 'with the prebuild: the default dictionary ships and cuts', p1.cut);

  // The same install with its prebuild deleted: TS engine, error kept.
  fs.rmSync(path.join(installed, 'prebuilds'), { recursive: true, force: true });
  const p1b = probe(app1, bare);
  check(p1b.backend === 'js' && /No native build was found/.test(p1b.loadError ?? ''),
    'prebuild deleted after install: the TS engine serves, nativeLoadError says why', JSON.stringify(p1b));
  check(JSON.stringify(p1b.fingerprints) === JSON.stringify(want), 'prebuild deleted: TS engine fingerprints equal', JSON.stringify(p1b.fingerprints));

  // Without a prebuild, no compiler: the install succeeds anyway.
  const app2 = makeApp('without-prebuild');
  const i2 = install(app2, withoutPrebuild.file, bare);
  check(i2.status === 0, 'install without a prebuild, no compiler: still succeeds', i2.output);
  check(/simhash-zh: no prebuilt binary/.test(i2.output), 'install without a prebuild: warns that the TS engine will serve', i2.output);
  const p2 = probe(app2, bare);
  check(p2.backend === 'js' && /No native build was found/.test(p2.loadError ?? ''),
    'without a prebuild: the TS engine serves, nativeLoadError says why', JSON.stringify(p2));
  check(JSON.stringify(p2.fingerprints) === JSON.stringify(want), 'without a prebuild: fingerprints equal the work tree\'s', JSON.stringify(p2.fingerprints));
  check(p2.nativeError && p2.nativeError.code === 'SIMHASH_ZH_NATIVE_UNAVAILABLE' && p2.nativeError.hasCause,
    'without a prebuild: backend \'native\' throws SIMHASH_ZH_NATIVE_UNAVAILABLE with the load error as cause', JSON.stringify(p2.nativeError));
  if (p2.index !== undefined) check(JSON.stringify(p2.index) === '[1]', 'without a prebuild: SimHashIndex works (TS engine)', JSON.stringify(p2.index));
  if (p2.cut !== undefined) check(p2.cut === '北京大学|生活', 'without a prebuild: the default dictionary cuts (TS engine)', p2.cut);

  // Asked to require the native engine: the install fails instead.
  const app3 = makeApp('require-native');
  const i3 = install(app3, withoutPrebuild.file, { ...bare, SIMHASH_ZH_REQUIRE_NATIVE: '1' });
  check(i3.status !== 0, 'install without a prebuild and SIMHASH_ZH_REQUIRE_NATIVE=1: fails as asked', i3.output.slice(-2000));
}

try {
  main();
} catch (error) {
  check(false, 'test:pack ran to the end', error.stack);
} finally {
  if (process.env.SIMHASH_ZH_PACK_KEEP === '1') console.log(`test:pack: kept ${tmp}`);
  else fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(`test:pack: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;

// Where the dictionary sources come from, pinned by version and checksum.
//   jieba's dict.txt and idf.txt: the @node-rs/jieba devDependency (MIT).
//   cppjieba's hmm_model.utf8 and stop_words.utf8, and the test text weicheng.utf8: the
//   nodejieba@3.5.8 tarball (MIT). nodejieba is NOT installed (its install script compiles
//   for minutes and downloads): `npm pack` fetches the tarball (from the npm cache when
//   offline), its sha512 is checked, and only the needed files are extracted.
'use strict';
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const root = path.join(__dirname, '..', '..');
const cacheDir = path.join(root, 'node_modules', '.cache', 'simhash-zh');

const NODEJIEBA = {
  spec: 'nodejieba@3.5.8',
  file: 'nodejieba-3.5.8.tgz',
  integrity: 'sha512-TFiDYgEVmBgQwAr1sVj7err3Cn21qxMxTLA+LTEVqKcGqgwJuonJEW0g6oH2+7FhMKJfkWsvlj1SaTrWXe1Q9w==',
  extract: {
    'package/submodules/cppjieba/dict/hmm_model.utf8': 'hmm_model.utf8',
    'package/submodules/cppjieba/dict/stop_words.utf8': 'stop_words.utf8',
    'package/submodules/cppjieba/test/testdata/weicheng.utf8': 'weicheng.utf8',
    'package/submodules/cppjieba/test/testdata/review.100': 'review.100',
    'package/submodules/cppjieba/test/testdata/testlines.utf8': 'testlines.utf8',
  },
};

// sha256 of the files of @node-rs/jieba@2.0.3.
const NODE_RS_JIEBA = {
  version: '2.0.3',
  files: {
    'dict.txt': '139519822fe8ab9e10d9d07e68ea0451045380aedaf54ecc51e2a28c6b42a13f',
    'idf.txt': '501b70ec56c34d90f3f590f1918ca4b1bd617d5b46cd99bd6d17c7de6e4f80ed',
  },
};

function sha(algorithm, data, encoding = 'hex') {
  return crypto.createHash(algorithm).update(data).digest(encoding);
}

function integrityOf(data) {
  return 'sha512-' + sha('sha512', data, 'base64');
}

/** Minimal ustar reader: returns the wanted members of a .tgz. */
function extractTar(tgz, wanted) {
  const tar = zlib.gunzipSync(tgz);
  const out = {};
  let offset = 0;
  let longName = null;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const field = (at, len) => header.toString('utf8', at, at + len).replace(/\0.*$/s, '');
    let name = field(0, 100);
    const prefix = field(345, 155);
    if (prefix) name = prefix + '/' + name;
    if (longName !== null) {
      name = longName;
      longName = null;
    }
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] || 48);
    const body = tar.subarray(offset + 512, offset + 512 + size);
    if (type === 'L') longName = body.toString('utf8').replace(/\0.*$/s, '');
    else if ((type === '0' || type === '\0') && Object.hasOwn(wanted, name)) out[wanted[name]] = Buffer.from(body);
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

function runNpmPack(spec, dest) {
  const args = ['pack', spec, '--pack-destination', dest, '--prefer-offline', '--silent', '--ignore-scripts'];
  const npmCli = process.env.npm_execpath;
  if (npmCli && /\.c?js$/.test(npmCli)) {
    execFileSync(process.execPath, [npmCli, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  } else {
    execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      shell: process.platform === 'win32',
    });
  }
}

/** Fetches (or reuses) the nodejieba tarball and returns the extracted files' paths. */
function nodejiebaFiles() {
  const dir = path.join(cacheDir, 'nodejieba-3.5.8');
  const targets = Object.values(NODEJIEBA.extract).map((name) => path.join(dir, name));
  const stamp = path.join(dir, '.integrity');
  if (targets.every((t) => fs.existsSync(t)) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === NODEJIEBA.integrity) {
    return Object.fromEntries(Object.values(NODEJIEBA.extract).map((name) => [name, path.join(dir, name)]));
  }
  fs.mkdirSync(cacheDir, { recursive: true });
  const tarball = path.join(cacheDir, NODEJIEBA.file);
  if (!fs.existsSync(tarball) || integrityOf(fs.readFileSync(tarball)) !== NODEJIEBA.integrity) {
    fs.rmSync(tarball, { force: true });
    runNpmPack(NODEJIEBA.spec, cacheDir);
  }
  const data = fs.readFileSync(tarball);
  const got = integrityOf(data);
  if (got !== NODEJIEBA.integrity) {
    throw new Error(`${NODEJIEBA.spec}: tarball integrity ${got} does not match the pinned ${NODEJIEBA.integrity}`);
  }
  const files = extractTar(data, NODEJIEBA.extract);
  fs.mkdirSync(dir, { recursive: true });
  for (const name of Object.values(NODEJIEBA.extract)) {
    if (!files[name]) throw new Error(`${NODEJIEBA.spec}: ${name} is missing from the tarball`);
    fs.writeFileSync(path.join(dir, name), files[name]);
  }
  fs.writeFileSync(stamp, NODEJIEBA.integrity);
  return Object.fromEntries(Object.values(NODEJIEBA.extract).map((name) => [name, path.join(dir, name)]));
}

function nodeRsJiebaFiles() {
  let pkgDir;
  try {
    pkgDir = path.dirname(require.resolve('@node-rs/jieba/package.json', { paths: [root] }));
  } catch (error) {
    throw new Error('@node-rs/jieba is not installed (it is a devDependency: run `npm install`)', { cause: error });
  }
  const version = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version;
  if (version !== NODE_RS_JIEBA.version) {
    throw new Error(`@node-rs/jieba ${version} is installed; the dictionary is pinned to ${NODE_RS_JIEBA.version}`);
  }
  const out = {};
  for (const [name, expected] of Object.entries(NODE_RS_JIEBA.files)) {
    const file = path.join(pkgDir, name);
    if (expected !== null) {
      const got = sha('sha256', fs.readFileSync(file));
      if (got !== expected) throw new Error(`@node-rs/jieba/${name}: sha256 ${got} does not match the pinned ${expected}`);
    }
    out[name] = file;
  }
  return out;
}

/** Paths of every source file (fetching the nodejieba tarball if needed). */
function sourceFiles() {
  return { ...nodeRsJiebaFiles(), ...nodejiebaFiles() };
}

module.exports = { sourceFiles, nodejiebaFiles, nodeRsJiebaFiles, extractTar, cacheDir, sha };

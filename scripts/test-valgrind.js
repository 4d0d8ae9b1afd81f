#!/usr/bin/env node
// Runs the C++ core test binary (native/test/core_test.cc) under valgrind memcheck: no invalid
// reads or writes, no uses of uninitialised values, no definite or indirect leaks. Built with
// plain cmake (-O1 -g) in build-valgrind/, apart from build-core/.
//
//   npm run test:valgrind
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.join(__dirname, '..');
const buildDir = path.join(root, 'build-valgrind');

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.error) throw new Error(`${cmd}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${result.status}`);
}

try {
  if (spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status !== 0) {
    throw new Error('valgrind not found; install it (apt-get install -y valgrind)');
  }
  run('cmake', ['-S', root, '-B', buildDir, '-DCMAKE_BUILD_TYPE=RelWithDebInfo',
    '-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g -DNDEBUG']);
  run('cmake', ['--build', buildDir, '--parallel', '2', '--target', 'core_test']);
  run('valgrind', [
    '--tool=memcheck', '--error-exitcode=99', '--leak-check=full', '--show-leak-kinds=definite,indirect',
    '--errors-for-leak-kinds=definite,indirect', '--track-origins=yes', '--quiet',
    path.join(buildDir, 'core_test'),
  ]);
  console.log('test:valgrind: core_test is memcheck-clean');
} catch (error) {
  console.error(`test:valgrind: ${error.message}`);
  process.exitCode = 1;
}

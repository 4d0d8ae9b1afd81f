#!/usr/bin/env node
// Builds the C++ core alone with plain cmake (no Node headers) and runs its test binaries.
'use strict';
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const root = path.join(__dirname, '..');
const buildDir = path.join(root, 'build-core');
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

run('cmake', ['-S', root, '-B', buildDir, '-DCMAKE_BUILD_TYPE=Release']);
run('cmake', ['--build', buildDir, '--parallel', '2']);
run(path.join(buildDir, 'core_test'), []);
run(path.join(buildDir, 'alloc_fault_test'), []);

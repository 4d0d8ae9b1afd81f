#!/usr/bin/env node
// bench/core: the default pipeline in the C++ core alone (no Node in the loop), stage by stage,
// on 围城: how much of a fingerprint is normalizing, segmenting and hashing, and how much faster
// segmenting runs on text seen over and over. `node bench/core.js [--corpus FILE] [--rounds N]`
'use strict';
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { corpusLines, argValues } = require('./common');

const root = path.join(__dirname, '..');
const buildDir = path.join(root, 'build-core');
const quiet = { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] };
execFileSync('cmake', ['-S', root, '-B', buildDir, '-DCMAKE_BUILD_TYPE=Release'], quiet);
execFileSync('cmake', ['--build', buildDir, '--target', 'core_bench', '--parallel', '2'], quiet);
const { sources } = corpusLines(argValues('--corpus'));
const rounds = argValues('--rounds')[0] ?? '15';
const corpus = path.resolve(sources[0]);
execFileSync(path.join(buildDir, 'core_bench'), [path.join(root, 'dict', 'jieba.dict'), corpus, rounds], { stdio: 'inherit' });
console.log(`reproduce: node bench/core.js${process.argv.slice(2).length ? ' ' + process.argv.slice(2).join(' ') : ''}`);

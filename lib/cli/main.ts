#!/usr/bin/env node
// `simhash-zh`: near-duplicate detection from the shell. Exit codes: 0 done, 1 bad input
// (a missing file, a malformed record, an engine that cannot load), 2 usage.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatOptions, parseArgs } from './args';
import { EXIT_INPUT, EXIT_OK, EXIT_USAGE, InputError, UsageError } from './errors';
import type { Command } from './commands';

const PROGRAM = 'simhash-zh';

function version(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The library is loaded on first use, so that a load failure is reported, not thrown at startup. */
function commands(): readonly Command[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('./commands') as typeof import('./commands')).COMMANDS;
}

function topUsage(list: readonly Command[]): string {
  const width = Math.max(...list.map((c) => c.name.length)) + 2;
  return [
    `Usage: ${PROGRAM} <command> [options] [FILE...]`,
    '',
    'Near-duplicate detection for Chinese and mixed text, from files or stdin (lines, or JSONL).',
    '',
    'Commands:',
    ...list.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    `Try: ${PROGRAM} dedup --sample --report`,
    '',
    `Run '${PROGRAM} <command> --help' for a command's options; '${PROGRAM} --version' shows the engine in use.`,
    'Exit codes: 0 done, 1 bad input, 2 usage.',
  ].join('\n');
}

function commandUsage(command: Command): string {
  return command.usage.map((line, i) => `${i === 0 ? 'Usage:' : '      '} ${PROGRAM} ${line}`).join('\n');
}

function commandHelp(command: Command): string {
  return [commandUsage(command), '', command.description, '', 'Options:', formatOptions(command.specs)].join('\n');
}

function versionText(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const lib = require('../index') as typeof import('../index');
  const failure = lib.nativeLoadError;
  const engine = failure === undefined ? lib.backend : `${lib.backend} (the native engine did not load: ${failure.message.trim()})`;
  return `${PROGRAM} ${version()}\nengine: ${engine}`;
}

export async function main(argv: readonly string[]): Promise<number> {
  let list: readonly Command[] = [];
  try {
    list = commands();
    const [name, ...rest] = argv;
    if (name === undefined) throw new UsageError('no command given');
    if (name === '--help' || name === '-h' || name === 'help') {
      const target = name === 'help' ? rest[0] : undefined;
      const command = target === undefined ? undefined : list.find((c) => c.name === target);
      if (target !== undefined && command === undefined) throw new UsageError(`unknown command '${target}'`);
      process.stdout.write(`${command === undefined ? topUsage(list) : commandHelp(command)}\n`);
      return EXIT_OK;
    }
    if (name === '--version' || name === '-V' || name === 'version') {
      process.stdout.write(`${versionText()}\n`);
      return EXIT_OK;
    }
    if (name.startsWith('-')) throw new UsageError(`unknown option '${name}' (the command comes first)`);
    const command = list.find((c) => c.name === name);
    if (command === undefined) throw new UsageError(`unknown command '${name}'`);
    const end = rest.indexOf('--');
    const head = end < 0 ? rest : rest.slice(0, end);
    if (head.includes('--help') || head.includes('-h')) {
      process.stdout.write(`${commandHelp(command)}\n`);
      return EXIT_OK;
    }
    return await command.run(parseArgs(rest, command.specs, command.name));
  } catch (error) {
    if (error instanceof UsageError) {
      const command = list.find((c) => c.name === error.command);
      const usage = command === undefined
        ? `Usage: ${PROGRAM} <command> [options] [FILE...]\nCommands: ${list.map((c) => c.name).join(', ')}\nRun '${PROGRAM} --help' for more.`
        : `${commandUsage(command)}\nRun '${PROGRAM} ${command.name} --help' for the options.`;
      process.stderr.write(`${PROGRAM}: ${error.message}\n${usage}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof InputError) {
      process.stderr.write(`${PROGRAM}: ${error.message}\n`);
      return EXIT_INPUT;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${PROGRAM}: ${message}\n`);
    if (process.env.SIMHASH_ZH_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    return EXIT_INPUT;
  }
}

if (require.main === module) {
  // A closed pipe (`simhash-zh fingerprint big.txt | head`) ends the command quietly.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT_OK);
    process.stderr.write(`${PROGRAM}: cannot write the output: ${error.message}\n`);
    process.exit(EXIT_INPUT);
  });
  // A closed stderr (`… 2>&1 >out | head -c1`) loses the progress bar and the messages, not the output.
  process.stderr.on('error', () => {});
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}

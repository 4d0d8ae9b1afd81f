// A small command-line parser: GNU-style long options (`--name value`, `--name=value`), a few
// one-letter aliases (`-k 3`, `-h`), `--no-<name>` for negatable switches and `--` to end options.
// Unknown options and missing values are usage errors (exit 2).
import { UsageError } from './errors';

export interface OptionSpec {
  /** Long name without the dashes. */
  name: string;
  /** One-letter alias without the dash. */
  short?: string;
  /** A switch, or an option that takes a value. */
  type: 'boolean' | 'string';
  /** May be given more than once (values are collected in order). */
  multiple?: boolean;
  /** A switch that also accepts `--no-<name>`. */
  negatable?: boolean;
  /** Placeholder of the value in the help text. */
  value?: string;
  /** One line of help. */
  help: string;
}

export interface ParsedArgs {
  /** Switches as booleans, valued options as strings (arrays for `multiple`). */
  options: Map<string, boolean | string | string[]>;
  positionals: string[];
}

/** Parses `argv` (the arguments after the command name) against `specs`. */
export function parseArgs(argv: readonly string[], specs: readonly OptionSpec[], command?: string): ParsedArgs {
  const byLong = new Map(specs.map((spec) => [spec.name, spec]));
  const byShort = new Map(specs.filter((spec) => spec.short !== undefined).map((spec) => [spec.short!, spec]));
  const options = new Map<string, boolean | string | string[]>();
  const positionals: string[] = [];

  const set = (spec: OptionSpec, value: boolean | string): void => {
    if (spec.multiple && typeof value === 'string') {
      const list = (options.get(spec.name) as string[] | undefined) ?? [];
      list.push(value);
      options.set(spec.name, list);
    } else {
      options.set(spec.name, value);
    }
  };

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const inline = eq < 0 ? undefined : arg.slice(eq + 1);
      let spec = byLong.get(name);
      let negated = false;
      if (spec === undefined && name.startsWith('no-')) {
        const positive = byLong.get(name.slice(3));
        if (positive?.negatable) {
          spec = positive;
          negated = true;
        }
      }
      if (spec === undefined) throw new UsageError(`unknown option '--${name}'`, command);
      if (spec.type === 'boolean') {
        if (inline !== undefined) throw new UsageError(`option '--${name}' takes no value`, command);
        set(spec, !negated);
        continue;
      }
      if (inline !== undefined) {
        set(spec, inline);
        continue;
      }
      if (i + 1 >= argv.length) throw new UsageError(`option '--${name}' needs a value${spec.value ? ` (${spec.value})` : ''}`, command);
      set(spec, argv[++i]!);
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') {
      const letter = arg.slice(1, 2);
      const spec = byShort.get(letter);
      if (spec === undefined) throw new UsageError(`unknown option '${arg}'`, command);
      const rest = arg.slice(2);
      if (spec.type === 'boolean') {
        if (rest !== '') throw new UsageError(`unknown option '${arg}'`, command);
        set(spec, true);
        continue;
      }
      if (rest !== '') {
        set(spec, rest.startsWith('=') ? rest.slice(1) : rest);
        continue;
      }
      if (i + 1 >= argv.length) throw new UsageError(`option '-${letter}' needs a value${spec.value ? ` (${spec.value})` : ''}`, command);
      set(spec, argv[++i]!);
      continue;
    }
    positionals.push(arg);
  }
  return { options, positionals };
}

/** The option list of a help text: one aligned line per option. */
export function formatOptions(specs: readonly OptionSpec[]): string {
  const heads = specs.map((spec) => {
    const long = spec.negatable ? `--[no-]${spec.name}` : `--${spec.name}`;
    const value = spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : '';
    return `${spec.short ? `-${spec.short}, ` : '    '}${long}${value}`;
  });
  const width = Math.max(...heads.map((head) => head.length)) + 2;
  return specs.map((spec, i) => `  ${heads[i]!.padEnd(width)}${spec.help}`).join('\n');
}

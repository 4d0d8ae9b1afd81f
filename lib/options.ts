// Option validation for the public classes, with messages naming valid values.
import { describe, listOf } from './errors';
import type { Backend, EngineConfig } from './engine';
import { assertBits, type Bits } from './fingerprint';
import { BACKENDS } from './native';

export type PresetName = 'SimHashChinese' | 'mysimhash';
export const PRESETS: readonly PresetName[] = ['SimHashChinese', 'mysimhash'];

export interface SimHashOptions {
  /**
   * Reproduce a seed's code bit for bit: `'SimHashChinese'` (the C++ class, 64 bits) or
   * `'mysimhash'` (the Java class, 64 or 128 bits).
   */
  preset?: PresetName;
  /** Fingerprint width: 64 (default) or 128. */
  bits?: Bits;
  /** Engine for this instance; defaults to the module's `backend`. */
  backend?: Backend;
}

const OPTION_NAMES = ['preset', 'bits', 'backend'] as const;

export function assertOptionObject(options: unknown, name: string, valid: readonly string[]): Record<string, unknown> {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${name} must be an object, got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!valid.includes(key)) {
      throw new TypeError(`unknown option '${key}' in ${name}; valid options are ${listOf(valid)}`);
    }
  }
  return options as Record<string, unknown>;
}

export function resolveBackend(value: unknown, fallback: Backend): Backend {
  if (value === undefined) return fallback;
  if (!BACKENDS.includes(value as Backend)) {
    throw new TypeError(`backend must be one of ${listOf(BACKENDS)}, got ${describe(value)}`);
  }
  return value as Backend;
}

export interface ResolvedSimHashOptions extends EngineConfig {
  backend: Backend;
}

export function resolveSimHashOptions(input: unknown, defaultBackend: Backend): ResolvedSimHashOptions | { preset: undefined; bits: Bits; backend: Backend } {
  const options = assertOptionObject(input, 'SimHash options', OPTION_NAMES);
  const preset = options.preset;
  if (preset !== undefined && !PRESETS.includes(preset as PresetName)) {
    throw new TypeError(`unknown preset ${describe(preset)}; valid presets are ${listOf(PRESETS)}`);
  }
  const bits = options.bits ?? 64;
  assertBits(bits);
  if (preset === 'SimHashChinese' && bits !== 64) {
    throw new RangeError(`preset 'SimHashChinese' is 64-bit only (the seed's class), got bits ${bits}`);
  }
  return { preset: preset as PresetName | undefined, bits, backend: resolveBackend(options.backend, defaultBackend) } as ResolvedSimHashOptions;
}

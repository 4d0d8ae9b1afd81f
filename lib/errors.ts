/** Error codes thrown by simhash-zh (`err.code`), stable across versions. */
export type ErrorCode =
  | 'SIMHASH_ZH_NATIVE_UNAVAILABLE'
  | 'SIMHASH_ZH_NOT_IMPLEMENTED'
  | 'SIMHASH_ZH_INDEX_CORRUPT'
  | 'SIMHASH_ZH_INDEX_TRUNCATED'
  | 'SIMHASH_ZH_INDEX_VERSION'
  | 'SIMHASH_ZH_DICT_CORRUPT'
  | 'SIMHASH_ZH_DICT_VERSION'
  | 'SIMHASH_ZH_DICT_PARSE'
  | 'SIMHASH_ZH_DICT_IO';

export class SimHashError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SimHashError';
    this.code = code;
  }
}

/** A readable list of the valid values, for error messages. */
export function listOf(values: readonly (string | number)[]): string {
  return values.map((value) => (typeof value === 'string' ? `'${value}'` : String(value))).join(', ');
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
  if (typeof value === 'bigint') return `bigint ${value}n`;
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

export function assertText(text: unknown, name = 'text'): asserts text is string {
  if (typeof text !== 'string') {
    throw new TypeError(`${name} must be a string, got ${describe(text)}`);
  }
}

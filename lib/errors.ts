/** Error codes thrown by simhash-zh (`err.code`), stable across versions. */
export type ErrorCode =
  | 'SIMHASH_ZH_NATIVE_UNAVAILABLE'
  | 'SIMHASH_ZH_NOT_IMPLEMENTED'
  | 'SIMHASH_ZH_INDEX_CORRUPT'
  | 'SIMHASH_ZH_INDEX_TRUNCATED'
  | 'SIMHASH_ZH_INDEX_VERSION'
  | 'SIMHASH_ZH_INDEX_IO'
  | 'SIMHASH_ZH_DICT_CORRUPT'
  | 'SIMHASH_ZH_DICT_VERSION'
  | 'SIMHASH_ZH_DICT_PARSE'
  | 'SIMHASH_ZH_DICT_ENCODING'
  | 'SIMHASH_ZH_DICT_IO';

/**
 * Codes of argument errors (`err.code` on the `TypeError`/`RangeError` a call throws), the codes
 * Node's own APIs use: a wrong type, a value of the right type that is not allowed, a number out of
 * range. Stable across versions; the messages are not.
 */
export type ArgumentErrorCode = 'ERR_INVALID_ARG_TYPE' | 'ERR_INVALID_ARG_VALUE' | 'ERR_OUT_OF_RANGE';

export class SimHashError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SimHashError';
    this.code = code;
  }
}

/** An argument error: the class and message as given, with `code` as an own enumerable property (as Node's). */
function withCode<E extends Error, C extends ArgumentErrorCode>(error: E, code: C): E & { readonly code: C } {
  Object.defineProperty(error, 'code', { value: code, enumerable: true, writable: true, configurable: true });
  return error as E & { readonly code: C };
}

/** A wrong type (a string where a number belongs, null for an object): `TypeError`, `ERR_INVALID_ARG_TYPE`. */
export function invalidType(message: string): TypeError & { readonly code: 'ERR_INVALID_ARG_TYPE' } {
  return withCode(new TypeError(message), 'ERR_INVALID_ARG_TYPE');
}

/**
 * A value of the right type that is not allowed (an unknown option or preset, an enum value, an empty
 * word): `TypeError` (or `RangeError` where that has always been the class), `ERR_INVALID_ARG_VALUE`.
 */
export function invalidValue(
  message: string,
  ErrorClass: TypeErrorConstructor | RangeErrorConstructor = TypeError,
): (TypeError | RangeError) & { readonly code: 'ERR_INVALID_ARG_VALUE' } {
  return withCode(new ErrorClass(message), 'ERR_INVALID_ARG_VALUE');
}

/** A number (or bigint) outside its range: `RangeError`, `ERR_OUT_OF_RANGE`. */
export function outOfRange(message: string): RangeError & { readonly code: 'ERR_OUT_OF_RANGE' } {
  return withCode(new RangeError(message), 'ERR_OUT_OF_RANGE');
}

/**
 * One message, the code by the value's type: of the expected `type` (so its value is what is wrong)
 * `ofRightType(message)`, by default ERR_INVALID_ARG_VALUE; of another type ERR_INVALID_ARG_TYPE.
 */
export function badArgument(value: unknown, type: 'string' | 'number', message: string,
  ofRightType: (message: string) => TypeError | RangeError = invalidValue): TypeError | RangeError {
  return typeof value === type ? ofRightType(message) : invalidType(message);
}

/**
 * One of a fixed set of values: not one of their types → ERR_INVALID_ARG_TYPE, the right type but
 * not in the set → ERR_INVALID_ARG_VALUE. Both are `TypeError`s with the given message.
 */
export function notOneOf(value: unknown, valid: readonly unknown[], message: string): TypeError {
  const types = new Set(valid.map((v) => typeof v));
  return types.has(typeof value) ? invalidValue(message) : invalidType(message);
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
    throw invalidType(`${name} must be a string, got ${describe(text)}`);
  }
}

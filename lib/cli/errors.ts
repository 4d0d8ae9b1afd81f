// CLI errors and their exit codes: 1 for bad input (a file, a record, the data), 2 for usage.

/** Exit codes of `simhash-zh`. */
export const EXIT_OK = 0;
export const EXIT_INPUT = 1;
export const EXIT_USAGE = 2;

/** A bad command line: the message, then the command's usage (exit 2). */
export class UsageError extends Error {
  readonly exitCode = EXIT_USAGE;
  constructor(
    message: string,
    /** The command whose usage to show, or undefined for the top-level usage. */
    readonly command?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Bad input: a missing file, a malformed record, an unavailable engine (exit 1). */
export class InputError extends Error {
  readonly exitCode = EXIT_INPUT;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InputError';
  }
}

const ERRNO_TEXT: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a component of the path is not a directory',
  EMFILE: 'too many open files',
  ELOOP: 'too many symbolic links',
};

/** "cannot read 'x': no such file or directory" for a file-system error. */
export function fileError(name: string, error: unknown): InputError {
  const code = (error as { code?: unknown } | null)?.code;
  const reason = typeof code === 'string' && ERRNO_TEXT[code] !== undefined ? ERRNO_TEXT[code] : (error as Error)?.message ?? String(error);
  return new InputError(`cannot read '${name}': ${reason}`, { cause: error });
}

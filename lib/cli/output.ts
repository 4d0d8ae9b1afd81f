// Output: JSONL (one JSON value per line) or TSV (tab-separated columns, no header), written in
// chunks that respect the stream's backpressure.
import { once } from 'node:events';
import type { Writable } from 'node:stream';

export type OutputFormat = 'jsonl' | 'tsv';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['jsonl', 'tsv'];

const CHUNK_CHARS = 1 << 16;

/** A TSV cell: backslash, tab, newline and carriage return escaped as \\, \t, \n, \r. */
export function tsvCell(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : text;
}

export class Output {
  private parts: string[] = [];
  private chars = 0;

  constructor(
    private readonly stream: Writable,
    readonly format: OutputFormat,
  ) {}

  /** Writes one line as is (no formatting). */
  async raw(line: string): Promise<void> {
    this.parts.push(line, '\n');
    this.chars += line.length + 1;
    if (this.chars >= CHUNK_CHARS) await this.flush();
  }

  /** Writes one row: `json` as a JSON line, or `columns` as a TSV line. */
  async row(json: unknown, columns: () => readonly unknown[]): Promise<void> {
    await this.raw(this.format === 'jsonl' ? JSON.stringify(json) : columns().map(tsvCell).join('\t'));
  }

  /** Hands the buffered lines to the stream; waits for 'drain' when the stream asks to. */
  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const chunk = this.parts.join('');
    this.parts = [];
    this.chars = 0;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }
}

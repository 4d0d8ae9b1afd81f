// The progress bar on stderr: records, megabytes, rate, and a bar with an ETA when the input size
// is known. Redrawn at most five times a second on one line; erased when done.
import type { InputStats } from './input';

const REDRAW_MS = 200;

function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function formatMB(bytes: number): string {
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(0)} kB`;
  if (bytes >= 1e10) return `${(bytes / 1e9).toFixed(1)} GB`;
  return `${(bytes / 1e6).toFixed(bytes < 1e8 ? 1 : 0)} MB`;
}

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

export class Progress {
  private readonly started = Date.now();
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly stream: NodeJS.WriteStream | NodeJS.WritableStream,
    readonly enabled: boolean,
    private readonly label: string,
    private readonly stats: InputStats,
  ) {}

  /** Redraws when enough time has passed (cheap to call per batch). */
  tick(): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    this.draw(now);
  }

  /** The current line, as drawn. */
  line(now = Date.now()): string {
    const { records, bytes, totalBytes } = this.stats;
    const seconds = Math.max((now - this.started) / 1000, 1e-3);
    const parts = [
      this.label,
      `${formatCount(records)} records`,
      totalBytes === undefined ? formatMB(bytes) : `${formatMB(bytes)} / ${formatMB(totalBytes)}`,
      `${formatCount(records / seconds)} rec/s`,
      `${(bytes / 1e6 / seconds).toFixed(1)} MB/s`,
    ];
    if (totalBytes !== undefined && totalBytes > 0) {
      const fraction = Math.min(bytes / totalBytes, 1);
      const width = 20;
      const filled = Math.round(fraction * width);
      const rate = bytes / seconds;
      parts.push(`[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.floor(fraction * 100)}%`);
      parts.push(`ETA ${formatDuration(rate > 0 ? (totalBytes - bytes) / rate : Infinity)}`);
    } else {
      parts.push(`elapsed ${formatDuration(seconds)}`);
    }
    return parts.join('  ');
  }

  private draw(now: number): void {
    this.stream.write(`\r\x1b[K${this.line(now)}`);
    this.drawn = true;
  }

  /** Erases the bar, so that messages that follow start on a clean line. */
  clear(): void {
    if (this.enabled && this.drawn) {
      this.stream.write('\r\x1b[K');
      this.drawn = false;
    }
  }
}

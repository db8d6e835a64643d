import type { LogEntry } from './logger';

/**
 * The latest log lines kept in memory for `GET /api/log` (go2rtc's web UI and the console read
 * them): one JSON object per line, `{level, time, message, module, ...fields}` as go2rtc's
 * zerolog writes them, the oldest dropped once the lines pass `limitBytes`.
 */
export class MemoryLog {
  private lines: string[] = [];
  private bytes = 0;

  constructor(private readonly limitBytes = 512 * 1024) {}

  record(entry: LogEntry): void {
    const line = JSON.stringify({
      level: entry.level,
      time: entry.time.toISOString(),
      ...(entry.scope ? { module: entry.scope } : {}),
      ...entry.fields,
      message: entry.message,
    });
    this.lines.push(line);
    this.bytes += line.length + 1;
    while (this.bytes > this.limitBytes && this.lines.length > 1) this.bytes -= this.lines.shift()!.length + 1;
  }

  /** Every kept line, oldest first, each ending in a newline. */
  text(): string {
    return this.lines.map((line) => `${line}\n`).join('');
  }

  clear(): void {
    this.lines = [];
    this.bytes = 0;
  }
}

// A structured logger created once at start and handed to every module (no global logger).
// Field values whose key names a secret are masked, so credentials never reach a log line.

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

type LogFields = Record<string, unknown>;

/** One log line as the logger made it (message and fields already redacted). */
export interface LogEntry {
  time: Date;
  level: LogLevel;
  scope?: string;
  message: string;
  fields?: LogFields;
}

export interface Logger {
  trace(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger whose lines carry `scope` (e.g. `relay.rtsp`). */
  child(scope: string): Logger;
}

export interface LogSink {
  write(line: string): void;
}

const LEVEL_ORDER: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4 };

const SECRET_KEY = /pass(word)?|secret|token|authorization|credential|cookie|sk$|private_?key/i;

/** Masks secret-looking fields and credentials embedded in URLs (`rtsp://user:pass@host`). */
function redactFields(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [key, value] of Object.entries(fields)) {
    if (SECRET_KEY.test(key)) out[key] = '***';
    else if (typeof value === 'string') out[key] = redactUrlCredentials(value);
    else if (value instanceof Error) out[key] = value.message;
    else out[key] = value;
  }
  return out;
}

export function redactUrlCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)([^/@\s:]+)(:[^/@\s]*)?@/gi, '$1***@');
}

export interface LoggerOptions {
  level?: LogLevel;
  sink?: LogSink;
  /** Also hands each line, structured, to a keeper of recent lines (GET /api/log). */
  tap?: (entry: LogEntry) => void;
  scope?: string;
  clock?: () => Date;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const sink = options.sink ?? { write: (line) => process.stderr.write(line + '\n') };
  const clock = options.clock ?? (() => new Date());
  const scope = options.scope;

  const emit = (at: LogLevel, message: string, fields?: LogFields): void => {
    if (LEVEL_ORDER[at] < LEVEL_ORDER[level]) return;
    const time = clock();
    const safeMessage = redactUrlCredentials(message);
    const safeFields = fields && Object.keys(fields).length > 0 ? redactFields(fields) : undefined;
    const parts = [time.toISOString(), at.toUpperCase().padEnd(5)];
    if (scope) parts.push(`[${scope}]`);
    parts.push(safeMessage);
    if (safeFields) parts.push(JSON.stringify(safeFields));
    sink.write(parts.join(' '));
    options.tap?.({ time, level: at, ...(scope ? { scope } : {}), message: safeMessage, ...(safeFields ? { fields: safeFields } : {}) });
  };

  return {
    trace: (m, f) => emit('trace', m, f),
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (child) =>
      createLogger({ level, sink, clock, scope: scope ? `${scope}.${child}` : child, ...(options.tap ? { tap: options.tap } : {}) }),
  };
}

/** A logger that keeps its lines in memory: for tests that assert on what was (not) logged. */
export function createMemoryLogger(level: LogLevel = 'trace'): Logger & { lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({ level, sink: { write: (line) => lines.push(line) } });
  return Object.assign(logger, { lines });
}

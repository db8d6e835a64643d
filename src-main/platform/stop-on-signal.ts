/** What a process does with SIGINT and SIGTERM, from the moment it starts. */
export interface SignalStop {
  /** The process is up: `stop` closes it. A signal that came while it started stops it now. */
  started(stop: () => Promise<void>): void;
  /** SIGINT or SIGTERM came (exported for tests; `installSignalStop` wires it to the process). */
  signal(name: string): void;
}

export interface SignalStopOptions {
  exit(code: number): void;
  /** Told once per signal that changes something, e.g. "stopping" or "stop took too long". */
  note(message: string, fields: Record<string, unknown>): void;
  /** How long a clean stop may take before the process exits anyway (ms). */
  graceMs?: number;
}

/** Sockets, children and SQLite files close in well under a second; ten leaves room for a busy machine. */
const DEFAULT_GRACE_MS = 10_000;

/**
 * SIGINT/SIGTERM for a long-running process: the first signal closes it cleanly and exits 0; a
 * signal during start-up stops it as soon as it is up; a close that hangs (a peer that never
 * answers, a child that ignores its own SIGTERM) or a second signal exits anyway (1), so a
 * service manager's stop is never ignored.
 */
export function createSignalStop(options: SignalStopOptions): SignalStop {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  let stopFn: (() => Promise<void>) | undefined;
  let asked: string | undefined;
  let stopping = false;

  const stopNow = (signal: string, stop: () => Promise<void>) => {
    stopping = true;
    options.note('stopping', { signal });
    const deadline = setTimeout(() => {
      options.note('stop took too long; exiting anyway', { graceMs });
      options.exit(1);
    }, graceMs);
    deadline.unref();
    void stop().then(
      () => {
        clearTimeout(deadline);
        options.exit(0);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        options.note('stop failed', { error: (error as Error).message });
        options.exit(1);
      },
    );
  };

  return {
    started(stop) {
      stopFn = stop;
      if (asked !== undefined) stopNow(asked, stop);
    },
    signal(name) {
      if (stopping || (asked !== undefined && !stopFn)) {
        options.note('second signal; exiting at once', { signal: name });
        return options.exit(1);
      }
      asked = name;
      if (stopFn) stopNow(name, stopFn);
    },
  };
}

/** The same, wired to this process's SIGINT and SIGTERM. Install it first thing, before starting. */
export function installSignalStop(options: SignalStopOptions): SignalStop {
  const signals = createSignalStop(options);
  process.on('SIGINT', () => signals.signal('SIGINT'));
  process.on('SIGTERM', () => signals.signal('SIGTERM'));
  return signals;
}

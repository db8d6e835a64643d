import { describe, expect, it } from 'vitest';
import { createSignalStop } from './stop-on-signal';

function harness(graceMs = 50) {
  const exits: number[] = [];
  const notes: string[] = [];
  let exited: (code: number) => void = () => undefined;
  const exitCode = new Promise<number>((resolve) => (exited = resolve));
  const signals = createSignalStop({
    graceMs,
    exit: (code) => {
      exits.push(code);
      exited(code);
    },
    note: (message) => notes.push(message),
  });
  return { signals, exits, notes, exitCode };
}

describe('createSignalStop', () => {
  it('closes cleanly on the first signal and exits 0', async () => {
    const { signals, exitCode, notes } = harness();
    let closed = false;
    signals.started(async () => void (closed = true));
    signals.signal('SIGTERM');
    expect(await exitCode).toBe(0);
    expect(closed).toBe(true);
    expect(notes).toEqual(['stopping']);
  });

  it('stops a process that was asked to while it started, once it is up', async () => {
    const { signals, exitCode, exits } = harness();
    signals.signal('SIGINT');
    expect(exits).toEqual([]);
    let closed = false;
    signals.started(async () => void (closed = true));
    expect(await exitCode).toBe(0);
    expect(closed).toBe(true);
  });

  it('exits anyway when the close hangs past the grace time', async () => {
    const { signals, exitCode, notes } = harness(20);
    signals.started(() => new Promise<void>(() => undefined));
    signals.signal('SIGTERM');
    expect(await exitCode).toBe(1);
    expect(notes).toContain('stop took too long; exiting anyway');
  });

  it('exits at once on a second signal while stopping, or while a start hangs', async () => {
    const stopping = harness(10_000);
    stopping.signals.started(() => new Promise<void>(() => undefined));
    stopping.signals.signal('SIGTERM');
    stopping.signals.signal('SIGINT');
    expect(stopping.exits).toEqual([1]);

    const starting = harness(10_000);
    starting.signals.signal('SIGTERM');
    starting.signals.signal('SIGTERM');
    expect(starting.exits).toEqual([1]);
  });

  it('exits 1 with the reason when the close fails', async () => {
    const { signals, exitCode, notes } = harness();
    signals.started(() => Promise.reject(new Error('disk gone')));
    signals.signal('SIGTERM');
    expect(await exitCode).toBe(1);
    expect(notes).toContain('stop failed');
  });
});

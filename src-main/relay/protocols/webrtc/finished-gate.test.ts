import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FinishedGate } from './finished-gate';

describe('FinishedGate', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('starts at once when the Finished has already left (the relay was DTLS client)', () => {
    const gate = new FinishedGate(250);
    const start = vi.fn();
    gate.finishedSent();
    gate.connected(true, start);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts at once when media goes through werift, behind the Finished', () => {
    const start = vi.fn();
    new FinishedGate(250).connected(false, start);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('holds direct media until the Finished leaves, then starts once', () => {
    const gate = new FinishedGate(250);
    const start = vi.fn();
    gate.connected(true, start);
    vi.advanceTimersByTime(100);
    expect(start).not.toHaveBeenCalled();
    gate.finishedSent();
    expect(start).toHaveBeenCalledTimes(1);
    gate.finishedSent();
    vi.advanceTimersByTime(1_000);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts after its wait when no Finished is seen, and never after close', () => {
    const gate = new FinishedGate(250);
    const late = vi.fn();
    gate.connected(true, late);
    vi.advanceTimersByTime(249);
    expect(late).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(late).toHaveBeenCalledTimes(1);

    const closed = new FinishedGate(250);
    const never = vi.fn();
    closed.connected(true, never);
    closed.close();
    closed.finishedSent();
    vi.advanceTimersByTime(1_000);
    expect(never).not.toHaveBeenCalled();
  });
});

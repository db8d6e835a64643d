import { describe, expect, it } from 'vitest';
import { graphDateTimeToUtcMs, overlapsWindow } from './event-time';

describe('graphDateTimeToUtcMs', () => {
  it('reads Graph UTC times with seven fraction digits', () => {
    expect(graphDateTimeToUtcMs({ dateTime: '2025-03-01T10:00:00.0000000', timeZone: 'UTC' })).toBe(Date.UTC(2025, 2, 1, 10));
    expect(graphDateTimeToUtcMs({ dateTime: '2025-03-01T10:00:00.1234567', timeZone: 'UTC' })).toBe(Date.UTC(2025, 2, 1, 10, 0, 0, 123));
    expect(graphDateTimeToUtcMs({ dateTime: '2025-03-01T10:00' })).toBe(Date.UTC(2025, 2, 1, 10));
  });

  it('honours an explicit offset and converts IANA zones across daylight saving', () => {
    expect(graphDateTimeToUtcMs({ dateTime: '2025-03-01T10:00:00+02:00', timeZone: 'UTC' })).toBe(Date.UTC(2025, 2, 1, 8));
    expect(graphDateTimeToUtcMs({ dateTime: '2025-01-15T09:00:00', timeZone: 'Europe/Paris' })).toBe(Date.UTC(2025, 0, 15, 8));
    expect(graphDateTimeToUtcMs({ dateTime: '2025-07-15T09:00:00', timeZone: 'Europe/Paris' })).toBe(Date.UTC(2025, 6, 15, 7));
    expect(graphDateTimeToUtcMs({ dateTime: '2025-07-15T09:00:00', timeZone: 'America/New_York' })).toBe(Date.UTC(2025, 6, 15, 13));
  });

  it('answers null for what it cannot place', () => {
    expect(graphDateTimeToUtcMs(undefined)).toBeNull();
    expect(graphDateTimeToUtcMs({ dateTime: 'tomorrow', timeZone: 'UTC' })).toBeNull();
    expect(graphDateTimeToUtcMs({ dateTime: '2025-03-01T10:00:00', timeZone: 'Pacific Standard Time' })).toBeNull();
  });
});

describe('overlapsWindow', () => {
  const [ws, we] = [100, 200];
  it('keeps events that overlap the window, end exclusive', () => {
    expect(overlapsWindow(50, 150, ws, we)).toBe(true);
    expect(overlapsWindow(150, 250, ws, we)).toBe(true);
    expect(overlapsWindow(50, 100, ws, we)).toBe(false);
    expect(overlapsWindow(200, 250, ws, we)).toBe(false);
  });
  it('places a zero-length event by its instant', () => {
    expect(overlapsWindow(100, 100, ws, we)).toBe(true);
    expect(overlapsWindow(200, 200, ws, we)).toBe(false);
  });
});

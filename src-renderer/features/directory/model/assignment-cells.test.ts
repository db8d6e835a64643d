import { describe, expect, it } from 'vitest';
import { pageRangeText, scheduleText, targetText } from './assignment-cells';

describe('assignment cells', () => {
  it('names the target by name and sign-in name, falling back to its id', () => {
    expect(targetText({ displayName: 'Alice', principalName: 'alice@contoso.com', objectId: 'o1' })).toBe('Alice (alice@contoso.com)');
    expect(targetText({ email: 'guest@fabrikam.com' })).toBe('guest@fabrikam.com');
    expect(targetText({ objectId: 'o1' })).toBe('o1');
    expect(targetText(null)).toBe('—');
  });

  it('says when access started and ends', () => {
    const day = (iso: string) => iso.slice(0, 10);
    expect(scheduleText({ startDateTime: '2026-03-01T10:00:00Z', expiration: { type: 'afterDuration', duration: 'P365D' } }, day)).toBe(
      'From 2026-03-01 · ends after 365 days',
    );
    expect(
      scheduleText(
        { startDateTime: '2026-03-01T10:00:00Z', expiration: { type: 'afterDateTime', endDateTime: '2026-06-01T00:00:00Z' } },
        day,
      ),
    ).toBe('From 2026-03-01 · ends 2026-06-01');
    expect(scheduleText({ expiration: { type: 'noExpiration' } }, day)).toBe('no end');
    expect(scheduleText(undefined, day)).toBe('—');
  });

  it('shows where a page sits in the list', () => {
    expect(pageRangeText(0, 50, 50, 123)).toBe('1–50 of 123');
    expect(pageRangeText(2, 50, 23, 123)).toBe('101–123 of 123');
    expect(pageRangeText(1, 25, 25, null)).toBe('26–50');
    expect(pageRangeText(0, 50, 0, 0)).toBe('No assignments');
  });
});

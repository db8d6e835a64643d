import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration } from './format';

describe('formatDuration', () => {
  it('reads like a person would say it', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(42.9)).toBe('42 s');
    expect(formatDuration(125)).toBe('2 min 5 s');
    expect(formatDuration(3725)).toBe('1 h 2 min');
    expect(formatDuration(3 * 86400 + 7200)).toBe('3 d 2 h');
  });
});

describe('formatBytes', () => {
  it('uses binary units with one decimal below ten', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(5_000_000)).toBe('4.8 MiB');
    expect(formatBytes(300 * 1024 ** 3)).toBe('300 GiB');
  });
});

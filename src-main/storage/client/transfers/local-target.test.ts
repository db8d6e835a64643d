import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freeName, localTarget, safeSegment } from './local-target';

describe('download targets', () => {
  it('keeps the path below the folder the download was chosen in', () => {
    expect(localTarget('/dl', 'media', 'photos/', 'photos/2024/a.jpg')).toBe(join('/dl', 'media', '2024', 'a.jpg'));
    expect(localTarget('/dl', 'media', '', 'a.jpg')).toBe(join('/dl', 'media', 'a.jpg'));
  });

  it('never leaves the downloads folder, whatever the key holds', () => {
    const target = localTarget('/dl', 'media', '', '../../etc/passwd');
    expect(target).toBe(join('/dl', 'media', '_', '_', 'etc', 'passwd'));
    expect(localTarget('/dl', 'media', '', 'a//b/./c')).toBe(join('/dl', 'media', 'a', '_', 'b', '_', 'c'));
    expect(localTarget('/dl', '..', '', 'x')).toBe(join('/dl', '_', 'x'));
  });

  it('replaces characters file systems refuse', () => {
    expect(safeSegment('a:b?c*.txt')).toBe('a_b_c_.txt');
    expect(safeSegment('trailing. ')).toBe('trailing__');
    expect(safeSegment('x'.repeat(300))).toHaveLength(255);
  });

  it('numbers a name that is taken, before its extension', () => {
    const taken = new Set(['/dl/a.jpg', '/dl/a (1).jpg']);
    expect(freeName('/dl/a.jpg', (p) => taken.has(p))).toBe('/dl/a (2).jpg');
    expect(freeName('/dl/README', (p) => p === '/dl/README')).toBe('/dl/README (1)');
    expect(freeName('/dl/.hidden', (p) => p === '/dl/.hidden')).toBe('/dl/.hidden (1)');
    expect(freeName('/dl/new.txt', () => false)).toBe('/dl/new.txt');
  });
});

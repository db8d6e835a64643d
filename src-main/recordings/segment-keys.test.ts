import { describe, expect, it } from 'vitest';
import { dayFolders, segmentKey, segmentStart } from './segment-keys';

describe('segment keys', () => {
  it('names a segment by its UTC start, so keys sort by time, and reads it back', () => {
    const start = Date.parse('2026-11-27T08:15:03.250Z');
    expect(segmentKey('recordings/cam/', start)).toBe('recordings/cam/2026-11-27/08-15-03.250Z.mp4');
    expect(segmentStart('recordings/cam/', 'recordings/cam/2026-11-27/08-15-03.250Z.mp4')).toBe(start);
    const keys = [0, 999, 1000, 59_999, 3_600_000].map((ms) => segmentKey('p/', start + ms));
    expect([...keys].sort()).toEqual(keys);
  });

  it('reads only keys that are exactly segments of the prefix', () => {
    for (const key of [
      'recordings/other/2026-11-27/08-15-03.250Z.mp4',
      'recordings/cam/2026-11-27/08-15-03.250Z.mp4.part',
      'recordings/cam/2026-02-30/08-15-03.250Z.mp4',
      'recordings/cam/2026-11-27/24-15-03.250Z.mp4',
      'recordings/cam/../../secret/2026-11-27/08-15-03.250Z.mp4',
      'recordings/cam/2026-11-27/08-15-03Z.mp4',
      'recordings/cam/',
    ]) {
      expect(segmentStart('recordings/cam/', key), key).toBeUndefined();
    }
  });

  it('lists the day folders a range can have segments in, from an hour before it', () => {
    expect(dayFolders('p/', Date.parse('2026-11-27T00:30:00Z'), Date.parse('2026-11-28T10:00:00Z'))).toEqual([
      'p/2026-11-26/',
      'p/2026-11-27/',
      'p/2026-11-28/',
    ]);
  });
});

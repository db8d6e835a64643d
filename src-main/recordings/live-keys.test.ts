import { describe, expect, it } from 'vitest';
import { clipKey, snapshotKey } from './live-keys';

const at = Date.UTC(2026, 10, 27, 8, 15, 3, 250);

describe('keys of live snapshots and clips', () => {
  it('puts a snapshot under <prefix>snapshots/<stream>/ named by its UTC time', () => {
    expect(snapshotKey('recordings/cam/', 'cam', at)).toBe('recordings/cam/snapshots/cam/2026-11-27T08-15-03.250Z.jpg');
    expect(snapshotKey('', 'door', at)).toBe('snapshots/door/2026-11-27T08-15-03.250Z.jpg');
  });

  it('puts a clip under <prefix>clips/<stream>/ named by its end', () => {
    expect(clipKey('', 'cam', at)).toBe('clips/cam/2026-11-27T08-15-03.250Z.mp4');
  });

  it('keeps a stream name with a slash in one folder', () => {
    expect(snapshotKey('', 'site/door', at)).toBe('snapshots/site_door/2026-11-27T08-15-03.250Z.jpg');
  });

  it('sorts keys of one stream by time', () => {
    const keys = [at + 1000, at, at + 60_000].map((ms) => clipKey('', 'cam', ms));
    expect([...keys].sort()).toEqual([keys[1], keys[0], keys[2]]);
  });
});

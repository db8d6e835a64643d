import { describe, expect, it } from 'vitest';
import { vodPlaylist } from './vod-playlist';

const T0 = Date.UTC(2026, 10, 27, 8, 0, 0);
const urls = { init: (key: string) => `init?key=${key}`, media: (key: string, t: number) => `media?key=${key}&t=${t}` };

describe('VOD playlist', () => {
  it('lists the segments oldest first on one timeline, each with its time of day, and ends the list', () => {
    const text = vodPlaylist(
      [
        { key: 'a', startMs: T0, durationMs: 4000, initId: 'x' },
        { key: 'b', startMs: T0 + 4000, durationMs: 4200, initId: 'x' },
        // An hour later: the timeline goes on where it was; only the time of day jumps.
        { key: 'c', startMs: T0 + 3_600_000, durationMs: 1500, initId: 'x' },
      ],
      urls,
    );
    expect(text.split('\n')).toEqual([
      '#EXTM3U',
      '#EXT-X-VERSION:7',
      '#EXT-X-TARGETDURATION:5',
      '#EXT-X-PLAYLIST-TYPE:VOD',
      '#EXT-X-MEDIA-SEQUENCE:0',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-MAP:URI="init?key=a"',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-27T08:00:00.000Z',
      '#EXTINF:4.000,',
      'media?key=a&t=0',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-27T08:00:04.000Z',
      '#EXTINF:4.200,',
      'media?key=b&t=4000',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-27T09:00:00.000Z',
      '#EXTINF:1.500,',
      'media?key=c&t=8200',
      '#EXT-X-ENDLIST',
      '',
    ]);
  });

  it('starts a discontinuity with its own init segment where the init segment changes', () => {
    const text = vodPlaylist(
      [
        { key: 'a', startMs: T0, durationMs: 4000, initId: 'x' },
        { key: 'b', startMs: T0 + 4000, durationMs: 4000, initId: 'y' },
      ],
      urls,
    );
    expect(text).toContain('media?key=a&t=0\n#EXT-X-DISCONTINUITY\n#EXT-X-MAP:URI="init?key=b"\n');
    expect(text.match(/#EXT-X-MAP/g)).toHaveLength(2);
  });
});

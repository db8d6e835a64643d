import { describe, expect, it } from 'vitest';
import { masterPlaylist, mediaPlaylist, segmentsToList } from './playlists';
import type { Segment } from './segmenter';
import { describeVariant, playlistCodecs } from './variant';
import { aacCodec, h264Codec } from '../../media/frames/codec-description';

/** A listed segment: `sequence` starting at `start` s, lasting `duration` s. */
const seg = (sequence: number, start: number, duration: number, independent = true, parts: Segment['parts'] = []): Segment => ({
  sequence,
  start,
  duration,
  independent,
  data: new Uint8Array(),
  parts,
});

// An SPS and PPS of libx264 (640x360, High profile).
const sps = Buffer.from('Z2QAHqzZQKAv+WEAAAMAAQAAAwAyDxYtlg==', 'base64');
const pps = Buffer.from('aOvjyyLA', 'base64');

describe('HLS playlists', () => {
  it('writes the master playlist with bandwidth, codecs and resolution from the SPS and AAC config', () => {
    const variant = describeVariant([{ codec: h264Codec(sps, pps), sps }, { codec: aacCodec(Uint8Array.of(0x12, 0x10)) }]);
    // RFC 6381 hex digits may be either case.
    expect(variant).toEqual({ codecs: [expect.stringMatching(/^avc1\.64001e$/i), 'mp4a.40.2'], resolution: { width: 640, height: 360 } });
    expect(
      masterPlaylist({
        codecs: ['avc1.64001e', 'mp4a.40.2'],
        resolution: variant.resolution,
        bandwidth: 1e6,
        uri: 'hls/playlist.m3u8?id=abc',
      }),
    ).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=640x360\nhls/playlist.m3u8?id=abc\n',
    );
    // A codec without a known string leaves CODECS out rather than name it wrong.
    expect(describeVariant([{ codec: { name: 'PCMA', clockRate: 8000, payloadType: 8 } }]).codecs).toEqual([]);
    expect(masterPlaylist({ codecs: [], bandwidth: 1e6, uri: 'x' })).toContain('#EXT-X-STREAM-INF:BANDWIDTH=1000000\nx\n');
    expect(playlistCodecs(['avc1.64001e', 'flac'])).toEqual(['avc1.64001e', 'fLaC']);
  });

  it('writes live media playlists: media sequence of the first listed segment, MAP for fMP4, a date for each segment', () => {
    const segments = [seg(7, 10, 1), seg(8, 11, 1.04)];
    expect(mediaPlaylist({ segments, next: 9, targetDuration: 1, segmentUri: 'segment.ts?id=s&n=' })).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:7\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXTINF:1.000,\nsegment.ts?id=s&n=7\n#EXTINF:1.040,\nsegment.ts?id=s&n=8\n',
    );
    expect(mediaPlaylist({ segments: [], next: 3, targetDuration: 2, segmentUri: 'segment.m4s?id=s&n=', mapUri: 'init.mp4?id=s' })).toBe(
      '#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:3\n#EXT-X-MAP:URI="init.mp4?id=s"\n',
    );
    // Second 0 of the time line was 12:00:00 UTC: segment 7 began at 12:00:10.
    const dated = mediaPlaylist({
      segments,
      next: 9,
      targetDuration: 1,
      segmentUri: 'segment.ts?id=s&n=',
      epochMs: Date.UTC(2030, 0, 1, 12),
    });
    expect(dated).toContain(
      '#EXT-X-PROGRAM-DATE-TIME:2030-01-01T12:00:10.000Z\n#EXTINF:1.000,\nsegment.ts?id=s&n=7\n#EXT-X-PROGRAM-DATE-TIME:2030-01-01T12:00:11.000Z\n#EXTINF:1.040,',
    );
    // A listed segment that begins between keyframes (the session's first ones): no INDEPENDENT-SEGMENTS.
    expect(mediaPlaylist({ segments: [seg(1, 0.3, 0.3, false), ...segments], next: 9, targetDuration: 1, segmentUri: 'x' })).not.toContain(
      'INDEPENDENT-SEGMENTS',
    );
  });

  it('lists at least four segments, more while they span less than three target durations (RFC 8216 6.2.2)', () => {
    const kept = [
      seg(0, 0, 0.3, true),
      seg(1, 0.3, 0.4, false),
      seg(2, 0.7, 0.3, false),
      seg(3, 1, 1),
      seg(4, 2, 1),
      seg(5, 3, 0.5),
      seg(6, 3.5, 1),
    ];
    expect(segmentsToList(kept, 4, 1).map((s) => s.sequence)).toEqual([3, 4, 5, 6]);
    expect(segmentsToList(kept, 4, 2).map((s) => s.sequence)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(segmentsToList(kept.slice(0, 3), 4, 1).map((s) => s.sequence)).toEqual([0, 1, 2]);
    expect(segmentsToList([], 4, 1)).toEqual([]);
  });

  it('writes a Low-Latency HLS playlist: server control, part info, parts of the newest segments and the one being filled, a preload hint', () => {
    const part = (index: number, independent = false) => ({ index, duration: 0.28, independent, data: new Uint8Array() });
    const segments = [
      seg(4, 8, 2, true, [part(0, true), part(1)]),
      seg(5, 10, 2, true, [part(0, true), part(1)]),
      seg(6, 12, 2, true, [part(0, true), part(1)]),
    ];
    const text = mediaPlaylist({
      segments,
      next: 7,
      targetDuration: 2,
      segmentUri: 'segment.m4s?id=s&n=',
      mapUri: 'init.mp4?id=s',
      lowLatency: { partTarget: 0.3, partUri: 'part.m4s?id=s&n=', pendingParts: [part(0, true)] },
    });
    expect(text).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:6',
        '#EXT-X-TARGETDURATION:2',
        '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=0.900',
        '#EXT-X-PART-INF:PART-TARGET=0.300',
        '#EXT-X-MEDIA-SEQUENCE:4',
        '#EXT-X-INDEPENDENT-SEGMENTS',
        '#EXT-X-MAP:URI="init.mp4?id=s"',
        // Segment 4 ends more than 3 target durations (6 s) from the edge: no parts listed.
        '#EXTINF:2.000,',
        'segment.m4s?id=s&n=4',
        '#EXT-X-PART:DURATION=0.280,URI="part.m4s?id=s&n=5&p=0",INDEPENDENT=YES',
        '#EXT-X-PART:DURATION=0.280,URI="part.m4s?id=s&n=5&p=1"',
        '#EXTINF:2.000,',
        'segment.m4s?id=s&n=5',
        '#EXT-X-PART:DURATION=0.280,URI="part.m4s?id=s&n=6&p=0",INDEPENDENT=YES',
        '#EXT-X-PART:DURATION=0.280,URI="part.m4s?id=s&n=6&p=1"',
        '#EXTINF:2.000,',
        'segment.m4s?id=s&n=6',
        '#EXT-X-PART:DURATION=0.280,URI="part.m4s?id=s&n=7&p=0",INDEPENDENT=YES',
        '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="part.m4s?id=s&n=7&p=1"',
        '',
      ].join('\n'),
    );
  });
});

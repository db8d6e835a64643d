import { describe, expect, it } from 'vitest';
import { masterPlaylist, mediaPlaylist } from './playlists';
import { describeVariant, playlistCodecs } from './variant';
import { aacCodec, h264Codec } from '../../media/frames/codec-description';

// An SPS and PPS of libx264 (640x360, High profile).
const sps = Buffer.from('Z2QAHqzZQKAv+WEAAAMAAQAAAwAyDxYtlg==', 'base64');
const pps = Buffer.from('aOvjyyLA', 'base64');

describe('HLS playlists', () => {
  it('writes the master playlist with bandwidth, codecs and resolution from the SPS and AAC config', () => {
    const variant = describeVariant([{ codec: h264Codec(sps, pps), sps }, { codec: aacCodec(Uint8Array.of(0x12, 0x10)) }]);
    // RFC 6381 hex digits may be either case.
    expect(variant).toEqual({ codecs: [expect.stringMatching(/^avc1\.64001e$/i), 'mp4a.40.2'], resolution: { width: 640, height: 360 } });
    expect(masterPlaylist({ codecs: ['avc1.64001e', 'mp4a.40.2'], resolution: variant.resolution, bandwidth: 1e6, uri: 'hls/playlist.m3u8?id=abc' })).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=640x360\nhls/playlist.m3u8?id=abc\n',
    );
    // A codec without a known string leaves CODECS out rather than name it wrong.
    expect(describeVariant([{ codec: { name: 'PCMA', clockRate: 8000, payloadType: 8 } }]).codecs).toEqual([]);
    expect(masterPlaylist({ codecs: [], bandwidth: 1e6, uri: 'x' })).toContain('#EXT-X-STREAM-INF:BANDWIDTH=1000000\nx\n');
    expect(playlistCodecs(['avc1.64001e', 'flac'])).toEqual(['avc1.64001e', 'fLaC']);
  });

  it('writes live media playlists: media sequence of the first listed segment, MAP for fMP4', () => {
    const segments = [
      { sequence: 7, duration: 1, data: new Uint8Array(), parts: [] },
      { sequence: 8, duration: 1.04, data: new Uint8Array(), parts: [] },
    ];
    expect(mediaPlaylist({ segments, next: 9, targetDuration: 1, segmentUri: 'segment.ts?id=s&n=', independent: true })).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:7\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXTINF:1.000,\nsegment.ts?id=s&n=7\n#EXTINF:1.040,\nsegment.ts?id=s&n=8\n',
    );
    expect(mediaPlaylist({ segments: [], next: 3, targetDuration: 2, segmentUri: 'segment.m4s?id=s&n=', mapUri: 'init.mp4?id=s', independent: false })).toBe(
      '#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:3\n#EXT-X-MAP:URI="init.mp4?id=s"\n',
    );
  });

  it('writes a Low-Latency HLS playlist: server control, part info, parts of the newest segments and the one being filled, a preload hint', () => {
    const part = (index: number, independent = false) => ({ index, duration: 0.28, independent, data: new Uint8Array() });
    const segments = [
      { sequence: 4, duration: 2, data: new Uint8Array(), parts: [part(0, true), part(1)] },
      { sequence: 5, duration: 2, data: new Uint8Array(), parts: [part(0, true), part(1)] },
      { sequence: 6, duration: 2, data: new Uint8Array(), parts: [part(0, true), part(1)] },
    ];
    const text = mediaPlaylist({
      segments,
      next: 7,
      targetDuration: 2,
      segmentUri: 'segment.m4s?id=s&n=',
      mapUri: 'init.mp4?id=s',
      independent: true,
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

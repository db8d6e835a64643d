import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countFrames, probe, startRelay, waitFor, type RelayUnderTest } from '../../test/relay-test-kit';
import { parseWebrtcSource } from './webrtc-client';

interface StreamInfo {
  producers: Array<{ protocol?: string; url?: string; medias?: string[]; bytes_recv?: number; remote_addr?: string }>;
  consumers: Array<{ format_name?: string; protocol?: string }>;
}

describe('parseWebrtcSource', () => {
  it('reads WHEP and go2rtc WebSocket URLs as go2rtc users write them', () => {
    expect(parseWebrtcSource('webrtc:http://cam.local:1984/api/webrtc?src=door#format=whep')).toMatchObject({ signalling: 'whep' });
    expect(parseWebrtcSource('webrtc:https://example.com/whep/door').target.href).toBe('https://example.com/whep/door');
    expect(parseWebrtcSource('webrtc:ws://10.0.0.2:1984/api/ws?src=door')).toMatchObject({ signalling: 'ws' });
  });

  it('says what is wrong with a URL it cannot dial', () => {
    expect(() => parseWebrtcSource('webrtc:')).toThrow(
      'not a webrtc: source: expected webrtc:http://host/path (WHEP) or webrtc:ws://host:1984/api/ws?src=name, got (nothing)',
    );
    expect(() => parseWebrtcSource('webrtc:http://h/p#format=kinesis')).toThrow(
      "webrtc: format=kinesis is not supported (WHEP and go2rtc's WebSocket API are)",
    );
    expect(() => parseWebrtcSource('webrtc:rtsp://h/p')).toThrow('webrtc: sources are http(s):// (WHEP) or ws(s):// (go2rtc), not rtsp:');
  });
});

/**
 * A relay pulling a stream from another relay over WebRTC, both ways go2rtc users configure it:
 * WHEP and go2rtc's WebSocket API. What it pulls is read back over RTSP by ffmpeg.
 */
describe('webrtc: sources from a second relay', () => {
  let upstream: RelayUnderTest;
  let relay: RelayUnderTest;
  beforeAll(async () => {
    upstream = await startRelay('  cam: ffmpeg:virtual?video=testsrc&size=320x240&audio#video=h264#audio=opus\n  nothing:\n');
    const base = upstream.api.replace('http://', '');
    relay = await startRelay(
      [
        `  whep: webrtc:http://${base}/api/webrtc?src=cam#format=whep`,
        `  ws: webrtc:ws://${base}/api/ws?src=cam`,
        `  missing: webrtc:http://${base}/api/webrtc?src=nope`,
        `  empty: webrtc:ws://${base}/api/ws?src=nothing`,
        '',
      ].join('\n'),
    );
  }, 60_000);
  afterAll(async () => {
    await relay?.stop();
    await upstream?.stop();
  });

  const info = async (target: RelayUnderTest, name: string) =>
    (await (await fetch(`${target.api}/api/streams?src=${name}`)).json()) as StreamInfo;

  it.each(['whep', 'ws'])(
    '%s: the pulled stream plays over RTSP with the upstream codecs and size',
    async (name) => {
      const streams = await probe(relay.rtspUrl(name));
      expect(streams.map((s) => [s.codec_type, s.codec_name])).toEqual([
        ['video', 'h264'],
        ['audio', 'opus'],
      ]);
      expect(streams[0]).toMatchObject({ width: 320, height: 240 });
      const frames = countFrames(relay.rtspUrl(name), 4);
      // While it is watched: the producer says how it pulls, and the upstream relay counts a WebRTC viewer.
      const producer = await waitFor(async () => {
        const found = (await info(relay, name)).producers[0];
        return found?.bytes_recv && found.bytes_recv > 10_000 ? found : undefined;
      }, 20_000);
      expect(producer).toMatchObject({ protocol: name, medias: ['video, recvonly, H264', 'audio, recvonly, OPUS'] });
      expect((await info(upstream, 'cam')).consumers.some((c) => c.format_name === 'webrtc')).toBe(true);
      expect(await frames).toBeGreaterThan(50);
    },
    60_000,
  );

  it('a WHEP endpoint that refuses fails the dial with its status and words', async () => {
    const response = await fetch(`${relay.api}/api/frame.jpeg?src=missing`);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await response.text()).toContain('WHEP answered 404: stream not found: nope');
  }, 60_000);

  it('a go2rtc server that says error fails the dial with its words', async () => {
    const response = await fetch(`${relay.api}/api/frame.jpeg?src=empty`);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await response.text()).toContain('the server says');
  }, 60_000);

  it('when the consumer goes, the pull ends on both relays', async () => {
    await waitFor(
      async () =>
        (await info(relay, 'whep')).consumers.length === 0 && (await info(relay, 'ws')).consumers.length === 0 ? true : undefined,
      20_000,
    );
    // The relay lets idle sources go; the upstream's viewers then end with their peer connections.
    await waitFor(async () => ((await info(upstream, 'cam')).consumers.length === 0 ? true : undefined), 40_000);
    expect(await (await fetch(`${relay.api}/api/stack`)).text()).not.toContain('webrtc source');
  }, 60_000);
});

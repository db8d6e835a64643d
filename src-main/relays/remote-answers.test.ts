import { describe, expect, it } from 'vitest';
import { parseRemoteInfo, parseRemoteStreams, probedMedias, relayHealth, RemoteAnswerError } from './remote-answers';

/** go2rtc 1.9's /api/streams: a running RTSP camera with one MSE viewer, and a stream never opened. */
const GO2RTC_STREAMS = {
  yard: {
    producers: [
      {
        id: 3,
        format_name: 'rtsp',
        protocol: 'rtsp+tcp',
        remote_addr: '10.0.0.9:554',
        url: 'rtsp://admin:hunter2@10.0.0.9/stream1',
        medias: ['video, recvonly, H264', 'audio, recvonly, MPEG4-GENERIC/16000'],
        receivers: [
          {
            id: 4,
            codec: { codec_name: 'h264', codec_type: 'video', level: 4.1, profile: 'High', width: 1920, height: 1080 },
            childs: [5],
            bytes: 900,
            packets: 10,
          },
          { id: 6, codec: { codec_name: 'aac', codec_type: 'audio', sample_rate: 16000, channels: 1 }, bytes: 100, packets: 4 },
        ],
        bytes_recv: 1_000,
      },
    ],
    consumers: [
      {
        id: 5,
        format_name: 'mse/fmp4',
        protocol: 'ws',
        remote_addr: '192.168.1.7:50123',
        user_agent: 'Mozilla/5.0',
        medias: ['video, sendonly, H264'],
        senders: [{ id: 7, codec: { codec_name: 'h264' }, parent: 4, bytes: 700, packets: 9, drops: 2 }],
        bytes_send: 700,
      },
    ],
  },
  idle: { producers: [{ url: 'ffmpeg:yard#video=mjpeg' }], consumers: null },
};

describe('a remote relay answers, read defensively', () => {
  it("maps go2rtc's /api/streams to the console's summaries, logins masked", () => {
    const streams = parseRemoteStreams(GO2RTC_STREAMS);
    expect(streams.map((s) => s.name)).toEqual(['idle', 'yard']);
    const yard = streams[1]!;
    expect(yard.sources).toEqual(['rtsp://***@10.0.0.9/stream1']);
    expect(yard.producers[0]).toEqual({
      url: 'rtsp://***@10.0.0.9/stream1',
      state: 'running',
      medias: ['video, recvonly, H264', 'audio, recvonly, MPEG4-GENERIC/16000'],
      codecs: [
        { kind: 'video', name: 'h264', profile: 'High', width: 1920, height: 1080 },
        { kind: 'audio', name: 'aac', sampleRate: 16000, channels: 1 },
      ],
      bytesReceived: 1_000,
    });
    expect(yard.consumers).toEqual([
      { protocol: 'ws', remote: '192.168.1.7:50123', medias: ['video, sendonly, H264'], bytesSent: 700, drops: 2 },
    ]);
    expect(streams[0]).toEqual({
      name: 'idle',
      sources: ['ffmpeg:yard#video=mjpeg'],
      producers: [{ url: 'ffmpeg:yard#video=mjpeg', state: 'idle', medias: [], codecs: [], bytesReceived: 0 }],
      consumers: [],
    });
    expect(JSON.stringify(streams)).not.toContain('hunter2');
  });

  it("reads older go2rtc (Frigate's) byte counters and this app's producer states", () => {
    const [cam] = parseRemoteStreams({
      cam: {
        producers: [{ url: 'rtsp://cam/1', state: 'waiting', error: 'dial rtsp://u:p@cam/1: refused', recv: 50 }],
        consumers: [{ send: 7 }],
      },
    });
    expect(cam!.producers[0]).toMatchObject({ state: 'waiting', bytesReceived: 50, error: 'dial rtsp://***@cam/1: refused' });
    expect(cam!.consumers[0]).toMatchObject({ protocol: 'unknown', bytesSent: 7 });
  });

  it('refuses what is no stream list, and skips what is no stream', () => {
    for (const garbage of [null, [], 'streams', 42]) expect(() => parseRemoteStreams(garbage)).toThrow(RemoteAnswerError);
    expect(parseRemoteStreams({ a: 'x', b: 7, c: null, d: { producers: 'no', consumers: [1, null] } })).toEqual([
      { name: 'c', sources: [], producers: [], consumers: [] },
      { name: 'd', sources: [], producers: [], consumers: [] },
    ]);
    expect(() => parseRemoteStreams(Object.fromEntries(Array.from({ length: 5_001 }, (_, i) => [`s${i}`, null])))).toThrow(
      /more than 5000/,
    );
  });

  it('reads /api: version, uptime where told, the RTSP port from rtsp.listen', () => {
    expect(
      parseRemoteInfo({ version: '1.9.14', config_path: '/c.yaml', host: 'x:1984', rtsp: { listen: ':8554', default_query: 'video' } }),
    ).toEqual({
      version: '1.9.14',
      rtspPort: 8554,
    });
    expect(parseRemoteInfo({ version: '1.9.9', rtsp: { listen: '127.0.0.1:18554' }, uptime_seconds: 12 })).toEqual({
      version: '1.9.9',
      rtspPort: 18554,
      uptimeSeconds: 12,
    });
    expect(parseRemoteInfo({ rtsp: { listen: '' } })).toEqual({});
    expect(parseRemoteInfo({ rtsp: { listen: '[::]:9554' } }).rtspPort).toBe(9554);
    expect(parseRemoteInfo({}).rtspPort).toBe(8554);
    expect(() => parseRemoteInfo('ok')).toThrow(RemoteAnswerError);
  });

  it('sums the health of a relay over its streams', () => {
    const health = relayHealth({ version: '1.9.14', rtspPort: 8554 }, parseRemoteStreams(GO2RTC_STREAMS));
    expect(health).toEqual({ version: '1.9.14', streams: 2, producers: 2, consumers: 1, bytesIn: 1_000, bytesOut: 700, rtspPort: 8554 });
  });

  it("reads a probe's medias, or says why there are none", () => {
    expect(probedMedias(GO2RTC_STREAMS.yard)).toEqual({ medias: ['video, recvonly, H264', 'audio, recvonly, MPEG4-GENERIC/16000'] });
    expect(probedMedias({ producers: [{ url: 'rtsp://x', error: 'refused' }] })).toEqual({ medias: [], error: 'refused' });
    expect(probedMedias({ producers: null })).toEqual({ medias: [], error: 'the source answered with no media' });
  });
});

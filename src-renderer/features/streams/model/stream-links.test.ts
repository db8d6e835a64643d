import { describe, expect, it } from 'vitest';
import { playerSnippets, rtspUrl, streamLinks } from './stream-links';

const rtsp = { rtsp: { host: '127.0.0.1', port: 8554, needsLogin: false } };

describe('stream links', () => {
  it('lists every output of a stream with its name escaped', () => {
    const links = streamLinks('http://127.0.0.1:1984/', 'front door', rtsp);
    expect(links.map((link) => [link.id, link.url])).toEqual([
      ['webrtc', 'http://127.0.0.1:1984/api/webrtc?src=front%20door'],
      ['ws', 'ws://127.0.0.1:1984/api/ws?src=front%20door'],
      ['hls', 'http://127.0.0.1:1984/api/stream.m3u8?src=front%20door'],
      ['hls-fmp4', 'http://127.0.0.1:1984/api/stream.m3u8?src=front%20door&mp4'],
      ['mp4', 'http://127.0.0.1:1984/api/stream.mp4?src=front%20door'],
      ['mjpeg', 'http://127.0.0.1:1984/api/stream.mjpeg?src=front%20door'],
      ['rtsp', 'rtsp://127.0.0.1:8554/front%20door'],
      ['frame-jpeg', 'http://127.0.0.1:1984/api/frame.jpeg?src=front%20door'],
      ['frame-mp4', 'http://127.0.0.1:1984/api/frame.mp4?src=front%20door'],
    ]);
    expect(links.every((link) => link.note.length > 10)).toBe(true);
  });

  it('keeps a base path and uses wss behind https', () => {
    const links = streamLinks('https://cams.example/relay', 'a', {});
    expect(links.find((link) => link.id === 'ws')!.url).toBe('wss://cams.example/relay/api/ws?src=a');
    expect(links.find((link) => link.id === 'rtsp')).toBeUndefined();
  });

  it('fills a wildcard RTSP host with the address the console reached the engine by', () => {
    expect(rtspUrl('a', { rtsp: { host: '', port: 8554, needsLogin: false } }, '192.168.1.5')).toBe('rtsp://192.168.1.5:8554/a');
    expect(rtspUrl('a', { rtsp: { host: '0.0.0.0', port: 8554, needsLogin: true } }, 'nvr.local')).toBe(
      'rtsp://user:password@nvr.local:8554/a',
    );
    expect(rtspUrl('a', { rtsp: { host: '::1', port: 9000, needsLogin: false } }, 'x')).toBe('rtsp://[::1]:9000/a');
    expect(
      streamLinks('http://[::1]:1984/', 'a', { rtsp: { host: '::', port: 8554, needsLogin: false } }).find((l) => l.id === 'rtsp')!.url,
    ).toBe('rtsp://[::1]:8554/a');
  });

  it('gives ffplay and VLC lines for RTSP, or for MP4 when the RTSP server is off', () => {
    expect(playerSnippets(streamLinks('http://h:1984/', 'a', rtsp))).toEqual([
      'ffplay -rtsp_transport tcp -fflags nobuffer "rtsp://127.0.0.1:8554/a"',
      'vlc --network-caching=300 "rtsp://127.0.0.1:8554/a"',
    ]);
    expect(playerSnippets(streamLinks('http://h:1984/', 'a', {}))[0]).toBe('ffplay -fflags nobuffer "http://h:1984/api/stream.mp4?src=a"');
  });
});

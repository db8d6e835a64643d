import { describe, expect, it, vi } from 'vitest';
import { relayInChromium, type PeersWindow } from '../../test/chromium-kit';
import { waitFor } from '../../test/relay-test-kit';
import { noteTranscodedAudio } from './opus-for-viewer';

interface StreamInfo {
  producers: Array<{ url?: string; medias?: string[] }>;
  consumers: Array<{ format_name?: string; medias?: string[] }>;
}

describe('noteTranscodedAudio', () => {
  it('titles the audio section and nothing else', () => {
    const answer = 'v=0\r\ns=-\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=mid:0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=mid:1\r\n';
    expect(noteTranscodedAudio(answer, 'MPEG4-GENERIC')).toBe(
      'v=0\r\ns=-\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=mid:0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\ni=audio transcoded from AAC to Opus by ffmpeg\r\na=mid:1\r\n',
    );
  });
});

/**
 * A camera's AAC audio reaches Chromium as Opus: only for viewers that ask for audio, through
 * one ffmpeg the stream's viewers share, which stops with the last of them; the answer says so.
 */
describe('AAC streams to WebRTC viewers', () => {
  const live = relayInChromium('  cam: ffmpeg:virtual?video=testsrc&size=320x240&audio#video=h264#audio=aac\n');
  const info = async () => (await (await fetch(`${live.relay.api}/api/streams?src=cam`)).json()) as StreamInfo;
  const transcoders = async () => (await info()).producers.filter((p) => p.url === 'ffmpeg:cam#audio=opus');

  /** A viewer in the page (video, and audio when asked); resolves with the answer once it plays, the peer kept as `window[name]`. */
  const watch = (name: string, audio: boolean) =>
    live.page.evaluate(
      async ({ url, name, audio }) => {
        const { peers } = window as unknown as PeersWindow;
        const { pc, video, answer, status } = await peers.offer(url, { audio });
        await pc.setRemoteDescription({ type: 'answer', sdp: answer });
        await peers.played(video);
        (window as unknown as Record<string, RTCPeerConnection>)[name] = pc;
        // Chromium decodes (and measures) received audio only while something plays it.
        video.muted = false;
        return { status, answer };
      },
      { url: `${live.relay.api}/api/webrtc?src=cam`, name, audio },
    );

  /** Audio Chromium received and decoded for a viewer: packets, and the level of what it heard. */
  const heard = (name: string) =>
    live.page.evaluate(async (name) => {
      const pc = (window as unknown as Record<string, RTCPeerConnection>)[name]!;
      const stats = await pc.getStats();
      let audio = { packetsReceived: 0, totalAudioEnergy: 0, codec: '' };
      stats.forEach((report: { type: string; kind?: string; packetsReceived?: number; totalAudioEnergy?: number; codecId?: string }) => {
        if (report.type === 'inbound-rtp' && report.kind === 'audio') {
          const codec = stats.get(report.codecId ?? '') as { mimeType?: string } | undefined;
          audio = {
            packetsReceived: report.packetsReceived ?? 0,
            totalAudioEnergy: report.totalAudioEnergy ?? 0,
            codec: codec?.mimeType ?? '',
          };
        }
      });
      return audio;
    }, name);

  it('a viewer that asks for audio gets Opus from one shared ffmpeg, the answer says so, and hears it', async () => {
    const first = await watch('first', true);
    expect(first.status).toBe(201);
    expect(first.answer).toContain('i=audio transcoded from AAC to Opus by ffmpeg');
    expect(first.answer).toMatch(/a=rtpmap:\d+ opus\/48000\/2/i);
    // Until Chromium has received and played enough of it.
    await vi.waitFor(
      async () => {
        const audio = await heard('first');
        expect(audio.codec).toBe('audio/opus');
        expect(audio.packetsReceived).toBeGreaterThan(40);
        // A 1 kHz sine, not silence.
        expect(audio.totalAudioEnergy).toBeGreaterThan(0.01);
      },
      { timeout: 15_000, interval: 250 },
    );

    await watch('second', true);
    expect(await transcoders()).toEqual([expect.objectContaining({ medias: ['audio, recvonly, OPUS'] })]);
    const viewers = (await info()).consumers.filter((c) => c.format_name === 'webrtc');
    expect(viewers.map((v) => v.medias)).toEqual([
      ['video, sendonly, H264', 'audio, sendonly, OPUS'],
      ['video, sendonly, H264', 'audio, sendonly, OPUS'],
    ]);

    // The transcoder lasts while one of its viewers does.
    await live.page.evaluate(() => (window as unknown as Record<string, RTCPeerConnection>).first!.close());
    await waitFor(async () => ((await info()).consumers.filter((c) => c.format_name === 'webrtc').length === 1 ? true : undefined), 40_000);
    expect(await transcoders()).toHaveLength(1);
    await live.page.evaluate(() => (window as unknown as Record<string, RTCPeerConnection>).second!.close());
    await waitFor(async () => ((await transcoders()).length === 0 ? true : undefined), 40_000);
  }, 120_000);

  it('a viewer that asks for video only starts no transcoder', async () => {
    const only = await watch('videoOnly', false);
    expect(only.answer).not.toContain('transcoded');
    expect(await transcoders()).toEqual([]);
    await live.page.evaluate(() => (window as unknown as Record<string, RTCPeerConnection>).videoOnly!.close());
  }, 60_000);
});

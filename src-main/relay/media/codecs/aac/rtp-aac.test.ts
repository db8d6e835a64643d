import { describe, expect, it } from 'vitest';
import { parseRtpPacket } from '@main/relay/core/rtp-packet';
import { adtsFrames, fixture, rtpCapture } from '@main/relay/test/media-fixtures';
import { createAacDepacketizer, packetizeAac, parseAudioSpecificConfig } from './rtp-aac';

describe('AAC over RTP (MPEG4-GENERIC, AAC-hbr)', () => {
  it('round-trips real AAC frames', () => {
    // Raw AAC frames of a real encode: 1 s of 48 kHz stereo ADTS with the headers removed.
    const { frames } = adtsFrames(fixture('aac-48000-stereo-1s.aac'));
    expect(frames.length).toBeGreaterThanOrEqual(46); // 1 s at 48 kHz / 1024
    const depay = createAacDepacketizer();
    const out = frames.flatMap((frame, i) =>
      depay.push({ marker: true, payloadType: 97, sequenceNumber: i, timestamp: i * 1024, ssrc: 1, payload: packetizeAac(frame) }),
    );
    expect(out.map((f) => Buffer.from(f.data).toString('hex'))).toEqual(frames.map((f) => Buffer.from(f).toString('hex')));
    expect(depay.stats.errors).toBe(0);
  });

  it('reads ffmpeg RTP with its config, and refuses garbage without throwing', () => {
    // What ffmpeg sent for 1 s of 44.1 kHz mono AAC, and the SDP it wrote for it.
    const depay = createAacDepacketizer();
    let count = 0;
    for (const datagram of rtpCapture('aac-rtp-44100-mono-1s.rtp')) count += depay.push(parseRtpPacket(datagram)).length;
    const sdp = fixture('aac-rtp-44100-mono-1s.sdp').toString('utf8');
    // 1 s at 44.1 kHz is 43 frames; ffmpeg keeps the last few in its packet aggregator.
    expect(count).toBeGreaterThanOrEqual(30);
    expect(depay.stats.errors).toBe(0);
    const config = /config=([0-9a-fA-F]+)/.exec(sdp)?.[1] ?? '';
    expect(parseAudioSpecificConfig(config)).toEqual({ objectType: 2, sampleRate: 44100, channels: 1 });
    const errors = depay.stats.errors;
    expect(
      depay.push({
        marker: true,
        payloadType: 97,
        sequenceNumber: 1,
        timestamp: 0,
        ssrc: 1,
        payload: new Uint8Array([0, 16, 0xff, 0xff, 1]),
      }),
    ).toEqual([]);
    expect(depay.stats.errors).toBe(errors + 1);
  });
});

import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSocket } from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { parseRtpPacket } from '../../core/rtp-packet';
import { createAacDepacketizer, packetizeAac, parseAudioSpecificConfig } from './rtp-aac';

/** Raw AAC frames of a real encode: ADTS from ffmpeg with the 7-byte headers removed. */
function encodeFrames(): Uint8Array[] {
  const adts = execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '1', '-c:a', 'aac', '-ac', '2', '-f', 'adts', '-']);
  const frames: Uint8Array[] = [];
  for (let offset = 0; offset + 7 <= adts.length; ) {
    const length = ((adts[offset + 3]! & 0x03) << 11) | (adts[offset + 4]! << 3) | (adts[offset + 5]! >> 5);
    frames.push(adts.subarray(offset + 7, offset + length));
    offset += length;
  }
  return frames;
}

describe('AAC over RTP (MPEG4-GENERIC, AAC-hbr)', () => {
  it('round-trips real AAC frames', () => {
    const frames = encodeFrames();
    expect(frames.length).toBeGreaterThanOrEqual(46); // 1 s at 48 kHz / 1024
    const depay = createAacDepacketizer();
    const out = frames.flatMap((frame, i) => depay.push({ marker: true, payloadType: 97, sequenceNumber: i, timestamp: i * 1024, ssrc: 1, payload: packetizeAac(frame) }));
    expect(out.map((f) => Buffer.from(f.data).toString('hex'))).toEqual(frames.map((f) => Buffer.from(f).toString('hex')));
    expect(depay.stats.errors).toBe(0);
  });

  it('reads ffmpeg RTP with its config, and refuses garbage without throwing', async () => {
    const socket = createSocket('udp4');
    await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
    const depay = createAacDepacketizer();
    let count = 0;
    socket.on('message', (msg) => (count += depay.push(parseRtpPacket(msg)).length));
    const dir = mkdtempSync(join(tmpdir(), 'rc-aac-'));
    const sdpFile = join(dir, 'out.sdp');
    const ffmpeg = spawn('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=sample_rate=44100', '-t', '1', '-c:a', 'aac', '-ac', '1', '-f', 'rtp', '-sdp_file', sdpFile, `rtp://127.0.0.1:${socket.address().port}`]);
    await new Promise((r) => ffmpeg.once('exit', r));
    const sdp = readFileSync(sdpFile, 'utf8');
    rmSync(dir, { recursive: true, force: true });
    await new Promise((r) => setTimeout(r, 100));
    socket.close();
    // 1 s at 44.1 kHz is 43 frames; ffmpeg keeps the last few in its packet aggregator.
    expect(count).toBeGreaterThanOrEqual(30);
    expect(depay.stats.errors).toBe(0);
    const config = /config=([0-9a-fA-F]+)/.exec(sdp)?.[1] ?? '';
    expect(parseAudioSpecificConfig(config)).toEqual({ objectType: 2, sampleRate: 44100, channels: 1 });
    const errors = depay.stats.errors;
    expect(depay.push({ marker: true, payloadType: 97, sequenceNumber: 1, timestamp: 0, ssrc: 1, payload: new Uint8Array([0, 16, 0xff, 0xff, 1]) })).toEqual([]);
    expect(depay.stats.errors).toBe(errors + 1);
  }, 20_000);
});

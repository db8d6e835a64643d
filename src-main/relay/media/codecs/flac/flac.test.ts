import { describe, expect, it } from 'vitest';
import { crc16, crc8 } from './crc';
import { encodeFlacFrame, flacStreamInfo } from './flac-encoder';
import { decodePcm } from './pcm-input';
import { createPcmToFlac } from './pcm-to-flac';

// ffmpeg decoding what the encoder writes is in flac.interop.test.ts.
describe('FLAC encoder', () => {
  it('computes CRC-8 and CRC-16 as FLAC defines them (check values of "123456789")', () => {
    const check = Buffer.from('123456789');
    expect(crc8(check)).toBe(0xf4);
    expect(crc16(check)).toBe(0xfee8);
  });

  it('compresses: a tone takes far fewer bytes than 16-bit PCM, silence a few bytes a frame', () => {
    const tone = Int32Array.from({ length: 4096 }, (_, i) => Math.round(8000 * Math.sin(i / 10)));
    expect(encodeFlacFrame([tone], { sampleRate: 8000, channels: 1 }, 0).length).toBeLessThan(4096);
    expect(encodeFlacFrame([new Int32Array(160)], { sampleRate: 8000, channels: 1 }, 0).length).toBeLessThan(16);
  });

  it('describes the stream in a 34-byte STREAMINFO and refuses what FLAC cannot carry', () => {
    // Block sizes 4608 and 4608 (equal, as Apple's decoders want), frame sizes unknown, then 20
    // bits of rate, 3 of channels - 1, 5 of bits per sample - 1, 36 of length (unknown), no MD5.
    const hex = (format: { sampleRate: number; channels: number }) => Buffer.from(flacStreamInfo(format)).toString('hex');
    expect(hex({ sampleRate: 8000, channels: 1 })).toBe(`12001200000000000000${'01f400f0'}${'00'.repeat(20)}`);
    expect(hex({ sampleRate: 16000, channels: 2 })).toBe(`12001200000000000000${'03e802f0'}${'00'.repeat(20)}`);
    expect(() => flacStreamInfo({ sampleRate: 8000, channels: 9 })).toThrow(/1 to 8 channels/);
    expect(() => createPcmToFlac({ name: 'OPUS', clockRate: 48000, payloadType: 111 })).toThrow(/not PCM/);
  });

  it('decodes G.711 with the standard tables', () => {
    expect([...decodePcm('PCMA', Uint8Array.of(0xd5, 0x55, 0x2a, 0xaa))[0]!]).toEqual([8, -8, -32256, 32256]);
    expect([...decodePcm('PCMU', Uint8Array.of(0xff, 0x7f, 0x00, 0x80))[0]!]).toEqual([0, 0, -32124, 32124]);
  });
});

import { FLACDecoder } from '@wasm-audio-decoders/flac';
import { describe, expect, it, vi } from 'vitest';
import type { MediaFrame } from '@main/relay/core/media';
import { fixture } from '@main/relay/test/media-fixtures';
import { crc16, crc8 } from './crc';
import { encodeFlacFrame, flacFile, type FlacFormat } from './flac-encoder';
import { decodePcm, type PcmCodecName } from './pcm-input';
import { createPcmToFlac } from './pcm-to-flac';

// The encoder checked by libFLAC, the reference decoder (compiled to WebAssembly, so it runs in
// the unit tier), on recorded G.711: what it decodes must be, sample for sample, what ffmpeg
// decoded from the same G.711 bytes (the `.s16le` fixtures). ffmpeg decoding the FLAC itself is
// in flac.interop.test.ts.

/** libFLAC's decoding of a stream: the `.flac` head (marker and STREAMINFO), then `frames`. */
async function libflac(
  format: FlacFormat,
  frames: readonly Uint8Array[],
): Promise<{ channels: Int16Array[]; sampleRate: number; errors: string[] }> {
  const decoder = new FLACDecoder();
  await decoder.ready;
  try {
    // Each input goes straight to libFLAC's stream decoder (the package's own frame parser is
    // bypassed): libFLAC reads STREAMINFO, checks every frame's CRCs and reports what it drops.
    const decoded = await decoder.decodeFrames([flacFile(format, []), ...frames]);
    // The package gives libFLAC's 16-bit samples as floats, s / 32767: rounding brings s back.
    const channels = decoded.channelData.map((c) => Int16Array.from(c, (v) => Math.round(v * 32767)));
    return { channels, sampleRate: decoded.sampleRate, errors: decoded.errors.map((e) => e.message) };
  } finally {
    decoder.free();
  }
}

/** A recorded G.711 file cut into RTP-sized payloads of uneven lengths, as cameras send them. */
function packets(codec: PcmCodecName, bytes: Uint8Array, sizes: number[]): MediaFrame[] {
  const out: MediaFrame[] = [];
  for (let offset = 0, i = 0; offset < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    out.push({ codec, timestamp: offset, keyframe: true, data: bytes.subarray(offset, offset + size) });
    offset += size;
  }
  return out;
}

function encode(codec: PcmCodecName, clockRate: number, g711: Uint8Array, sizes: number[]): Uint8Array[] {
  const converter = createPcmToFlac({ name: codec, clockRate, payloadType: codec === 'PCMA' ? 8 : 0 });
  return packets(codec, g711, sizes).flatMap((p) => converter.convert(p).map((f) => f.data));
}

const s16le = (name: string) => {
  const bytes = fixture(name);
  return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
};

describe('FLAC encoder, decoded by libFLAC', () => {
  it('expands G.711 exactly as ffmpeg does (A-law 8 kHz, µ-law 16 kHz)', () => {
    expect(decodePcm('PCMA', fixture('alaw-8000-2s.alaw'))[0]).toEqual(Int32Array.from(s16le('alaw-8000-2s.s16le')));
    expect(decodePcm('PCMU', fixture('ulaw-16000-0.5s.ulaw'))[0]).toEqual(Int32Array.from(s16le('ulaw-16000-0.5s.s16le')));
  });

  it('turns recorded A-law into FLAC that libFLAC decodes to the same PCM, without an error', async () => {
    const frames = encode('PCMA', 8000, fixture('alaw-8000-2s.alaw'), [160, 160, 80, 333, 1, 240]);
    const decoded = await libflac({ sampleRate: 8000, channels: 1 }, frames);
    expect(decoded.errors).toEqual([]);
    expect(decoded.sampleRate).toBe(8000);
    expect(decoded.channels).toHaveLength(1);
    expect(decoded.channels[0]).toEqual(s16le('alaw-8000-2s.s16le'));
  });

  it('does the same for µ-law at 16 kHz (tones, a sweep and noise)', async () => {
    const frames = encode('PCMU', 16000, fixture('ulaw-16000-0.5s.ulaw'), [320, 640, 17]);
    const decoded = await libflac({ sampleRate: 16000, channels: 1 }, frames);
    expect(decoded.errors).toEqual([]);
    expect(decoded.sampleRate).toBe(16000);
    expect(decoded.channels[0]).toEqual(s16le('ulaw-16000-0.5s.s16le'));
  });

  it('carries 16-bit stereo (two recorded sounds as left and right) channel for channel', async () => {
    const left = s16le('alaw-8000-2s.s16le').subarray(0, 8000);
    const right = s16le('ulaw-16000-0.5s.s16le').subarray(0, 8000);
    const frames = [0, 4000].map((start, i) =>
      encodeFlacFrame(
        [Int32Array.from(left.subarray(start, start + 4000)), Int32Array.from(right.subarray(start, start + 4000))],
        { sampleRate: 8000, channels: 2 },
        i * 4000,
      ),
    );
    const decoded = await libflac({ sampleRate: 8000, channels: 2 }, frames);
    expect(decoded.errors).toEqual([]);
    expect(decoded.channels).toEqual([left, right]);
  });

  it('writes frame headers libFLAC and the format agree on: sync, variable block size, rate code, sample numbers, CRCs', () => {
    const converter = createPcmToFlac({ name: 'PCMU', clockRate: 16000, payloadType: 0 });
    let sample = 0;
    for (const packet of packets('PCMU', fixture('ulaw-16000-0.5s.ulaw'), [320, 17])) {
      const frames = converter.convert(packet);
      expect(frames).toHaveLength(1);
      const frame = frames[0]!.data;
      const size = packet.data.length;
      // 0xFFF9: sync code, then blocking strategy 1 (each header numbers its first sample).
      expect([frame[0], frame[1]]).toEqual([0xff, 0xf9]);
      // Block size code 7 (16 bits follow: size - 1) or 6 (8 bits), sample rate code 5 (16 kHz).
      expect(frame[2]).toBe(size > 256 ? 0x75 : 0x65);
      // Mono (channel assignment 0), 16 bits per sample (code 4).
      expect(frame[3]).toBe(0x08);
      const numberLength = sample < 0x80 ? 1 : sample < 0x800 ? 2 : 3;
      expect(decodeCodedNumber(frame.subarray(4, 4 + numberLength))).toBe(sample);
      const sizeBytes = size > 256 ? 2 : 1;
      const headerEnd = 4 + numberLength + sizeBytes;
      expect(frame.subarray(4 + numberLength, headerEnd).reduce((v, b) => v * 256 + b, 0)).toBe(size - 1);
      expect(frame[headerEnd]).toBe(crc8(frame, 0, headerEnd));
      expect(crc16(frame, 0, frame.length - 2)).toBe((frame[frame.length - 2]! << 8) | frame[frame.length - 1]!);
      sample += size;
    }
  });

  it('is caught by libFLAC when a frame is damaged (the check can fail)', async () => {
    const frames = encode('PCMA', 8000, fixture('alaw-8000-2s.alaw'), [160]);
    const damaged = frames.map((f, i) => (i === 10 ? Uint8Array.from(f, (b, j) => (j === f.length - 5 ? b ^ 0x10 : b)) : f));
    // The package also prints libFLAC's complaint; it is the expected outcome here.
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const decoded = await libflac({ sampleRate: 8000, channels: 1 }, damaged).finally(() => printed.mockRestore());
    expect(decoded.errors).toHaveLength(1);
    expect(decoded.errors[0]).toMatch(/FLAC__STREAM_DECODER_ERROR_STATUS/);
    expect(decoded.channels[0]!.length).toBe(16000 - 160);
  });
});

/** FLAC's UTF-8-like coded number (up to 3 bytes here). */
function decodeCodedNumber(bytes: Uint8Array): number {
  if (bytes.length === 1) return bytes[0]!;
  const lead = bytes[0]! & (0xff >> (bytes.length + 1));
  return [...bytes.subarray(1)].reduce((value, byte) => value * 64 + (byte & 0x3f), lead);
}

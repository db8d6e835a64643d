import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { flacFile } from './flac-encoder';
import { createPcmToFlac } from './pcm-to-flac';

const dir = mkdtempSync(join(tmpdir(), 'flac-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function ffmpeg(args: string[]): Buffer {
  const result = spawnSync('ffmpeg', ['-hide_banner', '-v', 'error', ...args], { maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0 || result.stderr.length > 0) throw new Error(`ffmpeg ${args.join(' ')}: ${result.stderr.toString()}`);
  return result.stdout;
}

/** Five seconds of speech-like sound (two tones, a sweep, noise, then silence) in `format`. */
function encodedTestSound(format: string, rate: number, channels: number): Buffer {
  const source = `aevalsrc=0.4*sin(440*2*PI*t)+0.2*sin(1234*2*PI*t*t)+0.05*(random(0)-0.5)*lt(t\\,4):s=${rate}:c=${channels === 2 ? 'stereo' : 'mono'}:d=5`;
  return ffmpeg(['-f', 'lavfi', '-i', source, '-f', format, '-']);
}

/** Cuts bytes into RTP-sized payloads of uneven lengths, as cameras send them. */
function packets(bytes: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  for (let offset = 0, i = 0; offset < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    out.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return out;
}

function roundTrip(codec: 'PCMA' | 'PCMU' | 'L16', rate: number, channels: number, sizes: number[]): { ours: Buffer; reference: Buffer } {
  const format = { PCMA: 'alaw', PCMU: 'mulaw', L16: 's16be' }[codec];
  const encoded = encodedTestSound(format, rate, channels);
  const reference = decodeWithFfmpeg(encoded, format, rate, channels);
  const converter = createPcmToFlac({ name: codec, clockRate: rate, channels, payloadType: 0 });
  const frames = packets(encoded, sizes).flatMap((p, i) =>
    converter.convert({ codec, timestamp: i, keyframe: true, data: p }).map((f) => f.data),
  );
  const file = join(dir, `${codec}-${rate}-${channels}.flac`);
  writeFileSync(file, flacFile({ sampleRate: rate, channels }, frames));
  // crccheck: ffmpeg verifies every frame's CRC-16 too (the header's CRC-8 it always checks).
  return { ours: ffmpeg(['-err_detect', 'crccheck', '-i', file, '-f', 's16le', '-']), reference };
}

function decodeWithFfmpeg(encoded: Buffer, format: string, rate: number, channels: number): Buffer {
  const file = join(dir, `input.${format}`);
  writeFileSync(file, encoded);
  return ffmpeg(['-f', format, '-ar', String(rate), '-ac', String(channels), '-i', file, '-f', 's16le', '-']);
}

describe('FLAC encoder: ffmpeg decodes what it writes', () => {
  it('turns G.711 A-law into FLAC that ffmpeg decodes to exactly the A-law-decoded PCM', () => {
    const { ours, reference } = roundTrip('PCMA', 8000, 1, [160, 160, 80, 333, 1, 240]);
    expect(reference.length).toBe(5 * 8000 * 2);
    expect(ours.equals(reference)).toBe(true);
  });

  it('does the same for µ-law', () => {
    const { ours, reference } = roundTrip('PCMU', 8000, 1, [160]);
    expect(ours.equals(reference)).toBe(true);
  });

  it('carries L16 stereo at 48 kHz, and splits a payload longer than a FLAC block', () => {
    const { ours, reference } = roundTrip('L16', 48000, 2, [1920, 4 * 5000]);
    expect(reference.length).toBe(5 * 48000 * 4);
    expect(ours.equals(reference)).toBe(true);
  });
});

import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { fuzzBudget, fuzzTimeout, valueOrTypedError } from '../../test-support/fuzz-budget';
import { damagedSample, splitAt } from '../../test-support/fuzz-inputs';
import { DemuxError, type Demuxer, type DemuxSink } from './demuxer';
import { createFlvDemuxer } from './flv/flv-demuxer';
import { createMjpegDemuxer } from './mjpeg/mjpeg-demuxer';
import { createTsDemuxer } from './mpegts-demux/ts-demuxer';
import { createAdtsDemuxer } from './elementary/adts-demuxer';
import { createAnnexBDemuxer } from './elementary/annexb-demuxer';
import { createWavDemuxer } from './elementary/wav-demuxer';

/** One second of a small test pattern in a container, made by ffmpeg once. */
function sample(format: string, codecs: string[]): Buffer {
  const made = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=96x64:rate=10:duration=1', '-f', 'lavfi', '-i', 'sine=duration=1', ...codecs, '-f', format, 'pipe:1'], { maxBuffer: 16 * 1024 * 1024 });
  if (made.status !== 0) throw new Error(`ffmpeg could not make the ${format} sample: ${made.stderr.toString()}`);
  return made.stdout;
}

const DEMUXERS: Record<string, (sink: DemuxSink) => Demuxer> = {
  flv: (sink) => createFlvDemuxer(sink),
  mpegts: (sink) => createTsDemuxer(sink),
  mjpeg: (sink) => createMjpegDemuxer(sink, { now: () => 0 }),
  h264: (sink) => createAnnexBDemuxer(sink, { now: () => 0 }),
  adts: (sink) => createAdtsDemuxer(sink),
  wav: (sink) => createWavDemuxer(sink),
};

const counting = (): DemuxSink & { frames: number } => {
  const sink = { frames: 0, tracks: () => undefined, frame: () => void sink.frames++ };
  return sink;
};

/** Bytes of a real sample with a few bytes changed, cut or inserted, then cut into chunks anywhere. */
const damaged = (bytes: Buffer) => fc.tuple(damagedSample([bytes], 12), fc.array(fc.nat(), { maxLength: 8 })).map(([out, cuts]) => splitAt(out, cuts));

describe('fuzz: FLV, MPEG-TS, MJPEG, Annex B, ADTS and WAV demuxers', () => {
  const samples: Record<string, Buffer> = {};
  beforeAll(() => {
    samples.flv = sample('flv', ['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '5', '-c:a', 'aac']);
    samples.mpegts = sample('mpegts', ['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '5', '-c:a', 'aac']);
    samples.mjpeg = sample('mpjpeg', ['-map', '0:v', '-c:v', 'mjpeg', '-q:v', '10']);
    samples.h264 = sample('h264', ['-map', '0:v', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '5']);
    samples.adts = sample('adts', ['-map', '1:a', '-c:a', 'aac']);
    samples.wav = sample('wav', ['-map', '1:a', '-c:a', 'pcm_s16le']);
  });

  for (const format of Object.keys(DEMUXERS)) {
    it(`${format}: the intact sample demuxes to frames (so the damaged runs below test something)`, () => {
      const sink = counting();
      const demuxer = DEMUXERS[format]!(sink);
      demuxer.push(samples[format]!);
      demuxer.end();
      expect(sink.frames).toBeGreaterThan(5);
    });

    it(`${format}: damaged or random bytes give frames or a DemuxError, nothing else`, () => {
      const input = fc.oneof(damaged(samples[format]!), fc.array(fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b)), { maxLength: 4 }));
      fc.assert(
        fc.property(input, (chunks) => {
          const demuxer = DEMUXERS[format]!(counting());
          return valueOrTypedError(() => {
            for (const chunk of chunks) demuxer.push(chunk);
            demuxer.end();
          }, DemuxError);
        }),
        fuzzBudget(),
      );
    }, fuzzTimeout());

    it(`${format}: megabytes of garbage are refused, not kept`, () => {
      const demuxer = DEMUXERS[format]!(counting());
      const garbage = Buffer.alloc(64 * 1024, 0x5a);
      expect(() => {
        for (let i = 0; i < 256; i++) demuxer.push(garbage);
      }).toThrow(DemuxError);
    });
  }
});

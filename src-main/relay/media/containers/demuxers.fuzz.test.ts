import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { fuzzBudget, fuzzTimeout, valueOrTypedError } from '@main/test-support/fuzz-budget';
import { damagedSample, splitAt } from '@main/test-support/fuzz-inputs';
import { fixture } from '../../test/media-fixtures';
import { DemuxError, type Demuxer, type DemuxSink } from './demuxer';
import { createFlvDemuxer } from './flv/flv-demuxer';
import { createMjpegDemuxer } from './mjpeg/mjpeg-demuxer';
import { createTsDemuxer } from './mpegts-demux/ts-demuxer';
import { createAdtsDemuxer } from './elementary/adts-demuxer';
import { createAnnexBDemuxer } from './elementary/annexb-demuxer';
import { createWavDemuxer } from './elementary/wav-demuxer';

/** A real sample of each format, made by ffmpeg once (see the fixtures' README): small, so damage reaches its headers. */
const SAMPLES: Record<string, string> = {
  flv: 'fuzz-96x64-1s.flv',
  mpegts: 'fuzz-96x64-1s.mpegts',
  mjpeg: 'fuzz-96x64-1s.mpjpeg',
  h264: 'fuzz-96x64-1s.h264',
  adts: 'aac-48000-stereo-1s.aac',
  wav: 's16le-16000-1s.wav',
};

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
const damaged = (bytes: Buffer) =>
  fc.tuple(damagedSample([bytes], 12), fc.array(fc.nat(), { maxLength: 8 })).map(([out, cuts]) => splitAt(out, cuts));

describe('fuzz: FLV, MPEG-TS, MJPEG, Annex B, ADTS and WAV demuxers', () => {
  const samples: Record<string, Buffer> = {};
  beforeAll(() => {
    for (const [format, file] of Object.entries(SAMPLES)) samples[format] = fixture(file);
  });

  for (const format of Object.keys(DEMUXERS)) {
    it(`${format}: the intact sample demuxes to frames (so the damaged runs below test something)`, () => {
      const sink = counting();
      const demuxer = DEMUXERS[format]!(sink);
      demuxer.push(samples[format]!);
      demuxer.end();
      expect(sink.frames).toBeGreaterThan(5);
    });

    it(
      `${format}: damaged or random bytes give frames or a DemuxError, nothing else`,
      () => {
        const input = fc.oneof(
          damaged(samples[format]!),
          fc.array(
            fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b)),
            { maxLength: 4 },
          ),
        );
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
      },
      fuzzTimeout(),
    );

    it(`${format}: megabytes of garbage are refused, not kept`, () => {
      const demuxer = DEMUXERS[format]!(counting());
      const garbage = Buffer.alloc(64 * 1024, 0x5a);
      expect(() => {
        for (let i = 0; i < 256; i++) demuxer.push(garbage);
      }).toThrow(DemuxError);
    });
  }
});

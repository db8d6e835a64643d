import { describe, expect, it } from 'vitest';
import { addChunk, mediaBitrate, mediaWindow, type MediaChunk } from './media-bitrate';

const fill = (chunks: MediaChunk[], windowSeconds = 4) => chunks.reduce(addChunk, mediaWindow(windowSeconds));

describe('media bitrate', () => {
  it.each<[string, MediaChunk[], number | undefined]>([
    ['nothing received yet', [], undefined],
    // A 5 Mbit/s stream in 0.5 s parts: 312,500 bytes each, however fast each was fetched.
    ['5 Mbit/s in 0.5 s parts', Array.from({ length: 12 }, () => ({ bytes: 312_500, seconds: 0.5 })), 5_000_000],
    [
      '5 Mbit/s in 2 s segments',
      [
        { bytes: 1_250_000, seconds: 2 },
        { bytes: 1_250_000, seconds: 2 },
      ],
      5_000_000,
    ],
    [
      'an init segment (no playing time) is left out',
      [
        { bytes: 900, seconds: 0 },
        { bytes: 125_000, seconds: 1 },
      ],
      1_000_000,
    ],
    // 1 Mbit/s for a long time, then 3 Mbit/s: only the last 4 s of media count.
    [
      'older media leaves the window',
      [
        ...Array.from({ length: 8 }, () => ({ bytes: 125_000, seconds: 1 })),
        ...Array.from({ length: 4 }, () => ({ bytes: 375_000, seconds: 1 })),
      ],
      3_000_000,
    ],
    ['a part bigger than the window still counts', [{ bytes: 2_500_000, seconds: 10 }], 2_000_000],
    [
      'nonsense is ignored',
      [
        { bytes: Number.NaN, seconds: 1 },
        { bytes: 10, seconds: Number.NaN },
        { bytes: 250_000, seconds: 1 },
      ],
      2_000_000,
    ],
  ])('%s', (_case, chunks, expected) => {
    expect(mediaBitrate(fill(chunks))).toBe(expected);
  });

  it('keeps about the window span of media, newest last', () => {
    const window = fill(
      Array.from({ length: 20 }, (_, i) => ({ bytes: i, seconds: 0.5 })),
      4,
    );
    expect(window.chunks.map((c) => c.bytes)).toEqual([12, 13, 14, 15, 16, 17, 18, 19]);
  });
});

import { describe, expect, it } from 'vitest';
import { pictureDelays } from './picture-delays';

// 25 pictures a second at 90 kHz: 3600 ticks and 40 ms apart.
const sentPictures = (count: number, base: number) =>
  new Map(Array.from({ length: count }, (_, i) => [(base + i * 3600) >>> 0, 1000 + i * 40] as [number, number]));

/** A viewer that joined at picture `from` of a relay adding `offset` to timestamps and `delay(i)` ms. */
function arrivalsThrough(
  from: number,
  to: number,
  base: number,
  offset: number,
  delay: (i: number) => number,
  jitterTicks = (_: number) => 0,
): number[] {
  const flat: number[] = [];
  for (let i = from; i < to; i++) flat.push((base + i * 3600 + offset + jitterTicks(i)) >>> 0, 1000 + i * 40 + delay(i));
  return flat;
}

describe('pictureDelays', () => {
  it('reads the delays of a relay that passes timestamps through', () => {
    const delays = pictureDelays(
      sentPictures(100, 90_000),
      arrivalsThrough(10, 60, 90_000, 0, (i) => (i % 10 === 0 ? 12 : 2)),
    );
    expect(delays).toHaveLength(50);
    expect(delays.filter((d) => d === 12)).toHaveLength(5);
    expect(delays.filter((d) => d === 2)).toHaveLength(45);
  });

  it('works out a random offset across the 32-bit wrap, with stamps that drift by hundreds of ticks', () => {
    const base = 2 ** 32 - 3600 * 30; // the input wraps a third of the way in
    // As GStreamer stamps pictures from their arrival: 3600 apart give or take a few hundred.
    const drift = (i: number) => [0, -11, -25, 390, 180, -420, 60][i % 7]!;
    const delays = pictureDelays(
      sentPictures(100, base),
      arrivalsThrough(20, 90, base, 1_234_567_890, () => 4.5, drift),
    );
    expect(delays).toEqual(Array.from({ length: 70 }, () => 4.5));
  });

  it('leaves out pictures with no picture sent within half an interval of their stamp', () => {
    // The viewer saw 30 pictures; the record of what went in holds only the first 20.
    const delays = pictureDelays(
      sentPictures(20, 0),
      arrivalsThrough(0, 30, 0, 0, () => 2),
    );
    expect(delays).toEqual(Array.from({ length: 20 }, () => 2));
  });

  it('takes a delay near a frame interval for what it is, not for the next picture', () => {
    const delays = pictureDelays(
      sentPictures(100, 0),
      arrivalsThrough(5, 45, 0, 777, (i) => (i === 5 ? 38 : 3)),
    );
    expect(delays[0]).toBe(38);
    expect(delays.slice(1).every((d) => d === 3)).toBe(true);
  });

  it('gives nothing for no arrivals, or for arrivals that match no picture sent', () => {
    expect(pictureDelays(sentPictures(10, 0), [])).toEqual([]);
    expect(
      pictureDelays(
        new Map(),
        arrivalsThrough(0, 5, 0, 0, () => 1),
      ),
    ).toEqual([]);
  });
});

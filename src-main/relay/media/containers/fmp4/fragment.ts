import { box, concat, fullBox, i32, u32, u64 } from './boxes';

/** Sample flags (ISO 14496-12 8.8.3.1): a sync sample depends on no other; others do and are not sync. */
export const SYNC_SAMPLE = 0x02000000;
export const NON_SYNC_SAMPLE = 0x01010000;

export interface FragmentSample {
  duration: number;
  flags: number;
  data: Uint8Array;
  /** Presentation time minus decode time (B-frames); 0 or absent otherwise. */
  compositionOffset?: number;
}

export interface TrackRun {
  trackId: number;
  /** Decode time of the first sample, in the track's timescale (`tfdt`). */
  baseTime: number;
  samples: readonly FragmentSample[];
}

// tfhd: default-base-is-moof, so data offsets count from this moof (as MSE requires).
const TFHD_DEFAULT_BASE_IS_MOOF = 0x020000;
// trun: data offset, and per sample duration, size and flags; composition offsets when any is not 0.
const TRUN_FLAGS = 0x000001 | 0x000100 | 0x000200 | 0x000400;
const TRUN_COMPOSITION_OFFSETS = 0x000800;

/**
 * A track run: without B-frames (every offset 0) version 0 and no offsets, as the file always
 * was; with them version 1, whose offsets are signed (ISO 14496-12 8.8.8), though the decode
 * timeline keeps them at 0 or above, as players that shift negative ones expect.
 */
function trackFragment(run: TrackRun, dataOffset: number): Uint8Array {
  const offsets = run.samples.some((s) => (s.compositionOffset ?? 0) !== 0);
  const entries = run.samples.flatMap((s) => [
    u32(s.duration),
    u32(s.data.length),
    u32(s.flags),
    ...(offsets ? [i32(s.compositionOffset ?? 0)] : []),
  ]);
  return box(
    'traf',
    fullBox('tfhd', 0, TFHD_DEFAULT_BASE_IS_MOOF, u32(run.trackId)),
    fullBox('tfdt', 1, 0, u64(run.baseTime)),
    fullBox(
      'trun',
      offsets ? 1 : 0,
      TRUN_FLAGS | (offsets ? TRUN_COMPOSITION_OFFSETS : 0),
      u32(run.samples.length),
      u32(dataOffset),
      ...entries,
    ),
  );
}

/**
 * One `moof` (a `traf` per track run) and its `mdat`, the runs' samples one after another.
 * Offsets are known only once the moof's size is, so the trafs are built twice (they are small).
 */
export function movieFragment(sequence: number, runs: readonly TrackRun[]): Uint8Array {
  const build = (offsets: readonly number[]) =>
    box('moof', fullBox('mfhd', 0, 0, u32(sequence)), ...runs.map((run, i) => trackFragment(run, offsets[i]!)));
  const moofSize = build(runs.map(() => 0)).length;
  const offsets: number[] = [];
  let offset = moofSize + 8; // past the mdat header
  for (const run of runs) {
    offsets.push(offset);
    offset += run.samples.reduce((n, s) => n + s.data.length, 0);
  }
  const mdat = box('mdat', ...runs.flatMap((run) => run.samples.map((s) => s.data)));
  return concat([build(offsets), mdat]);
}

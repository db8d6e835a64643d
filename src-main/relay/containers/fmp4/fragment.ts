import { box, concat, fullBox, u32, u64 } from './boxes';

/** Sample flags (ISO 14496-12 8.8.3.1): a sync sample depends on no other; others do and are not sync. */
export const SYNC_SAMPLE = 0x02000000;
export const NON_SYNC_SAMPLE = 0x01010000;

export interface FragmentSample {
  duration: number;
  flags: number;
  data: Uint8Array;
}

export interface TrackRun {
  trackId: number;
  /** Decode time of the first sample, in the track's timescale (`tfdt`). */
  baseTime: number;
  samples: readonly FragmentSample[];
}

// tfhd: default-base-is-moof, so data offsets count from this moof (as MSE requires).
const TFHD_DEFAULT_BASE_IS_MOOF = 0x020000;
// trun: data offset, and per sample duration, size and flags.
const TRUN_FLAGS = 0x000001 | 0x000100 | 0x000200 | 0x000400;

function trackFragment(run: TrackRun, dataOffset: number): Uint8Array {
  const entries = run.samples.flatMap((s) => [u32(s.duration), u32(s.data.length), u32(s.flags)]);
  return box(
    'traf',
    fullBox('tfhd', 0, TFHD_DEFAULT_BASE_IS_MOOF, u32(run.trackId)),
    fullBox('tfdt', 1, 0, u64(run.baseTime)),
    fullBox('trun', 0, TRUN_FLAGS, u32(run.samples.length), u32(dataOffset), ...entries),
  );
}

/**
 * One `moof` (a `traf` per track run) and its `mdat`, the runs' samples one after another.
 * Offsets are known only once the moof's size is, so the trafs are built twice (they are small).
 */
export function movieFragment(sequence: number, runs: readonly TrackRun[]): Uint8Array {
  const build = (offsets: readonly number[]) => box('moof', fullBox('mfhd', 0, 0, u32(sequence)), ...runs.map((run, i) => trackFragment(run, offsets[i]!)));
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

import { concatBytes, unfilledBytes } from '../../codecs/bytes';
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
const hasCompositionOffsets = (run: TrackRun) => run.samples.some((s) => (s.compositionOffset ?? 0) !== 0);

/** traf = tfhd (16) + tfdt (20) + trun (20 + 12 or 16 a sample), each with its 8-byte header. */
const trafSize = (run: TrackRun) => 8 + 16 + 20 + 20 + run.samples.length * (hasCompositionOffsets(run) ? 16 : 12);

/**
 * One `moof` (a `traf` per track run) and its `mdat`, the runs' samples one after another,
 * written into one buffer of its final size: a fragment is made for every picture a viewer or
 * a recording gets, so its boxes are laid out in place rather than joined from small arrays.
 */
export function movieFragment(sequence: number, runs: readonly TrackRun[]): Uint8Array {
  return layOut(sequence, runs, true)[0]!;
}

/**
 * The same fragment as pieces to be written one after another: the `moof` and the `mdat`'s
 * header in one buffer, then each sample's bytes as they are. A recording gathers them into
 * one write, so the samples are not copied into a buffer of the fragment's size first.
 */
export function movieFragmentParts(sequence: number, runs: readonly TrackRun[]): Uint8Array[] {
  const parts = layOut(sequence, runs, false);
  for (const run of runs) {
    const bytes = run.samples.reduce((n, s) => n + s.data.length, 0);
    // Small samples (audio: a few hundred bytes each, dozens a second) are copied into one
    // piece: each piece of a gathering write costs more to hand over than its bytes to copy.
    if (bytes < SMALL_SAMPLE_BYTES * run.samples.length) {
      parts.push(concatBytes(run.samples.map((s) => s.data)));
      continue;
    }
    for (const { data } of run.samples) {
      const last = parts[parts.length - 1]!;
      // Pictures a depacketizer wrote one after another are one piece (`frame-slab.ts`).
      if (last.buffer === data.buffer && last.byteOffset + last.length === data.byteOffset)
        parts[parts.length - 1] = new Uint8Array(data.buffer, last.byteOffset, last.length + data.length);
      else parts.push(data);
    }
  }
  return parts;
}

/** Samples smaller than this on average are copied into one piece of the fragment. */
const SMALL_SAMPLE_BYTES = 2048;

/** The fragment's boxes in one buffer: with the samples in the `mdat`, or up to its header. */
function layOut(sequence: number, runs: readonly TrackRun[], withSamples: boolean): Uint8Array[] {
  const moofSize = 8 + 16 + runs.reduce((n, run) => n + trafSize(run), 0);
  const mdatSize = 8 + runs.reduce((n, run) => n + run.samples.reduce((m, s) => m + s.data.length, 0), 0);
  if (moofSize + mdatSize > 0xffffffff) throw new RangeError(`a fragment of ${moofSize + mdatSize} bytes does not fit a 32-bit size`);
  const out = unfilledBytes(moofSize + (withSamples ? mdatSize : 8));
  const view = new DataView(out.buffer);
  let at = 0;
  const header = (size: number, type: string, versionAndFlags?: number) => {
    view.setUint32(at, size);
    for (let i = 0; i < 4; i++) out[at + 4 + i] = type.charCodeAt(i);
    at += 8;
    if (versionAndFlags !== undefined) {
      view.setUint32(at, versionAndFlags >>> 0);
      at += 4;
    }
  };
  const u32 = (n: number) => {
    view.setUint32(at, n >>> 0);
    at += 4;
  };

  header(moofSize, 'moof');
  header(16, 'mfhd', 0);
  u32(sequence);
  let dataOffset = moofSize + 8; // past the mdat header
  for (const run of runs) {
    const offsets = hasCompositionOffsets(run);
    header(trafSize(run), 'traf');
    header(16, 'tfhd', TFHD_DEFAULT_BASE_IS_MOOF);
    u32(run.trackId);
    if (!Number.isSafeInteger(run.baseTime) || run.baseTime < 0) throw new RangeError(`${run.baseTime} is not a non-negative safe integer`);
    header(20, 'tfdt', 0x01000000);
    u32(Math.floor(run.baseTime / 2 ** 32));
    u32(run.baseTime);
    header(
      20 + run.samples.length * (offsets ? 16 : 12),
      'trun',
      ((offsets ? 1 : 0) << 24) | TRUN_FLAGS | (offsets ? TRUN_COMPOSITION_OFFSETS : 0),
    );
    u32(run.samples.length);
    u32(dataOffset);
    for (const sample of run.samples) {
      u32(sample.duration);
      u32(sample.data.length);
      u32(sample.flags);
      if (offsets) {
        view.setInt32(at, sample.compositionOffset ?? 0);
        at += 4;
      }
      dataOffset += sample.data.length;
    }
  }
  header(mdatSize, 'mdat');
  if (!withSamples) return [out];
  for (const run of runs) {
    for (const sample of run.samples) {
      out.set(sample.data, at);
      at += sample.data.length;
    }
  }
  return [out];
}

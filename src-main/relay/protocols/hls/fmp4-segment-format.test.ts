import { describe, expect, it } from 'vitest';
import type { MediaFrame } from '../../core/media';
import type { FrameTrack } from '../../media/frames/frame-consumer';
import { findBoxes, readBoxes, readFragments } from '../../media/containers/fmp4/box-reader';
import { QUERY_CLIENT } from '../../media/containers/fmp4/audio-form';
import { fixture } from '../../test/media-fixtures';
import { createFmp4SegmentFormat } from './fmp4-segment-format';

/** A camera's G.711 track as the frame consumer hands it over (only what the format reads). */
const alawTrack = { index: 0, kind: 'audio', codec: { name: 'PCMA', clockRate: 8000, payloadType: 8 } } as FrameTrack;
const alaw = fixture('alaw-8000-2s.alaw');
const packet = (start: number, length: number): MediaFrame => ({
  codec: 'PCMA',
  timestamp: start,
  keyframe: true,
  data: alaw.subarray(start, start + length),
});
const entryType = (init: Uint8Array) => readBoxes(findBoxes(init, ['moov', 'trak', 'mdia', 'minf', 'stbl', 'stsd'])[0]!.body, 8)[0]!.type;

describe('HLS fMP4 segments of a G.711 camera', () => {
  it('carry FLAC (fLaC + dfLa) when the player takes FLAC, each packet a FLAC frame timed by its samples', () => {
    const format = createFmp4SegmentFormat([alawTrack], { flac: true, alaw: false, ulaw: false });
    const units = [packet(0, 160), packet(160, 160), packet(320, 400)].map((p) => format.write(alawTrack, p)!);
    expect(entryType(format.init()!)).toBe('fLaC');
    expect(format.codecs?.()).toEqual(['flac']);
    const [fragment] = readFragments(format.build(units));
    expect(fragment!.tracks[0]!.samples.map((s) => s.duration)).toEqual([160, 160, 400]);
  });

  it('split a packet longer than a FLAC block into several samples of one unit', () => {
    const format = createFmp4SegmentFormat([alawTrack], QUERY_CLIENT);
    const unit = format.write(alawTrack, packet(0, 6000))!;
    expect(readFragments(format.build([unit]))[0]!.tracks[0]!.samples.map((s) => s.duration)).toEqual([4608, 6000 - 4608]);
  });

  it('keep A-law as alaw for a player that named it and not FLAC', () => {
    const format = createFmp4SegmentFormat([alawTrack], { flac: false, alaw: true, ulaw: false });
    format.write(alawTrack, packet(0, 160));
    expect(entryType(format.init()!)).toBe('alaw');
    expect(format.codecs?.()).toEqual(['alaw']);
  });
});

import { box, fourcc, fullBox, u16, u32, u8, UNITY_MATRIX, zeros } from './boxes';
import { rotationMatrix } from './rotation';
import type { TrackDescription } from './sample-entry';

const MOVIE_TIMESCALE = 1000;

/** `ftyp`: ISO 14496-12 with fragments (iso5/iso6), as MSE and players expect of fMP4. */
function fileType(): Uint8Array {
  return box('ftyp', fourcc('iso5'), u32(512), fourcc('iso5'), fourcc('iso6'), fourcc('mp41'));
}

function movieHeader(nextTrackId: number): Uint8Array {
  return fullBox(
    'mvhd',
    0,
    0,
    u32(0),
    u32(0),
    u32(MOVIE_TIMESCALE),
    u32(0),
    u32(0x00010000),
    u16(0x0100),
    zeros(10),
    UNITY_MATRIX,
    zeros(24),
    u32(nextTrackId),
  );
}

function track(trackId: number, t: TrackDescription): Uint8Array {
  const audio = t.handler === 'soun';
  // enabled | in movie; duration 0: a fragmented file has its samples in the fragments.
  const tkhd = fullBox(
    'tkhd',
    0,
    3,
    u32(0),
    u32(0),
    u32(trackId),
    u32(0),
    u32(0),
    zeros(8),
    u16(0),
    u16(0),
    u16(audio ? 0x0100 : 0),
    u16(0),
    t.rotate ? rotationMatrix(t.rotate) : UNITY_MATRIX,
    u32(t.width * 0x10000),
    u32(t.height * 0x10000),
  );
  const mdhd = fullBox('mdhd', 0, 0, u32(0), u32(0), u32(t.timescale), u32(0), u16(0x55c4 /* und */), u16(0));
  const name = audio ? 'SoundHandler' : 'VideoHandler';
  const hdlr = fullBox(
    'hdlr',
    0,
    0,
    u32(0),
    fourcc(t.handler),
    zeros(12),
    Uint8Array.from(name, (c) => c.charCodeAt(0)),
    u8(0),
  );
  const mediaHeader = audio ? fullBox('smhd', 0, 0, u16(0), u16(0)) : fullBox('vmhd', 0, 1, zeros(8));
  const dinf = box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1)));
  const empty = (type: string) => fullBox(type, 0, 0, u32(0));
  const stbl = box(
    'stbl',
    fullBox('stsd', 0, 0, u32(1), t.sampleEntry),
    empty('stts'),
    empty('stsc'),
    fullBox('stsz', 0, 0, u32(0), u32(0)),
    empty('stco'),
  );
  return box('trak', tkhd, box('mdia', mdhd, hdlr, box('minf', mediaHeader, dinf, stbl)));
}

/** `ftyp` + `moov` with one `trak` per track and `mvex`, so the samples come in `moof`s. */
export function initSegment(tracks: readonly TrackDescription[]): Uint8Array {
  const traks = tracks.map((t, i) => track(i + 1, t));
  const trex = tracks.map((_, i) => fullBox('trex', 0, 0, u32(i + 1), u32(1), u32(0), u32(0), u32(0)));
  const moov = box('moov', movieHeader(tracks.length + 1), ...traks, box('mvex', ...trex));
  const ftyp = fileType();
  const out = new Uint8Array(ftyp.length + moov.length);
  out.set(ftyp);
  out.set(moov, ftyp.length);
  return out;
}

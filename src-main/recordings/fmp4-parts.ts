/**
 * Reads a segment file (`ftyp`, `moov`, then `moof`+`mdat` fragments, as any fragmented MP4)
 * far enough to serve it in parts and on another timeline: where the init segment ends, each
 * track's timescale, and per fragment its byte range, its tracks' decode times and whether the
 * video starts on a sync sample. Nothing is decoded.
 */
export interface FragmentPart {
  /** Byte range in the file: the moof and everything up to the next moof. */
  start: number;
  end: number;
  /** Per track: the decode time of its first sample (tfdt, in the track's timescale) and where that field sits. */
  tracks: Array<{ trackId: number; baseTime: number; tfdtAt: number; tfdtVersion: number }>;
  /** Where the mfhd sequence number sits. */
  sequenceAt: number;
  /** The video track's first sample is a sync sample (a keyframe): playback can start here. */
  keyframe: boolean;
}

export interface SegmentParts {
  /** `ftyp` + `moov` (and anything else before the first moof). */
  initEnd: number;
  timescales: Map<number, number>;
  /** The first video track, by whose time fragments are cut (the first track when there is no video). */
  leadTrack: number;
  fragments: FragmentPart[];
}

export class Fmp4PartsError extends Error {
  override name = 'Fmp4PartsError';
}

interface Box {
  type: string;
  start: number;
  /** Where the body starts (after size and type, and the 64-bit size when there is one). */
  body: number;
  end: number;
}

function boxes(view: DataView, start: number, end: number): Box[] {
  const out: Box[] = [];
  for (let at = start; at < end;) {
    if (at + 8 > end) throw new Fmp4PartsError(`a box header at byte ${at} runs past the end`);
    let size = view.getUint32(at);
    const type = String.fromCharCode(view.getUint8(at + 4), view.getUint8(at + 5), view.getUint8(at + 6), view.getUint8(at + 7));
    let body = at + 8;
    if (size === 1) {
      if (at + 16 > end) throw new Fmp4PartsError(`a box header at byte ${at} runs past the end`);
      size = Number(view.getBigUint64(at + 8));
      body = at + 16;
    } else if (size === 0) size = end - at;
    if (size < body - at || at + size > end) throw new Fmp4PartsError(`the ${type} box at byte ${at} has a bad size ${size}`);
    out.push({ type, start: at, body, end: at + size });
    at += size;
  }
  return out;
}

/** A field of a box's body: bytes past the box's end are another box's, so a box too short for its fields is refused. */
function field(box: Box, offset: number, size: number): number {
  const at = box.body + offset;
  if (at + size > box.end) throw new Fmp4PartsError(`the ${box.type} box at byte ${box.start} is too short for its fields`);
  return at;
}
const u8 = (view: DataView, box: Box, offset: number) => view.getUint8(field(box, offset, 1));
const u32 = (view: DataView, box: Box, offset: number) => view.getUint32(field(box, offset, 4));
const u64 = (view: DataView, box: Box, offset: number) => Number(view.getBigUint64(field(box, offset, 8)));

const child = (view: DataView, parent: Box, type: string): Box | undefined =>
  boxes(view, parent.body, parent.end).find((b) => b.type === type);
const children = (view: DataView, parent: Box, type: string): Box[] => boxes(view, parent.body, parent.end).filter((b) => b.type === type);

function need(box: Box | undefined, what: string): Box {
  if (!box) throw new Fmp4PartsError(`no ${what} box`);
  return box;
}

const SAMPLE_IS_NON_SYNC = 0x10000;

interface TrackInfo {
  timescale: number;
  video: boolean;
  defaultFlags: number;
}

function readMoov(view: DataView, moov: Box): Map<number, TrackInfo> {
  const tracks = new Map<number, TrackInfo>();
  const trex = new Map<number, number>();
  const mvex = child(view, moov, 'mvex');
  for (const box of mvex ? children(view, mvex, 'trex') : []) trex.set(u32(view, box, 4), u32(view, box, 20));
  for (const trak of children(view, moov, 'trak')) {
    const tkhd = need(child(view, trak, 'tkhd'), 'tkhd');
    const trackId = u32(view, tkhd, u8(view, tkhd, 0) === 1 ? 20 : 12);
    const mdia = need(child(view, trak, 'mdia'), 'mdia');
    const mdhd = need(child(view, mdia, 'mdhd'), 'mdhd');
    const timescale = u32(view, mdhd, u8(view, mdhd, 0) === 1 ? 20 : 12);
    const hdlr = need(child(view, mdia, 'hdlr'), 'hdlr');
    const handler = String.fromCharCode(...new Uint8Array(view.buffer, view.byteOffset + field(hdlr, 8, 4), 4));
    if (timescale === 0) throw new Fmp4PartsError(`track ${trackId} has a timescale of 0`);
    tracks.set(trackId, { timescale, video: handler === 'vide', defaultFlags: trex.get(trackId) ?? 0 });
  }
  if (tracks.size === 0) throw new Fmp4PartsError('the moov box has no tracks');
  return tracks;
}

/** The flags of a run's first sample, by the first rule that gives them (ISO 14496-12 8.8.8). */
function firstSampleFlags(view: DataView, trun: Box, defaultFlags: number): number {
  const flags = u32(view, trun, 0) & 0xffffff;
  let at = 8 + (flags & 0x1 ? 4 : 0);
  if (flags & 0x4) return u32(view, trun, at);
  if (u32(view, trun, 4) === 0 || !(flags & 0x400)) return defaultFlags;
  at += (flags & 0x100 ? 4 : 0) + (flags & 0x200 ? 4 : 0);
  return u32(view, trun, at);
}

function readFragment(view: DataView, moof: Box, end: number, tracks: Map<number, TrackInfo>): FragmentPart {
  const mfhd = need(child(view, moof, 'mfhd'), 'mfhd');
  const part: FragmentPart = { start: moof.start, end, tracks: [], sequenceAt: field(mfhd, 4, 4), keyframe: false };
  for (const traf of children(view, moof, 'traf')) {
    const tfhd = need(child(view, traf, 'tfhd'), 'tfhd');
    const trackId = u32(view, tfhd, 4);
    const track = tracks.get(trackId);
    if (!track) throw new Fmp4PartsError(`a fragment names track ${trackId}, which the moov does not have`);
    const tfhdFlags = u32(view, tfhd, 0) & 0xffffff;
    const defaultsAt = 8 + (tfhdFlags & 0x1 ? 8 : 0) + (tfhdFlags & 0x2 ? 4 : 0) + (tfhdFlags & 0x8 ? 4 : 0) + (tfhdFlags & 0x10 ? 4 : 0);
    const defaultFlags = tfhdFlags & 0x20 ? u32(view, tfhd, defaultsAt) : track.defaultFlags;
    const tfdt = need(child(view, traf, 'tfdt'), 'tfdt');
    const version = u8(view, tfdt, 0);
    const baseTime = version === 1 ? u64(view, tfdt, 4) : u32(view, tfdt, 4);
    part.tracks.push({ trackId, baseTime, tfdtAt: tfdt.body + 4, tfdtVersion: version });
    const trun = child(view, traf, 'trun');
    if (track.video && trun && !part.keyframe) part.keyframe = (firstSampleFlags(view, trun, defaultFlags) & SAMPLE_IS_NON_SYNC) === 0;
  }
  if (part.tracks.length === 0) throw new Fmp4PartsError(`the moof box at byte ${moof.start} has no track fragment`);
  return part;
}

export function segmentParts(bytes: Uint8Array): SegmentParts {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const top = boxes(view, 0, bytes.length);
  const moov = need(
    top.find((b) => b.type === 'moov'),
    'moov',
  );
  const tracks = readMoov(view, moov);
  const firstMoof = top.findIndex((b) => b.type === 'moof');
  const initEnd = firstMoof < 0 ? bytes.length : top[firstMoof]!.start;
  const moofs = top.filter((b) => b.type === 'moof');
  const fragments = moofs.map((moof, i) => readFragment(view, moof, moofs[i + 1]?.start ?? bytes.length, tracks));
  const ids = [...tracks.keys()];
  const leadTrack = ids.find((id) => tracks.get(id)!.video) ?? ids[0]!;
  return { initEnd, timescales: new Map([...tracks].map(([id, t]) => [id, t.timescale])), leadTrack, fragments };
}

/** A fragment's start, in seconds: the earliest decode time of its tracks. */
export function fragmentSeconds(parts: SegmentParts, fragment: FragmentPart): number {
  return Math.min(...fragment.tracks.map((t) => t.baseTime / parts.timescales.get(t.trackId)!));
}

/**
 * The fragments' bytes moved on the timeline by `shiftSeconds` (each track in its own
 * timescale; a time that would fall below 0 stays at 0) and numbered from `firstSequence`:
 * segments laid end to end play as one.
 */
export function retimedFragments(
  bytes: Uint8Array,
  parts: SegmentParts,
  fragments: readonly FragmentPart[],
  shiftSeconds: number,
  firstSequence: number,
): Uint8Array {
  if (fragments.length === 0) return new Uint8Array(0);
  const first = fragments[0]!.start;
  // A copy (Buffer's slice would share the bytes): the segment as fetched stays as it was.
  const out = new Uint8Array(bytes.subarray(first, fragments.at(-1)!.end));
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  fragments.forEach((fragment, i) => {
    view.setUint32(fragment.sequenceAt - first, firstSequence + i);
    for (const track of fragment.tracks) {
      const moved = Math.max(0, track.baseTime + Math.round(shiftSeconds * parts.timescales.get(track.trackId)!));
      if (track.tfdtVersion === 1) view.setBigUint64(track.tfdtAt - first, BigInt(moved));
      else if (moved <= 0xffffffff) view.setUint32(track.tfdtAt - first, moved);
      else throw new Fmp4PartsError(`track ${track.trackId}: a decode time of ${moved} does not fit a version 0 tfdt`);
    }
  });
  return out;
}

import { Fmp4PartsError, type FragmentPart, type SegmentParts } from './fmp4-parts';

const u32 = (view: DataView, at: number) => {
  if (at + 4 > view.byteLength) throw new Fmp4PartsError(`a field at byte ${at} runs past the end`);
  return view.getUint32(at);
};

/** The boxes directly inside [start, end): type, where the body starts, where the box ends. */
function* children(view: DataView, start: number, end: number): Generator<{ type: string; body: number; end: number }> {
  for (let at = start; at + 8 <= end;) {
    const size = u32(view, at);
    if (size < 8 || at + size > end) throw new Fmp4PartsError(`a box at byte ${at} has a bad size ${size}`);
    const type = String.fromCharCode(view.getUint8(at + 4), view.getUint8(at + 5), view.getUint8(at + 6), view.getUint8(at + 7));
    yield { type, body: at + 8, end: at + size };
    at += size;
  }
}

/**
 * Where a fragment's lead track (the video) ends, in seconds of the file's timeline: its first
 * decode time plus its samples' durations (from the trun, or the tfhd's default). A segment
 * being written says so of its last whole fragment, which has no segment end to tell it.
 */
export function fragmentEndSeconds(bytes: Uint8Array, parts: SegmentParts, fragment: FragmentPart): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const timescale = parts.timescales.get(parts.leadTrack)!;
  const lead = fragment.tracks.find((t) => t.trackId === parts.leadTrack);
  const moof = [...children(view, fragment.start, fragment.end)].find((b) => b.type === 'moof');
  if (!lead || !moof) throw new Fmp4PartsError('the fragment has no lead track');
  for (const traf of children(view, moof.body, moof.end)) {
    if (traf.type !== 'traf') continue;
    const boxes = [...children(view, traf.body, traf.end)];
    const tfhd = boxes.find((b) => b.type === 'tfhd');
    if (!tfhd || u32(view, tfhd.body + 4) !== parts.leadTrack) continue;
    const tfhdFlags = u32(view, tfhd.body) & 0xffffff;
    const durationAt = tfhd.body + 8 + (tfhdFlags & 0x1 ? 8 : 0) + (tfhdFlags & 0x2 ? 4 : 0);
    const defaultDuration = tfhdFlags & 0x8 ? u32(view, durationAt) : 0;
    let ticks = 0;
    for (const trun of boxes.filter((b) => b.type === 'trun')) {
      const flags = u32(view, trun.body) & 0xffffff;
      const count = u32(view, trun.body + 4);
      const stride = [0x100, 0x200, 0x400, 0x800].filter((f) => flags & f).length * 4;
      let at = trun.body + 8 + (flags & 0x1 ? 4 : 0) + (flags & 0x4 ? 4 : 0);
      for (let i = 0; i < count; i++, at += stride) ticks += flags & 0x100 ? u32(view, at) : defaultDuration;
    }
    return (lead.baseTime + ticks) / timescale;
  }
  throw new Fmp4PartsError('the fragment has no lead track');
}

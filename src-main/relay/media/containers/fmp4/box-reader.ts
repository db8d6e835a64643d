/**
 * Reads back what the muxer wrote, for tests and diagnostics: boxes by path, and the fragments
 * with their tfdt and per-sample duration, size, flags and composition offset.
 */
export interface BoxView {
  type: string;
  start: number;
  size: number;
  body: Uint8Array;
}

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl', 'mvex', 'moof', 'traf', 'dinf']);

export function readBoxes(bytes: Uint8Array, start = 0, end = bytes.length): BoxView[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: BoxView[] = [];
  let offset = start;
  while (offset + 8 <= end) {
    const size = view.getUint32(offset);
    if (size < 8 || offset + size > end) throw new Error(`box at ${offset} has a bad size ${size}`);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    out.push({ type, start: offset, size, body: bytes.subarray(offset + 8, offset + size) });
    offset += size;
  }
  return out;
}

/** Every box at `path` (`['moof', 'traf', 'trun']`), descending only into container boxes. */
export function findBoxes(bytes: Uint8Array, path: readonly string[]): BoxView[] {
  let level = readBoxes(bytes).filter((b) => b.type === path[0]);
  for (const type of path.slice(1)) {
    level = level.flatMap((b) => (CONTAINERS.has(b.type) ? readBoxes(b.body).filter((c) => c.type === type) : []));
  }
  return level;
}

export interface FragmentView {
  sequence: number;
  tracks: Array<{
    trackId: number;
    baseTime: number;
    samples: Array<{ duration: number; size: number; flags: number; compositionOffset: number }>;
  }>;
}

export function readFragments(bytes: Uint8Array): FragmentView[] {
  return findBoxes(bytes, ['moof']).map((moof) => {
    const inner = readBoxes(moof.body);
    const u32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(at);
    const mfhd = inner.find((b) => b.type === 'mfhd')!;
    return {
      sequence: u32(mfhd.body, 4),
      tracks: inner
        .filter((b) => b.type === 'traf')
        .map((traf) => {
          const parts = readBoxes(traf.body);
          const tfhd = parts.find((b) => b.type === 'tfhd')!.body;
          const tfdt = parts.find((b) => b.type === 'tfdt')!.body;
          const trun = parts.find((b) => b.type === 'trun')!.body;
          // The muxer's runs: data offset, then per sample duration, size, flags and (0x800) a composition offset.
          const count = u32(trun, 4);
          const withOffsets = (u32(trun, 0) & 0x800) !== 0;
          const version = trun[0]!;
          const entry = withOffsets ? 16 : 12;
          const samples = Array.from({ length: count }, (_, i) => {
            const at = 12 + i * entry;
            const raw = withOffsets ? u32(trun, at + 12) : 0;
            return {
              duration: u32(trun, at),
              size: u32(trun, at + 4),
              flags: u32(trun, at + 8),
              compositionOffset: version === 1 ? raw | 0 : raw,
            };
          });
          return { trackId: u32(tfhd, 4), baseTime: u32(tfdt, 4) * 2 ** 32 + u32(tfdt, 8), samples };
        }),
    };
  });
}

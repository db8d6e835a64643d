/** A piece of a stream's recording a clip can be made of: a segment in the bucket or the spool, or the one being written. */
export interface ClipSource {
  /** The segment's key (the same in the spool and the bucket: a segment found in both is taken once). */
  id: string;
  startMs: number;
  durationMs: number;
  /** The init segment's digest: one MP4 has one. */
  initId: string;
}

/** One piece of a clip, and where the clip begins inside the first (seconds of its own timeline). */
export interface ClipStep {
  source: ClipSource;
  fromSeconds?: number;
}

/**
 * The pieces that make the last `seconds` before `endMs`, oldest first. The newest pieces
 * decide the picture format: older ones with another init segment (the camera came back at
 * another size) are left out, so the clip is shorter rather than unplayable. The first piece is
 * cut where the clip begins (at the keyframe at or before it, by `fragmentWindow`).
 */
export function clipPlan(sources: readonly ClipSource[], endMs: number, seconds: number): ClipStep[] {
  const fromMs = endMs - seconds * 1000;
  const byId = new Map(sources.map((s) => [s.id, s]));
  const reaching = [...byId.values()]
    .filter((s) => s.startMs < endMs && s.startMs + s.durationMs > fromMs)
    .sort((a, b) => a.startMs - b.startMs);
  const newest = reaching.at(-1);
  if (!newest) return [];
  let first = reaching.length - 1;
  while (first > 0 && reaching[first - 1]!.initId === newest.initId) first--;
  return reaching.slice(first).map((source, i) => {
    const step: ClipStep = { source };
    if (i === 0 && fromMs > source.startMs) step.fromSeconds = (fromMs - source.startMs) / 1000;
    return step;
  });
}

/**
 * How much of a segment file being written can be read now: its bytes up to the end of the
 * last whole fragment (`moof` with its `mdat`). A box the writer has not finished, or a `moof`
 * whose `mdat` has not come, is left out. 0 when not even the init segment is whole.
 */
export function wholeFragmentsEnd(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = 0;
  let sawMoov = false;
  for (let at = 0; at + 8 <= bytes.length;) {
    const size = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    // The relay's muxer writes 32-bit sizes; anything else is not a box to go on from.
    if (size < 8 || at + size > bytes.length) break;
    at += size;
    if (type === 'moov') sawMoov = true;
    if (type === 'mdat' && sawMoov) end = at;
  }
  return end;
}

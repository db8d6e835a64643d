/** A blocking playlist reload (Low-Latency HLS): answer once this segment, or this part of it, is out. */
export interface PlaylistWait {
  /** `_HLS_msn`: a media sequence number. */
  msn: number;
  /** `_HLS_part`: a part index in that segment. */
  part?: number;
}

/** What a session has out now, as a blocking reload sees it. */
export interface OutNow {
  /** The sequence number of the segment being filled. */
  pending: number;
  /** Its complete parts. */
  pendingParts: number;
  /** The parts of a complete segment still kept (undefined: no longer kept). */
  partsOf(sequence: number): number | undefined;
  /** PART-TARGET in seconds; undefined: the session has no parts. */
  partTarget?: number;
}

export type ReloadState = { ready: boolean } | { refused: string };

/**
 * Whether a blocking reload (rfc8216bis 6.2.5.2) can be answered now (`ready`), must wait, or
 * is refused at once (a 400): `_HLS_msn` more than one past the segment being filled,
 * `_HLS_part` more parts ahead than the Advance Part Limit (three seconds of parts), or
 * `_HLS_part` on a session without parts. A part index past the last part of a complete
 * segment asks for part 0 of the next one.
 */
export function reloadState(now: OutNow, wait: PlaylistWait): ReloadState {
  const { msn, part } = wait;
  // A reload may ask for what comes next, not for what is far ahead.
  if (msn > now.pending + 1) return { refused: `_HLS_msn=${msn} is too far ahead: the next segment is ${now.pending}` };
  if (part === undefined) return { ready: msn < now.pending };
  if (now.partTarget === undefined) return { refused: '_HLS_part: this session has no parts' };
  const limit = now.partTarget < 1 ? Math.floor(3 / now.partTarget) : 3;
  const ahead = msn === now.pending ? part - (now.pendingParts - 1) : msn > now.pending ? part + 1 : 0;
  if (ahead > limit) return { refused: `_HLS_part=${part} of segment ${msn} is more than ${limit} parts ahead of the last one out` };
  if (msn === now.pending) return { ready: part < now.pendingParts };
  if (msn > now.pending) return { ready: false };
  const parts = now.partsOf(msn);
  if (parts === undefined || part < parts) return { ready: true };
  // Past the segment's last part: part 0 of the next segment.
  return { ready: msn + 1 < now.pending || now.pendingParts > 0 };
}

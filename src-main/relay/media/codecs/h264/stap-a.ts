/** The NAL units of a STAP-A payload (RFC 6184 5.7.1); a unit cut short ends the list. */
export function stapUnits(payload: Uint8Array): Uint8Array[] {
  const units: Uint8Array[] = [];
  let offset = 1;
  while (offset + 2 <= payload.length) {
    const size = (payload[offset]! << 8) | payload[offset + 1]!;
    if (size === 0 || offset + 2 + size > payload.length) break;
    units.push(payload.subarray(offset + 2, offset + 2 + size));
    offset += 2 + size;
  }
  return units;
}

/** The whole NAL units an RTP payload carries: one, the units of a STAP-A, none for a fragment. */
export function wholeUnits(payload: Uint8Array): Uint8Array[] {
  const type = payload.length > 0 ? payload[0]! & 0x1f : 0;
  return type === 24 ? stapUnits(payload) : type >= 1 && type <= 23 ? [payload] : [];
}

/**
 * Keeps an fmtp's `sprop-parameter-sets` to the SPS and PPS last seen in band, for sources
 * whose SDP had none (WebRTC publishers, which also change them with the picture size): RTSP
 * viewers then get them in DESCRIBE, as from a camera. ffmpeg drops the first RTP packet it
 * reads, which is where the in-band ones would be. Returns the new fmtp, undefined when unchanged.
 */
export function learnParameterSets(
  fmtp: string | undefined,
  payload: Uint8Array,
  seen: { sps?: Uint8Array; pps?: Uint8Array },
): string | undefined {
  const units = wholeUnits(payload);
  if (!units.some((unit) => (unit[0]! & 0x1f) === 7 || (unit[0]! & 0x1f) === 8)) return undefined;
  for (const unit of units) {
    if ((unit[0]! & 0x1f) === 7) seen.sps = Uint8Array.from(unit);
    if ((unit[0]! & 0x1f) === 8) seen.pps = Uint8Array.from(unit);
  }
  if (!seen.sps || !seen.pps) return undefined;
  const sprop = `sprop-parameter-sets=${Buffer.from(seen.sps).toString('base64')},${Buffer.from(seen.pps).toString('base64')}`;
  const others = (fmtp ?? '').split(';').filter((part) => part !== '' && !part.startsWith('sprop-parameter-sets='));
  const next = [...others, sprop].join(';');
  return next === fmtp ? undefined : next;
}

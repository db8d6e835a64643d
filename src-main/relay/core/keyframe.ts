import type { RtpPacket } from './rtp-packet';

/**
 * Does this RTP packet start a keyframe (an IDR access unit, or the parameter sets before one)?
 * The GOP cache cuts here so a new viewer starts with a decodable picture.
 */
export function startsKeyframe(codecName: string, packet: RtpPacket): boolean {
  const p = packet.payload;
  if (p.length < 2) return false;
  if (codecName === 'H264') {
    const type = p[0]! & 0x1f;
    if (type === 5 || type === 7) return true; // IDR slice, SPS
    if (type === 24) return stapContains(p, (nal) => (nal & 0x1f) === 7 || (nal & 0x1f) === 5); // STAP-A
    if (type === 28) return (p[1]! & 0x80) !== 0 && (p[1]! & 0x1f) === 5; // FU-A start of IDR
    return false;
  }
  if (codecName === 'H265') {
    const type = (p[0]! >> 1) & 0x3f;
    const irapOrVps = (t: number) => (t >= 16 && t <= 21) || t === 32;
    if (irapOrVps(type)) return true;
    if (type === 48) return apContains(p); // aggregation packet
    if (type === 49 && p.length > 2) return (p[2]! & 0x80) !== 0 && irapOrVps(p[2]! & 0x3f); // FU start
    return false;
  }
  if (codecName === 'VP8') return vp8Keyframe(p);
  // Audio and intra-only video (JPEG): every packet is a fine place to start.
  return true;
}

/** RFC 7741: the first packet of a VP8 frame (S set, partition 0) whose frame header says key frame (P clear). */
function vp8Keyframe(p: Uint8Array): boolean {
  const first = p[0]!;
  if ((first & 0x10) === 0 || (first & 0x07) !== 0) return false;
  let offset = 1;
  if (first & 0x80) {
    const extension = p[offset++] ?? 0;
    if (extension & 0x80) offset += (p[offset] ?? 0) & 0x80 ? 2 : 1; // PictureID, 7 or 15 bits
    if (extension & 0x40) offset += 1; // TL0PICIDX
    if (extension & 0x30) offset += 1; // TID/KEYIDX
  }
  return offset < p.length && (p[offset]! & 0x01) === 0;
}

function stapContains(p: Uint8Array, match: (header: number) => boolean): boolean {
  let offset = 1;
  while (offset + 2 < p.length) {
    const size = (p[offset]! << 8) | p[offset + 1]!;
    if (size === 0 || offset + 2 + size > p.length) return false;
    if (match(p[offset + 2]!)) return true;
    offset += 2 + size;
  }
  return false;
}

function apContains(p: Uint8Array): boolean {
  let offset = 2;
  while (offset + 3 < p.length) {
    const size = (p[offset]! << 8) | p[offset + 1]!;
    if (size === 0 || offset + 2 + size > p.length) return false;
    const type = (p[offset + 2]! >> 1) & 0x3f;
    if ((type >= 16 && type <= 21) || type === 32) return true;
    offset += 2 + size;
  }
  return false;
}

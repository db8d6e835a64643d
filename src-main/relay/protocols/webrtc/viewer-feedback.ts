/**
 * What a viewer's RTCP says to the relay, read from a compound packet in clear (RFC 3550 6.4,
 * RFC 4585 6.2.1 and 6.3.1, RFC 5104 4.3.1): loss counts per track from its reports, the packets
 * it NACKs, and its asks for a keyframe (PLI, FIR). `ssrc` is always the relay's track the
 * feedback is about. Other packet types are passed over.
 */
export type ViewerFeedback =
  | { kind: 'report'; ssrc: number; fractionLost: number; packetsLost: number }
  | { kind: 'nack'; ssrc: number; lost: number[] }
  | { kind: 'keyframe'; ssrc: number };

export class RtcpFormatError extends Error {}

const SR = 200;
const RR = 201;
const RTPFB = 205;
const PSFB = 206;
const GENERIC_NACK = 1;
const PLI = 1;
const FIR = 4;
const REPORT_BLOCK = 24;

/** The feedback in a compound RTCP packet; throws RtcpFormatError for one that does not parse. */
export function readViewerFeedback(packet: Uint8Array): ViewerFeedback[] {
  const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength);
  const feedback: ViewerFeedback[] = [];
  let at = 0;
  while (at < packet.length) {
    if (packet.length - at < 4)
      throw new RtcpFormatError(`${packet.length - at} bytes left after the last RTCP packet, less than a header`);
    const first = packet[at]!;
    if (first >> 6 !== 2) throw new RtcpFormatError(`RTCP version ${first >> 6} at byte ${at}, expected 2`);
    const count = first & 0x1f;
    const type = packet[at + 1]!;
    const length = (view.getUint16(at + 2) + 1) * 4;
    if (at + length > packet.length)
      throw new RtcpFormatError(`RTCP packet of ${length} bytes at byte ${at} runs past the ${packet.length} received`);
    const body = at + 4;
    const end = at + length;
    if (type === SR || type === RR) {
      const blocks = body + 4 + (type === SR ? 20 : 0);
      if (blocks + count * REPORT_BLOCK > end) throw new RtcpFormatError(`${count} report blocks do not fit in a ${length}-byte report`);
      for (let i = 0; i < count; i++) {
        const block = blocks + i * REPORT_BLOCK;
        // The cumulative count is signed 24-bit (duplicates can make it negative).
        const lost = view.getUint32(block + 4) & 0xffffff;
        feedback.push({
          kind: 'report',
          ssrc: view.getUint32(block),
          fractionLost: packet[block + 4]!,
          packetsLost: lost & 0x800000 ? lost - 0x1000000 : lost,
        });
      }
    } else if (type === RTPFB || type === PSFB) {
      if (length < 12) throw new RtcpFormatError(`a ${length}-byte feedback packet, shorter than its 12-byte header`);
      const media = view.getUint32(body + 4);
      if (type === RTPFB && count === GENERIC_NACK) {
        const lost: number[] = [];
        for (let fci = body + 8; fci + 4 <= end; fci += 4) {
          const pid = view.getUint16(fci);
          const mask = view.getUint16(fci + 2);
          lost.push(pid);
          for (let bit = 0; bit < 16; bit++) if (mask & (1 << bit)) lost.push((pid + bit + 1) & 0xffff);
        }
        feedback.push({ kind: 'nack', ssrc: media, lost });
      } else if (type === PSFB && count === PLI) {
        feedback.push({ kind: 'keyframe', ssrc: media });
      } else if (type === PSFB && count === FIR) {
        // The media source field is unused: each FCI entry names the SSRC it asks.
        for (let fci = body + 8; fci + 8 <= end; fci += 8) feedback.push({ kind: 'keyframe', ssrc: view.getUint32(fci) });
      }
    }
    at = end;
  }
  return feedback;
}

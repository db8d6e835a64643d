import { describe, expect, it } from 'vitest';
import type { RtpPacket } from '../../core/rtp-packet';
import { createH264ParameterSetInjector } from './h264-parameter-sets';

const SPS = Uint8Array.of(0x67, 0x42, 0xc0, 0x1f, 0xda);
const PPS = Uint8Array.of(0x68, 0xce, 0x3c, 0x80);
const codec = {
  name: 'H264',
  clockRate: 90000,
  payloadType: 96,
  fmtp: `packetization-mode=1;sprop-parameter-sets=${Buffer.from(SPS).toString('base64')},${Buffer.from(PPS).toString('base64')}`,
};
const packet = (timestamp: number, payload: number[], sequenceNumber = 500): RtpPacket => ({
  marker: false,
  payloadType: 96,
  sequenceNumber,
  timestamp,
  ssrc: 1,
  payload: Uint8Array.from(payload),
});

/** The injector, with what it emits for each packet collected into an array. */
function injector(): (packet: RtpPacket) => RtpPacket[] {
  const inject = createH264ParameterSetInjector(codec);
  return (packet) => {
    const out: RtpPacket[] = [];
    inject(packet, (emitted) => out.push(emitted));
    return out;
  };
}

describe('SPS and PPS in band for browsers', () => {
  it('puts a STAP-A with the SDP sets before an IDR that comes without them; every packet passes as it came', () => {
    const inject = injector();
    const fuStart = packet(9000, [0x7c, 0x85, 1, 2]);
    const idrStart = inject(fuStart);
    expect(idrStart).toHaveLength(2);
    expect(idrStart[0]).toMatchObject({ timestamp: 9000, marker: false });
    expect([...idrStart[0]!.payload]).toEqual([0x78, 0, 5, ...SPS, 0, 4, ...PPS]);
    // The packet itself, not a copy (the viewer's sender numbers it).
    expect(idrStart[1]).toBe(fuStart);
    // The rest of the same IDR and the next frames pass as they are.
    expect(inject(packet(9000, [0x7c, 0x45, 3]))).toHaveLength(1);
    const next = packet(12600, [0x41, 9]);
    expect(inject(next)).toEqual([next]);
    // An IDR in one packet (no FU-A) gets them too.
    expect(inject(packet(16200, [0x65, 0x88]))).toHaveLength(2);
  });

  it('leaves an IDR alone when the sets came in band, and takes the latest in-band ones for later IDRs', () => {
    const inject = injector();
    const newSps = [0x67, 0x64, 0x00, 0x28, 0xac];
    expect(inject(packet(100, newSps))).toHaveLength(1);
    expect(inject(packet(100, [...PPS]))).toHaveLength(1);
    expect(inject(packet(100, [0x65, 0x88]))).toHaveLength(1);
    const later = inject(packet(3700, [0x65, 0x88]));
    expect(later).toHaveLength(2);
    expect([...later[0]!.payload.subarray(3, 8)]).toEqual(newSps);
  });
});

import { describe, expect, it } from 'vitest';
import { carriesDtlsFinished } from './dtls-finished';

/** One DTLS 1.2 record: type, version 1.2 (0xfefd), epoch, sequence number 0, a body of `length` bytes. */
function record(type: number, epoch: number, length: number): Buffer {
  const header = Buffer.from([type, 0xfe, 0xfd, epoch >> 8, epoch & 0xff, 0, 0, 0, 0, 0, 0, length >> 8, length & 0xff]);
  return Buffer.concat([header, Buffer.alloc(length, 0xaa)]);
}

describe('carriesDtlsFinished', () => {
  it('finds an encrypted handshake record (epoch 1), alone or after a ChangeCipherSpec in the same datagram', () => {
    expect(carriesDtlsFinished(record(22, 1, 40))).toBe(true);
    expect(carriesDtlsFinished(Buffer.concat([record(20, 0, 1), record(22, 1, 40)]))).toBe(true);
  });

  it('passes by the clear handshake of epoch 0, a ChangeCipherSpec, application data and alerts', () => {
    expect(carriesDtlsFinished(record(22, 0, 300))).toBe(false);
    expect(carriesDtlsFinished(record(20, 0, 1))).toBe(false);
    expect(carriesDtlsFinished(record(23, 1, 100))).toBe(false);
    expect(carriesDtlsFinished(record(21, 1, 26))).toBe(false);
  });

  it('stops at what is not a DTLS record: STUN, RTP, a header cut short, a length past the end', () => {
    expect(carriesDtlsFinished(Buffer.from([0x00, 0x01, 0x00, 0x00]))).toBe(false);
    expect(carriesDtlsFinished(Buffer.from([0x80, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0]))).toBe(false);
    expect(carriesDtlsFinished(record(22, 1, 40).subarray(0, 12))).toBe(false);
    expect(carriesDtlsFinished(Buffer.concat([record(22, 0, 5000).subarray(0, 30)]))).toBe(false);
    expect(carriesDtlsFinished(Buffer.concat([record(22, 0, 10), Buffer.from([0x80, 0, 0, 1])]))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { bindingRequest, bindingRequestUsername, bindingSuccess, mappedAddress, readStunHeader } from './stun';

/** A binding request as browsers send it: USERNAME, then attributes the mux does not read. */
function browserCheck(username: string): Buffer {
  const name = Buffer.from(username);
  const padded = Buffer.alloc(Math.ceil(name.length / 4) * 4);
  name.copy(padded);
  const priority = Buffer.from([0x00, 0x24, 0x00, 0x04, 0x6e, 0x7f, 0x1e, 0xff]);
  const body = Buffer.concat([Buffer.from([0x00, 0x06, 0x00, name.length]), padded, priority]);
  const header = Buffer.alloc(20);
  header.writeUInt16BE(0x0001, 0);
  header.writeUInt16BE(body.length, 2);
  header.writeUInt32BE(0x2112a442, 4);
  return Buffer.concat([header, body]);
}

describe('STUN as the shared ICE port reads it', () => {
  it('a connectivity check names its session: the USERNAME, padding and all', () => {
    expect(bindingRequestUsername(browserCheck('cf73:hhK8'))).toBe('cf73:hhK8');
    expect(bindingRequestUsername(browserCheck('abcdefgh:x'))).toBe('abcdefgh:x');
  });

  it('media and DTLS are not STUN; a truncated message is not either', () => {
    expect(readStunHeader(Buffer.from([0x80, 0x60, 0, 1, ...new Array(20).fill(0)]))).toBeUndefined(); // RTP
    expect(readStunHeader(Buffer.from([0x16, 0xfe, 0xfd, ...new Array(20).fill(0)]))).toBeUndefined(); // DTLS
    expect(bindingRequestUsername(browserCheck('cf73:hhK8').subarray(0, 30))).toBeUndefined();
  });

  it('a server answer gives the address it saw; a request of ours has a fresh transaction id', () => {
    const request = bindingRequest();
    expect(request.transactionId).not.toBe(bindingRequest().transactionId);
    const answer = bindingSuccess(request.transactionId, { address: '203.0.113.7', port: 8555 });
    expect(readStunHeader(answer)).toEqual({ type: 0x0101, transactionId: request.transactionId });
    expect(mappedAddress(answer)).toEqual({ address: '203.0.113.7', port: 8555 });
    expect(mappedAddress(request.bytes)).toBeUndefined();
  });
});

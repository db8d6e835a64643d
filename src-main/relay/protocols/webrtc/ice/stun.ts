import { randomBytes } from 'node:crypto';
import { ipv4Number } from './ipv4-number';

/** RFC 5389: every STUN message carries this after its type and length. */
export const MAGIC_COOKIE = 0x2112a442;
export const HEADER_BYTES = 20;
export const BINDING_REQUEST = 0x0001;
export const BINDING_SUCCESS = 0x0101;
const ATTR_MAPPED_ADDRESS = 0x0001;
export const ATTR_USERNAME = 0x0006;
export const ATTR_XOR_MAPPED_ADDRESS = 0x0020;

export interface StunHeader {
  type: number;
  /** The 12-byte transaction id, as hex. */
  transactionId: string;
}

/**
 * The header of a STUN message, or undefined when the bytes are not one (RTP, DTLS and STUN
 * share the ICE port; RFC 7983 tells them apart by the first byte, the cookie confirms it).
 */
export function readStunHeader(bytes: Uint8Array): StunHeader | undefined {
  if (bytes.length < HEADER_BYTES || bytes[0]! > 3) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint16(2);
  if (view.getUint32(4) !== MAGIC_COOKIE || length % 4 !== 0 || HEADER_BYTES + length > bytes.length) return undefined;
  return { type: view.getUint16(0), transactionId: Buffer.from(bytes.subarray(8, 20)).toString('hex') };
}

/** Walks the attributes of a message whose header `readStunHeader` accepted. */
function* attributes(bytes: Uint8Array): Generator<{ type: number; value: Uint8Array }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = HEADER_BYTES + view.getUint16(2);
  let at = HEADER_BYTES;
  while (at + 4 <= end) {
    const type = view.getUint16(at);
    const length = view.getUint16(at + 2);
    if (at + 4 + length > end) return;
    yield { type, value: bytes.subarray(at + 4, at + 4 + length) };
    at += 4 + length + ((4 - (length % 4)) % 4);
  }
}

/**
 * The USERNAME of a binding request (`<receiver's ufrag>:<sender's ufrag>` in ICE), or undefined
 * for anything else. This is how one port serves every viewer: the ufrag names the session.
 */
export function bindingRequestUsername(bytes: Uint8Array): string | undefined {
  if (readStunHeader(bytes)?.type !== BINDING_REQUEST) return undefined;
  for (const attribute of attributes(bytes)) {
    if (attribute.type === ATTR_USERNAME) return Buffer.from(attribute.value).toString('utf8');
  }
  return undefined;
}

/** A binding request with no attributes, for asking a STUN server which address it sees. */
export function bindingRequest(): { bytes: Buffer; transactionId: string } {
  const bytes = Buffer.alloc(HEADER_BYTES);
  bytes.writeUInt16BE(BINDING_REQUEST, 0);
  bytes.writeUInt32BE(MAGIC_COOKIE, 4);
  randomBytes(12).copy(bytes, 8);
  return { bytes, transactionId: bytes.subarray(8, 20).toString('hex') };
}

/** The IPv4 address a STUN server saw in a binding success response (XOR-MAPPED-ADDRESS, else MAPPED-ADDRESS). */
export function mappedAddress(bytes: Uint8Array): { address: string; port: number } | undefined {
  if (readStunHeader(bytes)?.type !== BINDING_SUCCESS) return undefined;
  let plain: { address: string; port: number } | undefined;
  for (const { type, value } of attributes(bytes)) {
    // Family 0x01 is IPv4: 1 reserved byte, family, port, 4 address bytes.
    if ((type !== ATTR_XOR_MAPPED_ADDRESS && type !== ATTR_MAPPED_ADDRESS) || value.length < 8 || value[1] !== 0x01) continue;
    const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
    if (type === ATTR_XOR_MAPPED_ADDRESS) {
      const port = view.getUint16(2) ^ (MAGIC_COOKIE >>> 16);
      const ip = (view.getUint32(4) ^ MAGIC_COOKIE) >>> 0;
      return { address: [ip >>> 24, (ip >>> 16) & 0xff, (ip >>> 8) & 0xff, ip & 0xff].join('.'), port };
    }
    plain = { address: [...value.subarray(4, 8)].join('.'), port: view.getUint16(2) };
  }
  return plain;
}

/** A binding success response telling `to` the address it came from (a small STUN server, for tests and discovery peers). */
export function bindingSuccess(transactionId: string, to: { address: string; port: number }): Buffer {
  const bytes = Buffer.alloc(HEADER_BYTES + 12);
  bytes.writeUInt16BE(BINDING_SUCCESS, 0);
  bytes.writeUInt16BE(12, 2);
  bytes.writeUInt32BE(MAGIC_COOKIE, 4);
  Buffer.from(transactionId, 'hex').copy(bytes, 8);
  bytes.writeUInt16BE(ATTR_XOR_MAPPED_ADDRESS, 20);
  bytes.writeUInt16BE(8, 22);
  bytes.writeUInt8(0x01, 25);
  bytes.writeUInt16BE(to.port ^ (MAGIC_COOKIE >>> 16), 26);
  bytes.writeUInt32BE((ipv4Number(to.address) ^ MAGIC_COOKIE) >>> 0, 28);
  return bytes;
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import {
  ATTR_USERNAME as USERNAME,
  ATTR_XOR_MAPPED_ADDRESS as XOR_MAPPED_ADDRESS,
  BINDING_REQUEST,
  BINDING_SUCCESS,
  HEADER_BYTES,
  MAGIC_COOKIE,
} from './stun';

/** RFC 5389 (STUN) and RFC 8445 (ICE) numbers the answer needs beyond those `stun.ts` has. */
const MESSAGE_INTEGRITY = 0x0008;
const PRIORITY = 0x0024;
const USE_CANDIDATE = 0x0025;
const FINGERPRINT = 0x8028;
const ICE_CONTROLLED = 0x8029;
const FINGERPRINT_XOR = 0x5354554e;
/** Attributes below this must be understood (RFC 5389 15); the ones a consent check carries are. */
const COMPREHENSION_OPTIONAL = 0x8000;
const UNDERSTOOD = new Set([USERNAME, MESSAGE_INTEGRITY, PRIORITY, USE_CANDIDATE]);
/** The answer: header, XOR-MAPPED-ADDRESS (IPv4), MESSAGE-INTEGRITY, FINGERPRINT. */
const ANSWER_BYTES = HEADER_BYTES + 12 + 24 + 8;

/**
 * The binding success response to a viewer's consent check (RFC 7675), made by the relay on the
 * shared port: XOR-MAPPED-ADDRESS of the address it came from (IPv4, as a 32-bit number),
 * MESSAGE-INTEGRITY with the session's ICE password, FINGERPRINT. A browser sends one every few
 * seconds for as long as it views; bridged to werift, each cost four datagrams over loopback and
 * werift's STUN code (an HMAC object and a CRC-32 in JavaScript), more than a second of the
 * viewer's media. Undefined for anything that is not a check authenticated with `password`, or
 * that asks more than an answer (a role conflict, an attribute not understood): werift answers
 * those as before.
 */
export function consentAnswer(request: Buffer, password: Buffer, from: { address32: number; port: number }): Buffer | undefined {
  if (request.length < HEADER_BYTES || request.readUInt16BE(0) !== BINDING_REQUEST || request.readUInt32BE(4) !== MAGIC_COOKIE)
    return undefined;
  const end = HEADER_BYTES + request.readUInt16BE(2);
  if (end > request.length || end % 4 !== 0) return undefined;
  let integrityAt = -1;
  for (let at = HEADER_BYTES; at + 4 <= end;) {
    const type = request.readUInt16BE(at);
    const length = request.readUInt16BE(at + 2);
    if (at + 4 + length > end) return undefined;
    if (integrityAt >= 0 && type !== FINGERPRINT) return undefined; // RFC 5389 15.4: only FINGERPRINT may follow
    if (type === MESSAGE_INTEGRITY) {
      if (length !== 20) return undefined;
      integrityAt = at;
    } else if (type === ICE_CONTROLLED || (type < COMPREHENSION_OPTIONAL && !UNDERSTOOD.has(type))) return undefined;
    at += 4 + length + ((4 - (length % 4)) % 4);
  }
  if (integrityAt < 0 || !integrityMatches(request, integrityAt, password)) return undefined;
  return answer(request, password, from);
}

/**
 * werift's success response to a viewer's check, addressed as the viewer must see it: werift
 * answers from behind the loopback bridge, so its XOR-MAPPED-ADDRESS names the bridge
 * (127.0.0.1 and a port of the relay's). Chromium takes that for a peer-reflexive address of its
 * own; Firefox counts no answer at all and its ICE never connects. The same answer for the
 * viewer's address, signed again with the session's ICE password; undefined for anything that is
 * not a binding success response (errors, such as a role conflict, go as werift made them).
 */
export function readdressedAnswer(response: Buffer, password: Buffer, to: { address32: number; port: number }): Buffer | undefined {
  if (response.length < HEADER_BYTES || response.readUInt16BE(0) !== BINDING_SUCCESS || response.readUInt32BE(4) !== MAGIC_COOKIE)
    return undefined;
  return answer(response, password, to);
}

/** RFC 5389 15.4: the HMAC covers the message up to the attribute, its length field counting to the attribute's end. */
function integrityMatches(request: Buffer, integrityAt: number, password: Buffer): boolean {
  const header = Buffer.from(request.subarray(0, HEADER_BYTES));
  header.writeUInt16BE(integrityAt + 24 - HEADER_BYTES, 2);
  const expected = createHmac('sha1', password).update(header).update(request.subarray(HEADER_BYTES, integrityAt)).digest();
  return timingSafeEqual(expected, request.subarray(integrityAt + 4, integrityAt + 24));
}

/** A binding success response in the transaction of `message` (a check, or werift's answer to one). */
function answer(message: Buffer, password: Buffer, from: { address32: number; port: number }): Buffer {
  const bytes = Buffer.allocUnsafe(ANSWER_BYTES);
  bytes.writeUInt16BE(BINDING_SUCCESS, 0);
  bytes.writeUInt32BE(MAGIC_COOKIE, 4);
  message.copy(bytes, 8, 8, HEADER_BYTES); // the transaction id
  bytes.writeUInt16BE(XOR_MAPPED_ADDRESS, 20);
  bytes.writeUInt16BE(8, 22);
  bytes.writeUInt16BE(0x0001, 24); // reserved byte, family IPv4
  bytes.writeUInt16BE(from.port ^ (MAGIC_COOKIE >>> 16), 26);
  bytes.writeUInt32BE((from.address32 ^ MAGIC_COOKIE) >>> 0, 28);
  // MESSAGE-INTEGRITY over the header and the address, the length counting to its own end.
  bytes.writeUInt16BE(12 + 24, 2);
  bytes.writeUInt16BE(MESSAGE_INTEGRITY, 32);
  bytes.writeUInt16BE(20, 34);
  createHmac('sha1', password).update(bytes.subarray(0, 32)).digest().copy(bytes, 36);
  // FINGERPRINT over everything before it, the length now the whole message's.
  bytes.writeUInt16BE(ANSWER_BYTES - HEADER_BYTES, 2);
  bytes.writeUInt16BE(FINGERPRINT, 56);
  bytes.writeUInt16BE(4, 58);
  bytes.writeUInt32BE((crc32(bytes.subarray(0, 56)) ^ FINGERPRINT_XOR) >>> 0, 60);
  return bytes;
}

/**
 * The PCM family of RTP (RFC 3551) as 16-bit samples, the FLAC encoder's input: G.711 A-law
 * (PCMA) and µ-law (PCMU) expand one byte to one sample (ITU-T G.711 segment tables), L16 is
 * big-endian 16-bit, channels interleaved.
 */
export type PcmCodecName = 'PCMA' | 'PCMU' | 'L16';

export const isPcmCodec = (name: string): name is PcmCodecName => name === 'PCMA' || name === 'PCMU' || name === 'L16';

function alawSample(byte: number): number {
  const a = byte ^ 0x55;
  const mantissa = a & 0x0f;
  const segment = (a >> 4) & 0x07;
  const magnitude = segment === 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (segment - 1);
  return a & 0x80 ? magnitude : -magnitude;
}

function ulawSample(byte: number): number {
  const u = ~byte & 0xff;
  const magnitude = (((u & 0x0f) << 3) + 0x84) << ((u >> 4) & 0x07);
  return u & 0x80 ? 0x84 - magnitude : magnitude - 0x84;
}

const ALAW = Int16Array.from({ length: 256 }, (_, i) => alawSample(i));
const ULAW = Int16Array.from({ length: 256 }, (_, i) => ulawSample(i));

/** One RTP payload → one array of samples per channel. */
export function decodePcm(codec: PcmCodecName, payload: Uint8Array, channels = 1): Int32Array[] {
  if (codec === 'L16') {
    const frames = Math.floor(payload.length / (2 * channels));
    const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
    return Array.from({ length: channels }, (_, c) => Int32Array.from({ length: frames }, (_, i) => view.getInt16((i * channels + c) * 2)));
  }
  const table = codec === 'PCMA' ? ALAW : ULAW;
  const frames = Math.floor(payload.length / channels);
  return Array.from({ length: channels }, (_, c) => Int32Array.from({ length: frames }, (_, i) => table[payload[i * channels + c]!]!));
}

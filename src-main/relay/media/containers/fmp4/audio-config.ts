import { box, concat, fullBox, u16, u24, u32, u8 } from './boxes';

/** An MPEG-4 descriptor (ISO 14496-1 8.3.3): tag, then its size in 7-bit groups. */
function descriptor(tag: number, ...payload: Uint8Array[]): Uint8Array {
  const body = concat(payload);
  const size: number[] = [body.length & 0x7f];
  for (let rest = body.length >> 7; rest > 0; rest >>= 7) size.unshift(0x80 | (rest & 0x7f));
  return concat([u8(tag), Uint8Array.from(size), body]);
}

/**
 * `esds` for AAC (ISO 14496-14 5.6, 14496-1 ES_Descriptor): object type 0x40 (MPEG-4 audio),
 * stream type 5 (audio), and the AudioSpecificConfig the SDP carried as `config=`.
 */
export function esdsBox(audioSpecificConfig: Uint8Array, trackId: number): Uint8Array {
  return fullBox(
    'esds',
    0,
    0,
    descriptor(
      0x03,
      u16(trackId),
      u8(0),
      descriptor(0x04, u8(0x40), u8(0x15), u24(0), u32(0), u32(0), descriptor(0x05, audioSpecificConfig)),
      descriptor(0x06, u8(0x02)),
    ),
  );
}

/** `mp4a.40.N` (RFC 6381): N is the audio object type of the AudioSpecificConfig (2 = AAC-LC). */
export function aacCodecString(audioSpecificConfig: Uint8Array): string {
  let objectType = audioSpecificConfig[0]! >> 3;
  if (objectType === 31) objectType = 32 + (((audioSpecificConfig[0]! & 0x07) << 3) | (audioSpecificConfig[1]! >> 5));
  return `mp4a.40.${objectType}`;
}

/** Channels of an AudioSpecificConfig (0 means "in the stream": then the SDP's count is used). */
export function aacChannels(audioSpecificConfig: Uint8Array): number {
  return audioSpecificConfig.length >= 2 ? (audioSpecificConfig[1]! >> 3) & 0x0f : 0;
}

/** `dOps` (Opus in ISO BMFF, 4.3.2): like Ogg's OpusHead but big-endian and without the magic. */
export function dOpsBox(channels: number, preSkip = 0): Uint8Array {
  return box('dOps', u8(0), u8(channels), u16(preSkip), u32(48000), u16(0), u8(0));
}

/** `dfLa` (FLAC in ISO BMFF, 3.3.2): the STREAMINFO metadata block, marked as the last one. */
export function dfLaBox(streamInfo: Uint8Array): Uint8Array {
  if (streamInfo.length !== 34) throw new Error(`FLAC STREAMINFO is 34 bytes, not ${streamInfo.length}`);
  return fullBox('dfLa', 0, 0, u8(0x80), u24(34), streamInfo);
}

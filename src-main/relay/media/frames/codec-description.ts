import type { Codec } from '../../core/media';

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/**
 * Codec descriptions (as an SDP would carry them) for frames that arrive without SDP: a POSTed
 * FLV or MPEG-TS, an HTTP source. Viewers of the relay (RTSP, MP4) read parameter sets from
 * these, so they must be those of the stream.
 */
export function h264Codec(sps: Uint8Array, pps: Uint8Array, payloadType = 96): Codec {
  return {
    name: 'H264',
    clockRate: 90000,
    payloadType,
    fmtp: `packetization-mode=1;sprop-parameter-sets=${base64(sps)},${base64(pps)};profile-level-id=${hex(sps.subarray(1, 4))}`,
  };
}

export function h265Codec(vps: Uint8Array, sps: Uint8Array, pps: Uint8Array, payloadType = 96): Codec {
  return {
    name: 'H265',
    clockRate: 90000,
    payloadType,
    fmtp: `sprop-vps=${base64(vps)};sprop-sps=${base64(sps)};sprop-pps=${base64(pps)}`,
  };
}

/** AAC in RFC 3640's AAC-hbr mode, from the AudioSpecificConfig (2+ bytes). */
export function aacCodec(audioSpecificConfig: Uint8Array, payloadType = 97): Codec {
  const { sampleRate, channels } = readAudioSpecificConfig(audioSpecificConfig);
  return {
    name: 'MPEG4-GENERIC',
    clockRate: sampleRate,
    channels,
    payloadType,
    fmtp: `streamtype=5;profile-level-id=1;mode=AAC-hbr;sizelength=13;indexlength=3;indexdeltalength=3;config=${hex(audioSpecificConfig)}`,
  };
}

/** Motion JPEG (RFC 2435) has the static payload type 26. */
export const jpegCodec = (): Codec => ({ name: 'JPEG', clockRate: 90000, payloadType: 26 });

const SAMPLE_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

function readAudioSpecificConfig(asc: Uint8Array): { sampleRate: number; channels: number } {
  if (asc.length < 2) throw new Error(`AAC AudioSpecificConfig too short: ${asc.length} bytes`);
  const index = ((asc[0]! & 0x07) << 1) | (asc[1]! >> 7);
  const sampleRate = SAMPLE_RATES[index];
  if (!sampleRate) throw new Error(`AAC AudioSpecificConfig: sampling frequency index ${index} is not supported`);
  return { sampleRate, channels: (asc[1]! >> 3) & 0x0f };
}

/** The AudioSpecificConfig an ADTS header describes (MPEG-TS carries AAC as ADTS). */
export function audioSpecificConfigFromAdts(header: Uint8Array): Uint8Array {
  const objectType = ((header[2]! >> 6) & 0x03) + 1;
  const frequencyIndex = (header[2]! >> 2) & 0x0f;
  const channels = ((header[2]! & 0x01) << 2) | (header[3]! >> 6);
  return Uint8Array.of((objectType << 3) | (frequencyIndex >> 1), ((frequencyIndex & 1) << 7) | (channels << 3));
}

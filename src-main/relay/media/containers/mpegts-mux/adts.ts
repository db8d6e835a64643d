import { parseAudioSpecificConfig } from '../../codecs/aac/rtp-aac';

const SAMPLE_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];
const ADTS_HEADER_SIZE = 7;
const MAX_FRAME_LENGTH = 0x1fff;

/** Builds the ADTS header MPEG-TS needs in front of each raw AAC frame (RTP and MP4 carry none). */
export type AdtsFramer = (frame: Uint8Array) => Uint8Array;

/**
 * An ADTS framer for the AudioSpecificConfig of an SDP fmtp (`config=1210`). ADTS can only say
 * AAC Main/LC/SSR/LTP (object types 1-4) at one of the 13 standard rates, so other configs are
 * refused here, with the reason, rather than written as a stream players cannot decode.
 */
export function createAdtsFramer(fmtp: string | undefined): AdtsFramer {
  const hex = /(?:^|;)\s*config=([0-9a-fA-F]+)/.exec(fmtp ?? '')?.[1];
  if (!hex) throw new Error('AAC without an AudioSpecificConfig (fmtp config=): MPEG-TS needs it for the ADTS headers');
  const { objectType, sampleRate, channels } = parseAudioSpecificConfig(hex);
  const rateIndex = SAMPLE_RATES.indexOf(sampleRate);
  if (objectType < 1 || objectType > 4)
    throw new Error(`AAC object type ${objectType} cannot be carried in ADTS (only 1-4, e.g. AAC-LC = 2)`);
  if (channels > 7) throw new Error(`AAC channel configuration ${channels} cannot be carried in ADTS`);
  const profile = objectType - 1;
  return (frame) => {
    const length = ADTS_HEADER_SIZE + frame.length;
    if (length > MAX_FRAME_LENGTH) throw new RangeError(`AAC frame of ${frame.length} bytes does not fit an ADTS frame`);
    const out = new Uint8Array(length);
    out[0] = 0xff;
    out[1] = 0xf1; // sync, MPEG-4, layer 0, no CRC
    out[2] = (profile << 6) | (rateIndex << 2) | (channels >> 2);
    out[3] = ((channels & 0x03) << 6) | (length >> 11);
    out[4] = (length >> 3) & 0xff;
    out[5] = ((length & 0x07) << 5) | 0x1f; // buffer fullness 0x7FF: variable bit rate
    out[6] = 0xfc; // one raw data block
    out.set(frame, ADTS_HEADER_SIZE);
    return out;
  };
}

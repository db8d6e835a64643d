import type { Codec, MediaFrame } from '@main/relay/core/media';
import { encodeFlacFrame, FLAC_MAX_BLOCK, flacStreamInfo, type FlacFormat } from './flac-encoder';
import { decodePcm, isPcmCodec } from './pcm-input';

export interface PcmToFlac {
  /** The FLAC track the output carries: same clock and channels; fmtp `streaminfo=<hex>` for MP4's dfLa. */
  readonly codec: Codec;
  /** One PCM frame → FLAC frames with the same clock (more than one when the frame is longer than a FLAC block). */
  convert(frame: MediaFrame): MediaFrame[];
}

/** The FLAC codec description: STREAMINFO travels as hex in fmtp, since FLAC has no SDP form. */
function flacCodec(format: FlacFormat): Codec {
  return {
    name: 'FLAC',
    clockRate: format.sampleRate,
    channels: format.channels,
    payloadType: 0,
    fmtp: `streaminfo=${Buffer.from(flacStreamInfo(format)).toString('hex')}`,
  };
}

/**
 * PCMA/PCMU/L16 → FLAC, as go2rtc's MP4 output does (browsers play FLAC in MP4, not G.711):
 * lossless, so the decoded FLAC is the G.711-decoded PCM sample for sample.
 */
export function createPcmToFlac(source: Codec): PcmToFlac {
  if (!isPcmCodec(source.name)) throw new Error(`${source.name} is not PCM: FLAC is made from PCMA, PCMU or L16`);
  const pcm = source.name;
  const format: FlacFormat = { sampleRate: source.clockRate, channels: source.channels ?? 1 };
  const codec = flacCodec(format);
  let sampleNumber = 0;
  return {
    codec,
    convert(frame) {
      const channels = decodePcm(pcm, frame.data, format.channels);
      const length = channels[0]!.length;
      const out: MediaFrame[] = [];
      for (let start = 0; start < length; start += FLAC_MAX_BLOCK) {
        const block = channels.map((c) => c.subarray(start, Math.min(length, start + FLAC_MAX_BLOCK)));
        out.push({
          codec: 'FLAC',
          timestamp: (frame.timestamp + start) >>> 0,
          keyframe: true,
          data: encodeFlacFrame(block, format, sampleNumber % 2 ** 36),
        });
        sampleNumber += block[0]!.length;
      }
      return out;
    },
  };
}

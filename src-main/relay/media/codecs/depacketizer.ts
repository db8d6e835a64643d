import type { Codec, MediaFrame } from '../../core/media';
import type { RtpPacket } from '../../core/rtp-packet';
import { createAacDepacketizer } from './aac/rtp-aac';
import { createH264Depacketizer } from './h264/rtp-h264';
import { createH265Depacketizer } from './h265/rtp-h265';
import { createPassthroughDepacketizer } from './simple/rtp-simple';
import { createJpegDepacketizer } from './jpeg/rtp-jpeg';
import { spsFromFmtp } from './h264/sps';

export interface Depacketizer {
  push(packet: RtpPacket): readonly MediaFrame[];
  readonly stats: { packets: number; frames: number; errors: number; lost?: number };
}

/** The depacketizer for a track's codec; an output calls this once per track it takes. */
export function createDepacketizer(codec: Codec): Depacketizer {
  switch (codec.name) {
    case 'H264': {
      const sps = spsFromFmtp(codec.fmtp);
      const ppsB64 = /sprop-parameter-sets=[^,;\s]+,([^;\s]+)/.exec(codec.fmtp ?? '')?.[1];
      const sets = [sps, ppsB64 ? Uint8Array.from(Buffer.from(ppsB64, 'base64')) : undefined].filter((x): x is Uint8Array => !!x);
      return createH264Depacketizer(sets);
    }
    case 'H265':
      return createH265Depacketizer();
    case 'MPEG4-GENERIC':
      return createAacDepacketizer();
    case 'JPEG':
      return createJpegDepacketizer();
    case 'OPUS':
    case 'PCMA':
    case 'PCMU':
    case 'L16':
      return createPassthroughDepacketizer(codec.name);
    default:
      throw new Error(`no depacketizer for ${codec.name}: supported are H264, H265, JPEG, MPEG4-GENERIC (AAC), OPUS, PCMA, PCMU, L16`);
  }
}

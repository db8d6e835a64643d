import type { Codec } from '../../core/media';
import { parseAudioSpecificConfig } from '../../media/codecs/aac/rtp-aac';
import { h264NalType } from '../../media/codecs/h264/nal';
import { parseH264Sps, spsFromFmtp } from '../../media/codecs/h264/sps';
import { h265NalType } from '../../media/codecs/h265/rtp-h265';
import { h265SpsFromFmtp, parseH265Sps } from '../../media/codecs/h265/sps';
import { avcCodecString } from '../../media/containers/fmp4/avc-config';
import { hevcCodecString } from '../../media/containers/fmp4/hevc-config';

export interface VariantCodecs {
  /** RFC 6381 strings for CODECS; empty when one track's string cannot be told. */
  codecs: string[];
  resolution?: { width: number; height: number };
}

/** The SPS of a video track: from its SDP fmtp, else from a keyframe's NAL units seen so far. */
export function videoSps(codec: Codec, keyframeUnits: readonly Uint8Array[] = []): Uint8Array | undefined {
  if (codec.name === 'H264') return spsFromFmtp(codec.fmtp) ?? keyframeUnits.find((u) => h264NalType(u) === 7);
  if (codec.name === 'H265') return h265SpsFromFmtp(codec.fmtp) ?? keyframeUnits.find((u) => h265NalType(u) === 33);
  return undefined;
}

/**
 * What the master playlist says about the variant: codec strings (a player that knows them picks
 * its decoders before the first segment) and the picture size from the SPS.
 */
export function describeVariant(tracks: ReadonlyArray<{ codec: Codec; sps?: Uint8Array }>): VariantCodecs {
  const codecs: Array<string | undefined> = [];
  let resolution: VariantCodecs['resolution'];
  for (const { codec, sps } of tracks) {
    try {
      if (codec.name === 'H264' && sps) {
        codecs.push(avcCodecString(sps));
        resolution ??= pick(parseH264Sps(sps));
      } else if (codec.name === 'H265' && sps) {
        codecs.push(hevcCodecString(sps));
        resolution ??= pick(parseH265Sps(sps));
      } else if (codec.name === 'MPEG4-GENERIC') {
        const config = /(?:^|;)\s*config=([0-9a-fA-F]+)/.exec(codec.fmtp ?? '')?.[1];
        codecs.push(config ? `mp4a.40.${parseAudioSpecificConfig(config).objectType}` : undefined);
      } else codecs.push(codec.name === 'OPUS' ? 'opus' : undefined);
    } catch {
      codecs.push(undefined); // a broken SPS: the player finds out from the segments
    }
  }
  return { codecs: codecs.every((c): c is string => c !== undefined) ? codecs : [], resolution };
}

/**
 * A playlist's CODECS spells FLAC `fLaC`, the sample entry's name, as Apple's HLS authoring
 * specification lists it and go2rtc writes it (`flac` is MediaSource's spelling; hls.js takes
 * both). Naming AAC instead would send Safari's player after a codec the segments do not have.
 */
export function playlistCodecs(exact: readonly string[]): string[] {
  return exact.map((c) => (c.toLowerCase() === 'flac' ? 'fLaC' : c));
}

const pick = (sps: { width: number; height: number }) => ({ width: sps.width, height: sps.height });

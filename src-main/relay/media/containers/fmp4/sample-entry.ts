import type { Codec, MediaKind } from '@main/relay/core/media';
import { parseH264Sps } from '../../codecs/h264/sps';
import { parseH265Sps } from '../../codecs/h265/sps';
import { flacStreamInfo } from '../../codecs/flac/flac-encoder';
import { aacChannels, aacCodecString, dfLaBox, dOpsBox, esdsBox } from './audio-config';
import { avcCBox, avcCodecString } from './avc-config';
import { box, u16, u32, zeros } from './boxes';
import { hevcCodecString, hvcCBox } from './hevc-config';
import type { ParameterSets } from './parameter-sets';

/** What the init segment says about one track. */
import type { Rotation } from './rotation';

export interface TrackDescription {
  handler: 'vide' | 'soun';
  timescale: number;
  width: number;
  height: number;
  /** The one entry of `stsd`. */
  sampleEntry: Uint8Array;
  /** RFC 6381 codec string for `Content-Type: video/mp4; codecs="..."`. */
  codecString: string;
  /** Video: the turn players apply, written as the track's transformation matrix. */
  rotate?: Rotation;
}

/** Codecs this muxer carries, by RTP encoding name. */
export const FMP4_CODECS = ['H264', 'H265', 'MPEG4-GENERIC', 'OPUS', 'PCMA', 'PCMU', 'FLAC'] as const;

export const fmp4Carries = (codecName: string): boolean => (FMP4_CODECS as readonly string[]).includes(codecName);

export class UnsupportedCodecError extends Error {
  override name = 'UnsupportedCodecError';
}

/** VisualSampleEntry (ISO 14496-12 12.1.3) with its decoder configuration box. */
function visualEntry(type: string, width: number, height: number, config: Uint8Array): Uint8Array {
  const compressor = zeros(32);
  return box(
    type,
    zeros(6),
    u16(1), // data_reference_index
    zeros(16), // pre_defined, reserved
    u16(width),
    u16(height),
    u32(0x00480000), // 72 dpi
    u32(0x00480000),
    u32(0),
    u16(1), // frame_count
    compressor,
    u16(0x0018), // depth
    u16(0xffff), // pre_defined = -1
    config,
  );
}

/** AudioSampleEntry (ISO 14496-12 12.2.3); the rate field is 16.16 and holds rates below 65536. */
function audioEntry(type: string, channels: number, sampleRate: number, ...config: Uint8Array[]): Uint8Array {
  return box(
    type,
    zeros(6),
    u16(1),
    zeros(8),
    u16(channels),
    u16(16),
    zeros(4),
    u32(sampleRate < 0x10000 ? sampleRate * 0x10000 : 0),
    ...config,
  );
}

function fmtpValue(fmtp: string | undefined, key: string): string | undefined {
  return new RegExp(`(?:^|;)\\s*${key}=([^;\\s]+)`, 'i').exec(fmtp ?? '')?.[1];
}

function hexBytes(value: string | undefined, what: string): Uint8Array {
  if (!value || !/^([0-9a-f]{2})+$/i.test(value)) throw new UnsupportedCodecError(`${what} is missing or not hex`);
  return Uint8Array.from(Buffer.from(value, 'hex'));
}

/**
 * The sample entry, timescale and codec string of one track. Video needs its parameter sets
 * (the muxer gathers them from the SDP or the first keyframe); audio needs what its SDP says.
 */
export function describeTrack(kind: MediaKind, codec: Codec, sets: ParameterSets, trackId: number): TrackDescription {
  const channels = codec.channels ?? 1;
  switch (codec.name) {
    case 'H264': {
      const sps = sets.sps[0]!;
      const { width, height } = parseH264Sps(sps);
      return {
        handler: 'vide',
        timescale: codec.clockRate,
        width,
        height,
        sampleEntry: visualEntry('avc1', width, height, avcCBox(sets.sps, sets.pps)),
        codecString: avcCodecString(sps),
      };
    }
    case 'H265': {
      const sps = sets.sps[0]!;
      const { width, height } = parseH265Sps(sps);
      const config = hvcCBox([...sets.vps, ...sets.sps, ...sets.pps]);
      return {
        handler: 'vide',
        timescale: codec.clockRate,
        width,
        height,
        sampleEntry: visualEntry('hvc1', width, height, config),
        codecString: hevcCodecString(sps),
      };
    }
    case 'MPEG4-GENERIC': {
      const asc = hexBytes(fmtpValue(codec.fmtp, 'config'), 'AAC track: the SDP config= (AudioSpecificConfig)');
      const entry = audioEntry('mp4a', aacChannels(asc) || channels, codec.clockRate, esdsBox(asc, trackId));
      return { handler: 'soun', timescale: codec.clockRate, width: 0, height: 0, sampleEntry: entry, codecString: aacCodecString(asc) };
    }
    case 'OPUS': {
      const opusChannels = codec.channels ?? 2;
      return {
        handler: 'soun',
        timescale: 48000,
        width: 0,
        height: 0,
        sampleEntry: audioEntry('Opus', opusChannels, 48000, dOpsBox(opusChannels)),
        codecString: 'opus',
      };
    }
    case 'PCMA':
    case 'PCMU': {
      const type = codec.name === 'PCMA' ? 'alaw' : 'ulaw';
      return {
        handler: 'soun',
        timescale: codec.clockRate,
        width: 0,
        height: 0,
        sampleEntry: audioEntry(type, channels, codec.clockRate),
        codecString: type,
      };
    }
    case 'FLAC': {
      const given = fmtpValue(codec.fmtp, 'streaminfo');
      const info = given ? hexBytes(given, 'FLAC track: streaminfo=') : flacStreamInfo({ sampleRate: codec.clockRate, channels });
      return {
        handler: 'soun',
        timescale: codec.clockRate,
        width: 0,
        height: 0,
        sampleEntry: audioEntry('fLaC', channels, codec.clockRate, dfLaBox(info)),
        codecString: 'flac',
      };
    }
    default:
      throw new UnsupportedCodecError(`MP4 cannot carry ${kind} ${codec.name}: it takes ${FMP4_CODECS.join(', ')}`);
  }
}

/** Bare codec strings for a video track whose parameter sets are not known yet. */
export function provisionalCodecString(codec: Codec): string {
  return codec.name === 'H265' ? 'hvc1' : codec.name === 'H264' ? 'avc1' : codec.name.toLowerCase();
}

import type { Codec, MediaKind } from '../../core/media';
import { parseH264Sps, spsFromFmtp } from './h264/sps';
import { h265SpsFromFmtp, parseH265Sps } from './h265/sps';

/** A receiver's codec in go2rtc's stats shape: `{codec_name, codec_type, profile, level, ...}`. */
export interface CodecStats {
  codec_name: string;
  codec_type: MediaKind;
  profile?: string;
  level?: string;
  width?: number;
  height?: number;
  sample_rate?: number;
  channels?: number;
}

const NAMES: Record<string, string> = { 'MPEG4-GENERIC': 'aac', L16: 'pcm', MPA: 'mp3' };

export function codecStats(codec: Codec, kind: MediaKind): CodecStats {
  const stats: CodecStats = { codec_name: NAMES[codec.name] ?? codec.name.toLowerCase(), codec_type: kind };
  if (kind === 'audio') {
    stats.sample_rate = codec.clockRate;
    stats.channels = codec.channels ?? 1;
  }
  const sps = codec.name === 'H264' ? spsFromFmtp(codec.fmtp) : codec.name === 'H265' ? h265SpsFromFmtp(codec.fmtp) : undefined;
  if (sps) {
    try {
      const parsed = codec.name === 'H264' ? parseH264Sps(sps) : parseH265Sps(sps);
      Object.assign(stats, { profile: parsed.profile, level: parsed.level, width: parsed.width, height: parsed.height });
    } catch {
      /* a camera with a broken SPS in its SDP still streams; stats just lack the size */
    }
  }
  return stats;
}

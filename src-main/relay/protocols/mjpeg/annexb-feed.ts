import type { Codec } from '../../core/media';
import { fromAvcc, h264NalType } from '../../media/codecs/h264/nal';
import { h265NalType } from '../../media/codecs/h265/rtp-h265';

export type DecodableCodec = 'H264' | 'H265';

const START_CODE = [0, 0, 0, 1];
/**
 * An access unit delimiter after each frame: ffmpeg's parser hands a frame to the decoder only
 * once it sees where the next one starts, so without it every picture would come out one frame
 * late (a snapshot would wait for the next frame).
 */
const DELIMITER: Record<DecodableCodec, number[]> = {
  H264: [...START_CODE, 0x09, 0xf0],
  H265: [...START_CODE, 0x46, 0x01, 0x50],
};

const isDelimiter = (codec: DecodableCodec, unit: Uint8Array) => (codec === 'H264' ? h264NalType(unit) === 9 : h265NalType(unit) === 35);
const isParameterSet = (codec: DecodableCodec, unit: Uint8Array) => {
  const type = codec === 'H264' ? h264NalType(unit) : h265NalType(unit);
  return codec === 'H264' ? type === 7 || type === 8 : type >= 32 && type <= 34;
};

/**
 * Turns the relay's AVCC frames into the Annex B byte stream ffmpeg reads from a pipe: start
 * codes, the SDP's parameter sets in front of a keyframe that came without them (RTSP cameras
 * often send them only in the SDP), the frame's own delimiters dropped and one put after it.
 */
export function createAnnexBFeed(codec: Codec): { codec: DecodableCodec; encode(data: Uint8Array, keyframe: boolean): Buffer } {
  const name = codec.name as DecodableCodec;
  if (name !== 'H264' && name !== 'H265') throw new Error(`${codec.name} cannot be fed to a decoder as Annex B`);
  const sdpSets = parameterSetsFromFmtp(name, codec.fmtp);
  return {
    codec: name,
    encode(data, keyframe) {
      const units = fromAvcc(data).filter((unit) => !isDelimiter(name, unit));
      const withSets = keyframe && !units.some((unit) => isParameterSet(name, unit)) ? [...sdpSets, ...units] : units;
      const parts: Uint8Array[] = [];
      for (const unit of withSets) parts.push(Uint8Array.from(START_CODE), unit);
      parts.push(Uint8Array.from(DELIMITER[name]));
      return Buffer.concat(parts);
    },
  };
}

/** sprop-parameter-sets (H.264) or sprop-vps/sps/pps (H.265), in the order a decoder needs them. */
function parameterSetsFromFmtp(codec: DecodableCodec, fmtp: string | undefined): Uint8Array[] {
  const params = new Map(
    (fmtp ?? '')
      .split(';')
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => [p.slice(0, p.indexOf('=')).toLowerCase(), p.slice(p.indexOf('=') + 1)] as const),
  );
  const values =
    codec === 'H264'
      ? (params.get('sprop-parameter-sets') ?? '').split(',')
      : ['sprop-vps', 'sprop-sps', 'sprop-pps'].map((k) => params.get(k) ?? '');
  return values.filter(Boolean).map((b64) => Uint8Array.from(Buffer.from(b64, 'base64')));
}

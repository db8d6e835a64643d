import { h264NalType, toAvcc } from '../../codecs/h264/nal';
import { h265NalType } from '../../codecs/h265/rtp-h265';
import { h264Codec, h265Codec } from '../../frames/codec-description';
import { DemuxError, type Demuxer, type DemuxSink } from '../demuxer';

type VideoCodec = 'H264' | 'H265';

interface Rules {
  vcl(type: number): boolean;
  keyframe(type: number): boolean;
  /** Types that begin an access unit when one with a picture is under way (AUD, parameter sets, SEI). */
  opens(type: number): boolean;
  /** A picture's first slice (its first_mb / first_slice_segment flag). */
  firstSlice(unit: Uint8Array): boolean;
  aud: number;
  type(unit: Uint8Array): number;
}

const RULES: Record<VideoCodec, Rules> = {
  H264: {
    vcl: (t) => t >= 1 && t <= 5,
    keyframe: (t) => t === 5,
    opens: (t) => t === 9 || t === 7 || t === 8 || t === 6,
    firstSlice: (u) => u.length > 1 && (u[1]! & 0x80) !== 0, // first_mb_in_slice ue(v) = 0
    aud: 9,
    type: h264NalType,
  },
  H265: {
    vcl: (t) => t <= 31,
    keyframe: (t) => t >= 16 && t <= 21,
    opens: (t) => t === 35 || (t >= 32 && t <= 34) || t === 39,
    firstSlice: (u) => u.length > 2 && (u[2]! & 0x80) !== 0,
    aud: 35,
    type: h265NalType,
  },
};

/** H.265 NAL headers are two bytes with nuh_temporal_id_plus1 ≥ 1; H.264's first byte types its unit. */
function detectCodec(unit: Uint8Array): VideoCodec {
  const h265Type = (unit[0]! >> 1) & 0x3f;
  if (unit.length > 1 && (unit[0]! & 0x81) === 0 && (unit[1]! & 0x07) !== 0 && [32, 33, 34, 35, 39].includes(h265Type)) return 'H265';
  return 'H264';
}

/**
 * A raw H.264 or H.265 Annex B byte stream (a camera's `video/h264` URL, a TCP socket from
 * `raspivid`/`libcamera-vid`): NAL units between start codes are grouped into access units
 * (AUD, parameter sets or a first slice begin one), the track is announced once its parameter
 * sets came, output starts at a keyframe. The stream carries no times: each access unit is
 * stamped with when it arrived (90 kHz), which is when a live camera made it.
 */
export function createAnnexBDemuxer(sink: DemuxSink, options: { now?: () => number } = {}): Demuxer {
  const now = options.now ?? (() => performance.now());
  let buffer = Buffer.alloc(0);
  let codec: VideoCodec | undefined;
  let rules: Rules | undefined;
  const sets: { vps?: Uint8Array; sps?: Uint8Array; pps?: Uint8Array } = {};
  let announced = false;
  let started = false;
  let unit: Uint8Array[] = [];
  let unitHasPicture = false;
  let unitKeyframe = false;
  let start: number | undefined;
  let lastTimestamp = -1;
  /** Where the search for the next start code goes on (bytes before it were searched already). */
  let searchFrom = 0;

  const flushUnit = () => {
    if (unit.length === 0 || !unitHasPicture) {
      unit = [];
      unitHasPicture = unitKeyframe = false;
      return;
    }
    const units = unit.filter((u) => rules!.type(u) !== rules!.aud);
    const keyframe = unitKeyframe;
    unit = [];
    unitHasPicture = unitKeyframe = false;
    if (!announced) {
      const ready = codec === 'H264' ? sets.sps && sets.pps : sets.vps && sets.sps && sets.pps;
      if (!ready) return;
      announced = true;
      sink.tracks([
        { kind: 'video', codec: codec === 'H264' ? h264Codec(sets.sps!, sets.pps!) : h265Codec(sets.vps!, sets.sps!, sets.pps!) },
      ]);
    }
    if (!started && !keyframe) return;
    started = true;
    const at = now();
    start ??= at;
    const timestamp = Math.max(lastTimestamp + 1, Math.round((at - start) * 90));
    lastTimestamp = timestamp;
    sink.frame(0, { codec: codec!, timestamp: timestamp >>> 0, keyframe, data: toAvcc(units) });
  };

  const takeNal = (nal: Uint8Array) => {
    if (nal.length === 0) return;
    if (!codec) {
      codec = detectCodec(nal);
      rules = RULES[codec];
    }
    const type = rules!.type(nal);
    if (codec === 'H264' ? type === 7 : type === 33) sets.sps = nal;
    else if (codec === 'H264' ? type === 8 : type === 34) sets.pps = nal;
    else if (codec === 'H265' && type === 32) sets.vps = nal;
    const vcl = rules!.vcl(type);
    if (unitHasPicture && (rules!.opens(type) || (vcl && rules!.firstSlice(nal)))) flushUnit();
    unit.push(nal);
    if (vcl) {
      unitHasPicture = true;
      if (rules!.keyframe(type)) unitKeyframe = true;
    }
  };

  /** Start codes from `from` on; the bytes after the last one stay for the next chunk. */
  const scan = (final: boolean) => {
    // The buffer begins at the start code of the unit under way (or with bytes before any).
    let nalStart = buffer.length >= 3 && buffer[0] === 0 && buffer[1] === 0 && buffer[2] === 1 ? 3 : -1;
    let i = Math.max(nalStart >= 0 ? 3 : 0, searchFrom);
    let consumed = nalStart >= 0 ? 3 : 0;
    while (i + 2 < buffer.length) {
      if (buffer[i] === 0 && buffer[i + 1] === 0 && buffer[i + 2] === 1) {
        if (nalStart >= 0) {
          let end = i;
          while (end > nalStart && buffer[end - 1] === 0) end--;
          takeNal(Uint8Array.from(buffer.subarray(nalStart, end)));
        } else if (i > 3 && !codec) {
          throw new DemuxError('Annex B: the stream does not start with a start code (00 00 00 01)');
        }
        i += 3;
        nalStart = i;
        consumed = i;
      } else i += 1;
    }
    if (final && nalStart >= 0) {
      takeNal(Uint8Array.from(buffer.subarray(nalStart)));
      buffer = Buffer.alloc(0);
      return;
    }
    // Keep the unfinished unit from its start code on; next time search on from where this stopped.
    if (nalStart >= 0) {
      buffer = buffer.subarray(consumed - 3);
      searchFrom = Math.max(3, i - (consumed - 3));
    } else searchFrom = Math.max(0, i);
  };

  return {
    format: 'h264',
    push(chunk) {
      buffer = buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([buffer, chunk]);
      scan(false);
      if (buffer.length > 8 * 1024 * 1024) throw new DemuxError('Annex B: a NAL unit larger than 8 MiB');
    },
    end() {
      scan(true);
      flushUnit();
      if (!announced) throw new DemuxError('Annex B: the input ended before the parameter sets (SPS/PPS) and a picture');
    },
  };
}

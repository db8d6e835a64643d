import type { Codec, MediaFrame } from '@main/relay/core/media';
import { createDecodeTimeline, type DecodeTimeline } from '../../frames/decode-timeline';
import { avcCBox } from '../fmp4/avc-config';
import { parameterSetsFromAccessUnit, parameterSetsFromFmtp, type ParameterSets } from '../fmp4/parameter-sets';
import { reorderHint } from '../fmp4/reorder-hint';
import { createTrackTimeline } from '../mpegts-mux/track-timeline';
import { flvFileHeader, flvTag } from './flv-tags';

const TAG_AUDIO = 8;
const TAG_VIDEO = 9;
const CODEC_AVC = 7;
/** SoundFormat 10 (AAC), 44 kHz, 16-bit, stereo: FLV's fixed flags for AAC, whatever the real rate. */
const AAC_FLAGS = 0xaf;

class FlvCodecError extends Error {
  override name = 'FlvCodecError';
}

export interface FlvMuxer {
  /** The FLV header, and the AAC sequence header when there is audio. */
  header(): Uint8Array;
  /** One frame's tags; undefined while the output waits for its first video keyframe. */
  write(index: number, frame: MediaFrame): Uint8Array | undefined;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function audioSpecificConfig(fmtp: string | undefined): Uint8Array {
  const hex = /(?:^|;)\s*config=([0-9a-fA-F]+)/.exec(fmtp ?? '')?.[1];
  if (!hex) throw new FlvCodecError('AAC without an AudioSpecificConfig (fmtp config=): FLV needs it for its sequence header');
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

/**
 * An FLV muxer for one live output: H.264 (AVCC in AVC video tags after an AVC sequence header,
 * composition time for B-frames) and AAC (raw frames after an AudioSpecificConfig sequence
 * header), timestamps in ms from the first keyframe. A keyframe with new parameter sets sends
 * a new sequence header first. FLV has no standard place for H.265 or other audio: refused.
 */
export function createFlvMuxer(codecs: readonly Codec[]): FlvMuxer {
  const video = codecs.findIndex((c) => c.name === 'H264');
  const audio = codecs.findIndex((c) => c.name === 'MPEG4-GENERIC');
  const refused = codecs.find((c) => c.name !== 'H264' && c.name !== 'MPEG4-GENERIC');
  if (refused) throw new FlvCodecError(`FLV output carries H264 and AAC (MPEG4-GENERIC), not ${refused.name}`);
  if (video < 0 && audio < 0) throw new FlvCodecError('FLV output needs an H264 or AAC track');
  const asc = audio >= 0 ? audioSpecificConfig(codecs[audio]!.fmtp) : undefined;
  const timeline = createTrackTimeline();
  let decoder: DecodeTimeline | undefined;
  let sets: ParameterSets = video >= 0 ? parameterSetsFromFmtp('H264', codecs[video]!.fmtp) : { vps: [], sps: [], pps: [] };
  let sentSets = '';
  let started = video < 0;

  const sequenceHeader = (ms: number): Uint8Array | undefined => {
    const key = [...sets.sps, ...sets.pps].map((u) => Buffer.from(u).toString('base64')).join(',');
    if (key === sentSets || sets.sps.length === 0 || sets.pps.length === 0) return undefined;
    sentSets = key;
    const record = avcCBox(sets.sps, sets.pps).subarray(8); // the record without its box header
    return flvTag(TAG_VIDEO, ms, concat([Uint8Array.of(0x10 | CODEC_AVC, 0, 0, 0, 0), record]));
  };

  return {
    header() {
      const head = flvFileHeader(audio >= 0, video >= 0);
      return asc ? concat([head, flvTag(TAG_AUDIO, 0, concat([Uint8Array.of(AAC_FLAGS, 0), asc]))]) : head;
    },
    write(index, frame) {
      if (index === video) {
        if (!started && !frame.keyframe) return undefined;
        started = true;
        if (frame.keyframe) {
          const inBand = parameterSetsFromAccessUnit('H264', frame.data);
          if (inBand.sps.length > 0 && inBand.pps.length > 0) sets = inBand;
        }
        decoder ??= createDecodeTimeline({ hint: reorderHint('H264', codecs[video]!.fmtp, frame.data) });
        const ticks = timeline.time(index, frame.timestamp, codecs[video]!.clockRate, decoder.delay);
        const { pts, dts } = decoder.next(ticks, frame.keyframe);
        const composition = Math.round((pts - dts) / 90);
        const body = concat([
          Uint8Array.of(
            ((frame.keyframe ? 1 : 2) << 4) | CODEC_AVC,
            1,
            (composition >> 16) & 0xff,
            (composition >> 8) & 0xff,
            composition & 0xff,
          ),
          frame.data,
        ]);
        const header = frame.keyframe ? sequenceHeader(dts / 90) : undefined;
        const tag = flvTag(TAG_VIDEO, dts / 90, body);
        return header ? concat([header, tag]) : tag;
      }
      if (index === audio) {
        if (!started) return undefined;
        const ticks = timeline.time(index, frame.timestamp, codecs[audio]!.clockRate);
        return flvTag(TAG_AUDIO, ticks / 90, concat([Uint8Array.of(AAC_FLAGS, 1), frame.data]));
      }
      return undefined;
    },
  };
}

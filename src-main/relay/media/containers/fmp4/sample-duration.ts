import type { Codec, MediaFrame } from '@main/relay/core/media';

/** Opus frame lengths by TOC config (RFC 6716 3.1), in 1/400 s: SILK 10/20/40/60 ms, hybrid 10/20, CELT 2.5/5/10/20. */
function opusFrameQuarterMs(config: number): number {
  if (config < 12) return [40, 80, 160, 240][config % 4]!;
  if (config < 16) return [40, 80][config % 2]!;
  return [10, 20, 40, 80][config % 4]!;
}

function opusDuration(data: Uint8Array): number | undefined {
  if (data.length === 0) return undefined;
  const toc = data[0]!;
  const code = toc & 0x03;
  const frames = code === 0 ? 1 : code < 3 ? 2 : data.length > 1 ? data[1]! & 0x3f : 0;
  return frames > 0 ? (frames * opusFrameQuarterMs(toc >> 3) * 48) / 4 : undefined;
}

/** FLAC frame header → block size (FLAC format, FRAME_HEADER), past the coded sample number. */
function flacDuration(data: Uint8Array): number | undefined {
  if (data.length < 6 || data[0] !== 0xff || (data[1]! & 0xfe) !== 0xf8) return undefined;
  const code = data[2]! >> 4;
  if (code === 1) return 192;
  if (code >= 2 && code <= 5) return 576 << (code - 2);
  if (code >= 8) return 256 << (code - 8);
  if (code !== 6 && code !== 7) return undefined;
  let lead = data[4]!;
  let numberLength = 1;
  while (lead & 0x80 && numberLength < 8) {
    numberLength++;
    lead <<= 1;
  }
  if (numberLength > 1) numberLength--; // 0xxxxxxx is one byte, 110xxxxx two, ...
  const at = 4 + numberLength;
  return code === 6 ? data[at]! + 1 : ((data[at]! << 8) | data[at + 1]!) + 1;
}

/**
 * How long an audio frame plays, in the track's timescale, read from the frame itself where
 * the codec says it: every G.711 byte is a sample, AAC frames are 1024 samples, Opus and FLAC
 * carry it in their headers. Undefined for video and when unknown: timestamps tell then.
 */
export function intrinsicDuration(codec: Codec, frame: MediaFrame): number | undefined {
  const channels = codec.channels ?? 1;
  switch (codec.name) {
    case 'PCMA':
    case 'PCMU':
      return frame.data.length / channels;
    case 'L16':
      return frame.data.length / 2 / channels;
    case 'MPEG4-GENERIC':
      return 1024;
    case 'OPUS':
      return opusDuration(frame.data);
    case 'FLAC':
      return flacDuration(frame.data);
    default:
      return undefined;
  }
}

export type HttpSourceFormat = 'mjpeg' | 'jpeg' | 'flv' | 'mpegts' | 'hls' | 'annexb' | 'adts' | 'wav';

/**
 * What an HTTP or TCP source sends, from its Content-Type, or from its first bytes when the type
 * is missing or generic (many cameras answer `application/octet-stream` or nothing at all):
 * also raw H.264/H.265 (Annex B), ADTS AAC and WAV, as go2rtc's format detection has them.
 */
export function detectFormat(contentType: string | null, head: Uint8Array): HttpSourceFormat | undefined {
  const type = (contentType ?? '').toLowerCase().split(';')[0]!.trim();
  if (type === 'multipart/x-mixed-replace') return 'mjpeg';
  if (type === 'image/jpeg' || type === 'image/jpg') return 'jpeg';
  if (type === 'video/x-flv' || type === 'video/flv') return 'flv';
  if (type === 'video/mp2t' || type === 'video/mpegts') return 'mpegts';
  if (type === 'application/vnd.apple.mpegurl' || type === 'application/x-mpegurl' || type === 'audio/mpegurl') return 'hls';
  if (type === 'video/h264' || type === 'video/h265' || type === 'video/hevc') return 'annexb';
  if (type === 'audio/aac' || type === 'audio/aacp') return 'adts';
  if (type === 'audio/wav' || type === 'audio/x-wav' || type === 'audio/wave') return 'wav';
  const text = Buffer.from(head.subarray(0, 16)).toString('latin1');
  if (text.startsWith('FLV')) return 'flv';
  if (text.startsWith('#EXTM3U')) return 'hls';
  if (head[0] === 0x47 && (head.length < 189 || head[188] === 0x47)) return 'mpegts';
  if (head[0] === 0xff && head[1] === 0xd8) return 'jpeg';
  if (/^\s*--/.test(text)) return 'mjpeg';
  if (head[0] === 0 && head[1] === 0 && (head[2] === 1 || (head[2] === 0 && head[3] === 1))) return 'annexb';
  if (head[0] === 0xff && (head[1] === 0xf1 || head[1] === 0xf9)) return 'adts';
  if (text.startsWith('RIFF') && text.slice(8, 12) === 'WAVE') return 'wav';
  return undefined;
}

/** The boundary of a multipart Content-Type, without quotes. */
export function multipartBoundary(contentType: string | null): string | undefined {
  return /boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1];
}

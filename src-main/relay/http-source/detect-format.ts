export type HttpSourceFormat = 'mjpeg' | 'jpeg' | 'flv' | 'mpegts' | 'hls';

/**
 * What an HTTP source sends, from its Content-Type, or from its first bytes when the type is
 * missing or generic (many cameras answer `application/octet-stream` or nothing at all).
 */
export function detectFormat(contentType: string | null, head: Uint8Array): HttpSourceFormat | undefined {
  const type = (contentType ?? '').toLowerCase().split(';')[0]!.trim();
  if (type === 'multipart/x-mixed-replace') return 'mjpeg';
  if (type === 'image/jpeg' || type === 'image/jpg') return 'jpeg';
  if (type === 'video/x-flv' || type === 'video/flv') return 'flv';
  if (type === 'video/mp2t' || type === 'video/mpegts') return 'mpegts';
  if (type === 'application/vnd.apple.mpegurl' || type === 'application/x-mpegurl' || type === 'audio/mpegurl') return 'hls';
  const text = Buffer.from(head.subarray(0, 16)).toString('latin1');
  if (text.startsWith('FLV')) return 'flv';
  if (text.startsWith('#EXTM3U')) return 'hls';
  if (head[0] === 0x47 && (head.length < 189 || head[188] === 0x47)) return 'mpegts';
  if (head[0] === 0xff && head[1] === 0xd8) return 'jpeg';
  if (/^\s*--/.test(text)) return 'mjpeg';
  return undefined;
}

/** The boundary of a multipart Content-Type, without quotes. */
export function multipartBoundary(contentType: string | null): string | undefined {
  return /boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1];
}

import { codecFromAlias } from '../../core/media';
import type { MediaRequest } from '../../core/negotiation';

/** `video&audio`, `video=h264,h265&audio=aac`, `mp4` → what the viewer accepts. */
export function requestsFromQuery(query: URLSearchParams): MediaRequest[] {
  const requests: MediaRequest[] = [];
  for (const kind of ['video', 'audio'] as const) {
    for (const value of query.getAll(kind)) requests.push({ kind, codecs: value.split(',').map(codecFromAlias) });
  }
  if (query.has('mp4')) {
    const flac = query.get('mp4') === 'flac';
    const all = query.get('mp4') === 'all';
    if (!query.has('video')) requests.push({ kind: 'video', codecs: ['H264', 'H265'] });
    if (!query.has('audio'))
      requests.push({
        kind: 'audio',
        codecs: ['MPEG4-GENERIC', ...(flac ? ['PCMA', 'PCMU', 'L16'] : []), ...(all ? ['OPUS', 'MPA'] : [])],
      });
  }
  return requests;
}

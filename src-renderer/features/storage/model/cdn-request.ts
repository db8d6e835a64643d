import { CDN_LIMITS } from '@shared/contract/cdn';

export type CdnAction = 'refresh' | 'prefetch';

export interface CdnRequestPlan {
  urls: string[];
  /** Folder URLs (ending in /): refresh only. */
  dirs: string[];
  /** Why the request cannot be sent as typed, one sentence each. */
  problems: string[];
}

const isHttpUrl = (text: string) => {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

/**
 * Reads the box the user typed or pasted into: one URL per line, blank lines ignored, duplicates
 * dropped; a line ending in `/` is a folder. Says what breaks the service's limits before sending.
 */
export function planCdnRequest(text: string, action: CdnAction): CdnRequestPlan {
  const lines = [
    ...new Set(
      text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  ];
  const bad = lines.filter((line) => !isHttpUrl(line));
  const good = lines.filter(isHttpUrl);
  const dirs = good.filter((line) => line.endsWith('/'));
  const urls = good.filter((line) => !line.endsWith('/'));
  const problems: string[] = [];
  if (bad.length > 0)
    problems.push(
      `${bad.length === 1 ? 'This line is' : `${bad.length} lines are`} not an http(s) URL: ${bad.slice(0, 2).join(', ')}${bad.length > 2 ? '…' : ''}`,
    );
  if (urls.length > CDN_LIMITS.urlsPerRequest) problems.push(`${urls.length} URLs: at most ${CDN_LIMITS.urlsPerRequest} go in one request`);
  if (action === 'prefetch' && dirs.length > 0) problems.push('Folders cannot be prefetched: name each file');
  if (action === 'refresh' && dirs.length > CDN_LIMITS.dirsPerRequest)
    problems.push(`${dirs.length} folders: at most ${CDN_LIMITS.dirsPerRequest} go in one request`);
  return { urls, dirs, problems };
}

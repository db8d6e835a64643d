import { isSectionId, type SectionId } from './sections';

/**
 * Every place in the console, as a typed value. `#/camera/<stream>` is a pop-out: that camera
 * alone, without the navigation. One parser and one printer, so links cannot drift.
 */
export type Route =
  | { section: 'camera'; stream: string }
  | { section: 'streams'; stream?: string; tab?: StreamTab }
  | StorageRoute
  | { section: 'transfers' }
  | { section: Exclude<SectionId, 'streams' | 'storage'> };

/**
 * `#/storage` (accounts), `#/storage/<account>` (its buckets), `#/storage/<account>/<bucket>/<prefix>`
 * (a folder): the storage address bar is this route, so back and forward walk folders.
 */
export type StorageRoute = { section: 'storage'; account?: string; bucket?: string; prefix?: string };

export const STREAM_TABS = ['overview', 'links'] as const;
export type StreamTab = (typeof STREAM_TABS)[number];

const decode = (part: string): string | undefined => {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
};

/** `#/streams/door/links` → `{section: 'streams', stream: 'door', tab: 'links'}`; unknown → Live. */
export function parseRoute(hash: string): Route {
  const [head = '', ...rest] = hash.replace(/^#\/?/, '').split('?')[0]!.split('/');
  const first = rest[0] ? decode(rest[0]) : undefined;
  if (head === 'camera' && first) return { section: 'camera', stream: first };
  if (head === 'streams') {
    if (!first) return { section: 'streams' };
    const tab = (STREAM_TABS as readonly string[]).includes(rest[1] ?? '') ? (rest[1] as StreamTab) : undefined;
    return tab && tab !== 'overview' ? { section: 'streams', stream: first, tab } : { section: 'streams', stream: first };
  }
  if (head === 'storage') return parseStorage(rest);
  if (head === 'transfers') return { section: 'transfers' };
  if (head !== 'camera' && isSectionId(head)) return { section: head } as Route;
  return { section: 'live' };
}

function parseStorage(parts: string[]): StorageRoute {
  const [account, bucket, ...folder] = parts.map(decode);
  if (!account || account === undefined) return { section: 'storage' };
  if (!bucket) return { section: 'storage', account };
  if (folder.some((segment) => segment === undefined)) return { section: 'storage', account, bucket };
  const joined = folder.join('/');
  // A folder prefix always ends with `/`; a typed `.../photos/2024` means the folder 2024/.
  const prefix = joined === '' || joined.endsWith('/') ? joined : `${joined}/`;
  return prefix ? { section: 'storage', account, bucket, prefix } : { section: 'storage', account, bucket };
}

function printStorage({ account, bucket, prefix }: StorageRoute): string {
  if (!account) return '#/storage';
  if (!bucket) return `#/storage/${encodeURIComponent(account)}`;
  const folder = (prefix ?? '').split('/').map(encodeURIComponent).join('/');
  return `#/storage/${encodeURIComponent(account)}/${encodeURIComponent(bucket)}${folder ? `/${folder}` : ''}`;
}

export function printRoute(route: Route): string {
  switch (route.section) {
    case 'camera':
      return `#/camera/${encodeURIComponent(route.stream)}`;
    case 'streams':
      if (!route.stream) return '#/streams';
      return `#/streams/${encodeURIComponent(route.stream)}${route.tab && route.tab !== 'overview' ? `/${route.tab}` : ''}`;
    case 'storage':
      return printStorage(route);
    default:
      return `#/${route.section}`;
  }
}

/** The navigation entry a route belongs to (a pop-out belongs to Live, transfers to Storage). */
export const sectionOf = (route: Route): SectionId => (route.section === 'camera' ? 'live' : route.section === 'transfers' ? 'storage' : route.section);

import { isSectionId, type SectionId } from './sections';

/**
 * Every place in the console, as a typed value. `#/camera/<stream>` is a pop-out: that camera
 * alone, without the navigation. One parser and one printer, so links cannot drift.
 */
export type Route =
  | { section: 'camera'; stream: string }
  | { section: 'streams'; stream?: string; tab?: StreamTab }
  | { section: Exclude<SectionId, 'streams'> };

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
  if (head !== 'camera' && isSectionId(head)) return { section: head } as Route;
  return { section: 'live' };
}

export function printRoute(route: Route): string {
  switch (route.section) {
    case 'camera':
      return `#/camera/${encodeURIComponent(route.stream)}`;
    case 'streams':
      if (!route.stream) return '#/streams';
      return `#/streams/${encodeURIComponent(route.stream)}${route.tab && route.tab !== 'overview' ? `/${route.tab}` : ''}`;
    default:
      return `#/${route.section}`;
  }
}

/** The navigation entry a route belongs to (a pop-out belongs to Live). */
export const sectionOf = (route: Route): SectionId => (route.section === 'camera' ? 'live' : route.section);

import { isSectionId, type SectionId } from './sections';

/**
 * Every place in the console, as a typed value. `#/camera/<stream>` is a pop-out: that camera
 * alone, without the navigation. One parser and one printer, so links cannot drift.
 */
export type Route =
  | { section: 'camera'; stream: string }
  | { section: 'streams'; stream?: string; tab?: StreamTab }
  | StorageRoute
  | DirectoryRoute
  | RecordingsRoute
  | { section: 'transfers' }
  | { section: Exclude<SectionId, 'streams' | 'storage' | 'directory' | 'recordings'> };

/** `#/recordings` (the recorded cameras), `#/recordings/<stream>?day=YYYY-MM-DD` (a camera's day, local). */
export type RecordingsRoute = { section: 'recordings'; stream?: string; day?: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `#/storage` (accounts), `#/storage/<account>` (its buckets), `#/storage/<account>/<bucket>/<prefix>`
 * (a folder): the storage address bar is this route, so back and forward walk folders.
 */
export type StorageRoute = { section: 'storage'; account?: string; bucket?: string; prefix?: string };

/**
 * The Directory section: access packages (`#/directory`, `#/directory/packages/<package>`), a
 * policy in the editor (`#/directory/policies/<policy>`), a new one for a package, perhaps a
 * copy of another (`#/directory/packages/<package>/new[/<policy to copy>]`), assignments,
 * administrative units and the Graph traffic panel.
 */
export type DirectoryRoute =
  | { section: 'directory'; view: 'packages'; packageId?: string }
  | { section: 'directory'; view: 'policy'; policyId: string }
  | { section: 'directory'; view: 'newPolicy'; packageId: string; copyOf?: string }
  | { section: 'directory'; view: 'assignments'; assignmentId?: string }
  | { section: 'directory'; view: 'units'; unitId?: string }
  | { section: 'directory'; view: 'traffic' };

const STREAM_TABS = ['overview', 'links'] as const;
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
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const [head = '', ...rest] = path.split('/');
  const first = rest[0] ? decode(rest[0]) : undefined;
  if (head === 'camera' && first) return { section: 'camera', stream: first };
  if (head === 'streams') {
    if (!first) return { section: 'streams' };
    const tab = (STREAM_TABS as readonly string[]).includes(rest[1] ?? '') ? (rest[1] as StreamTab) : undefined;
    return tab && tab !== 'overview' ? { section: 'streams', stream: first, tab } : { section: 'streams', stream: first };
  }
  if (head === 'storage') return parseStorage(rest);
  if (head === 'directory') return parseDirectory(rest.map(decode));
  if (head === 'transfers') return { section: 'transfers' };
  if (head === 'recordings') return parseRecordings(first, new URLSearchParams(query).get('day'));
  if (head !== 'camera' && isSectionId(head)) return { section: head } as Route;
  return { section: 'live' };
}

function parseRecordings(stream: string | undefined, day: string | null): RecordingsRoute {
  if (!stream) return { section: 'recordings' };
  return day && DAY.test(day) ? { section: 'recordings', stream, day } : { section: 'recordings', stream };
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

function parseDirectory([view, id, sub, copyOf]: (string | undefined)[]): DirectoryRoute {
  if (view === 'policies' && id) return { section: 'directory', view: 'policy', policyId: id };
  if (view === 'packages' && id && sub === 'new')
    return copyOf
      ? { section: 'directory', view: 'newPolicy', packageId: id, copyOf }
      : { section: 'directory', view: 'newPolicy', packageId: id };
  if (view === 'packages' && id) return { section: 'directory', view: 'packages', packageId: id };
  if (view === 'assignments')
    return id ? { section: 'directory', view: 'assignments', assignmentId: id } : { section: 'directory', view: 'assignments' };
  if (view === 'units') return id ? { section: 'directory', view: 'units', unitId: id } : { section: 'directory', view: 'units' };
  if (view === 'traffic') return { section: 'directory', view: 'traffic' };
  return { section: 'directory', view: 'packages' };
}

function printDirectory(route: DirectoryRoute): string {
  const part = (value: string) => `/${encodeURIComponent(value)}`;
  switch (route.view) {
    case 'packages':
      return route.packageId ? `#/directory/packages${part(route.packageId)}` : '#/directory';
    case 'policy':
      return `#/directory/policies${part(route.policyId)}`;
    case 'newPolicy':
      return `#/directory/packages${part(route.packageId)}/new${route.copyOf ? part(route.copyOf) : ''}`;
    case 'assignments':
      return `#/directory/assignments${route.assignmentId ? part(route.assignmentId) : ''}`;
    case 'units':
      return `#/directory/units${route.unitId ? part(route.unitId) : ''}`;
    case 'traffic':
      return '#/directory/traffic';
  }
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
    case 'directory':
      return printDirectory(route);
    case 'recordings':
      if (!route.stream) return '#/recordings';
      return `#/recordings/${encodeURIComponent(route.stream)}${route.day ? `?day=${route.day}` : ''}`;
    default:
      return `#/${route.section}`;
  }
}

/** The navigation entry a route belongs to (a pop-out belongs to Live, transfers to Storage). */
export const sectionOf = (route: Route): SectionId =>
  route.section === 'camera' ? 'live' : route.section === 'transfers' ? 'storage' : route.section;

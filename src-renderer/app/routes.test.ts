import { describe, expect, it } from 'vitest';
import { parseRoute, printRoute, sectionOf, type Route } from './routes';

describe('routes', () => {
  const routes: Array<[string, Route]> = [
    ['#/live', { section: 'live' }],
    ['#/camera/front%20door', { section: 'camera', stream: 'front door' }],
    ['#/streams', { section: 'streams' }],
    ['#/streams/door', { section: 'streams', stream: 'door' }],
    ['#/streams/door/links', { section: 'streams', stream: 'door', tab: 'links' }],
    ['#/config', { section: 'config' }],
    ['#/about', { section: 'about' }],
    ['#/transfers', { section: 'transfers' }],
    ['#/storage', { section: 'storage' }],
    ['#/storage/local', { section: 'storage', account: 'local' }],
    ['#/storage/local/photos', { section: 'storage', account: 'local', bucket: 'photos' }],
    ['#/storage/local/photos/2024/jan%20trip/', { section: 'storage', account: 'local', bucket: 'photos', prefix: '2024/jan trip/' }],
    ['#/storage/local/photos/a%3Fb/%23/', { section: 'storage', account: 'local', bucket: 'photos', prefix: 'a?b/#/' }],
    ['#/storage/local/photos/a//b/', { section: 'storage', account: 'local', bucket: 'photos', prefix: 'a//b/' }],
    ['#/directory', { section: 'directory', view: 'packages' }],
    ['#/directory/packages/p%201', { section: 'directory', view: 'packages', packageId: 'p 1' }],
    ['#/directory/policies/4540a08f', { section: 'directory', view: 'policy', policyId: '4540a08f' }],
    ['#/directory/packages/p1/new', { section: 'directory', view: 'newPolicy', packageId: 'p1' }],
    ['#/directory/packages/p1/new/o2', { section: 'directory', view: 'newPolicy', packageId: 'p1', copyOf: 'o2' }],
    ['#/directory/assignments', { section: 'directory', view: 'assignments' }],
    ['#/directory/assignments/a1', { section: 'directory', view: 'assignments', assignmentId: 'a1' }],
    ['#/directory/units', { section: 'directory', view: 'units' }],
    ['#/directory/units/u1', { section: 'directory', view: 'units', unitId: 'u1' }],
    ['#/directory/traffic', { section: 'directory', view: 'traffic' }],
    ['#/recordings', { section: 'recordings' }],
    ['#/recordings/front%20door', { section: 'recordings', stream: 'front door' }],
    ['#/recordings/cam?day=2026-11-27', { section: 'recordings', stream: 'cam', day: '2026-11-27' }],
  ];

  it.each(routes)('%s parses and prints back the same', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
    expect(printRoute(route)).toBe(hash);
  });

  it.each([
    ['', { section: 'live' }],
    ['#/nope', { section: 'live' }],
    ['#/__proto__', { section: 'live' }],
    ['#/camera', { section: 'live' }],
    ['#/camera/%E0%A4%A', { section: 'live' }],
    ['#/streams/door/nope', { section: 'streams', stream: 'door' }],
    ['#/config?x=1', { section: 'config' }],
    ['#/storage/local/photos/2024', { section: 'storage', account: 'local', bucket: 'photos', prefix: '2024/' }],
    ['#/storage/local/photos/%E0%A4%A/', { section: 'storage', account: 'local', bucket: 'photos' }],
    ['#/directory/nope', { section: 'directory', view: 'packages' }],
    ['#/directory/policies', { section: 'directory', view: 'packages' }],
    ['#/recordings/cam?day=yesterday', { section: 'recordings', stream: 'cam' }],
    ['#/recordings/cam?x=1&day=2026-11-27', { section: 'recordings', stream: 'cam', day: '2026-11-27' }],
    ['#/recordings?day=2026-11-27', { section: 'recordings' }],
    ['#/recordings/%E0%A4%A', { section: 'recordings' }],
  ])('%s lands somewhere sensible', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });

  it('puts transfers under Storage in the navigation', () => {
    expect(sectionOf({ section: 'transfers' })).toBe('storage');
    expect(sectionOf({ section: 'camera', stream: 'door' })).toBe('live');
  });
});

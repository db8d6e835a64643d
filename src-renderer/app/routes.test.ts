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
  ])('%s lands somewhere sensible', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });

  it('puts transfers under Storage in the navigation', () => {
    expect(sectionOf({ section: 'transfers' })).toBe('storage');
    expect(sectionOf({ section: 'camera', stream: 'door' })).toBe('live');
  });
});

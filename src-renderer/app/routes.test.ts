import { describe, expect, it } from 'vitest';
import { parseRoute, printRoute, type Route } from './routes';

describe('routes', () => {
  const routes: Array<[string, Route]> = [
    ['#/live', { section: 'live' }],
    ['#/camera/front%20door', { section: 'camera', stream: 'front door' }],
    ['#/streams', { section: 'streams' }],
    ['#/streams/door', { section: 'streams', stream: 'door' }],
    ['#/streams/door/links', { section: 'streams', stream: 'door', tab: 'links' }],
    ['#/config', { section: 'config' }],
    ['#/about', { section: 'about' }],
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
  ])('%s lands somewhere sensible', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });
});

import { describe, expect, it } from 'vitest';
import { createRouteTable, pathSegments, type RouteMatch, type RouteSpec, type RouteTableOptions } from './route-table';

interface Named extends RouteSpec {
  name: string;
}

const table = (routes: Array<[method: Named['method'], path: string, name: string]>, options?: RouteTableOptions) =>
  createRouteTable<Named>(
    routes.map(([method, path, name]) => ({ method, path, name })),
    options,
  );

/** The match as a short value: the route's name and its parameters, or 404/405 with what is allowed. */
const hit = (match: RouteMatch<Named>) =>
  match.kind === 'found'
    ? { name: match.route.name, params: match.params }
    : match.kind === 'method-not-allowed'
      ? { status: 405, allowed: match.allowed }
      : { status: 404 };

describe('route table', () => {
  it('binds :name parameters and the * rest', () => {
    const routes = table([
      ['GET', '/mkbucketv3/:bucket/region/:region', 'mkbucket'],
      ['GET', '/onvif/*', 'onvif'],
    ]);
    expect(hit(routes.match('GET', '/mkbucketv3/photos/region/z1'))).toEqual({
      name: 'mkbucket',
      params: { bucket: 'photos', region: 'z1' },
    });
    expect(hit(routes.match('GET', '/onvif/device_service/extra'))).toEqual({ name: 'onvif', params: { '*': 'device_service/extra' } });
    // A parameter is one segment, never an empty one, and every segment of the pattern is needed.
    expect(hit(routes.match('GET', '/mkbucketv3//region/z1'))).toEqual({ status: 404 });
    expect(hit(routes.match('GET', '/mkbucketv3/photos/region'))).toEqual({ status: 404 });
    expect(hit(routes.match('GET', '/mkbucketv3/photos/region/z1/more'))).toEqual({ status: 404 });
  });

  it('prefers a literal segment to a parameter, and a parameter to the rest, segment by segment', () => {
    const routes = table([
      ['GET', '/*', 'assets'],
      ['GET', '/users/:id', 'user'],
      ['GET', '/users/$count', 'count'],
      ['GET', '/users/*', 'under users'],
      ['GET', '/console/preview/*', 'preview'],
      ['GET', '/console/*', 'console'],
      ['GET', '/:tenant/oauth2/token', 'token'],
    ]);
    expect(hit(routes.match('GET', '/users/$count')).name).toBe('count');
    expect(hit(routes.match('GET', '/users/42')).name).toBe('user');
    expect(hit(routes.match('GET', '/users/42/events')).name).toBe('under users');
    // The longest prefix wins, as it did among prefixes.
    expect(hit(routes.match('GET', '/console/preview/t1')).name).toBe('preview');
    expect(hit(routes.match('GET', '/console/other')).name).toBe('console');
    expect(hit(routes.match('GET', '/users/oauth2/token')).name).toBe('under users');
    expect(hit(routes.match('GET', '/contoso/oauth2/token')).name).toBe('token');
    expect(hit(routes.match('GET', '/favicon.ico')).name).toBe('assets');
  });

  it('answers 405 with the methods of the most specific path, 404 when no pattern matches', () => {
    const routes = table([
      ['GET', '/api/log', 'read log'],
      ['DELETE', '/api/log', 'clear log'],
      ['*', '/api/*', 'anything under api'],
    ]);
    expect(hit(routes.match('DELETE', '/api/log')).name).toBe('clear log');
    // A less specific pattern that takes PUT is not tried: the path is known, the method is not.
    expect(hit(routes.match('PUT', '/api/log'))).toEqual({ status: 405, allowed: ['GET', 'DELETE'] });
    expect(hit(routes.match('PUT', '/api/other')).name).toBe('anything under api');
    expect(hit(routes.match('GET', '/other'))).toEqual({ status: 404 });
  });

  it('takes the route naming the method before one for any method on the same pattern', () => {
    const routes = table([
      ['*', '/', 'only POST here'],
      ['POST', '/', 'form upload'],
    ]);
    expect(hit(routes.match('POST', '/')).name).toBe('form upload');
    expect(hit(routes.match('GET', '/')).name).toBe('only POST here');
  });

  it('counts every slash by default, as exact paths and prefixes did', () => {
    const routes = table([
      ['GET', '/api/streams', 'streams'],
      ['GET', '/onvif/*', 'onvif'],
      ['GET', '/', 'index'],
    ]);
    expect(hit(routes.match('GET', '/api/streams/'))).toEqual({ status: 404 });
    expect(hit(routes.match('GET', '/onvif/'))).toEqual({ name: 'onvif', params: { '*': '' } });
    expect(hit(routes.match('GET', '/onvif'))).toEqual({ status: 404 });
    expect(hit(routes.match('GET', '/')).name).toBe('index');
    expect(hit(routes.match('GET', '//api/streams'))).toEqual({ status: 404 });
  });

  it('ignores empty segments where the service reads paths so (Kodo, Graph)', () => {
    const routes = table(
      [
        ['*', '/stat/:entry', 'stat'],
        ['*', '/publish/*', 'publish'],
        ['*', '/', 'root'],
      ],
      { emptySegments: 'drop' },
    );
    expect(hit(routes.match('POST', '//stat/ZTprZXk=/'))).toEqual({ name: 'stat', params: { entry: 'ZTprZXk=' } });
    expect(hit(routes.match('POST', '/publish'))).toEqual({ name: 'publish', params: { '*': '' } });
    expect(hit(routes.match('POST', '/publish//a/b'))).toEqual({ name: 'publish', params: { '*': 'a/b' } });
    expect(hit(routes.match('POST', '//')).name).toBe('root');
    expect(pathSegments('//a//b/', 'drop')).toEqual(['a', 'b']);
    expect(pathSegments('//a//b/')).toEqual(['', 'a', '', 'b', '']);
  });

  it('decodes parameters only, or the whole path before matching, or nothing', () => {
    const routes: Array<[string, string, string]> = [
      ['GET', '/users/:id/events', 'events'],
      ['GET', '/files/*', 'files'],
      ['GET', '/v1.0/$metadata', 'schema'],
    ];
    const raw = table(routes);
    expect(hit(raw.match('GET', '/users/a%20b/events'))).toEqual({ name: 'events', params: { id: 'a%20b' } });
    const params = table(routes, { decode: 'params' });
    expect(hit(params.match('GET', '/users/a%20b/events'))).toEqual({ name: 'events', params: { id: 'a b' } });
    // The rest stays as sent: a prefix's handler reads it as a path.
    expect(hit(params.match('GET', '/files/a%2Fb'))).toEqual({ name: 'files', params: { '*': 'a%2Fb' } });
    expect(hit(params.match('GET', '/v1.0/%24metadata'))).toEqual({ status: 404 });
    expect(() => params.match('GET', '/users/a%ZZ/events')).toThrow(URIError);
    const path = table(routes, { decode: 'path' });
    expect(hit(path.match('GET', '/v1.0/%24metadata')).name).toBe('schema');
    // An encoded slash stays inside its segment.
    expect(hit(path.match('GET', '/users/a%2Fb/events'))).toEqual({ name: 'events', params: { id: 'a/b' } });
    expect(() => path.match('GET', '/v1.0/%E0%A4%A')).toThrow(URIError);
  });

  it('matches the literals of an ignoreCase route in any case, and only those', () => {
    const routes = createRouteTable<Named>([
      { method: 'GET', path: '/v1.0/$metadata', name: 'schema', ignoreCase: true },
      { method: 'GET', path: '/v1.0/me', name: 'me' },
    ]);
    expect(hit(routes.match('GET', '/V1.0/$METADATA')).name).toBe('schema');
    expect(hit(routes.match('GET', '/v1.0/ME'))).toEqual({ status: 404 });
  });

  it('refuses a pattern and method registered twice, and patterns it cannot read', () => {
    const routes = table([['GET', '/api/x/:id', 'first']]);
    expect(() => routes.add([{ method: ['POST', 'GET'], path: '/api/x/:other', name: 'second' }])).toThrow(
      'route POST,GET /api/x/:other registered twice (first as GET /api/x/:id)',
    );
    expect(() => routes.add([{ method: '*', path: '/api/x/:id', name: 'any' }])).not.toThrow();
    expect(() => routes.add([{ method: '*', path: '/api/x/:id', name: 'any again' }])).toThrow('registered twice');
    expect(() => table([['GET', 'api/x', 'relative']])).toThrow('must start with /');
    expect(() => table([['GET', '/a/*/b', 'inner rest']])).toThrow('* must be the last segment');
    expect(() => table([['GET', '/a/:', 'unnamed']])).toThrow('bad parameter name');
    expect(() => table([[['GET', '*'], '/a', 'mixed']])).toThrow('name methods, or * alone');
  });
});

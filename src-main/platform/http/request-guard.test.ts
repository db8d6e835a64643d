import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { assertSameOriginWrite, isExactOwnOrigin, isOwnOrigin } from './request-guard';
import { isCrossSiteRequest } from './cross-origin';

// Node gives header names in lower case.
const request = (host: string, headers: Record<string, string> = {}, method = 'POST') =>
  ({ method, headers: { host, ...headers } }) as unknown as IncomingMessage;

describe('same origin behind a reverse proxy', () => {
  it.each([
    // [Host the server got, page origin, same origin?]
    ['127.0.0.1:1984', 'http://127.0.0.1:1984', true],
    ['127.0.0.1:1984', 'http://localhost:1984', false],
    // Another local app's page on another port, the request naming the relay's port.
    ['localhost:1984', 'http://localhost:5000', false],
    // Frigate's nginx forwards Host without the port; the page is on the proxy's port.
    ['frigate.lan', 'http://frigate.lan:5000', true],
    ['frigate.lan', 'https://FRIGATE.lan:8971', true],
    ['frigate.lan', 'http://evil.example:5000', false],
    ['[::1]', 'http://[::1]:5000', true],
    ['[::1]:1984', 'http://[::1]:5000', false],
    ['frigate.lan', 'null', false],
    ['frigate.lan', 'not a url', false],
  ])('Host %s, Origin %s → %s', (host, origin, same) => {
    expect(isOwnOrigin(request(host), origin)).toBe(same);
  });

  it("lets Frigate's live view through its proxy write and open sockets, and still refuses another site", () => {
    const frigate = { origin: 'http://frigate.lan:5000', 'sec-fetch-site': 'same-origin' };
    expect(() => assertSameOriginWrite(request('frigate.lan', frigate))).not.toThrow();
    expect(isCrossSiteRequest(request('frigate.lan', frigate, 'GET'))).toBe(false);
    expect(() => assertSameOriginWrite(request('frigate.lan', { origin: 'http://evil.example' }))).toThrow(/cross-origin write refused/);
    expect(() => assertSameOriginWrite(request('localhost:1984', { origin: 'http://localhost:5000' }))).toThrow(
      /cross-origin write refused/,
    );
  });

  it.each([
    // [Host, X-Forwarded-Host, page origin, same origin?]
    ['frigate.lan', 'frigate.lan:5000', 'http://frigate.lan:5000', true],
    ['frigate.lan', 'FRIGATE.lan:5000', 'http://frigate.lan:5000', true],
    // Another app on another port of the proxy's host: the proxy says which port was addressed.
    ['frigate.lan', 'frigate.lan:5000', 'http://frigate.lan:3000', false],
    // The first proxy of a chain counts.
    ['frigate.lan', 'frigate.lan:5000, inner:1984', 'http://frigate.lan:5000', true],
    // A forwarded host without a port says nothing of ports: host names are compared.
    ['frigate.lan', 'frigate.lan', 'http://frigate.lan:5000', true],
    // A Host with a port is compared as it is, whatever the header says.
    ['localhost:1984', 'localhost:5000', 'http://localhost:5000', false],
  ])('Host %s, X-Forwarded-Host %s, Origin %s → %s', (host, forwarded, origin, same) => {
    expect(isOwnOrigin(request(host, { 'x-forwarded-host': forwarded }), origin)).toBe(same);
  });

  it("keeps the console's own channel to the exact origin, port included", () => {
    expect(isExactOwnOrigin(request('127.0.0.1:1984'), 'http://127.0.0.1:1984')).toBe(true);
    expect(isExactOwnOrigin(request('localhost'), 'http://localhost:5000')).toBe(false);
  });
});

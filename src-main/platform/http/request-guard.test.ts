import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { assertSameOriginWrite, isExactOwnOrigin, isOwnOrigin } from './request-guard';
import { isCrossSiteRequest } from './cross-origin';

// Node gives header names in lower case.
const request = (host: string, headers: Record<string, string> = {}, method = 'POST') => ({ method, headers: { host, ...headers } }) as unknown as IncomingMessage;

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
    expect(() => assertSameOriginWrite(request('localhost:1984', { origin: 'http://localhost:5000' }))).toThrow(/cross-origin write refused/);
  });

  it("keeps the console's own channel to the exact origin, port included", () => {
    expect(isExactOwnOrigin(request('127.0.0.1:1984'), 'http://127.0.0.1:1984')).toBe(true);
    expect(isExactOwnOrigin(request('localhost'), 'http://localhost:5000')).toBe(false);
  });
});

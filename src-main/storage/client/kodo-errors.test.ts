import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { kodoFailure, networkProblem, unreachable } from './kodo-errors';

describe('Kodo errors', () => {
  it('carry the code and a sentence a person can act on', () => {
    expect(kodoFailure(631, { error: 'no such bucket' })).toMatchObject({ code: 'not_found', message: 'Kodo 631: no such bucket' });
    expect(kodoFailure(614, { error: 'file exists' })).toMatchObject({
      code: 'conflict',
      message: 'Kodo 614: a file with that name exists (file exists)',
    });
    expect(kodoFailure(401, { error: 'bad token' }).message).toBe(
      'Kodo 401: the keys were refused: check the AccessKey and SecretKey, or the token has expired (bad token)',
    );
    expect(kodoFailure(999, 'garbage')).toMatchObject({ code: 'unavailable', message: 'Kodo 999: the service answered with an error' });
    expect(unreachable(new Error('connect ECONNREFUSED'), 'http://127.0.0.1:1')).toMatchObject({
      code: 'unavailable',
      message:
        'the storage service at http://127.0.0.1:1 could not be reached: nothing answers at that address: the service is down or the address is wrong',
    });
  });

  it("a request with no answer says why in a sentence, never the HTTP client's dump", () => {
    // As the SDK's HTTP client (urllib) words them, seen with no network and with a closed port.
    const dump = (text: string) =>
      Object.assign(
        new Error(
          `${text}, POST https://uc.qbox.me/buckets -1 (connected: false, keepalive socket: false, socketHandledRequests: 1, socketHandledResponses: 0)\nheaders: {}`,
        ),
        { name: 'RequestError' },
      );
    expect(networkProblem(dump('getaddrinfo ENOTFOUND uc.qbox.me'))).toBe(
      'the name uc.qbox.me does not resolve: this computer may be offline, or the address is wrong',
    );
    expect(networkProblem(dump('connect ECONNREFUSED 127.0.0.1:1'))).toBe(
      'nothing answers at 127.0.0.1:1: the service is down or the address is wrong',
    );
    expect(networkProblem(Object.assign(new Error('fetch failed'), { code: 'ETIMEDOUT' }))).toBe(
      'no answer in time: the network or the service is slow or down',
    );
    expect(networkProblem(dump('self-signed certificate in certificate chain SELF_SIGNED_CERT_IN_CHAIN'))).toBe(
      "the service's certificate is not trusted (SELF_SIGNED_CERT_IN_CHAIN): check the address, or trust its CA",
    );
    expect(networkProblem(dump('socket hang up'))).toBe('socket hang up');
    expect(unreachable(dump('getaddrinfo ENOTFOUND uc.qbox.me'), 'Kodo z0').message).not.toMatch(/connected:|keepalive|headers/);
  });

  it('the client imports nothing of the emulator (tests aside): it must work the same against real Kodo', () => {
    const dir = fileURLToPath(new URL('.', import.meta.url));
    const sources = (readdirSync(dir, { recursive: true }) as string[]).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('test-support.ts'),
    );
    expect(sources.length).toBeGreaterThan(8);
    for (const file of sources) expect(readFileSync(`${dir}/${file}`, 'utf8'), file).not.toMatch(/from '(\.\.\/)+emulator/);
  });
});

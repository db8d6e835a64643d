import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCacheKeySource } from '../../platform/secrets/key-source';
import { createFakeLoginNetwork, type FakeLoginNetwork } from './fake-login-network';
import { GraphError } from './graph-error';
import { createEncryptedCachePlugin } from './msal-cache-plugin';
import { createInteractiveTokenProvider, createMsalPublicClient } from './msal-sign-in';

const tenantId = '72f988bf-0000-4000-8000-0000000000aa';
const clientId = '3c1f0a55-0000-4000-8000-0000000000c1';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'msal-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Plays the browser: the user signs in and the login page posts the code back (form_post). */
function browser(opened: string[]) {
  return async (url: string) => {
    opened.push(url);
    const authorize = new URL(url);
    const redirect = authorize.searchParams.get('redirect_uri')!;
    const answer = await fetch(redirect, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ code: 'good-code', state: authorize.searchParams.get('state')! }).toString(),
    });
    await answer.text();
  };
}

async function signInWith(network: FakeLoginNetwork, opened: string[], rejected: string[] = [], interactive = true) {
  const cachePlugin = createEncryptedCachePlugin({
    path: join(dir, 'msal-cache.bin'),
    key: createCacheKeySource({ path: join(dir, 'token-cache.key') }),
    onRejected: (why) => rejected.push(why),
  });
  const app = await createMsalPublicClient({ clientId, tenant: tenantId, cachePlugin, networkClient: network });
  return createInteractiveTokenProvider({ app, openBrowser: browser(opened), interactive });
}

describe('msal sign-in with the encrypted cache', () => {
  it('signs in with auth code + PKCE on a loopback redirect, then stays signed in across restarts', async () => {
    const network = createFakeLoginNetwork({ tenantId, clientId });
    const opened: string[] = [];
    const first = await signInWith(network, opened);
    expect(await first.getToken()).toBe('access-1');

    const authorize = new URL(opened[0]!);
    expect(authorize.origin + authorize.pathname).toBe(`https://login.microsoftonline.com/${tenantId}/oauth2/v2.0/authorize`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toMatch(/^http:\/\/localhost:\d+$/);
    expect(authorize.searchParams.get('scope')).toContain('Calendars.Read');
    const exchange = network.tokenRequests[0]!;
    expect(exchange).toMatchObject({ grant_type: 'authorization_code', code: 'good-code', client_id: clientId });
    expect(exchange.code_verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(exchange.client_secret).toBeUndefined();

    // On disk: sealed, no token or account name in the clear.
    const bytes = await readFile(join(dir, 'msal-cache.bin'));
    for (const clear of ['access-1', 'refresh-1', 'alex@contoso.example', 'AccessToken'])
      expect(bytes.includes(Buffer.from(clear))).toBe(false);

    // A fresh app (a restart) reads the cache: no browser, no token request.
    const restarted = await signInWith(network, opened);
    expect((await restarted.account())?.username).toBe('alex@contoso.example');
    expect(await restarted.getToken()).toBe('access-1');
    expect(opened).toHaveLength(1);
    expect(network.tokenRequests).toHaveLength(1);

    // A token the server refused (401) is renewed silently with the refresh token.
    restarted.invalidate?.('access-1');
    expect(await restarted.getToken()).toBe('access-2');
    expect(network.tokenRequests[1]).toMatchObject({ grant_type: 'refresh_token', refresh_token: 'refresh-1' });
    expect(opened).toHaveLength(1);

    // Signing out empties the file for the next start.
    await restarted.signOut();
    expect(await (await signInWith(network, opened)).account()).toBeNull();
  });

  it('treats a tampered cache file as empty and asks for a sign-in', async () => {
    const network = createFakeLoginNetwork({ tenantId, clientId });
    const opened: string[] = [];
    expect(await (await signInWith(network, opened)).getToken()).toBe('access-1');

    const path = join(dir, 'msal-cache.bin');
    const bytes = await readFile(path);
    bytes[bytes.length - 5] = bytes[bytes.length - 5]! ^ 0xff;
    await writeFile(path, bytes);

    const rejected: string[] = [];
    const after = await signInWith(network, opened, rejected, false);
    expect(await after.account()).toBeNull();
    expect(rejected[0]).toContain('altered');
    const error = (await after.getToken().catch((e: unknown) => e)) as GraphError;
    expect(error).toBeInstanceOf(GraphError);
    expect(error.code).toBe('interactionRequired');
    expect(opened).toHaveLength(1);
  });

  it('stops waiting for a sign-in that does not come, and takes it when it does', async () => {
    const network = createFakeLoginNetwork({ tenantId, clientId });
    const cachePlugin = createEncryptedCachePlugin({ path: join(dir, 'c.bin'), key: createCacheKeySource({ path: join(dir, 'k.key') }) });
    const app = await createMsalPublicClient({ clientId, tenant: tenantId, cachePlugin, networkClient: network });
    let pageShown: (url: string) => void = () => undefined;
    const page = new Promise<string>((resolve) => (pageShown = resolve));
    const provider = createInteractiveTokenProvider({
      app,
      signInTimeoutMs: 100,
      openBrowser: async (url) => pageShown(url), // the user comes back later
    });
    await expect(provider.getToken()).rejects.toMatchObject({ code: 'signInTimedOut', status: 401 });
    await browser([])(await page);
    // The same sign-in page completed: the next call is answered without another page.
    await expect.poll(() => provider.account().then((a) => a?.username ?? null)).toBe('alex@contoso.example');
    expect(await provider.getToken()).toBe('access-1');
  });

  it('reports a failed code exchange as a GraphError with the login error code', async () => {
    const network = createFakeLoginNetwork({ tenantId, clientId });
    const cachePlugin = createEncryptedCachePlugin({ path: join(dir, 'c.bin'), key: createCacheKeySource({ path: join(dir, 'k.key') }) });
    const app = await createMsalPublicClient({ clientId, tenant: tenantId, cachePlugin, networkClient: network });
    const provider = createInteractiveTokenProvider({
      app,
      openBrowser: async (url) => {
        const authorize = new URL(url);
        await fetch(authorize.searchParams.get('redirect_uri')!, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ code: 'bad-code', state: authorize.searchParams.get('state')! }).toString(),
        }).then((r) => r.text());
      },
    });
    const error = (await provider.getToken().catch((e: unknown) => e)) as GraphError;
    expect(error).toBeInstanceOf(GraphError);
    expect(error.code).toBe('invalid_grant');
  });

  it('stays signed in within the same run: the calls after a browser sign-in are silent', async () => {
    const network = createFakeLoginNetwork({ tenantId, clientId });
    const opened: string[] = [];
    const provider = await signInWith(network, opened);
    expect(await provider.getToken()).toBe('access-1');
    expect(await provider.getToken()).toBe('access-1');
    expect((await provider.silent())?.account?.username).toBe('alex@contoso.example');
    expect(opened).toHaveLength(1);
    expect(network.tokenRequests).toHaveLength(1);
  });

  it('signs in with a device code typed on another device, then answers silently', async () => {
    const network = createFakeLoginNetwork({ tenantId, clientId });
    const codes: string[] = [];
    const cachePlugin = createEncryptedCachePlugin({
      path: join(dir, 'msal-cache.bin'),
      key: createCacheKeySource({ path: join(dir, 'token-cache.key') }),
    });
    const app = await createMsalPublicClient({ clientId, tenant: tenantId, cachePlugin, networkClient: network });
    const provider = createInteractiveTokenProvider({
      app,
      flow: 'deviceCode',
      openBrowser: async () => {
        throw new Error('the device code flow opens no browser');
      },
      onDeviceCode: (code) => {
        codes.push(`${code.userCode} at ${code.verificationUri}`);
        // The person signs in on their phone a moment later.
        setTimeout(() => (network.deviceApproved = true), 200);
      },
    });
    expect(await provider.silent()).toBeNull();
    const account = await provider.signIn();
    expect(codes).toEqual(['FAKE-CODE at https://microsoft.com/devicelogin']);
    expect(account.username).toBe(network.user.upn);
    expect(network.tokenRequests.filter((r) => r.grant_type === 'device_code').length).toBeGreaterThanOrEqual(2);
    const silent = await provider.silent();
    expect(silent?.accessToken).toMatch(/^access-/);
    expect(silent?.scopes).toContain('Calendars.Read');
    expect(await provider.getToken()).toBe(silent?.accessToken);
    expect(codes).toHaveLength(1);
    await provider.signOut();
    expect(await provider.silent()).toBeNull();
  }, 20_000);
});

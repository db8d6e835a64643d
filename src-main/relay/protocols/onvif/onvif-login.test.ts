import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type RelayUnderTest } from '../../test/relay-test-kit';
import { resolveOnvifStream } from './onvif-client';

// With api.username set, the ONVIF server takes the login the way ONVIF clients send it: a
// WS-Security UsernameToken digest in the SOAP header (agsh/onvif from npm, and the relay's own
// onvif:// client), or HTTP Basic; the rest of the API still asks for HTTP Basic.
interface OnvifCam {
  profiles: Array<{ $: { token: string } }>;
  getProfiles(cb: (err: Error | null) => void): void;
}
const { Cam } = createRequire(import.meta.url)('onvif') as {
  Cam: new (options: Record<string, unknown>, cb: (err: Error | null) => void) => OnvifCam;
};
const connect = (port: number, username?: string, password?: string) =>
  new Promise<OnvifCam>((resolve, reject) => {
    const made: OnvifCam = new Cam({ hostname: '127.0.0.1', port, username, password, timeout: 10_000 }, (err) =>
      err ? reject(err) : resolve(made),
    );
  });
const soap = (body: string, header = '') =>
  `<?xml version="1.0" encoding="UTF-8"?><s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope">${header}<s:Body>${body}</s:Body></s:Envelope>`;

let relay: RelayUnderTest;
let port: number;
beforeAll(async () => {
  relay = await startRelay('  garden:\n  porch:\n', '', 0, '', '  username: admin\n  password: s3cret\n');
  port = Number(new URL(relay.api).port);
}, 30_000);
afterAll(() => relay.stop());

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${relay.api}/onvif/device_service`, { method: 'POST', headers: { 'Content-Type': 'application/soap+xml', ...headers }, body });

describe('ONVIF login', () => {
  it('an ONVIF client with the API login lists the profiles; with a wrong password it is refused', async () => {
    const cam = await connect(port, 'admin', 's3cret');
    expect(cam.profiles.map((p) => p.$.token)).toEqual(['garden', 'porch']);
    // The library connects anyway (its first calls need no login) and is left with no profiles.
    const refused = await connect(port, 'admin', 'wrong');
    expect(refused.profiles).toEqual([]);
    const error = await new Promise<Error | null>((resolve) => refused.getProfiles(resolve));
    expect(error?.message).toContain('Sender not authorized: unknown user or wrong password');
  });

  it("the relay's onvif:// client logs in with a digest and gets the stream address", async () => {
    const uri = await resolveOnvifStream(
      { deviceUrl: `${relay.api}/onvif/device_service`, username: 'admin', password: 's3cret', subtype: 'porch' },
      AbortSignal.timeout(5000),
    );
    expect(uri).toBe(`rtsp://admin:s3cret@127.0.0.1:${relay.rtspPort}/porch`);
  });

  it('without a login only the pre-login operations answer; HTTP Basic also works; a replayed digest is refused', async () => {
    expect((await post(soap('<GetSystemDateAndTime xmlns="http://www.onvif.org/ver10/device/wsdl"/>'))).status).toBe(200);
    const refused = await post(soap('<GetProfiles xmlns="http://www.onvif.org/ver10/media/wsdl"/>'));
    expect(refused.status).toBe(400);
    const text = await refused.text();
    expect(text).toContain('ter:NotAuthorized');
    expect(text).toContain('no login: send a WS-Security UsernameToken');
    const basic = await post(soap('<GetProfiles xmlns="http://www.onvif.org/ver10/media/wsdl"/>'), {
      Authorization: `Basic ${Buffer.from('admin:s3cret').toString('base64')}`,
    });
    expect(basic.status).toBe(200);
    expect(await basic.text()).toContain('token="garden"');

    const { createHash, randomBytes } = await import('node:crypto');
    const nonce = randomBytes(16);
    const created = new Date().toISOString();
    const digest = createHash('sha1')
      .update(Buffer.concat([nonce, Buffer.from(created), Buffer.from('s3cret')]))
      .digest('base64');
    const header = `<s:Header><Security xmlns="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"><UsernameToken><Username>admin</Username><Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest">${digest}</Password><Nonce>${nonce.toString('base64')}</Nonce><Created xmlns="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd">${created}</Created></UsernameToken></Security></s:Header>`;
    const request = soap('<GetProfiles xmlns="http://www.onvif.org/ver10/media/wsdl"/>', header);
    expect((await post(request)).status).toBe(200);
    const replayed = await post(request);
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain('used before');
  });

  it('the rest of the API still asks for HTTP Basic', async () => {
    expect((await fetch(`${relay.api}/api/streams`)).status).toBe(401);
  });
});

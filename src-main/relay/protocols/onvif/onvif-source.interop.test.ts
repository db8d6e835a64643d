import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, publishTestPattern, startRelay, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';
import { parseOnvifUrl, resolveOnvifStream } from './onvif-client';

// onvif:// sources: the relay asks a camera's ONVIF service where it streams and plays that.
// The camera here is the relay's own ONVIF server (a real SOAP peer over HTTP), and a recorder
// checks the WS-Security login the client sends.
let relay: RelayUnderTest;
let camera: ChildProcess;
beforeAll(async () => {
  relay = await startRelay('  garden:\n  porch:\n');
  camera = publishTestPattern(relay.rtspUrl('garden'), 60);
  await waitForMedia(relay, 'garden');
}, 30_000);
afterAll(async () => {
  camera.kill('SIGKILL');
  await relay.stop();
});

describe('onvif:// sources', () => {
  it('resolves the chosen profile to its RTSP address, with the login put in, and plays it as a stream', async () => {
    const host = new URL(relay.api).host;
    const rtsp = await resolveOnvifStream(parseOnvifUrl(`onvif://admin:s%3Acret@${host}?subtype=garden`), AbortSignal.timeout(10_000));
    expect(rtsp).toBe(relay.rtspUrl('garden').replace('rtsp://', 'rtsp://admin:s%3Acret@'));
    expect(await resolveOnvifStream(parseOnvifUrl(`onvif://${host}?subtype=1`), AbortSignal.timeout(10_000))).toBe(relay.rtspUrl('porch'));
    await expect(resolveOnvifStream(parseOnvifUrl(`onvif://${host}?subtype=attic`), AbortSignal.timeout(10_000))).rejects.toThrow(
      'no profile attic (it has garden, porch)',
    );

    const put = await fetch(`${relay.api}/api/streams?name=viaonvif&src=${encodeURIComponent(`onvif://${host}?subtype=garden`)}`, {
      method: 'PUT',
    });
    expect(put.status).toBe(200);
    const tracks = await probe(relay.rtspUrl('viaonvif'));
    expect(tracks).toEqual(expect.arrayContaining([expect.objectContaining({ codec_name: 'h264', width: 320, height: 240 })]));
  });

  it('signs in with a WS-Security password digest, and reports the camera fault', async () => {
    const bodies: string[] = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        bodies.push(body);
        res.writeHead(400, { 'Content-Type': 'application/soap+xml' });
        res.end(
          '<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body><s:Fault><s:Code><s:Value>s:Sender</s:Value></s:Code><s:Reason><s:Text xml:lang="en">Sender not Authorized</s:Text></s:Reason></s:Fault></s:Body></s:Envelope>',
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      await expect(resolveOnvifStream(parseOnvifUrl(`onvif://viewer:pw@127.0.0.1:${port}`), AbortSignal.timeout(5_000))).rejects.toThrow(
        `ONVIF 127.0.0.1:${port}: Sender not Authorized`,
      );
      const sent = bodies[0]!;
      expect(sent).toContain('<wsse:Username>viewer</wsse:Username>');
      const nonce = Buffer.from(/<wsse:Nonce[^>]*>([^<]+)</.exec(sent)![1]!, 'base64');
      const created = /<wsu:Created>([^<]+)</.exec(sent)![1]!;
      const digest = /<wsse:Password[^>]*PasswordDigest">([^<]+)</.exec(sent)![1]!;
      expect(digest).toBe(
        createHash('sha1')
          .update(Buffer.concat([nonce, Buffer.from(created), Buffer.from('pw')]))
          .digest('base64'),
      );
      expect(sent).not.toContain('>pw<');
    } finally {
      server.close();
    }
  });
});

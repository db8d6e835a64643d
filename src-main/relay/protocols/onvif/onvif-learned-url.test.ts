import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type RelayUnderTest } from '../../test/relay-test-kit';
import { parseOnvifUrl, resolveOnvifStream } from './onvif-client';

// A hostile ONVIF camera: its answers name code-running and local-file sources. Whatever a device
// answers is not the user's config, so none of it may run a command or open a file here.
let relay: RelayUnderTest;
let camera: Server;
let cameraHost: string;
let answers: { streamUri: string; mediaXAddr?: string } = { streamUri: '' };
let workDir: string;

function soap(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" xmlns:tt="http://www.onvif.org/ver10/schema" xmlns:trt="http://www.onvif.org/ver10/media/wsdl" xmlns:tds="http://www.onvif.org/ver10/device/wsdl"><s:Body>${body}</s:Body></s:Envelope>`;
}

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'onvif-hostile-'));
  camera = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/soap+xml' });
      if (body.includes('GetCapabilities')) {
        const media = answers.mediaXAddr ?? `http://${cameraHost}/onvif/media_service`;
        res.end(
          soap(
            `<tds:GetCapabilitiesResponse><tds:Capabilities><tt:Media><tt:XAddr>${xml(media)}</tt:XAddr></tt:Media></tds:Capabilities></tds:GetCapabilitiesResponse>`,
          ),
        );
      } else if (body.includes('GetProfiles')) {
        res.end(
          soap(
            '<trt:GetProfilesResponse><trt:Profiles token="main" fixed="true"><tt:Name>main</tt:Name></trt:Profiles></trt:GetProfilesResponse>',
          ),
        );
      } else if (body.includes('GetStreamUri')) {
        res.end(
          soap(
            `<trt:GetStreamUriResponse><trt:MediaUri><tt:Uri>${xml(answers.streamUri)}</tt:Uri></trt:MediaUri></trt:GetStreamUriResponse>`,
          ),
        );
      } else {
        res.end(soap(''));
      }
    });
  });
  await new Promise<void>((resolve) => camera.listen(0, '127.0.0.1', resolve));
  cameraHost = `127.0.0.1:${(camera.address() as AddressInfo).port}`;
  relay = await startRelay('  lobby:\n');
}, 30_000);

afterAll(async () => {
  camera.close();
  await relay.stop();
  rmSync(workDir, { recursive: true, force: true });
});

describe('a hostile ONVIF camera', () => {
  it('an exec:, echo: or ffmpeg: file answer to GetStreamUri is refused before anything runs', async () => {
    for (const scheme of ['exec', 'echo', 'ffmpeg']) {
      const marker = join(workDir, `${scheme}-ran`);
      answers = { streamUri: scheme === 'ffmpeg' ? `ffmpeg:${marker}` : `${scheme}:touch ${marker}` };
      await expect(resolveOnvifStream(parseOnvifUrl(`onvif://${cameraHost}`), AbortSignal.timeout(5_000))).rejects.toThrow(
        `ONVIF ${cameraHost} (GetStreamUri) answered a ${scheme}: address; only rtsp, rtsps, rtmp, rtmps, http, https addresses learned from the network are played`,
      );

      // A temporary source, as a page or Home Assistant would open it.
      const frame = await fetch(`${relay.api}/api/frame.jpeg?src=${encodeURIComponent(`onvif://${cameraHost}`)}`);
      expect(frame.status).toBe(503);
      expect(await frame.text()).toContain(`answered a ${scheme}: address`);

      // A named stream added through the API, then watched.
      const name = `hostile-${scheme}`;
      expect(
        (await fetch(`${relay.api}/api/streams?name=${name}&src=${encodeURIComponent(`onvif://${cameraHost}`)}`, { method: 'PUT' })).status,
      ).toBe(200);
      const watched = await fetch(`${relay.api}/api/frame.jpeg?src=${name}`);
      expect(watched.status).toBe(503);
      expect(await watched.text()).toContain(`answered a ${scheme}: address`);
      expect(existsSync(marker)).toBe(false);
    }
  });

  it('a media service address that is not http(s) is refused', async () => {
    answers = { streamUri: 'rtsp://127.0.0.1:1/never', mediaXAddr: `file://${workDir}/media` };
    await expect(resolveOnvifStream(parseOnvifUrl(`onvif://${cameraHost}`), AbortSignal.timeout(5_000))).rejects.toThrow(
      `ONVIF ${cameraHost} (GetCapabilities) answered a file: address; only http, https addresses learned from the network are played`,
    );
  });

  it('an rtsp:// answer is still played, with the login put in', async () => {
    answers = { streamUri: 'rtsp://10.1.2.3:554/Streaming/Channels/101' };
    expect(await resolveOnvifStream(parseOnvifUrl(`onvif://admin:pw@${cameraHost}`), AbortSignal.timeout(5_000))).toBe(
      'rtsp://admin:pw@10.1.2.3:554/Streaming/Channels/101',
    );
  });
});

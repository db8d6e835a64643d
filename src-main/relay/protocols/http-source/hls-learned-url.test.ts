import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchOk, readHls } from './http-readers';

// An HLS server names the variants and segments the source fetches next: those are learned
// from the network and may only be http(s) addresses, never a file of this machine.
let server: Server;
let base: string;
const served: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    served.push(req.url ?? '');
    if (req.url === '/redirect-to-file') {
      res.writeHead(302, { Location: 'file:///etc/hostname' });
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/vnd.apple.mpegurl' });
    res.end('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nsegment0.ts\n#EXT-X-ENDLIST\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

describe('URLs an HLS source learns', () => {
  it('a master playlist whose variant is a file: address is refused, nothing read', async () => {
    const master = '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nfile:///etc/hostname\n';
    const chunks: Uint8Array[] = [];
    await expect(
      readHls(`${base}/master.m3u8?token=secret`, master, AbortSignal.timeout(5_000))((chunk) => chunks.push(chunk)),
    ).rejects.toThrow(
      `the HLS playlist ${base}/master.m3u8 answered a file: address; only http, https addresses learned from the network are played`,
    );
    expect(chunks).toEqual([]);
  });

  it('a media playlist whose segment is a data: or file: address is refused', async () => {
    for (const segment of ['data:video/mp2t;base64,AAAA', 'file:///etc/hostname']) {
      const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n${segment}\n#EXT-X-ENDLIST\n`;
      const chunks: Uint8Array[] = [];
      await expect(readHls(`${base}/live.m3u8`, playlist, AbortSignal.timeout(5_000))((chunk) => chunks.push(chunk))).rejects.toThrow(
        `answered a ${segment.split(':')[0]}: address`,
      );
      expect(chunks).toEqual([]);
    }
  });

  it('a redirect to a file: address is not followed', async () => {
    await expect(fetchOk(`${base}/redirect-to-file`, AbortSignal.timeout(5_000))).rejects.toThrow();
    expect(served).toContain('/redirect-to-file');
  });
});

import { createServer, connect, type Server, type Socket } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialRtsp } from './rtsp-client';
import { countFrames, publishTestPattern, startRelay, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';

/** Sends bytes to the RTSP server and collects what it answers until it closes or goes quiet. */
function exchange(port: number, payloads: Array<string | Buffer>, quietMs = 400): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let timer = setTimeout(() => socket.destroy(), quietMs);
    socket.on('data', (d) => {
      answer += d.toString('latin1');
      clearTimeout(timer);
      timer = setTimeout(() => socket.destroy(), quietMs);
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      for (const p of payloads) socket.write(p);
    });
  });
}

describe('RTSP server and client under bad input', () => {
  let relay: RelayUnderTest;
  let publisher: ChildProcess;

  beforeAll(async () => {
    relay = await startRelay('  cam:\n  other:\n');
    publisher = publishTestPattern(relay.rtspUrl('cam'));
    await waitForMedia(relay, 'cam');
  }, 30_000);
  afterAll(async () => {
    publisher?.kill('SIGKILL');
    await relay?.stop();
  });

  it('answers garbage and malformed requests with 400 and keeps serving other viewers', async () => {
    const viewing = countFrames(relay.rtspUrl('cam'), 4);
    const port = relay.rtspPort;
    expect(await exchange(port, [Buffer.from([0x16, 0x03, 0x01, 0x00, 0xff, 0x01])])).toMatch(/^RTSP\/1\.0 400/);
    expect(await exchange(port, ['GET / HTTP/1.1\r\nHost: x\r\n\r\n'])).toMatch(/^RTSP\/1\.0 400/);
    expect(await exchange(port, ['OPTIONS rtsp://x/cam RTSP/1.0\r\nCSeq 1\r\n\r\n'])).toMatch(/^RTSP\/1\.0 400/);
    expect(await exchange(port, ['OPTIONS rtsp://x/cam RTSP/1.0\r\nCSeq: 1\r\nContent-Length: 99999999\r\n\r\n'])).toMatch(
      /^RTSP\/1\.0 400/,
    );
    expect(await exchange(port, ['DESCRIBE rtsp://127.0.0.1/cam RTSP/1.0\r\nCSeq: 2\r\n'])).toBe(''); // truncated: no answer, no crash
    expect(await exchange(port, ['PLAY rtsp://127.0.0.1/cam RTSP/1.0\r\nCSeq: 3\r\n\r\n'])).toMatch(/455/);
    expect(
      await exchange(port, [
        'SETUP rtsp://127.0.0.1/cam/trackID=0 RTSP/1.0\r\nCSeq: 4\r\nTransport: RTP/AVP;unicast;client_port=5000-5001\r\n\r\n',
      ]),
    ).toMatch(/461/);
    const badSdp = 'this is not sdp';
    expect(
      await exchange(port, [
        `ANNOUNCE rtsp://127.0.0.1/other RTSP/1.0\r\nCSeq: 5\r\nContent-Type: application/sdp\r\nContent-Length: ${badSdp.length}\r\n\r\n${badSdp}`,
      ]),
    ).toMatch(/^RTSP\/1\.0 400[\s\S]*not an SDP/);
    const sdp =
      'v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=x\r\nt=0 0\r\nm=video 0 RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\na=control:trackID=0\r\n';
    const junkRtp = Buffer.concat([
      Buffer.from([0x24, 0, 0, 5]),
      Buffer.from([1, 2, 3, 4, 5]),
      Buffer.from([0x24, 0, 0, 20]),
      Buffer.alloc(20, 0xff),
    ]);
    const publishJunk = await exchange(port, [
      `ANNOUNCE rtsp://127.0.0.1/other RTSP/1.0\r\nCSeq: 6\r\nContent-Length: ${sdp.length}\r\n\r\n${sdp}`,
      'SETUP rtsp://127.0.0.1/other/trackID=0 RTSP/1.0\r\nCSeq: 7\r\nTransport: RTP/AVP/TCP;unicast;interleaved=0-1;mode=record\r\n\r\n',
      'RECORD rtsp://127.0.0.1/other RTSP/1.0\r\nCSeq: 8\r\n\r\n',
      junkRtp,
    ]);
    expect(publishJunk.match(/RTSP\/1\.0 200/g)).toHaveLength(3);
    expect(await countFrames(relay.rtspUrl('cam'), 1)).toBeGreaterThan(10);
    expect(await viewing).toBeGreaterThan(60);
  }, 40_000);

  describe('a camera that misbehaves', () => {
    let fake: Server;
    let port = 0;
    let script: (socket: Socket, request: string) => void = () => undefined;
    beforeAll(async () => {
      fake = createServer((socket) => socket.on('data', (d) => script(socket, d.toString('latin1'))));
      await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
      port = (fake.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((r) => fake.close(() => r())));

    const dial = () => dialRtsp(`rtsp://127.0.0.1:${port}/cam`, { signal: new AbortController().signal, streamName: 'x' });
    const cseq = (request: string) => /CSeq: (\d+)/.exec(request)?.[1] ?? '0';

    it('answers garbage', async () => {
      script = (socket) => socket.write('\x00\x01garbage that is not rtsp at all\r\n\r\n');
      await expect(dial()).rejects.toThrow(/garbage|not an RTSP|malformed/);
    });

    it('sends an SDP with no usable media', async () => {
      script = (socket, request) => {
        const body = request.startsWith('DESCRIBE') ? 'v=0\r\ns=x\r\nm=application 0 RTP/AVP 107\r\n' : '';
        socket.write(`RTSP/1.0 200 OK\r\nCSeq: ${cseq(request)}\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      };
      await expect(dial()).rejects.toThrow(/no audio or video media/);
    });

    it('refuses the credentials', async () => {
      script = (socket, request) =>
        socket.write(`RTSP/1.0 401 Unauthorized\r\nCSeq: ${cseq(request)}\r\nWWW-Authenticate: Digest realm="cam", nonce="abc"\r\n\r\n`);
      await expect(
        dialRtsp(`rtsp://admin:wrong@127.0.0.1:${port}/cam`, { signal: new AbortController().signal, streamName: 'x' }),
      ).rejects.toThrow(/unauthorized/);
    });

    it('answers with an error status', async () => {
      script = (socket, request) => socket.write(`RTSP/1.0 404 Stream Not Found\r\nCSeq: ${cseq(request)}\r\n\r\n`);
      await expect(dial()).rejects.toThrow(/404/);
    });
  });
});

import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type RelayUnderTest } from '../../test/relay-test-kit';
import { authorizationFor } from './digest-auth';

/** One RTSP request on its own connection, as a player (or an attacker replaying a header) sends it. */
async function request(port: number, method: string, uri: string, authorization?: string): Promise<{ status: number; challenge: string }> {
  const socket: Socket = connect(port, '127.0.0.1');
  const lines = [`${method} ${uri} RTSP/1.0`, 'CSeq: 1', ...(authorization ? [`Authorization: ${authorization}`] : []), '', ''];
  socket.write(lines.join('\r\n'));
  const head = await new Promise<string>((resolve, reject) => {
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString();
      if (text.includes('\r\n\r\n')) resolve(text);
    });
    socket.on('error', reject);
  });
  socket.destroy();
  return { status: Number(/^RTSP\/1\.0 (\d+)/.exec(head)?.[1]), challenge: /WWW-Authenticate: (.*)\r\n/i.exec(head)?.[1] ?? '' };
}

describe('RTSP server Digest authentication', () => {
  let relay: RelayUnderTest;
  beforeAll(async () => {
    relay = await startRelay(
      '  cam1: rtsp://127.0.0.1:1/a\n  cam2: rtsp://127.0.0.1:1/b\n',
      '',
      0,
      '  username: viewer\n  password: pw\n  local_auth: true\n',
    );
  });
  afterAll(async () => relay?.stop());

  it('challenges with a new nonce each time', async () => {
    const one = await request(relay.rtspPort, 'OPTIONS', relay.rtspUrl('cam1'));
    const two = await request(relay.rtspPort, 'OPTIONS', relay.rtspUrl('cam1'));
    expect([one.status, two.status]).toEqual([401, 401]);
    expect(one.challenge).toMatch(/^Digest realm="Relay Console", nonce="[0-9a-f]{32}"$/);
    expect(one.challenge).not.toBe(two.challenge);
  });

  it('a captured Authorization header answers its own request only, never another stream', async () => {
    const { challenge } = await request(relay.rtspPort, 'OPTIONS', relay.rtspUrl('cam1'));
    const header = authorizationFor(challenge, 'OPTIONS', relay.rtspUrl('cam1'), 'viewer', 'pw');
    expect((await request(relay.rtspPort, 'OPTIONS', relay.rtspUrl('cam1'), header)).status).toBe(200);
    // Replayed on another connection for another stream: the uri it signed is not this request's.
    expect((await request(relay.rtspPort, 'OPTIONS', relay.rtspUrl('cam2'), header)).status).toBe(401);
    // A nonce this server never issued opens nothing, however right the response is for it.
    const forged = authorizationFor(
      'Digest realm="Relay Console", nonce="00000000000000000000000000000000"',
      'OPTIONS',
      relay.rtspUrl('cam2'),
      'viewer',
      'pw',
    );
    expect((await request(relay.rtspPort, 'OPTIONS', relay.rtspUrl('cam2'), forged)).status).toBe(401);
    // The wrong password with a fresh nonce: refused.
    const fresh = (await request(relay.rtspPort, 'OPTIONS', relay.rtspUrl('cam2'))).challenge;
    expect(
      (
        await request(
          relay.rtspPort,
          'OPTIONS',
          relay.rtspUrl('cam2'),
          authorizationFor(fresh, 'OPTIONS', relay.rtspUrl('cam2'), 'viewer', 'nope'),
        )
      ).status,
    ).toBe(401);
  });
});

import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, startRelay, type RelayUnderTest } from '../../test/relay-test-kit';
import { offerNonce, shareCipher, shareInfoHash } from './share-cipher';
import { parseWebtorrentSource } from './webtorrent-source';

// Two relays sharing a stream the way go2rtc does: the sharer announces the share on a tracker
// (here the tracker the sharing relay serves itself on /api/webtorrent), the other relay's
// `webtorrent:?share=&pwd=` source sends a sealed offer through it and plays over WebRTC.

describe('share cipher', () => {
  it('seals and opens SDP with share, pwd and the offer id; refuses another pwd and old offers', () => {
    const nonce = offerNonce();
    const sealed = shareCipher('kitchen-door', 'secret-1', nonce).seal('v=0\r\n');
    expect(shareCipher('kitchen-door', 'secret-1', nonce).open(sealed)).toBe('v=0\r\n');
    expect(() => shareCipher('kitchen-door', 'secret-2', nonce).open(sealed)).toThrow('does not open with this share and pwd');
    expect(() => shareCipher('kitchen-door', 'secret-1', offerNonce(Date.now() - 13 * 3600_000))).toThrow('more than 12 hours');
    expect(shareInfoHash('kitchen-door')).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(() => parseWebtorrentSource('webtorrent:?share=short&pwd=abcd')).toThrow('at least 8 characters');
    // A pwd seals the share: seven characters are refused, eight are taken.
    expect(() => parseWebtorrentSource('webtorrent:?share=kitchen-door&pwd=1234567')).toThrow('pwd=<at least 8>');
    expect(parseWebtorrentSource('webtorrent:?share=kitchen-door&pwd=12345678')).toEqual({ share: 'kitchen-door', pwd: '12345678' });
  });
});

describe('P2P shares through a tracker', () => {
  let trackerRelay: RelayUnderTest;
  let sharer: RelayUnderTest;
  let viewer: RelayUnderTest;
  let tracker: string;
  beforeAll(async () => {
    // A third relay serves the tracker, as one on a LAN would for the others.
    trackerRelay = await startRelay();
    tracker = `${trackerRelay.api.replace('http://', 'ws://')}/api/webtorrent`;
    sharer = await startRelay(
      '  cam: ffmpeg:virtual?video=testsrc&size=320x240#video=h264\n  other:\n',
      `webtorrent:\n  trackers: [${tracker}]\n`,
    );
  }, 60_000);
  afterAll(async () => {
    await viewer?.stop();
    await sharer?.stop();
    await trackerRelay?.stop();
  });

  it('the tracker refuses pages of other sites, as /api/ws does; relays (no Origin) are served', async () => {
    const opened = (headers: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(tracker, { headers });
        ws.once('open', () => {
          ws.close();
          resolve(101);
        });
        ws.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      });
    expect(await opened({ Origin: 'https://attacker.example' })).toBe(403);
    expect(await opened({ 'Sec-Fetch-Site': 'cross-site' })).toBe(403);
    expect(await opened({})).toBe(101);
  });

  it('adds, lists, reads and deletes shares over /api/webtorrent', async () => {
    expect((await fetch(`${sharer.api}/api/webtorrent`)).status).toBe(404);
    const created = await fetch(`${sharer.api}/api/webtorrent?src=cam&share=front-yard-cam&pwd=open-sesame`, { method: 'POST' });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ share: 'front-yard-cam', pwd: 'open-sesame' });
    const random = (await (await fetch(`${sharer.api}/api/webtorrent?src=other`, { method: 'POST' })).json()) as {
      share: string;
      pwd: string;
    };
    expect(random.share).toMatch(/^[0-9A-Za-z]{10}$/);
    expect(random.pwd).toMatch(/^[0-9A-Za-z]{10}$/);
    expect(await (await fetch(`${sharer.api}/api/webtorrent?src=cam`)).json()).toEqual({ share: 'front-yard-cam', pwd: 'open-sesame' });
    const entries = [
      { name: 'cam', url: 'webtorrent:?share=front-yard-cam&pwd=open-sesame' },
      { name: 'other', url: `webtorrent:?share=${random.share}&pwd=${random.pwd}` },
    ];
    expect(await (await fetch(`${sharer.api}/api/webtorrent`)).json()).toEqual({
      streams: entries,
      sources: entries.map((e) => ({ id: e.name, ...e })),
    });
    const again = await fetch(`${sharer.api}/api/webtorrent?src=cam`, { method: 'POST' });
    expect([again.status, await again.text()]).toEqual([400, 'cam is already shared (DELETE it first)\n']);
    expect((await fetch(`${sharer.api}/api/webtorrent?src=nope`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${sharer.api}/api/webtorrent?src=other`, { method: 'DELETE' })).status).toBe(200);
    expect((await fetch(`${sharer.api}/api/webtorrent?src=other`)).status).toBe(404);
    const weak = await fetch(`${sharer.api}/api/webtorrent?src=other&share=weak-pwd-share&pwd=1234567`, { method: 'POST' });
    expect([weak.status, await weak.text()]).toEqual([400, 'pwd must have at least 8 characters\n']);
  });

  it('a relay that knows share and pwd plays the shared stream over WebRTC', async () => {
    viewer = await startRelay('  remote: webtorrent:?share=front-yard-cam&pwd=open-sesame\n', `webtorrent:\n  trackers: [${tracker}]\n`);
    const streams = await probe(viewer.rtspUrl('remote'));
    expect(streams).toEqual([expect.objectContaining({ codec_type: 'video', codec_name: 'h264', width: 320, height: 240 })]);
    const info = (await (await fetch(`${sharer.api}/api/streams?src=cam`)).json()) as {
      consumers?: Array<{ remote_addr?: string; user_agent?: string }>;
    };
    expect(info.consumers).toContainEqual(expect.objectContaining({ user_agent: 'webtorrent' }));
  }, 40_000);

  it('an offer sealed with a wrong pwd gets no answer; the right pwd gets one', async () => {
    const ask = (pwd: string) =>
      new Promise<string | undefined>((resolve) => {
        const ws = new WebSocket(tracker);
        const nonce = offerNonce();
        const cipher = shareCipher('front-yard-cam', pwd, nonce);
        const offer =
          'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\nc=IN IP4 0.0.0.0\r\na=mid:0\r\na=recvonly\r\na=rtpmap:96 H264/90000\r\na=fmtp:96 packetization-mode=1;profile-level-id=42e01f\r\na=ice-ufrag:abcd\r\na=ice-pwd:abcdefghijklmnopqrstuvwx\r\na=fingerprint:sha-256 00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF\r\na=setup:actpass\r\na=rtcp-mux\r\n';
        const timer = setTimeout(() => {
          ws.terminate();
          resolve(undefined);
        }, 3000);
        ws.on('open', () =>
          ws.send(
            JSON.stringify({
              action: 'announce',
              info_hash: shareInfoHash('front-yard-cam'),
              peer_id: `probe-${pwd}`.padEnd(20, '0'),
              offers: [{ offer_id: nonce, offer: { type: 'offer', sdp: cipher.seal(offer) } }],
              numwant: 1,
            }),
          ),
        );
        ws.on('message', (data) => {
          const message = JSON.parse(String(data)) as { answer?: { sdp: string }; offer_id?: string };
          if (message.answer && message.offer_id === nonce) {
            clearTimeout(timer);
            ws.close();
            resolve(cipher.open(message.answer.sdp));
          }
        });
      });
    expect(await ask('wrong-pwd')).toBeUndefined();
    expect(await ask('open-sesame')).toMatch(/^v=0\r\n[\s\S]*m=video [\s\S]*a=sendonly/);
  }, 20_000);
});

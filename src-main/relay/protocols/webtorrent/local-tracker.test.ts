import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { createLocalTracker, MAX_ANNOUNCES_PER_CONNECTION, MAX_SWARMS, TRACKER_WORK_BUDGET } from './local-tracker';
import type { TrackerMessage } from './tracker-messages';

// The tracker behind /api/webtorrent on a real WebSocket server on loopback, with a clock the
// test moves, so the work budget is exact.
let clock = 0;
let wss: WebSocketServer | undefined;
const clients: WebSocket[] = [];

let tracker: ReturnType<typeof createLocalTracker>;

async function startTracker(): Promise<string> {
  tracker = createLocalTracker({ now: () => clock });
  wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  wss.on('connection', (ws) => tracker.serve(ws));
  await new Promise((resolve) => wss!.once('listening', resolve));
  return `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
}

/** A peer: everything the tracker sends it, in order. */
async function peer(url: string): Promise<{ ws: WebSocket; received: TrackerMessage[]; send(message: object): void }> {
  const ws = new WebSocket(url);
  clients.push(ws);
  const received: TrackerMessage[] = [];
  ws.on('message', (data) => received.push(JSON.parse(String(data)) as TrackerMessage));
  await new Promise((resolve) => ws.once('open', resolve));
  return { ws, received, send: (message) => ws.send(JSON.stringify(message)) };
}

const offer = (hash: string, peerId: string, offerId: string) => ({
  action: 'announce',
  info_hash: hash,
  peer_id: peerId,
  offers: [{ offer_id: offerId, offer: { type: 'offer', sdp: 'sealed' } }],
});
const offersIn = (messages: TrackerMessage[]) => messages.filter((m) => m.offer).map((m) => m.offer_id);

afterEach(async () => {
  for (const ws of clients.splice(0)) ws.terminate();
  await new Promise((resolve) => (wss ? wss.close(resolve) : resolve(undefined)));
  wss = undefined;
  clock = 0;
});

describe('local WebTorrent tracker', () => {
  it('serves a peer within its budget as the budget refills, and closes one that goes past it', async () => {
    const url = await startTracker();
    const listener = await peer(url);
    listener.send({ action: 'announce', info_hash: 'h', peer_id: 'listener', offers: [] });
    await expect.poll(() => listener.received.length).toBe(1);

    // An offer into this swarm costs 2: one to read it, one to pass it to the listener.
    const viewer = await peer(url);
    const offerAndWait = async (id: string) => {
      const replied = new Promise((resolve) => viewer.ws.once('message', resolve)); // the tracker's reply
      viewer.send(offer('h', 'viewer', id));
      await replied;
    };
    const atOnce = TRACKER_WORK_BUDGET.burst / 2;
    for (let i = 0; i < atOnce; i++) await offerAndWait(`a-${i}`);
    clock += 1000;
    const aSecondLater = TRACKER_WORK_BUDGET.perSecond / 2;
    for (let i = 0; i < aSecondLater; i++) await offerAndWait(`b-${i}`);
    await expect.poll(() => offersIn(listener.received).length).toBe(atOnce + aSecondLater);
    expect(viewer.ws.readyState).toBe(WebSocket.OPEN);

    const closed = new Promise<number>((resolve) => viewer.ws.once('close', resolve));
    viewer.send(offer('h', 'viewer', 'one-too-many'));
    expect(await closed).toBe(1008);
    expect(offersIn(listener.received)).not.toContain('one-too-many');
  });

  it('a flood of offers into a bigger swarm runs out sooner and gets the socket closed', async () => {
    const url = await startTracker();
    const listeners = await Promise.all([peer(url), peer(url), peer(url)]);
    for (const [i, listener] of listeners.entries())
      listener.send({ action: 'announce', info_hash: 'h', peer_id: `listener-${i}`, offers: [] });
    await expect.poll(() => listeners.every((l) => l.received.length === 1)).toBe(true);

    const flooder = await peer(url);
    const closed = new Promise<number>((resolve) => flooder.ws.once('close', resolve));
    for (let i = 0; i < 600; i++) flooder.send(offer('h', 'flooder', `flood-${i}`));
    expect(await closed).toBe(1008);
    // Each offer costs 1 to read and 3 to pass on: a quarter of the budget's worth got through,
    // the first ones, in order, to every listener.
    const passed = Math.floor(TRACKER_WORK_BUDGET.burst / 4);
    const expected = Array.from({ length: passed }, (_, i) => `flood-${i}`);
    for (const listener of listeners) await expect.poll(() => offersIn(listener.received)).toEqual(expected);
  });

  it('takes a relay announcing all its shares at once, and refuses announces past the limit with a reason', async () => {
    const url = await startTracker();
    const relay = await peer(url);
    for (let i = 0; i <= MAX_ANNOUNCES_PER_CONNECTION; i++)
      relay.send({ action: 'announce', info_hash: `share-${i}`, peer_id: 'relay', offers: [], numwant: 10 });
    await expect.poll(() => relay.received.length).toBe(MAX_ANNOUNCES_PER_CONNECTION + 1);
    expect(relay.received.slice(0, MAX_ANNOUNCES_PER_CONNECTION).every((m) => m.interval === 120 && m.incomplete === 1)).toBe(true);
    expect(relay.received.at(-1)).toEqual({
      action: 'announce',
      info_hash: `share-${MAX_ANNOUNCES_PER_CONNECTION}`,
      'failure reason': `one connection may announce at most ${MAX_ANNOUNCES_PER_CONNECTION} info hash and peer id pairs`,
    });

    // The refused hash has no swarm with the relay in it: a viewer's offer there reaches nobody,
    // while one for an accepted share reaches the relay.
    const viewer = await peer(url);
    viewer.send(offer(`share-${MAX_ANNOUNCES_PER_CONNECTION}`, 'viewer', 'to-refused'));
    viewer.send(offer('share-0', 'viewer', 'to-accepted'));
    await expect.poll(() => offersIn(relay.received)).toEqual(['to-accepted']);
  });

  it('keeps at most MAX_SWARMS swarms across all sockets, and a closed socket leaves no swarm or peer behind', async () => {
    const url = await startTracker();
    const sockets = Math.ceil(MAX_SWARMS / MAX_ANNOUNCES_PER_CONNECTION);
    const crawlers = await Promise.all(Array.from({ length: sockets }, () => peer(url)));
    crawlers.forEach((crawler, c) => {
      for (let i = 0; i < MAX_ANNOUNCES_PER_CONNECTION; i++)
        crawler.send({ action: 'announce', info_hash: `flood-${c}-${i}`, peer_id: `crawler-${c}`, offers: [] });
    });
    await expect
      .poll(() => crawlers.reduce((sum, crawler) => sum + crawler.received.length, 0), { timeout: 10_000 })
      .toBe(sockets * MAX_ANNOUNCES_PER_CONNECTION);
    expect(tracker.size().swarms).toBe(MAX_SWARMS);

    const late = await peer(url);
    late.send({ action: 'announce', info_hash: 'one-more', peer_id: 'late', offers: [] });
    await expect.poll(() => late.received.length).toBe(1);
    expect(late.received[0]).toEqual({
      action: 'announce',
      info_hash: 'one-more',
      'failure reason': `the tracker keeps at most ${MAX_SWARMS} info hashes at once`,
    });
    // A swarm that exists still takes a new peer.
    late.send({ action: 'announce', info_hash: 'flood-0-0', peer_id: 'late', offers: [] });
    await expect.poll(() => tracker.size().peers).toBe(MAX_SWARMS + 1);

    for (const crawler of [...crawlers, late]) crawler.ws.close();
    await expect.poll(() => tracker.size(), { timeout: 10_000 }).toEqual({ swarms: 0, peers: 0 });
  });
});

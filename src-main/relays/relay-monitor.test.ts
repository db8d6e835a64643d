import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RelayInfo, RelayStreams } from '@shared/contract/relays';
import { quietFor, waitUntil } from '@main/test-support/time';
import { createRelayMonitor, type RelayMonitor } from './relay-monitor';

/** A relay's API on loopback whose answers the test changes: its streams, or a failure status. */
async function fakeRelay() {
  const state = { streams: {} as Record<string, unknown>, status: 200, auth: [] as Array<string | undefined> };
  const server: Server = createServer((req, res) => {
    state.auth.push(req.headers.authorization);
    if (state.status !== 200) return void res.writeHead(state.status).end('down for maintenance');
    if (req.url === '/api') return void res.end(JSON.stringify({ version: '1.9.14', rtsp: { listen: ':8554' } }));
    if (req.url === '/api/streams') return void res.end(JSON.stringify(state.streams));
    if (req.url === '/api/config') return void res.end('streams: {}\n');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    state,
    url,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

let monitor: RelayMonitor | undefined;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  monitor?.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('the relay monitor', () => {
  it('tells the console what changed, once, and not again for the same answers', async () => {
    const relay = await fakeRelay();
    cleanups.push(relay.close);
    relay.state.streams = { yard: { producers: [{ url: 'rtsp://cam/1', medias: ['video, recvonly, H264'] }], consumers: [] } };
    const relays: RelayInfo[][] = [];
    const streams: RelayStreams[][] = [];
    monitor = createRelayMonitor({ pollMs: 30, recheckMs: 10, onRelays: (l) => relays.push(l), onStreams: (l) => streams.push(l) });
    monitor.sync([{ name: 'north', target: { url: relay.url }, origin: 'config' }]);

    await waitUntil(() => relays.at(-1)?.[0]?.state === 'reachable', { what: 'north reachable' });
    expect(relays.at(-1)![0]).toMatchObject({
      name: 'north',
      url: relay.url,
      hasLogin: false,
      origin: 'config',
      configEditable: true,
      health: { version: '1.9.14', streams: 1, producers: 1, consumers: 0, bytesIn: 0, bytesOut: 0, rtspPort: 8554 },
    });
    await waitUntil(() => streams.at(-1)?.[0]?.streams.length === 1, { what: "north's streams" });
    const told = { relays: relays.length, streams: streams.length };
    // Many polls with the same answers: nothing new to tell.
    await quietFor(300);
    expect({ relays: relays.length, streams: streams.length }).toEqual(told);

    relay.state.streams = { ...relay.state.streams, gate: { producers: null, consumers: null } };
    await waitUntil(() => streams.length === told.streams + 1, { what: 'the new stream told' });
    expect(streams.at(-1)![0]!.streams.map((s) => s.name)).toEqual(['gate', 'yard']);
    await waitUntil(() => relays.at(-1)?.[0]?.health?.streams === 2, { what: 'the health with two streams' });
  });

  it('sends the lists again when one relay’s changed, keeping the other relays’ answers as they were', async () => {
    const [north, south] = [await fakeRelay(), await fakeRelay()];
    cleanups.push(north.close, south.close);
    const camera = (bytes: number) => ({ producers: [{ url: 'rtsp://cam/1', medias: ['video, recvonly, H264'], bytes_recv: bytes }] });
    north.state.streams = { yard: camera(1) };
    south.state.streams = { gate: camera(1) };
    const streams: RelayStreams[][] = [];
    monitor = createRelayMonitor({ pollMs: 30, recheckMs: 10, onRelays: () => undefined, onStreams: (l) => streams.push(l) });
    monitor.sync([
      { name: 'north', target: { url: north.url }, origin: 'config' },
      { name: 'south', target: { url: south.url }, origin: 'config' },
    ]);
    const both = await waitUntil(() => (streams.at(-1)?.length === 2 ? streams.at(-1) : undefined), { what: 'both relays listed' });
    const told = streams.length;

    north.state.streams = { yard: camera(2) };
    const after = await waitUntil(() => (streams.length > told ? streams.at(-1) : undefined), { what: "north's new byte count told" });
    expect(after[0]!.streams[0]!.producers[0]!.bytesReceived).toBe(2);
    // South said the same on every poll since: its streams are the objects first sent, not a new copy.
    expect(after[1]!.streams[0]).toBe(both[1]!.streams[0]);
    expect(monitor.streams()[1]!.streams[0]).toBe(both[1]!.streams[0]);
  });

  it('marks a failing relay unreachable with the reason, drops its streams, and takes it back when it answers', async () => {
    const relay = await fakeRelay();
    cleanups.push(relay.close);
    const relays: RelayInfo[][] = [];
    const streams: RelayStreams[][] = [];
    monitor = createRelayMonitor({ pollMs: 30, recheckMs: 10, onRelays: (l) => relays.push(l), onStreams: (l) => streams.push(l) });
    monitor.sync([{ name: 'north', target: { url: relay.url }, origin: 'config' }]);
    await waitUntil(() => relays.at(-1)?.[0]?.state === 'reachable', { what: 'north reachable' });

    relay.state.status = 502;
    const down = await waitUntil(() => relays.at(-1)?.find((r) => r.state === 'unreachable'), { what: 'north unreachable' });
    expect(down.reason).toBe('HTTP 502: down for maintenance');
    expect(monitor.streams()).toEqual([]);
    await waitUntil(() => streams.at(-1)?.length === 0, { what: 'the streams without north' });

    relay.state.status = 200;
    const back = await waitUntil(() => relays.at(-1)?.find((r) => r.state === 'reachable'), { what: 'north back' });
    expect(back.sinceMs).toBeGreaterThanOrEqual(down.sinceMs);
    expect(back.reason).toBeUndefined();
  });

  it('checks again from the start with a new login, and forgets a removed relay', async () => {
    const relay = await fakeRelay();
    cleanups.push(relay.close);
    const relays: RelayInfo[][] = [];
    monitor = createRelayMonitor({ pollMs: 1_000, onRelays: (l) => relays.push(l), onStreams: () => undefined });
    monitor.sync([{ name: 'north', target: { url: relay.url }, origin: 'config' }]);
    await waitUntil(() => relays.at(-1)?.[0]?.state === 'reachable', { what: 'north reachable' });
    relay.state.auth.length = 0;
    monitor.sync([{ name: 'north', target: { url: relay.url, login: { username: 'u', password: 'p' } }, origin: 'console' }]);
    await waitUntil(() => relays.at(-1)?.[0]?.hasLogin, { what: 'north with its login' });
    await waitUntil(() => relay.state.auth.length >= 2, { what: 'a check with the login' });
    expect(relay.state.auth[0]).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
    expect(relays.at(-1)![0]).toMatchObject({ username: 'u', origin: 'console' });
    expect(JSON.stringify(relays)).not.toContain('"p"');

    monitor.sync([]);
    expect(monitor.list()).toEqual([]);
    expect(monitor.get('north')).toBeUndefined();
  });
});

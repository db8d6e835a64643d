import { describe, expect, it } from 'vitest';
import { sendFileBytes, type Fetch } from './upload-sender';

/** A console that keeps what it is sent, refuses ranges out of order, and can be down for a while. */
function fakeConsole(size: number, options: { downFor?: number; have?: number } = {}) {
  let received = options.have ?? 0;
  let down = options.downFor ?? 0;
  const requests: string[] = [];
  const fetch: Fetch = async (_url, init) => {
    const method = init?.method ?? 'GET';
    if (down > 0) {
      down--;
      requests.push(`${method} down`);
      throw new TypeError('Failed to fetch');
    }
    if (method === 'GET') {
      requests.push('GET');
      return { status: 200, json: async () => ({ received, size }) };
    }
    const range = /bytes (\d+)-(\d+)\/(\d+)/.exec(String((init?.headers as Record<string, string>)['Content-Range']))!;
    requests.push(`PUT ${range[1]}-${range[2]}`);
    if (Number(range[1]) !== received) return { status: 409, json: async () => ({ received }) };
    received = Number(range[2]) + 1;
    return { status: 200, json: async () => ({ received, size }) };
  };
  return { fetch, requests, received: () => received };
}

const file = (size: number) => ({ size, slice: (start: number, end: number) => new Blob([new Uint8Array(end - start)]) });
const noWait = { sleep: async () => undefined };

describe('sending a file to the console', () => {
  it('sends it in ordered ranges', async () => {
    const console = fakeConsole(25);
    const sent: number[] = [];
    expect(
      await sendFileBytes(file(25), { fetch: console.fetch, url: '/t/1', chunkBytes: 10, onSent: (n) => sent.push(n), ...noWait }),
    ).toBe('sent');
    expect(console.requests).toEqual(['GET', 'PUT 0-9', 'PUT 10-19', 'PUT 20-24']);
    expect(sent).toEqual([10, 20, 25]);
  });

  it('goes on from what the console already holds', async () => {
    const console = fakeConsole(25, { have: 20 });
    await sendFileBytes(file(25), { fetch: console.fetch, url: '/t/1', chunkBytes: 10, ...noWait });
    expect(console.requests).toEqual(['GET', 'PUT 20-24']);
  });

  it('waits for a console that is restarting, then asks where to go on', async () => {
    const console = fakeConsole(20, { downFor: 3 });
    expect(await sendFileBytes(file(20), { fetch: console.fetch, url: '/t/1', chunkBytes: 10, ...noWait })).toBe('sent');
    expect(console.requests.slice(0, 4)).toEqual(['GET down', 'GET down', 'GET down', 'GET']);
    expect(console.received()).toBe(20);
  });

  it('gives up after its retries with the last error', async () => {
    const console = fakeConsole(20, { downFor: 100 });
    await expect(sendFileBytes(file(20), { fetch: console.fetch, url: '/t/1', retryDelaysMs: [1, 1], ...noWait })).rejects.toThrow(
      'Failed to fetch',
    );
  });

  it('stops when the console no longer waits for the file', async () => {
    const gone: Fetch = async () => ({ status: 404, json: async () => ({}) });
    expect(await sendFileBytes(file(20), { fetch: gone, url: '/t/1', ...noWait })).toBe('gone');
  });

  it('stops, keeping what was sent, when the user pauses the upload', async () => {
    const console = fakeConsole(30);
    let puts = 0;
    const pausedAfterOne: Fetch = async (url, init) => {
      if (init?.method === 'PUT' && ++puts > 1) return { status: 200, json: async () => ({ paused: true, received: 10 }) };
      return console.fetch(url, init);
    };
    expect(await sendFileBytes(file(30), { fetch: pausedAfterOne, url: '/t/1', chunkBytes: 10, ...noWait })).toBe('paused');
    expect(console.received()).toBe(10);
    const pausedAtStart: Fetch = async () => ({ status: 200, json: async () => ({ paused: true, received: 0 }) });
    expect(await sendFileBytes(file(30), { fetch: pausedAtStart, url: '/t/1', ...noWait })).toBe('paused');
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await sendFileBytes(file(20), { fetch: fakeConsole(20).fetch, url: '/t/1', signal: controller.signal, ...noWait })).toBe(
      'aborted',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { createUploadQueue } from './upload-queue';
import type { Fetch } from './upload-sender';

const file = (size: number) => ({ size, slice: (start: number, end: number) => new Blob([new Uint8Array(end - start)]) });

describe('upload queue', () => {
  it('sends a few files at a time and holds the rest', async () => {
    let inFlight = 0;
    let most = 0;
    const received = new Map<string, number>();
    const fetch: Fetch = async (url, init) => {
      const id = url.split('/').pop()!;
      if (init?.method === 'GET') return { status: 200, json: async () => ({ received: received.get(id) ?? 0 }) };
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      const end = Number(/-(\d+)\//.exec(String((init?.headers as Record<string, string>)['Content-Range']))![1]) + 1;
      received.set(id, end);
      return { status: 200, json: async () => ({ received: end }) };
    };
    const queue = createUploadQueue({ fetch, path: '/console/transfers/', concurrency: 2 });
    queue.add(['a', 'b', 'c', 'd'].map((id) => ({ id, file: file(10) })));
    expect(queue.holding()).toBe(4);
    await expect.poll(() => queue.holding()).toBe(0);
    expect(most).toBe(2);
    expect([...received.values()]).toEqual([10, 10, 10, 10]);
  });

  it('drops a canceled file before it is sent', async () => {
    const urls: string[] = [];
    const fetch: Fetch = async (url, init) => {
      urls.push(url);
      if (init?.method === 'GET') return { status: 200, json: async () => ({ received: 0 }) };
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { status: 200, json: async () => ({ received: 10 }) };
    };
    const queue = createUploadQueue({ fetch, path: '/t/', concurrency: 1 });
    queue.add([{ id: 'keep', file: file(10) }, { id: 'drop', file: file(10) }]);
    queue.drop('drop');
    await expect.poll(() => queue.holding()).toBe(0);
    expect(urls.every((u) => u === '/t/keep')).toBe(true);
  });
});

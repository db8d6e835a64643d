import { describe, expect, it } from 'vitest';
import { createUploadQueue } from './upload-queue';
import type { Fetch } from './upload-sender';

const file = (size: number) => ({ size, slice: (start: number, end: number) => new Blob([new Uint8Array(end - start)]) });

describe('upload queue', () => {
  it('sends a few files at a time and holds the rest', async () => {
    let most = 0;
    const received = new Map<string, number>();
    // A PUT is answered when the test says so: the ones left unanswered are the files in flight.
    const unanswered: Array<() => void> = [];
    const fetch: Fetch = async (url, init) => {
      const id = url.split('/').pop()!;
      if (init?.method === 'GET') return { status: 200, json: async () => ({ received: received.get(id) ?? 0 }) };
      await new Promise<void>((answer) => {
        unanswered.push(answer);
        most = Math.max(most, unanswered.length);
      });
      const end = Number(/-(\d+)\//.exec(String((init?.headers as Record<string, string>)['Content-Range']))![1]) + 1;
      received.set(id, end);
      return { status: 200, json: async () => ({ received: end }) };
    };
    const queue = createUploadQueue({ fetch, path: '/console/transfers/', concurrency: 2 });
    queue.add(['a', 'b', 'c', 'd'].map((id) => ({ id, file: file(10) })));
    expect(queue.holding()).toBe(4);
    // One answer at a time, once as many as the limit allows are in flight (fewer at the end).
    for (let answered = 0; answered < 4; answered++) {
      await expect.poll(() => unanswered.length).toBe(Math.min(2, 4 - answered));
      unanswered.shift()!();
    }
    await expect.poll(() => queue.holding()).toBe(0);
    expect(most).toBe(2);
    expect([...received.values()]).toEqual([10, 10, 10, 10]);
  });

  it('drops a canceled file before it is sent', async () => {
    const urls: string[] = [];
    const fetch: Fetch = async (url, init) => {
      urls.push(url);
      if (init?.method === 'GET') return { status: 200, json: async () => ({ received: 0 }) };
      return { status: 200, json: async () => ({ received: 10 }) };
    };
    const queue = createUploadQueue({ fetch, path: '/t/', concurrency: 1 });
    queue.add([
      { id: 'keep', file: file(10) },
      { id: 'drop', file: file(10) },
    ]);
    queue.drop('drop');
    await expect.poll(() => queue.holding()).toBe(0);
    expect(urls.every((u) => u === '/t/keep')).toBe(true);
  });

  it('keeps the file of an upload paused while being read, and sends the rest once woken', async () => {
    let paused = true;
    let received = 0;
    const fetch: Fetch = async (_url, init) => {
      if (paused) return { status: 200, json: async () => ({ paused: true, received }) };
      if (init?.method === 'GET') return { status: 200, json: async () => ({ received }) };
      received = 10;
      return { status: 200, json: async () => ({ received }) };
    };
    const queue = createUploadQueue({ fetch, path: '/t/' });
    const seen: Array<ReadonlySet<string>> = [];
    queue.subscribe(() => seen.push(queue.held()));
    queue.add([{ id: 'a', file: file(10) }]);
    await expect.poll(() => seen.length).toBeGreaterThanOrEqual(2);
    expect(queue.held().has('a')).toBe(true);
    expect(received).toBe(0);
    paused = false;
    queue.wake('a');
    await expect.poll(() => queue.holding()).toBe(0);
    expect(received).toBe(10);
    expect(queue.held().has('a')).toBe(false);
    // Each change is a new set, so React sees it changed.
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('holds nothing after a reload: a new queue knows no file', () => {
    const queue = createUploadQueue({ fetch: async () => ({ status: 200, json: async () => ({ received: 0 }) }), path: '/t/' });
    expect(queue.held().size).toBe(0);
    queue.wake('unknown');
    expect(queue.holding()).toBe(0);
  });
});

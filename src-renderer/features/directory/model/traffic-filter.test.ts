import { describe, expect, it } from 'vitest';
import type { GraphExchange } from '@shared/contract/graph-traffic';
import { trafficShown } from './traffic-filter';

const exchange = (seq: number, status: number, source: GraphExchange['source']): GraphExchange => ({
  seq,
  at: '2026-01-01T00:00:00Z',
  source,
  method: 'GET',
  url: 'https://graph.microsoft.com/v1.0/me',
  status,
  durationMs: 10,
  requestId: null,
  clientRequestId: 'c',
  errorCode: null,
});

describe('trafficShown', () => {
  const all = [exchange(1, 200, 'directory'), exchange(2, 429, 'calendar'), exchange(3, 0, 'directory'), exchange(4, 302, 'calendar')];
  it.each([
    ['all', [1, 2, 3, 4]],
    ['failed', [2, 3]],
    ['directory', [1, 3]],
    ['calendar', [2, 4]],
  ] as const)('%s keeps %o', (filter, seqs) => {
    expect(trafficShown(all, filter).map((e) => e.seq)).toEqual(seqs);
  });
});

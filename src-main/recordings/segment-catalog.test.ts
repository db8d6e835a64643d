import { describe, expect, it } from 'vitest';
import { kodoFailure } from '../storage/client/kodo-errors';
import type { KodoClient } from '../storage/client/kodo-client';
import { createSegmentCatalog } from './segment-catalog';

/** A client whose listing answers as the service does for `status`. */
const clientAnswering = (status: number) =>
  ({
    listObjects: () => Promise.reject(kodoFailure(status, { error: 'x' })),
  }) as unknown as KodoClient;

describe('segment catalog', () => {
  const place = (status: number) => ({ client: clientAnswering(status), account: 'local', bucket: 'rec', prefix: 'recordings/cam/' });
  const day = { startMs: Date.UTC(2026, 10, 27), endMs: Date.UTC(2026, 10, 28) };

  it('a bucket the recorder has not made yet (before its first upload) lists no segments', async () => {
    await expect(createSegmentCatalog().list(place(631), day)).resolves.toEqual([]);
  });

  it('any other failure of the listing is the caller’s to show', async () => {
    await expect(createSegmentCatalog().list(place(401), day)).rejects.toThrow(/Kodo 401/);
  });
});

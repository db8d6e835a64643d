import { afterEach, describe, expect, it } from 'vitest';
import type { CdnLog, CdnRequestResult, Traffic } from '@shared/contract/cdn';
import type { TestEngine } from '@main/engine/test-engine';
import { getThroughEmulator, put, startStorage } from '../../test-support';

type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

describe('CDN through the console', () => {
  let running: TestEngine | undefined;
  afterEach(async () => running?.stop());
  const call = <T>(method: string, input: unknown) => running!.engine.services.call('cdn', method, input) as Promise<Result<T>>;

  it('refreshes and prefetches with the quota the service reports, and names what it refused', async () => {
    const started = await startStorage();
    running = started.running;
    await put(started.port, 'photos', ['a.jpg']);
    expect(await call('domains', { accountId: 'local' })).toMatchObject({
      ok: true,
      value: expect.arrayContaining([{ domain: 'photos.test', bucket: 'photos' }]),
    });
    expect(await call('quota', { accountId: 'local' })).toEqual({ ok: true, value: {} });

    const refreshed = await call<CdnRequestResult>('refresh', {
      accountId: 'local',
      urls: ['http://photos.test/a.jpg', 'http://elsewhere.example/x.jpg'],
    });
    expect(refreshed).toMatchObject({
      ok: true,
      value: { accepted: 1, invalid: ['http://elsewhere.example/x.jpg'], quota: { urlQuotaDay: 500, urlSurplusDay: 499 } },
    });
    expect(await call('quota', { accountId: 'local' })).toMatchObject({ ok: true, value: { urlSurplusDay: 499, dirQuotaDay: 10 } });

    // This account may not refresh folders: the service's code, in words.
    expect(await call('refresh', { accountId: 'local', dirs: ['http://photos.test/clips/'] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/^CDN 400038: /) },
    });
    // Limits are checked before anything is sent.
    const many = Array.from({ length: 101 }, (_, i) => `http://photos.test/${i}.jpg`);
    expect(await call('refresh', { accountId: 'local', urls: many })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('at most 100 URLs') },
    });

    expect(await call('prefetch', { accountId: 'local', urls: ['http://photos.test/a.jpg'] })).toMatchObject({
      ok: true,
      value: { accepted: 1, invalid: [], quota: { prefetchQuotaDay: 1000 } },
    });
  });

  it('charts flux and bandwidth per domain and lists the day’s access logs', async () => {
    const started = await startStorage();
    running = started.running;
    await put(started.port, 'photos', ['big.bin'], () => Buffer.alloc(100_000, 7));
    for (let i = 0; i < 3; i++) expect((await getThroughEmulator(started.port, 'http://photos.test/big.bin')).status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);

    // A download is logged when the emulator has finished sending it, which may be just after the
    // client has read its last byte: the day's flux counts all three once they are logged.
    const flux = () =>
      call<Traffic>('traffic', {
        accountId: 'local',
        kind: 'flux',
        granularity: 'day',
        startDate: today,
        endDate: today,
        domains: ['photos.test'],
      });
    await expect
      .poll(flux, { timeout: 5_000 })
      .toMatchObject({ ok: true, value: { time: [`${today} 00:00:00`], series: [{ domain: 'photos.test', values: [300_000] }] } });
    const bandwidth = await call<Traffic>('traffic', {
      accountId: 'local',
      kind: 'bandwidth',
      granularity: 'hour',
      startDate: today,
      endDate: today,
      domains: ['photos.test'],
    });
    expect(bandwidth.ok && bandwidth.value.time).toHaveLength(24);
    expect(bandwidth.ok && Math.max(...bandwidth.value.series[0]!.values)).toBe(Math.round((300_000 * 8) / 3600));
    expect(
      await call('traffic', {
        accountId: 'local',
        kind: 'flux',
        granularity: 'day',
        startDate: today,
        endDate: '2000-01-01',
        domains: ['photos.test'],
      }),
    ).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('ends before it starts') },
    });

    const logs = await call<CdnLog[]>('logs', { accountId: 'local', day: today, domains: ['photos.test'] });
    expect(logs.ok && logs.value.length).toBeGreaterThan(0);
    expect(logs.ok && logs.value[0]).toMatchObject({
      domain: 'photos.test',
      name: expect.stringContaining('photos.test'),
      url: expect.stringMatching(/^http/),
    });
  });
});

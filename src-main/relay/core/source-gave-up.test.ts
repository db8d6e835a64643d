import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../platform/logger';
import { SourceRunner } from './source-runner';

describe('a source whose first dial gave up', () => {
  it('no longer says dialing: /api/streams shows it idle with the error', async () => {
    let dials = 0;
    const runner = new SourceRunner({
      url: 'rtsp://127.0.0.1:9/nothing',
      streamName: 'cam',
      handler: {
        dial: async () => {
          dials++;
          throw new Error('connection refused');
        },
      },
      logger: createMemoryLogger(),
      track: { nextId: () => 1 },
      firstDialBudgetMs: 50,
    });
    await expect(runner.ensureDialed()).rejects.toThrow('connection refused');
    expect(dials).toBe(1);
    expect(runner.info()).toEqual({ url: 'rtsp://127.0.0.1:9/nothing', state: 'idle', error: 'connection refused' });
    runner.close();
  });
});

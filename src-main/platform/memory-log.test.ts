import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';
import { MemoryLog } from './memory-log';

describe('MemoryLog', () => {
  it('keeps the logger lines as go2rtc-style JSON lines, redacted, above the level', () => {
    const logs = new MemoryLog();
    const logger = createLogger({
      level: 'info',
      sink: { write: () => undefined },
      tap: (entry) => logs.record(entry),
      clock: () => new Date('2031-01-02T03:04:05.000Z'),
    });
    logger.child('relay').child('rtsp').warn('camera rtsp://admin:hunter2@10.0.0.5/s1 is gone', { stream: 'cam', password: 'hunter2' });
    logger.debug('not kept');
    const lines = logs
      .text()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', time: '2031-01-02T03:04:05.000Z', module: 'relay.rtsp', stream: 'cam' });
    expect(logs.text()).not.toContain('hunter2');
  });

  it('drops the oldest lines past its size, and clears', () => {
    const logs = new MemoryLog(1000);
    for (let i = 0; i < 100; i += 1) logs.record({ time: new Date(0), level: 'info', message: `line ${i}` });
    const kept = logs.text().trim().split('\n');
    expect(logs.text().length).toBeLessThanOrEqual(1000);
    expect(JSON.parse(kept.at(-1)!).message).toBe('line 99');
    expect(JSON.parse(kept[0]!).message).not.toBe('line 0');
    logs.clear();
    expect(logs.text()).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { createMemoryLogger, redactUrlCredentials } from './logger';

describe('logger', () => {
  it('never writes secrets', () => {
    const logger = createMemoryLogger();
    logger.child('relay').info('connecting to rtsp://admin:hunter2@10.0.0.5/live', {
      password: 'hunter2',
      secret_key: 'abc',
      Authorization: 'Basic xyz',
      source: 'rtsp://admin:hunter2@cam/stream',
      port: 554,
    });
    const [line] = logger.lines;
    expect(line).not.toContain('hunter2');
    expect(line).not.toContain('abc');
    expect(line).not.toContain('xyz');
    expect(line).toContain('[relay]');
    expect(line).toContain('rtsp://***@10.0.0.5/live');
    expect(line).toContain('"port":554');
    expect(redactUrlCredentials('http://user@host/x')).toBe('http://***@host/x');
  });

  it('drops lines below its level', () => {
    const logger = createMemoryLogger('warn');
    logger.info('quiet');
    logger.error('loud');
    expect(logger.lines).toHaveLength(1);
  });
});

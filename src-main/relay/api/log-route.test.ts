import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../../engine/test-engine';
import { relayModule } from '../relay-module';

// GET /api/log as go2rtc's log page reads it (application/jsonlines), DELETE clears it.
let running: TestEngine;
beforeAll(async () => {
  running = await startTestEngine({
    modules: [relayModule],
    config:
      'data_dir: ./data\napi:\n  listen: 127.0.0.1:0\nrtsp:\n  listen: 127.0.0.1:0\nwebrtc:\n  listen: 127.0.0.1:0\nlog:\n  level: info\nstreams:\n  broken: nosuchscheme://camera\n',
  });
});
afterAll(() => running.stop());

it('answers the recent log lines and clears them', async () => {
  const response = await fetch(`${running.engine.url}/api/log`);
  expect(response.headers.get('content-type')).toBe('application/jsonlines');
  const lines = (await response.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { level: string; module?: string; message: string; stream?: string });
  expect(lines).toContainEqual(
    expect.objectContaining({ level: 'warn', module: 'relay', message: 'stream source ignored', stream: 'broken' }),
  );
  const cleared = await fetch(`${running.engine.url}/api/log`, { method: 'DELETE' });
  expect(await cleared.text()).toBe('OK');
  expect(await (await fetch(`${running.engine.url}/api/log`)).text()).not.toContain('stream source ignored');
});

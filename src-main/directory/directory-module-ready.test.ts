import { describe, expect, it } from 'vitest';
import { startTestEngine } from '../engine/test-engine';
import { directoryModule } from './directory-module';
import { DEMO_IDS } from './emulator/demo-data';
import { directoryEmulatorModule } from './emulator/directory-emulator-module';

const readyLines = (lines: string[]) => lines.filter((line) => line.includes('directory services ready'));

describe('"directory services ready"', () => {
  it('is not logged when there is no directory to talk to; a warning says why instead', async () => {
    const running = await startTestEngine({
      modules: [directoryEmulatorModule, directoryModule],
      config: 'data_dir: ./data\nlog:\n  level: info\ndirectory:\n  emulator:\n    enabled: false\n',
    });
    try {
      const result = await running.engine.services.call('directoryPolicies', 'get', { policyId: DEMO_IDS.policy });
      expect(result).toMatchObject({ ok: false, error: { code: 'unavailable' } });
      expect(readyLines(running.logLines)).toEqual([]);
      expect(running.logLines.join('\n')).toContain(
        'directory services off: no directory.graph tenant and directory.emulator.enabled is false',
      );
    } finally {
      await running.stop();
    }
  });

  it('is logged once, after the first answer from the directory, not at start', async () => {
    const running = await startTestEngine({
      modules: [directoryEmulatorModule, directoryModule],
      config: 'data_dir: ./data\nlog:\n  level: info\ndirectory:\n  emulator:\n    listen: 127.0.0.1:0\n',
    });
    try {
      expect(readyLines(running.logLines)).toEqual([]);
      for (let i = 0; i < 2; i++) {
        const policy = await running.engine.services.call('directoryPolicies', 'get', { policyId: DEMO_IDS.policy });
        expect(policy).toMatchObject({ ok: true });
      }
      expect(readyLines(running.logLines)).toHaveLength(1);
      expect(readyLines(running.logLines)[0]).toContain('"mode":"emulator"');
    } finally {
      await running.stop();
    }
  });
});

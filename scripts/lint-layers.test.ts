import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Proves the layer rules bite: each forbidden import below must fail lint, and the allowed
// ones must pass (so a rule that forbids everything fails this test too).
const eslint = new ESLint({ cwd: fileURLToPath(new URL('..', import.meta.url)) });

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-globals')
    .map((m) => m.message);
}

describe('layer rules', () => {
  it('refuses Node built-ins, electron, DOM globals and other layers in src-shared', async () => {
    expect(
      await layerErrors('src-shared/contract/x.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n"),
    ).toEqual([expect.stringContaining('no Node built-ins')]);
    expect(await layerErrors('src-shared/contract/x.ts', "import path from 'path';\nexport const x = path;\n")).toHaveLength(1);
    expect(await layerErrors('src-shared/contract/x.ts', "import { app } from 'electron';\nexport const x = app;\n")).toHaveLength(1);
    expect(
      await layerErrors('src-shared/contract/x.ts', "import { x } from '../../src-main/engine/engine';\nexport const y = x;\n"),
    ).toHaveLength(1);
    expect(await layerErrors('src-shared/contract/x.ts', "import { x } from '@main/engine/engine';\nexport const y = x;\n")).toHaveLength(
      1,
    );
    expect(await layerErrors('src-shared/contract/x.ts', "import { App } from '@renderer/app/App';\nexport const y = App;\n")).toHaveLength(
      1,
    );
    expect(await layerErrors('src-shared/contract/x.ts', 'export const title = () => document.title;\n')).toHaveLength(1);
  });

  it('refuses src-main, Node and electron in the renderer', async () => {
    expect(
      await layerErrors(
        'src-renderer/app/x.tsx',
        "import { startEngine } from '../../src-main/engine/engine';\nexport const x = startEngine;\n",
      ),
    ).toEqual([expect.stringContaining('never imports main')]);
    expect(
      await layerErrors(
        'src-renderer/features/live/player/x.tsx',
        "import { startEngine } from '../../../../src-main/engine/engine';\nexport const x = startEngine;\n",
      ),
    ).toHaveLength(1);
    expect(
      await layerErrors(
        'src-renderer/features/live/player/x.tsx',
        "import { startEngine } from '@main/engine/engine';\nexport const x = startEngine;\n",
      ),
    ).toEqual([expect.stringContaining('never imports main')]);
    expect(
      await layerErrors('src-renderer/app/x.tsx', "import { readFile } from 'node:fs/promises';\nexport const x = readFile;\n"),
    ).toHaveLength(1);
    expect(
      await layerErrors('src-renderer/app/x.tsx', "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;\n"),
    ).toHaveLength(1);
  });

  it("refuses the renderer in main, and electron outside main's electron folder", async () => {
    expect(
      await layerErrors('src-main/engine/x.ts', "import { App } from '../../src-renderer/app/App';\nexport const x = App;\n"),
    ).toHaveLength(1);
    expect(await layerErrors('src-main/engine/x.ts', "import { App } from '@renderer/app/App';\nexport const x = App;\n")).toHaveLength(1);
    expect(await layerErrors('src-main/electron/x.ts', "import { App } from '@renderer/app/App';\nexport const x = App;\n")).toHaveLength(
      1,
    );
    expect(await layerErrors('src-main/engine/x.ts', "import { app } from 'electron';\nexport const x = app;\n")).toEqual([
      expect.stringContaining('plain Node'),
    ]);
    expect(await layerErrors('src-main/electron/x.ts', "import { app } from 'electron';\nexport const x = app;\n")).toEqual([]);
  });

  it('lets the preload see only electron and src-shared', async () => {
    const allowed =
      "import { contextBridge } from 'electron';\nimport { IPC_CALL_CHANNEL } from '../../src-shared/contract/wire';\nexport const x = [contextBridge, IPC_CALL_CHANNEL];\n";
    expect(await layerErrors('src-main/preload/x.ts', allowed)).toEqual([]);
    expect(await layerErrors('src-main/preload/x.ts', "import { readFile } from 'node:fs';\nexport const x = readFile;\n")).toHaveLength(1);
    expect(
      await layerErrors('src-main/preload/x.ts', "import { startEngine } from '../engine/engine';\nexport const x = startEngine;\n"),
    ).toHaveLength(1);
    expect(
      await layerErrors(
        'src-main/preload/x.ts',
        "import { IPC_CALL_CHANNEL } from '@shared/contract/wire';\nexport const x = IPC_CALL_CHANNEL;\n",
      ),
    ).toEqual([]);
    expect(
      await layerErrors('src-main/preload/x.ts', "import { startEngine } from '@main/engine/engine';\nexport const x = startEngine;\n"),
    ).toHaveLength(1);
  });

  it('keeps protocols and the API out of the relay core and media, and lets protocols use both', async () => {
    const rtspServer = "import type { RunningRtspServer } from '../protocols/rtsp/rtsp-server';\nexport type X = RunningRtspServer;\n";
    expect(await layerErrors('src-main/relay/core/x.ts', rtspServer)).toEqual([expect.stringContaining('never import a protocol')]);
    expect(
      await layerErrors(
        'src-main/relay/core/x.ts',
        "import { registerProtocols } from '../protocols';\nexport const x = registerProtocols;\n",
      ),
    ).toHaveLength(1);
    expect(
      await layerErrors('src-main/relay/core/x.ts', "import { registerWsApi } from '../api/ws-api';\nexport const x = registerWsApi;\n"),
    ).toHaveLength(1);
    expect(
      await layerErrors(
        'src-main/relay/media/containers/fmp4/x.ts',
        "import { registerHls } from '../../../protocols/hls/hls-protocol';\nexport const x = registerHls;\n",
      ),
    ).toHaveLength(1);
    expect(
      await layerErrors(
        'src-main/relay/media/containers/fmp4/x.ts',
        "import { registerHls } from '@main/relay/protocols/hls/hls-protocol';\nexport const x = registerHls;\n",
      ),
    ).toHaveLength(1);
    expect(
      await layerErrors(
        'src-main/relay/core/x.ts',
        "import { registerRelay } from '@main/relay/relay-module';\nexport const x = registerRelay;\n",
      ),
    ).toHaveLength(1);
    expect(
      await layerErrors(
        'src-main/relay/media/containers/fmp4/x.ts',
        "import type { Track } from '@main/relay/core/track';\nexport type X = Track;\n",
      ),
    ).toEqual([]);
    expect(
      await layerErrors('src-main/relay/media/frames/x.ts', "import type { Track } from '../../core/track';\nexport type X = Track;\n"),
    ).toEqual([]);
    expect(
      await layerErrors(
        'src-main/relay/protocols/hls/x.ts',
        "import type { Track } from '../../core/track';\nimport { attachFrameOutput } from '../../media/frames/attach-output';\nexport const x: [Track?, unknown] = [undefined, attachFrameOutput];\n",
      ),
    ).toEqual([]);
    expect(await layerErrors('src-main/relay/api/x.ts', rtspServer)).toEqual([]);
    // The renderer stays out of these folders too (their rule repeats main's).
    expect(
      await layerErrors('src-main/relay/core/x.ts', "import { App } from '../../../src-renderer/app/App';\nexport const x = App;\n"),
    ).toHaveLength(1);
    expect(await layerErrors('src-main/relay/core/x.ts', "import { App } from '@renderer/app/App';\nexport const x = App;\n")).toHaveLength(
      1,
    );
  });

  it('keeps the storage and directory emulators out of their clients, except in tests', async () => {
    const storageEmulator =
      "import { storageEmulatorModule } from '../../emulator/storage-emulator-module';\nexport const x = storageEmulatorModule;\n";
    expect(await layerErrors('src-main/storage/client/transfers/x.ts', storageEmulator)).toEqual([
      expect.stringContaining('never imports the emulator'),
    ]);
    expect(await layerErrors('src-main/storage/client/transfers/x.test.ts', storageEmulator)).toEqual([]);
    const storageEmulatorByAlias =
      "import { storageEmulatorModule } from '@main/storage/emulator/storage-emulator-module';\nexport const x = storageEmulatorModule;\n";
    expect(await layerErrors('src-main/storage/client/transfers/x.ts', storageEmulatorByAlias)).toEqual([
      expect.stringContaining('never imports the emulator'),
    ]);
    const directoryEmulator = "import { DEMO_IDS } from '../emulator/demo-data';\nexport const x = DEMO_IDS;\n";
    expect(await layerErrors('src-main/directory/services/x.ts', directoryEmulator)).toEqual([
      expect.stringContaining('never import the emulator'),
    ]);
    expect(await layerErrors('src-main/directory/client/x.ts', directoryEmulator)).toHaveLength(1);
    expect(
      await layerErrors(
        'src-main/directory/directory-x.ts',
        "import { DEMO_IDS } from './emulator/demo-data';\nexport const x = DEMO_IDS;\n",
      ),
    ).toHaveLength(1);
    expect(await layerErrors('src-main/directory/services/x.test.ts', directoryEmulator)).toEqual([]);
    expect(
      await layerErrors(
        'src-main/directory/calendar/x.ts',
        "import { DEMO_IDS } from '@main/directory/emulator/demo-data';\nexport const x = DEMO_IDS;\n",
      ),
    ).toHaveLength(1);
  });

  it('accepts plain shared code', async () => {
    expect(await layerErrors('src-shared/contract/x.ts', "import { z } from 'zod';\nexport const s = z.string();\n")).toEqual([]);
  });
});

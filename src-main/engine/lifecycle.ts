import { scheduleStartupRelease } from '../platform/startup-memory';
import { startEngine, type Engine, type EngineOptions } from './engine';

export interface Lifecycle {
  current(): Engine;
  /** Closes everything; resolves when every socket and child is gone. */
  stop(): Promise<void>;
}

/**
 * Keeps one engine running: POST /api/restart closes it and starts a fresh one from the config
 * file (in-process, so it works the same under Node and Electron); POST /api/exit closes it and
 * hands the exit code to `onExit`. A few seconds after each start, the memory that starting took
 * is given back (`platform/startup-memory.ts`).
 */
export async function runEngine(
  options: Omit<EngineOptions, 'onExitRequest' | 'onRestartRequest'>,
  onExit: (code: number) => void,
  onRestarted?: (engine: Engine) => void,
): Promise<Lifecycle> {
  let engine: Engine;
  let busy: Promise<void> = Promise.resolve();
  let cancelRelease = () => {};

  const start = async (): Promise<Engine> => {
    const started = await startEngine({
      ...options,
      onExitRequest: (code) => {
        busy = busy.then(async () => {
          await engine.close();
          onExit(code);
        });
      },
      onRestartRequest: () => {
        busy = busy.then(async () => {
          await engine.close();
          engine = await start();
          onRestarted?.(engine);
        });
      },
    });
    cancelRelease();
    cancelRelease = scheduleStartupRelease();
    return started;
  };

  engine = await start();
  return {
    current: () => engine,
    stop: async () => {
      await busy.catch(() => undefined);
      cancelRelease();
      await engine.close();
    },
  };
}

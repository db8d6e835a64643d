import type { Logger } from '../platform/logger';

/** Cleanups run in reverse order of registration; one failing does not stop the others. */
export interface CleanupStack {
  push(cleanup: () => void | Promise<void>): void;
  runAll(): Promise<void>;
}

export function createCleanupStack(logger: Logger): CleanupStack {
  const stack: Array<() => void | Promise<void>> = [];
  let running: Promise<void> | undefined;
  return {
    push: (cleanup) => void stack.push(cleanup),
    runAll() {
      running ??= (async () => {
        while (stack.length > 0) {
          const cleanup = stack.pop()!;
          try {
            await cleanup();
          } catch (error) {
            logger.error('cleanup failed', { error: (error as Error).message });
          }
        }
      })();
      return running;
    },
  };
}

import { appService } from '../../src-shared/contract/app';
import type { EngineModule } from '../engine/engine-context';

const HEARTBEAT_MS = 5_000;

/** The `app` contract service: version, files, runtime and uptime. */
export const appModule: EngineModule = {
  name: 'app',
  init(ctx) {
    const uptimeSeconds = () => Math.max(0, (Date.now() - ctx.startedAt.getTime()) / 1000);
    const emit = ctx.services.bind(appService, {
      info: async () => ({
        name: 'Relay Console',
        version: ctx.version,
        runtime: ctx.runtime,
        configPath: ctx.config.path,
        dataDir: ctx.settings.dataDir,
        apiUrl: ctx.server.url,
        startedAt: ctx.startedAt.toISOString(),
        uptimeSeconds: uptimeSeconds(),
        platform: `${process.platform}-${process.arch}`,
        nodeVersion: process.versions.node,
      }),
      restart: async () => {
        // Answer first: the socket this call came on closes with the engine.
        setTimeout(() => ctx.requestRestart(), 50);
      },
    });
    const timer = setInterval(() => emit('onHeartbeat', { uptimeSeconds: uptimeSeconds() }), HEARTBEAT_MS);
    timer.unref();
    ctx.onClose(() => clearInterval(timer));
  },
};

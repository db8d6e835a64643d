import { homedir } from 'node:os';
import type { z } from 'zod';
import { removeStaleTempFiles } from '../platform/atomic-write';
import { openConfigStore } from '../platform/config/config-store';
import { unknownKeyWarnings } from '../platform/config/unknown-keys';
import { isLoopbackAddress } from '../platform/http/request-guard';
import { listenFailure } from '../platform/listen';
import { readAppSettings } from '../platform/config/app-settings';
import { defaultConfigPath, type PlatformInfo } from '../platform/config/default-paths';
import { createLogger, type Logger, type LogSink } from '../platform/logger';
import { createRouter } from '../platform/http/router';
import { startHttpServer, type RunningHttpServer } from '../platform/http/http-server';
import { apiCertificate } from '../platform/tls/api-certificate';
import { MemoryLog } from '../platform/memory-log';
import { createServiceHost, type ServiceHost } from '../transport/service-host';
import { createCleanupStack } from './cleanup-stack';
import { createAddressBook, createCapabilityBook, type EngineContext, type EngineModule, type Runtime } from './engine-context';

export interface EngineOptions {
  runtime: Runtime;
  version: string;
  modules: readonly EngineModule[];
  /** The config file; default `relay-console.yaml` in the user's config folder. */
  configPath?: string;
  env?: Record<string, string | undefined>;
  /** Overrides `api.listen` (the `--listen` flag; tests pass port 0). */
  listen?: { host: string; port: number };
  /**
   * The schemas that read the config (modules.ts lists them); keys none of them declares are
   * warned about at start, with the key they probably meant.
   */
  configSchemas?: readonly z.core.$ZodType[];
  logSink?: LogSink;
  onExitRequest?: (code: number) => void;
  onRestartRequest?: () => void;
}

export interface Engine {
  readonly context: EngineContext;
  readonly url: string;
  readonly server: RunningHttpServer;
  readonly services: ServiceHost;
  readonly logger: Logger;
  /** Closes every socket, child process and file the modules opened. Safe to call twice. */
  close(): Promise<void>;
}

/** Builds the engine once: config, logger, API server, then every module in order. */
export async function startEngine(options: EngineOptions): Promise<Engine> {
  const env = options.env ?? process.env;
  const platform: PlatformInfo = { platform: process.platform, env, homedir: homedir() };
  const configPath = options.configPath ?? defaultConfigPath(platform);
  await removeStaleTempFiles(configPath);
  const config = await openConfigStore({
    path: configPath,
    env,
    createIfMissing: true,
    // A write that would stop the next start (a bad api.listen, say) is refused up front.
    validate: (values) => void readAppSettings(values, configPath, platform),
  });
  const settings = readAppSettings(config.effective(), configPath, platform);
  const logs = new MemoryLog();
  const logger = createLogger({ level: settings.logLevel, sink: options.logSink, tap: (entry) => logs.record(entry) });
  for (const warning of unknownKeyWarnings(config.effective(), options.configSchemas ?? [], configPath)) logger.warn(warning);
  const cleanups = createCleanupStack(logger);
  let startedSettle: { resolve: () => void; reject: (error: Error) => void } = { resolve: () => undefined, reject: () => undefined };
  const started = new Promise<void>((resolve, reject) => (startedSettle = { resolve, reject }));
  // Nobody may be waiting when a module fails; the failure is thrown from startEngine anyway.
  started.catch(() => undefined);
  // The server listens before the modules start (the console page first): a request for a
  // route not added yet waits for them instead of a 404.
  const router = createRouter(logger.child('http'), { startingUntil: started });
  const credentials =
    settings.api.username !== undefined && settings.api.username !== ''
      ? { username: settings.api.username, password: settings.api.password ?? '' }
      : undefined;

  const listen = options.listen ?? settings.api;
  const address = `${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${listen.port}`;
  const tlsSettings = settings.api.tls;
  const tls = tlsSettings
    ? {
        host: tlsSettings.host,
        port: tlsSettings.port,
        ...(await apiCertificate(tlsSettings, { dataDir: settings.dataDir, logger: logger.child('api') })),
      }
    : undefined;
  const server = await startHttpServer({
    host: listen.host,
    port: listen.port,
    router,
    logger: logger.child('api'),
    credentials,
    allowedOrigins: settings.api.origins,
    ...(tls ? { tls } : {}),
  }).catch((error: unknown) => {
    const failed =
      tls && (error as { address?: string; port?: number }).port === tls.port && tls.port !== 0 ? `${tls.host}:${tls.port}` : address;
    throw listenFailure(
      error,
      failed,
      failed === address
        ? options.listen
          ? 'start with another --listen host:port'
          : `change api.listen in ${configPath}, or start with --listen host:port`
        : `change api.tls_listen in ${configPath}`,
    );
  });
  if (tls && !isLoopbackAddress(tls.host) && !credentials) {
    logger.warn(
      `the console and the API over https on ${tls.host}:${tls.port} are open to the network without a username and password; set api.username and api.password`,
    );
  }
  if (!isLoopbackAddress(listen.host) && !credentials) {
    logger.warn(
      `the console and the API on ${address} are open to the network without a username and password: anyone who reaches this machine can watch the cameras and change the config; set api.username and api.password`,
    );
  }
  cleanups.push(() => server.close());
  const services = createServiceHost(logger.child('contract'));

  const context: EngineContext = {
    version: options.version,
    runtime: options.runtime,
    startedAt: new Date(),
    config,
    configSchemas: options.configSchemas ?? [],
    // What the server really listens on (--listen wins over api.listen): whether the API is
    // loopback-only decides who may read secrets back.
    settings: { ...settings, api: { ...settings.api, host: listen.host, port: listen.port } },
    logger,
    logs,
    http: router,
    server,
    services,
    addresses: createAddressBook(),
    capabilities: createCapabilityBook(),
    started,
    onClose: (cleanup) => cleanups.push(cleanup),
    requestExit: (code) => (options.onExitRequest ?? (() => undefined))(code),
    requestRestart: () => (options.onRestartRequest ?? (() => undefined))(),
  };

  try {
    for (const module of options.modules) {
      await module.init(context);
      logger.debug('module started', { module: module.name });
    }
  } catch (error) {
    startedSettle.reject(error as Error);
    await cleanups.runAll();
    throw error;
  }
  startedSettle.resolve();

  return {
    context,
    url: server.url,
    server,
    services,
    logger,
    close: () => cleanups.runAll(),
  };
}

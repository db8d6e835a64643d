import { directoryAssignmentsService, directoryPoliciesService, directoryRolesService } from '../../src-shared/contract/directory';
import { ContractFailure } from '../../src-shared/contract/result';
import type { EngineContext, EngineModule } from '../engine/engine-context';
import type { SafeStorageLike } from '../platform/secrets/key-source';
import { directoryPackagesService } from '../../src-shared/contract/directory-packages';
import { directoryPeopleService } from '../../src-shared/contract/directory-people';
import { createGraphClient, type GraphClient, type GraphExchangeInfo, type GraphRequest, type RetryInfo } from './client/graph-client';
import { join } from 'node:path';
import { bindCalendarSync } from './calendar/calendar-sync-service';
import type { CalendarSyncEngine } from './calendar/calendar-sync-engine';
import { isGraphError } from './client/graph-error';
import { DirectoryConfigError, openDirectoryConnection, parseDirectorySection, type DirectoryConnection } from './directory-connection';
import { createAssignmentsService } from './services/assignments-service';
import { graphFailure } from './services/graph-failure';
import { createPoliciesService } from './services/policies-service';
import { createPackagesService } from './services/packages-service';
import { createPeopleService } from './services/people-service';
import { createRolesService } from './services/roles-service';
import { bindGraphTraffic } from './traffic/graph-traffic-service';
import { GraphTrafficLog } from './traffic/graph-traffic-log';

export interface DirectoryModuleOptions {
  /** Opens a real tenant's sign-in page (Electron: `shell.openExternal`); headless logs the URL. */
  openBrowser?: (url: string) => Promise<void>;
  /** Electron's safeStorage, so the sign-in cache key sits in the OS keychain. */
  safeStorage?: SafeStorageLike | null;
  /** Test hook: the emulator's origin when its port was picked at random. */
  emulatorUrl?: string;
}

/**
 * The connection is opened on first use, not at start: the emulator may still be starting and
 * a real tenant may need a sign-in, neither of which should hold up the console. A failed open
 * is retried on the next call.
 */
function lazyDirectoryConnection(ctx: EngineContext, options: DirectoryModuleOptions, onExchange: (info: GraphExchangeInfo) => void): () => Promise<DirectoryConnection> {
  let opening: Promise<DirectoryConnection> | null = null;
  return () => {
    opening ??= openDirectoryConnection({
      section: ctx.config.section('directory'),
      dataDir: ctx.settings.dataDir,
      logger: ctx.logger,
      openBrowser: options.openBrowser,
      safeStorage: options.safeStorage,
      emulatorUrl: options.emulatorUrl,
      onExchange,
    }).catch((error: unknown) => {
      opening = null;
      if (error instanceof DirectoryConfigError) throw new ContractFailure('unavailable', error.message);
      if (isGraphError(error)) throw graphFailure(error);
      throw error;
    });
    return opening;
  };
}

/**
 * The calendar sync's client: the directory's connection (one sign-in, one token cache) with a
 * client of its own, so its status counts only its own retries. Made with the first request, as
 * the sync resumes at start.
 */
function calendarClient(open: () => Promise<DirectoryConnection>, onRetry: (info: RetryInfo) => void, onExchange: (info: GraphExchangeInfo) => void): GraphClient {
  let opened: GraphClient | undefined;
  return {
    get baseUrl() {
      if (!opened) throw new Error('the directory connection is not open yet');
      return opened.baseUrl;
    },
    async request(request) {
      if (!opened) {
        const connection = await open();
        opened = createGraphClient({ baseUrl: connection.client.baseUrl, tokens: connection.tokens, onRetry, onExchange });
      }
      return opened.request(request);
    },
  };
}

/**
 * The client, saying "ready" after its first answer from Graph (or the emulator), not at start:
 * the connection opens on first use, and the emulator may be off or its port taken.
 */
function announceReadyOnce(open: () => Promise<GraphClient>, announce: (baseUrl: string) => void): () => Promise<GraphClient> {
  let announced = false;
  return async () => {
    const client = await open();
    if (announced) return client;
    const announcing: GraphClient = {
      get baseUrl() {
        return client.baseUrl;
      },
      async request<T>(request: GraphRequest) {
        const response = await client.request<T>(request);
        if (!announced) announce(client.baseUrl);
        announced = true;
        return response;
      },
    };
    return announcing;
  };
}

/** Access-package policies, assignments and scoped role members over Microsoft Graph (or the emulator). */
export function createDirectoryModule(options: DirectoryModuleOptions = {}): EngineModule {
  return {
    name: 'directory',
    init(ctx) {
      // A malformed section stops the start with the key named, like every other section.
      const settings = parseDirectorySection(ctx.config.section('directory'));
      const log = ctx.logger.child('directory');
      if (!settings.graph && !settings.emulator.enabled) {
        log.warn('directory services off: no directory.graph tenant and directory.emulator.enabled is false; the directory pages will answer "unavailable"');
      }
      const traffic = new GraphTrafficLog();
      const connection = lazyDirectoryConnection(ctx, options, traffic.recorder('directory'));
      const client = announceReadyOnce(
        async (): Promise<GraphClient> => (await connection()).client,
        (baseUrl) => log.info('directory services ready', { mode: settings.graph ? 'graph' : 'emulator', url: baseUrl }),
      );
      ctx.services.bind(directoryPoliciesService, createPoliciesService(client));
      ctx.services.bind(directoryAssignmentsService, createAssignmentsService(client));
      ctx.services.bind(directoryRolesService, createRolesService(client));
      ctx.services.bind(directoryPackagesService, createPackagesService(client));
      ctx.services.bind(directoryPeopleService, createPeopleService(client));
      bindGraphTraffic(ctx, traffic);
      const sync: CalendarSyncEngine = bindCalendarSync({
        ctx,
        client: calendarClient(connection, (info) => sync.recordRetry(info), traffic.recorder('calendar')),
        databasePath: join(ctx.settings.dataDir, 'directory', 'calendar.sqlite'),
        logger: ctx.logger.child('calendar-sync'),
      });
    },
  };
}

export const directoryModule: EngineModule = createDirectoryModule();

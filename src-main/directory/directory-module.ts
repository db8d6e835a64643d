import { directoryAssignmentsService, directoryPoliciesService, directoryRolesService } from '../../src-shared/contract/directory';
import { ContractFailure } from '../../src-shared/contract/result';
import type { EngineContext, EngineModule } from '../engine/engine-context';
import type { SafeStorageLike } from '../platform/secrets/key-source';
import { directoryPackagesService } from '../../src-shared/contract/directory-packages';
import { directoryPeopleService } from '../../src-shared/contract/directory-people';
import type { GraphClient, GraphRequest } from './client/graph-client';
import { calendarClient } from './calendar/calendar-graph-client';
import { join } from 'node:path';
import { bindCalendarSync, type CalendarSyncBinding } from './calendar/calendar-sync-service';
import { directoryCalendar } from './calendar/calendar-capability';
import { isGraphError } from './client/graph-error';
import { directoryAccountService, type SignInStatus } from '../../src-shared/contract/directory-accounts';
import { createConnectionMethods } from './account/connection-methods';
import { createDirectoryConnections, type ConnectionTarget } from './account/directory-connections';
import { createDirectoryAccount, type DirectoryAccount } from './account/directory-account';
import {
  DirectoryConfigError,
  openDirectoryConnection,
  parseDirectorySection,
  type DirectoryConnection,
  type DirectoryConnectionOptions,
} from './directory-connection';
import { createAssignmentsService } from './services/assignments-service';
import { graphFailure } from './services/graph-failure';
import { createPoliciesService } from './services/policies-service';
import { createPackagesService } from './services/packages-service';
import { createPeopleService } from './services/people-service';
import { createRolesService } from './services/roles-service';
import { clientWithScopes } from './client/consent-client';
import { ROLE_WRITE_SCOPES } from './client/msal-sign-in';
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

interface LazyConnection {
  open(): Promise<DirectoryConnection>;
  /** Forgets the open connection; the next open makes a new one (new providers, no tokens in memory). */
  reset(): void;
}

/**
 * The connection is opened on first use, not at start: the emulator may still be starting and
 * a real tenant may need a sign-in, neither of which should hold up the console. A failed open
 * is retried on the next call.
 */
function lazyDirectoryConnection(
  ctx: EngineContext,
  target: () => Promise<ConnectionTarget>,
  connectionOptions: Omit<DirectoryConnectionOptions, 'section' | 'dataDir' | 'logger' | 'cacheDir'>,
): LazyConnection {
  let opening: Promise<DirectoryConnection> | null = null;
  return {
    open() {
      opening ??= target()
        .then((active) =>
          openDirectoryConnection({
            section: active.section,
            cacheDir: active.cacheDir,
            dataDir: ctx.settings.dataDir,
            logger: ctx.logger,
            ...connectionOptions,
            emulatorUrl: connectionOptions.emulatorUrl ?? ctx.addresses.get('directory-emulator'),
          }),
        )
        .catch((error: unknown) => {
          opening = null;
          if (error instanceof DirectoryConfigError) throw new ContractFailure('unavailable', error.message);
          if (isGraphError(error)) throw graphFailure(error);
          throw error;
        });
      return opening;
    },
    reset() {
      opening = null;
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
    async init(ctx) {
      // A malformed section stops the start with the key named, like every other section.
      const settings = parseDirectorySection(ctx.config.section('directory'));
      const log = ctx.logger.child('directory');
      if (!settings.graph && !settings.emulator.enabled) {
        log.warn(
          'directory services off: no directory.graph tenant and directory.emulator.enabled is false; the directory pages will answer "unavailable"',
        );
      }
      const traffic = new GraphTrafficLog();
      const connections = createDirectoryConnections({
        dir: join(ctx.settings.dataDir, 'directory'),
        configSection: () => ctx.config.section('directory'),
        safeStorage: options.safeStorage,
        logger: log,
      });
      const connection = lazyDirectoryConnection(ctx, () => connections.active(), {
        safeStorage: options.safeStorage,
        emulatorUrl: options.emulatorUrl,
        onExchange: traffic.recorder('directory'),
        openBrowser: async (url) => {
          account.onSignInPage(url);
          if (options.openBrowser) await options.openBrowser(url);
          else log.info(`sign in to Microsoft Graph: open this address in a browser on this machine: ${url}`);
        },
        onDeviceCode: (code) => {
          account.onDeviceCode(code);
          log.info(`sign in to Microsoft Graph: ${code.message}`);
        },
      });
      const account: DirectoryAccount = createDirectoryAccount({
        open: connection.open,
        reset: connection.reset,
        emit: (status) => emitAccount('onStatus', status),
      });
      // One switch at a time; the calendar copy in use closes before the connection changes.
      let switching: Promise<unknown> = Promise.resolve();
      const switchTo = (id: string): Promise<SignInStatus> => {
        const next = switching.then(async () => {
          await connections.target(id);
          await calendar.switchTo(connections.calendarPathOf(id), async () => {
            await connections.use(id);
            connection.reset();
          });
          log.info('directory connection switched', { connection: id });
          return account.switched();
        });
        switching = next.catch(() => undefined);
        return next;
      };
      const connectionMethods = createConnectionMethods({
        connections,
        switchTo,
        configInfo: async () =>
          (
            await openDirectoryConnection({
              section: ctx.config.section('directory'),
              dataDir: ctx.settings.dataDir,
              logger: ctx.logger,
              emulatorUrl: options.emulatorUrl ?? ctx.addresses.get('directory-emulator'),
            })
          ).info,
        tryClientSecret: async (section) => {
          await (await openDirectoryConnection({ section, dataDir: ctx.settings.dataDir, logger: ctx.logger })).tokens.getToken();
        },
      });
      const emitAccount = ctx.services.bind(directoryAccountService, { ...account.service, ...connectionMethods });
      // Every Graph call of the directory pages and the calendar sync waits for a sign-in after a sign-out.
      const guarded = async () => {
        account.guard();
        return connection.open();
      };
      const client = announceReadyOnce(
        async (): Promise<GraphClient> => (await guarded()).client,
        (baseUrl) => log.info('directory services ready', { mode: settings.graph ? 'graph' : 'emulator', url: baseUrl }),
      );
      ctx.services.bind(directoryPoliciesService, createPoliciesService(client));
      ctx.services.bind(directoryAssignmentsService, createAssignmentsService(client));
      ctx.services.bind(
        directoryRolesService,
        createRolesService(client, clientWithScopes(guarded, ROLE_WRITE_SCOPES, traffic.recorder('directory'))),
      );
      ctx.services.bind(directoryPackagesService, createPackagesService(client));
      ctx.services.bind(directoryPeopleService, createPeopleService(client));
      bindGraphTraffic(ctx, traffic);
      const calendar: CalendarSyncBinding = bindCalendarSync({
        ctx,
        client: calendarClient(guarded, (info) => calendar.recordRetry(info), traffic.recorder('calendar')),
        // Each connection keeps its own copy: its delta links and events belong to its tenant.
        databasePath: connections.calendarPathOf(await connections.activeId()),
        logger: ctx.logger.child('calendar-sync'),
      });
      // Lent only when a calendar can be reached: recordings then say why they stay idle.
      if (settings.graph || settings.emulator.enabled) ctx.capabilities.provide(directoryCalendar, calendar.lent);
    },
  };
}

export const directoryModule: EngineModule = createDirectoryModule();

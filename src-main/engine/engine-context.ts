import type { z } from 'zod';
import type { runtimeSchema } from '../../src-shared/contract/app';
import type { ConfigStore } from '../platform/config/config-store';
import type { AppSettings } from '../platform/config/app-settings';
import type { Logger } from '../platform/logger';
import type { MemoryLog } from '../platform/memory-log';
import type { HttpRouter } from '../platform/http/router';
import type { RunningHttpServer } from '../platform/http/http-server';
import type { ServiceHost } from '../transport/service-host';

/** Where the engine runs, as the app contract names it. */
export type Runtime = z.infer<typeof runtimeSchema>;

/**
 * What every engine module is handed at start. Nothing here is global: the engine builds one
 * context per run, so tests can start several engines side by side.
 */
export interface EngineContext {
  readonly version: string;
  readonly runtime: Runtime;
  readonly startedAt: Date;
  readonly config: ConfigStore;
  /** The schemas that read the config (modules.ts): the editor's JSON Schema is made from them. */
  readonly configSchemas: readonly z.core.$ZodType[];
  readonly settings: AppSettings;
  readonly logger: Logger;
  /** The latest log lines (GET /api/log). */
  readonly logs: MemoryLog;
  /** Routes of the API server on `api.listen` (the seed's /api paths, the console page). */
  readonly http: HttpRouter;
  readonly server: RunningHttpServer;
  /** Binds contract services so the renderer reaches them over IPC or WebSocket. */
  readonly services: ServiceHost;
  /** Addresses modules really listen on (a configured port 0 becomes a real one), by service name. */
  readonly addresses: AddressBook;
  /**
   * What one module lends the modules after it, in process (the relay's streams, the storage
   * client's accounts): typed handles, not contract calls, for what no renderer may reach.
   */
  readonly capabilities: CapabilityBook;
  /**
   * Settles when every module has started (rejects when one failed). A module listed early (the
   * console page) answers at once and waits on this only where it needs the others' services.
   */
  readonly started: Promise<void>;
  /** Registers cleanup run at shutdown, in reverse order of registration. */
  onClose(cleanup: () => void | Promise<void>): void;
  /** Asks the app to exit (POST /api/exit) or restart (POST /api/restart). */
  requestExit(code: number): void;
  requestRestart(): void;
}

/** One feature of the engine; the ordered list of modules lives in modules.ts. */
export interface EngineModule {
  readonly name: string;
  init(context: EngineContext): void | Promise<void>;
}

/**
 * Where this run's embedded services answer, published by the module that bound them, so a
 * client module (the storage client of the embedded emulator) reaches the real port.
 */
export interface AddressBook {
  publish(service: string, url: string): void;
  /** The URL published for a service, or undefined when it is not running. */
  get(service: string): string | undefined;
}

export function createAddressBook(): AddressBook {
  const urls = new Map<string, string>();
  return { publish: (service, url) => void urls.set(service, url), get: (service) => urls.get(service) };
}

/**
 * The name and type of something a module lends others (see `EngineContext.capabilities`),
 * declared beside the module that provides it: `export const relayStreams = capability<RelayStreams>('relay.streams')`.
 */
export interface Capability<T> {
  readonly name: string;
  /** Never set: carries T, so `provide` and `get` agree on the type. */
  readonly type?: T;
}

export function capability<T>(name: string): Capability<T> {
  return { name };
}

export interface CapabilityBook {
  /** Offered by the module that owns it, in its init; offering one name twice is a bug. */
  provide<T>(key: Capability<T>, value: T): void;
  /** The value a module listed earlier provided, or undefined when that module is not running. */
  get<T>(key: Capability<T>): T | undefined;
}

export function createCapabilityBook(): CapabilityBook {
  const values = new Map<string, unknown>();
  return {
    provide(key, value) {
      if (values.has(key.name)) throw new Error(`capability ${key.name} provided twice`);
      values.set(key.name, value);
    },
    get: <T>(key: Capability<T>) => values.get(key.name) as T | undefined,
  };
}

import { join } from 'node:path';
import type { ServiceEmitter } from '@shared/contract/define-service';
import { relaysService } from '@shared/contract/relays';
import { ContractFailure } from '@shared/contract/result';
import type { EngineModule } from '@main/engine/engine-context';
import type { SafeStorageLike } from '@main/platform/secrets/key-source';
import { relayStreams } from '@main/relay/relay-capability';
import { createRelayLoginStore, type ConsoleRelay } from './login-store';
import { createRelayMonitor, type RelayMonitor, type WatchedRelay } from './relay-monitor';
import { relayListMethods } from './relay-list-methods';
import { remoteConfigMethods } from './remote-config-methods';
import { remoteStreamMethods } from './remote-stream-methods';
import { readRelaysSection, type ConfiguredRelay } from './relays-config';
import { remoteRelays } from './relays-capability';
import { remoteRtspSource } from './rtsp-source';

export interface RelaysModuleOptions {
  /** Electron's safeStorage, so the key that seals the relays' passwords sits in the OS keychain. */
  safeStorage?: SafeStorageLike | null;
  /** Between two checks of a relay: 5 s, sooner in tests. */
  pollMs?: number;
}

const POLL_MS = 5_000;

/**
 * Remote relays beside the embedded one (the config's `relays:`): their reachability, health
 * and streams polled from their go2rtc API, their streams and config edited through it, and
 * their streams played through the embedded relay as `relay://<relay>/<stream>` sources.
 */
export function createRelaysModule(options: RelaysModuleOptions = {}): EngineModule {
  return {
    name: 'relays',
    async init(ctx) {
      const log = ctx.logger.child('relays');
      const store = createRelayLoginStore({
        dir: join(ctx.settings.dataDir, 'relays'),
        safeStorage: options.safeStorage ?? null,
        logger: log,
      });
      const consoleRelays = await store.load().catch((error: unknown) => {
        log.error(`the relays' saved logins could not be read: ${(error as Error).message}`);
        return new Map<string, ConsoleRelay>();
      });

      // Bound below, once the methods exist; the monitor's first news comes after a check, later.
      const events: { emit?: ServiceEmitter<typeof relaysService> } = {};
      const monitor = createRelayMonitor({
        pollMs: options.pollMs ?? POLL_MS,
        onRelays: (list) => events.emit?.('onRelays', list),
        onStreams: (list) => events.emit?.('onStreams', list),
      });
      ctx.onClose(() => monitor.close());

      let lastProblems = '';
      const configured = (): ConfiguredRelay[] => {
        const read = readRelaysSection(ctx.config.section('relays'));
        const problems = read.problems.join('\n');
        if (problems !== lastProblems) for (const problem of read.problems) log.error(`${problem}; this relay is left out`);
        lastProblems = problems;
        return read.relays;
      };
      const sync = () => monitor.sync(watched(configured(), consoleRelays));
      sync();
      ctx.onClose(ctx.config.onChange(sync));

      ctx.capabilities.provide(remoteRelays, { rtspSource: (relay, stream, signal) => remoteRtspSource(monitor, relay, stream, signal) });

      const targetOf = targetLookup(monitor);
      events.emit = ctx.services.bind(relaysService, {
        ...relayListMethods({ config: ctx.config, monitor, store, consoleRelays, configured, logger: log }),
        ...remoteStreamMethods({ targetOf, refresh: (relay) => monitor.checkNow(relay) }),
        ...remoteConfigMethods({ ctx, targetOf, streams: ctx.capabilities.get(relayStreams)?.streams }),
      });
    },
  };
}

/** The relays to watch: the config's, each with the login its URL carries or the one the console keeps. */
function watched(relays: ConfiguredRelay[], consoleRelays: Map<string, ConsoleRelay>): WatchedRelay[] {
  return relays.map((relay) => {
    const login = relay.login ?? consoleRelays.get(relay.name)?.login;
    return {
      name: relay.name,
      target: { url: relay.url, ...(login ? { login } : {}) },
      origin: consoleRelays.has(relay.name) ? 'console' : 'config',
    };
  });
}

const targetLookup = (monitor: RelayMonitor) => (relay: string) => {
  const found = monitor.get(relay);
  if (!found) throw new ContractFailure('not_found', `there is no relay named ${relay}`);
  return found.target;
};

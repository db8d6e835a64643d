import type { ServiceImpl } from '@shared/contract/define-service';
import type { RelayTest, relaysService } from '@shared/contract/relays';
import { ContractFailure } from '@shared/contract/result';
import type { ConfigStore } from '@main/platform/config/config-store';
import type { Logger } from '@main/platform/logger';
import type { RelayLoginStore, ConsoleRelay } from './login-store';
import type { RelayMonitor } from './relay-monitor';
import { parseRemoteInfo, parseRemoteStreams, relayHealth } from './remote-answers';
import { relayJson, RelayHttpError, type RelayTarget } from './relay-http';
import { persistRelay } from './relays-file';
import { RelayUrlError, splitRelayUrl, type ConfiguredRelay, type RelayLogin } from './relays-config';

type ListMethod = 'list' | 'test' | 'add' | 'edit' | 'remove' | 'streams';

export interface RelayListDeps {
  config: ConfigStore;
  monitor: RelayMonitor;
  store: RelayLoginStore;
  /** The relays the console added or edited, with their logins (kept in step with the store). */
  consoleRelays: Map<string, ConsoleRelay>;
  /** The relays of the config's `relays:` as the file says now. */
  configured(): ConfiguredRelay[];
  logger: Logger;
}

/** Asks a relay's `/api` and `/api/streams`: its health, or why it cannot be used. */
async function testRelay(target: RelayTarget): Promise<RelayTest> {
  try {
    const [info, streams] = await Promise.all([relayJson(target, '/api'), relayJson(target, '/api/streams')]);
    return { ok: true, health: relayHealth(parseRemoteInfo(info), parseRemoteStreams(streams)) };
  } catch (error) {
    return { ok: false, error: error instanceof RelayHttpError ? error.reason : (error as Error).message };
  }
}

const split = (url: string) => {
  try {
    return splitRelayUrl(url);
  } catch (error) {
    if (error instanceof RelayUrlError) throw new ContractFailure('invalid_input', error.message);
    throw error;
  }
};

/**
 * Adding, testing, renaming and removing relays. What the console adds lands in the config's
 * `relays:` (comments kept, atomically, through the config store) as an address without its
 * login; the login goes to the sealed store. The file stays the user's: a relay written there by
 * hand keeps the login its URL carries.
 */
export function relayListMethods(deps: RelayListDeps): Pick<ServiceImpl<typeof relaysService>, ListMethod> {
  const { config, monitor, store, consoleRelays, logger } = deps;
  const find = (name: string) => deps.configured().find((relay) => relay.name.toLowerCase() === name.toLowerCase());
  const loginOf = (relay: ConfiguredRelay): RelayLogin | undefined => relay.login ?? consoleRelays.get(relay.name)?.login;
  const remember = async (name: string, login: RelayLogin | undefined) => {
    await store.save(name, login);
    consoleRelays.set(name, login ? { login } : {});
  };

  return {
    list: async () => monitor.list(),
    streams: async () => monitor.streams(),
    test: async (input) => {
      if ('name' in input) {
        const relay = find(input.name);
        if (!relay) throw new ContractFailure('not_found', `there is no relay named ${input.name}`);
        const login = loginOf(relay);
        return testRelay({ url: relay.url, ...(login ? { login } : {}) });
      }
      const parts = split(input.url);
      const login = input.login ?? parts.login;
      return testRelay({ url: parts.url, ...(login ? { login } : {}) });
    },
    add: async ({ name, url, login }) => {
      if (find(name)) throw new ContractFailure('conflict', `a relay named ${name} exists already`);
      const parts = split(url);
      const withLogin = login ?? parts.login;
      const tested = await testRelay({ url: parts.url, ...(withLogin ? { login: withLogin } : {}) });
      if (!tested.ok) throw new ContractFailure('unavailable', `relay ${name} was not added: ${tested.error}`);
      await remember(name, withLogin);
      await persistRelay(config, name, parts.url);
      logger.info('relay added', { relay: name, url: parts.url, login: withLogin ? withLogin.username : undefined });
    },
    edit: async ({ name, newName, url, login }) => {
      const relay = find(name);
      if (!relay) throw new ContractFailure('not_found', `there is no relay named ${name}`);
      const target = newName ?? relay.name;
      if (target.toLowerCase() !== relay.name.toLowerCase() && find(target)) {
        throw new ContractFailure('conflict', `a relay named ${target} exists already: choose another name, or remove that relay first`);
      }
      const parts = url !== undefined ? split(url) : { url: relay.url };
      // null: no login any more; absent: the login typed into the new address, else the one kept.
      const nextLogin = login === null ? undefined : (login ?? ('login' in parts ? parts.login : undefined) ?? loginOf(relay));
      await remember(target, nextLogin);
      if (target !== relay.name) {
        await store.remove(relay.name);
        consoleRelays.delete(relay.name);
      }
      await persistRelay(config, target, parts.url, relay.name);
      logger.info('relay changed', { relay: target, url: parts.url, ...(target !== relay.name ? { was: relay.name } : {}) });
    },
    remove: async ({ name }) => {
      const relay = find(name);
      if (!relay) throw new ContractFailure('not_found', `there is no relay named ${name}`);
      await persistRelay(config, relay.name, undefined);
      await store.remove(relay.name);
      consoleRelays.delete(relay.name);
      logger.info('relay removed', { relay: relay.name });
    },
  };
}

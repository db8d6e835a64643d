import type { RelayHealth, RelayInfo, RelayStreams } from '@shared/contract/relays';
import { isSuspect, nextReachability, startChecking, type Reachability } from './reachability';
import { parseRemoteInfo, parseRemoteStreams, relayHealth } from './remote-answers';
import { relayJson, relayRequest, RelayHttpError, type RelayTarget } from './relay-http';
import { keepStreams, mergeRelayStreams, streamsFingerprint, type KeptStreams } from './relay-streams';

/** One relay the monitor watches, as the module knows it from the config and the login store. */
export interface WatchedRelay {
  name: string;
  target: RelayTarget;
  origin: RelayInfo['origin'];
}

export interface MonitorOptions {
  /** Between two checks of a relay (5 s by default; tests ask sooner). */
  pollMs: number;
  /** A reachable relay whose last check failed is asked again after this. */
  recheckMs?: number;
  onRelays(list: RelayInfo[]): void;
  onStreams(list: RelayStreams[]): void;
  now?: () => number;
}

interface Entry extends WatchedRelay {
  reach: Reachability;
  health?: RelayHealth;
  /** Its last stream list; the same object while its answers are the same. */
  kept?: KeptStreams;
  configEditable?: boolean;
  timer?: NodeJS.Timeout;
  checking?: AbortController;
  /** Bumped when the relay's address or login changes: an answer to an older check is dropped. */
  generation: number;
}

export interface RelayMonitor {
  /** Takes the relays the config and the console now name: new ones checked at once, changed ones again. */
  sync(relays: readonly WatchedRelay[]): void;
  list(): RelayInfo[];
  streams(): RelayStreams[];
  get(name: string): (WatchedRelay & { health?: RelayHealth; state: RelayInfo['state']; reason?: string }) | undefined;
  /** Checks a relay now (after a change through its API) rather than at its next round. */
  checkNow(name: string): Promise<void>;
  close(): void;
}

const EMIT_SETTLE_MS = 50;
const sameTarget = (a: RelayTarget, b: RelayTarget) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Polls each remote relay's `/api` and `/api/streams`: its reachability (see reachability.ts),
 * its health and its streams. Tells the console when what it shows changed (`onRelays` for
 * states and health, `onStreams` for the lists), a few times a second at most and never for
 * an answer equal to the last.
 */
export function createRelayMonitor(options: MonitorOptions): RelayMonitor {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let order: string[] = [];
  let closed = false;
  let lastRelays = '';
  let lastStreams = '';
  let emitTimer: NodeJS.Timeout | undefined;
  let versions = 0;
  const nextVersion = () => ++versions;

  const infoOf = (entry: Entry): RelayInfo => ({
    name: entry.name,
    url: entry.target.url,
    hasLogin: Boolean(entry.target.login),
    ...(entry.target.login ? { username: entry.target.login.username } : {}),
    origin: entry.origin,
    state: entry.reach.state,
    ...(entry.reach.reason ? { reason: entry.reach.reason } : {}),
    sinceMs: entry.reach.sinceMs,
    ...(entry.reach.checkedMs !== undefined ? { checkedMs: entry.reach.checkedMs } : {}),
    ...(entry.health ? { health: entry.health } : {}),
    ...(entry.configEditable !== undefined ? { configEditable: entry.configEditable } : {}),
  });
  const list = () => order.flatMap((name) => (entries.has(name) ? [infoOf(entries.get(name)!)] : []));
  const views = () =>
    order.flatMap((name) => {
      const entry = entries.get(name);
      return entry ? [{ name, state: entry.reach.state, ...(entry.kept ? { kept: entry.kept } : {}) }] : [];
    });
  const streams = () => mergeRelayStreams(views());

  /** Sends what changed since the last event, once the answers of one moment have settled. */
  const changed = () => {
    if (closed) return;
    emitTimer ??= setTimeout(() => {
      emitTimer = undefined;
      // checkedMs moves on every poll: it alone is no news.
      const relays = list();
      const relaysKey = JSON.stringify(relays.map(({ checkedMs: _checked, ...rest }) => rest));
      if (relaysKey !== lastRelays) {
        lastRelays = relaysKey;
        options.onRelays(relays);
      }
      // Merged and sent only when a relay's list changed, came or went, never for a poll that said the same.
      const known = views();
      const streamsKey = streamsFingerprint(known);
      if (streamsKey !== lastStreams) {
        lastStreams = streamsKey;
        options.onStreams(mergeRelayStreams(known));
      }
    }, EMIT_SETTLE_MS);
  };

  async function check(entry: Entry): Promise<void> {
    const generation = entry.generation;
    entry.checking?.abort();
    const controller = new AbortController();
    entry.checking = controller;
    const wasReachable = entry.reach.state === 'reachable';
    try {
      const [info, list] = await Promise.all([
        relayJson(entry.target, '/api', { signal: controller.signal }),
        relayJson(entry.target, '/api/streams', { signal: controller.signal }),
      ]);
      const remote = parseRemoteInfo(info);
      const remoteStreams = parseRemoteStreams(list);
      if (generation !== entry.generation || closed) return;
      entry.reach = nextReachability(entry.reach, { ok: true, atMs: now() });
      entry.health = relayHealth(remote, remoteStreams);
      entry.kept = keepStreams(entry.kept, remoteStreams, nextVersion);
      if (!wasReachable) entry.configEditable = await servesConfig(entry.target, controller.signal);
    } catch (error) {
      if (generation !== entry.generation || closed || controller.signal.aborted) return;
      const reason = error instanceof RelayHttpError ? error.reason : (error as Error).message;
      entry.reach = nextReachability(entry.reach, { ok: false, reason, atMs: now() });
      if (entry.reach.state === 'unreachable') entry.kept = undefined;
    } finally {
      if (entry.checking === controller) entry.checking = undefined;
    }
    changed();
  }

  function schedule(entry: Entry, delayMs: number): void {
    clearTimeout(entry.timer);
    if (closed) return;
    entry.timer = setTimeout(() => {
      void check(entry).finally(() => {
        if (entries.get(entry.name) === entry) schedule(entry, isSuspect(entry.reach) ? (options.recheckMs ?? 1_000) : options.pollMs);
      });
    }, delayMs);
    entry.timer.unref?.();
  }

  const stop = (entry: Entry) => {
    clearTimeout(entry.timer);
    entry.checking?.abort();
    entry.generation++;
  };

  return {
    sync(relays) {
      const wanted = new Map(relays.map((relay) => [relay.name, relay]));
      for (const [name, entry] of entries) {
        if (wanted.has(name)) continue;
        stop(entry);
        entries.delete(name);
      }
      for (const relay of relays) {
        const entry = entries.get(relay.name);
        if (entry && sameTarget(entry.target, relay.target)) {
          entry.origin = relay.origin;
          continue;
        }
        if (entry) stop(entry);
        const fresh: Entry = { ...relay, reach: startChecking(now()), generation: (entry?.generation ?? 0) + 1 };
        entries.set(relay.name, fresh);
        schedule(fresh, 0);
      }
      order = relays.map((relay) => relay.name);
      changed();
    },
    list,
    streams,
    get(name) {
      const entry = entries.get(name);
      if (!entry) return undefined;
      const { target, origin, health, reach } = entry;
      return { name, target, origin, health, state: reach.state, reason: reach.reason };
    },
    async checkNow(name) {
      const entry = entries.get(name);
      if (entry) await check(entry);
    },
    close() {
      closed = true;
      clearTimeout(emitTimer);
      for (const entry of entries.values()) stop(entry);
      entries.clear();
    },
  };
}

/** Whether the relay serves its config at `/api/config` (go2rtc without a config file, a proxy in front: not). */
async function servesConfig(target: RelayTarget, signal: AbortSignal): Promise<boolean> {
  try {
    const answer = await relayRequest(target, '/api/config', { signal, maxBytes: 1024 * 1024 });
    return answer.status === 200;
  } catch {
    return false;
  }
}

import type { ServiceImpl } from '@shared/contract/define-service';
import type { relaysService } from '@shared/contract/relays';
import { ContractFailure } from '@shared/contract/result';
import { MaskedLoginError, restoreSavedLogins } from '@main/relay/saved-logins';
import { expectOk, remoteFailure } from './remote-failure';
import { probedMedias } from './remote-answers';
import { probeThroughMse } from './remote-probe';
import { relayRequest, type RelayTarget } from './relay-http';

type StreamMethod = 'addStream' | 'editStream' | 'deleteStream' | 'probeSource';

export interface RemoteStreamDeps {
  /** The relay's address and login; not_found for a relay nobody configured. */
  targetOf(relay: string): RelayTarget;
  /** Asks the relay again at once, so the console sees its change without waiting for the next round. */
  refresh(relay: string): Promise<void>;
}

/** A probe dials the source, which may take a camera a while. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * Stream editing on a remote relay through its API, as go2rtc's own web UI does it: `PUT
 * /api/streams?name=&src=` with each source (which also replaces a stream's sources), `DELETE
 * /api/streams?src=<name>`; a rename is a PUT of the new name and a DELETE of the old. Sources
 * sent back as shown (login masked) keep the login the relay has, when it shows it to this
 * console (its own login, or loopback); otherwise they must be typed again.
 */
export function remoteStreamMethods(deps: RemoteStreamDeps): Pick<ServiceImpl<typeof relaysService>, StreamMethod> {
  const call = async <T>(relay: string, work: (target: RelayTarget) => Promise<T>): Promise<T> => {
    const target = deps.targetOf(relay);
    try {
      return await work(target);
    } catch (error) {
      throw remoteFailure(relay, error);
    }
  };
  /** The stream's sources as the relay keeps them, or undefined when it has no such stream. */
  const savedSources = async (relay: string, target: RelayTarget, name: string): Promise<string[] | undefined> => {
    const answer = await relayRequest(target, '/api/streams', { query: [['src', name]] });
    if (answer.status === 404) return undefined;
    expectOk(relay, answer);
    try {
      const value = JSON.parse(answer.text) as { producers?: Array<{ url?: unknown }> | null };
      return (value.producers ?? []).flatMap((p) => (typeof p.url === 'string' ? [p.url] : []));
    } catch {
      return [];
    }
  };
  const put = async (relay: string, target: RelayTarget, name: string, sources: string[]) => {
    const query: Array<[string, string]> = [['name', name], ...sources.map((src): [string, string] => ['src', src])];
    expectOk(relay, await relayRequest(target, '/api/streams', { method: 'PUT', query }));
  };
  const restore = (sources: string[], saved: string[]) => {
    try {
      return restoreSavedLogins(sources, saved);
    } catch (error) {
      if (error instanceof MaskedLoginError) throw new ContractFailure('invalid_input', error.message);
      throw error;
    }
  };

  return {
    addStream: ({ relay, name, sources }) =>
      call(relay, async (target) => {
        if (await savedSources(relay, target, name))
          throw new ContractFailure('conflict', `relay ${relay} has a stream named ${name} already`);
        await put(relay, target, name, restore(sources, []));
        await deps.refresh(relay);
      }),
    editStream: ({ relay, name, newName, sources }) =>
      call(relay, async (target) => {
        const saved = await savedSources(relay, target, name);
        if (!saved) throw new ContractFailure('not_found', `relay ${relay} has no stream named ${name}`);
        const next = restore(sources, saved);
        const renamed = newName !== undefined && newName !== name;
        if (renamed && (await savedSources(relay, target, newName))) {
          throw new ContractFailure('conflict', `relay ${relay} has a stream named ${newName} already: choose another name`);
        }
        await put(relay, target, renamed ? newName : name, next);
        if (renamed) expectOk(relay, await relayRequest(target, '/api/streams', { method: 'DELETE', query: [['src', name]] }));
        await deps.refresh(relay);
      }),
    deleteStream: ({ relay, name }) =>
      call(relay, async (target) => {
        if (!(await savedSources(relay, target, name)))
          throw new ContractFailure('not_found', `relay ${relay} has no stream named ${name}`);
        expectOk(relay, await relayRequest(target, '/api/streams', { method: 'DELETE', query: [['src', name]] }));
        await deps.refresh(relay);
      }),
    probeSource: ({ relay, source }) =>
      call(relay, async (target) => {
        // A stream of the relay is probed by name (go2rtc's probe: its producers' medias);
        // a URL through the WebSocket API, the one place both take a URL without saving it.
        if (/^[a-z][a-z0-9+.-]*:/i.test(source)) return probeThroughMse(target, source);
        const answer = await relayRequest(target, '/api/streams', {
          query: [
            ['src', source],
            ['video', 'all'],
            ['audio', 'all'],
          ],
          timeoutMs: PROBE_TIMEOUT_MS,
        });
        if (answer.status === 404) return { medias: [], error: `relay ${relay} has no stream named ${source}` };
        expectOk(relay, answer);
        try {
          return probedMedias(JSON.parse(answer.text));
        } catch {
          return { medias: [], error: `relay ${relay} answered its probe with something else than JSON` };
        }
      }),
  };
}
